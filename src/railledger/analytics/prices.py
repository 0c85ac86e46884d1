"""Share prices and net worth over one game, per round end and per action, for charts.

Round-end paths compare games at a glance (one point per SR or OR); per-action paths show what
happened inside a round. Seats are joined to the players table so charts can name players.
``game`` is a full archive key (``games.key``, e.g. ``18xx.games/14375``).
"""

from __future__ import annotations

import polars as pl

from railledger.analytics.frames import game_rows
from railledger.records import Archive


def share_price_paths(archive: Archive, game: str) -> pl.DataFrame:
    """[company, round_index, round, price] at each round end, from the company's par on."""
    return (
        game_rows(archive, "round_company_prices", game)
        .filter(pl.col("price").is_not_null())
        .select("company", pl.col("round_index").cast(pl.Int64), "round", pl.col("price").cast(pl.Int64))
        .sort("company", "round_index")
    )


def net_worth_paths(archive: Archive, game: str) -> pl.DataFrame:
    """[seat, player, round_index, round, net_worth] at each round end."""
    return (
        game_rows(archive, "round_player_values", game)
        .with_columns(pl.col("seat").cast(pl.Int64))
        .join(_names(game_rows(archive, "players", game)), on="seat")
        .select("seat", "player", pl.col("round_index").cast(pl.Int64), "round", pl.col("net_worth").cast(pl.Int64))
        .sort("seat", "round_index")
    )


def share_prices_by_step(archive: Archive, game: str) -> pl.DataFrame:
    """[seq, company, price] after every action, for companies that have a price."""
    return prices_by_step(game_rows(archive, "company_states", game))


def prices_by_step(company_states: pl.DataFrame) -> pl.DataFrame:
    """:func:`share_prices_by_step` from one game's company_states rows already read."""
    return (
        company_states.filter(pl.col("price").is_not_null())
        .select(pl.col("seq").cast(pl.Int64), "company", pl.col("price").cast(pl.Int64))
        .sort("company", "seq")
    )


def net_worth_by_step(archive: Archive, game: str) -> pl.DataFrame:
    """[seq, seat, player, net_worth] after every action."""
    return worth_by_step(game_rows(archive, "player_states", game), game_rows(archive, "players", game))


def worth_by_step(player_states: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """:func:`net_worth_by_step` from one game's player_states and players rows already read."""
    return (
        player_states.with_columns(pl.col("seat").cast(pl.Int64))
        .join(_names(players), on="seat")
        .select(pl.col("seq").cast(pl.Int64), "seat", "player", pl.col("net_worth").cast(pl.Int64))
        .sort("seat", "seq")
    )


def _names(players: pl.DataFrame) -> pl.DataFrame:
    """[seat, player] of one game's players rows."""
    return players.select(pl.col("seat").cast(pl.Int64), player=pl.col("name"))
