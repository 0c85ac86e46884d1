"""Does anything about a player's game go with winning? Win rates by seat, bot, opening and holdings.

Every factor is a property of one player in one replayed game (games with standings); each row
of the result pools the players sharing a value of a factor, per title and across titles, with
its sample size and a 95% Wilson interval, because a handful of games proves little and the
table must say so. Players a factor says nothing about get ``none`` (no private, no par), so
each factor's rows add up to the players in the scope (``private`` counts a player once per
private held); only ``first_permanent`` skips games where no permanent train was bought, and
``bot`` seats nobody but bots played.

Games people played and games bots played (``railledger simulate``, source ``selfplay``) answer
different questions, so they are kept apart unless a caller mixes them (:data:`GAME_KINDS`).
"""

from __future__ import annotations

import polars as pl

from analytics.frames import train_type
from analytics.interval import wilson_interval
from analytics.scope import Scope
from records import Archive
from replay.titles import title_named

FACTORS = ("seat", "bot", "private", "presidencies", "first_par", "first_permanent")
"""Factors in the order they are reported."""

SELFPLAY = "selfplay"
"""The source of games bots played."""

GAME_KINDS = {"real": "games people played", "selfplay": "games bots played", "all": "both, mixed"}
"""Which games a table is made of: every source but selfplay, selfplay only, or all."""

POOLED = "all titles"
"""The scope of rows that pool every title."""


def winner_correlations(archive: Archive, games: Scope | None = None, kind: str = "real") -> pl.DataFrame:
    """[scope, factor, value, games, wins, win_rate, mean_rank, ci_low, ci_high] over the games of
    ``games`` (:func:`analytics.scope.counted_games`; every replayed game without one) of one
    ``kind`` (:data:`GAME_KINDS`: people's, bots', or both).

    ``scope`` is a title or ``all titles``; ``games`` is the sample size (players of that value),
    ``wins`` how many of them won (ties for first all win), ``ci_low``/``ci_high`` the 95% Wilson
    interval of ``win_rate``.
    """
    if kind not in GAME_KINDS:
        raise ValueError(f"games are one of {', '.join(GAME_KINDS)}, not {kind!r}")
    players = _players(archive, kind)
    if games is not None:
        players = players.filter(pl.col("game_key").is_in(sorted(games.keys)))
    factors = pl.concat([
        _seat(players), _bots(archive, players), _privates(archive, players), _presidencies(archive, players),
        _first_par(archive, players), _first_permanent(archive, players),
    ])
    rows = players.join(factors, on=["game_key", "seat"])
    summary = pl.concat([
        _summarise(rows.with_columns(scope=pl.col("title"))),
        _summarise(rows.with_columns(scope=pl.lit(POOLED))),
    ])
    bounds = [wilson_interval(w, n) for w, n in zip(summary["wins"], summary["games"])]
    return (
        summary.with_columns(
            ci_low=pl.Series([low for low, _ in bounds], dtype=pl.Float64),
            ci_high=pl.Series([high for _, high in bounds], dtype=pl.Float64),
        )
        .sort(
            pl.col("scope") == POOLED, "scope", pl.col("factor").replace_strict(FACTORS, list(range(len(FACTORS)))),
            pl.col("value").cast(pl.Int64, strict=False), "value", nulls_last=True,
        )
    )


def _summarise(rows: pl.DataFrame) -> pl.DataFrame:
    """Games, wins, win rate and mean rank per scope, factor and value."""
    return rows.group_by("scope", "factor", "value").agg(
        games=pl.len().cast(pl.Int64),
        wins=pl.col("winner").sum().cast(pl.Int64),
        win_rate=pl.col("winner").mean(),
        mean_rank=pl.col("rank").mean(),
    )


def _players(archive: Archive, games: str) -> pl.DataFrame:
    """[game_key, title, seat, external_id, rank, winner] of every player of a game with standings
    among the games of that kind."""
    standings = archive.table("standings").select(
        "game_key", pl.col("seat").cast(pl.Int64), pl.col("rank").cast(pl.Int64), "winner")
    seats = archive.table("players").select("game_key", pl.col("seat").cast(pl.Int64), "external_id")
    titles = archive.table("games").select(game_key="key", title="title", source="source")
    if games != "all":
        titles = titles.filter((pl.col("source") == SELFPLAY) == (games == "selfplay"))
    return standings.join(seats, on=["game_key", "seat"]).join(titles.drop("source"), on="game_key")


def _factor(frame: pl.DataFrame, name: str, value: pl.Expr) -> pl.DataFrame:
    return frame.select("game_key", "seat", factor=pl.lit(name), value=value.cast(pl.Utf8))


def _seat(players: pl.DataFrame) -> pl.DataFrame:
    return _factor(players, "seat", pl.col("seat"))


def _bots(archive: Archive, players: pl.DataFrame) -> pl.DataFrame:
    """The bot that played each seat a bot played."""
    bots = archive.table("seat_bots").select("game_key", pl.col("seat").cast(pl.Int64), "bot")
    return _factor(players.join(bots, on=["game_key", "seat"]), "bot", pl.col("bot"))


def _by_player(archive: Archive, players: pl.DataFrame, kind: str) -> pl.DataFrame:
    """Events of ``kind`` whose detail is a player id, with that player's seat, in game order."""
    return (
        archive.table("events")
        .filter(pl.col("kind") == kind)
        .join(players.select("game_key", "seat", detail="external_id"), on=["game_key", "detail"])
        .sort("game_key", "ordinal")
    )


def _privates(archive: Archive, players: pl.DataFrame) -> pl.DataFrame:
    """The private(s) each player bought in the opening; one row per private."""
    bought = _by_player(archive, players, "private").select("game_key", "seat", "subject")
    joined = players.join(bought, on=["game_key", "seat"], how="left")
    return _factor(joined, "private", pl.col("subject").fill_null("none"))


def _presidencies(archive: Archive, players: pl.DataFrame) -> pl.DataFrame:
    """How many companies each player presides over after the game's last action."""
    companies = archive.table("company_states")
    last = companies.filter(pl.col("seq") == pl.col("seq").max().over("game_key"))
    counts = last.group_by("game_key", seat=pl.col("president").cast(pl.Int64)).agg(n=pl.len())
    joined = players.join(counts, on=["game_key", "seat"], how="left")
    return _factor(joined, "presidencies", pl.col("n").fill_null(0))


def _first_par(archive: Archive, players: pl.DataFrame) -> pl.DataFrame:
    """The par price of the first company each player parred."""
    first = _by_player(archive, players, "par").group_by("game_key", "seat", maintain_order=True).first()
    joined = players.join(first.select("game_key", "seat", "amount"), on=["game_key", "seat"], how="left")
    return _factor(joined, "first_par", pl.col("amount").cast(pl.Utf8).fill_null("none"))


def _first_permanent(archive: Archive, players: pl.DataFrame) -> pl.DataFrame:
    """yes/no: the player presided over the company that bought the game's first permanent train.

    Games where no permanent train was bought have no rows: the factor does not apply.
    """
    trains = (
        archive.table("events")
        .filter(pl.col("kind") == "train")
        .join(players.select("game_key", "title").unique(), on="game_key")
        .with_columns(train_type=train_type(pl.col("subject")))
    )
    first = (
        trains.join(_permanent_types(trains["title"].unique().to_list()), on=["title", "train_type"])
        .sort("game_key", "ordinal")
        .group_by("game_key", maintain_order=True)
        .first()
        .select("game_key", "seq", company=pl.col("detail").str.split(" from ").list.first())
    )
    presidents = first.join(archive.table("company_states"), on=["game_key", "seq", "company"]).select(
        "game_key", president=pl.col("president").cast(pl.Int64))
    joined = players.join(presidents, on="game_key")
    value = pl.when(pl.col("seat") == pl.col("president")).then(pl.lit("yes")).otherwise(pl.lit("no"))
    return _factor(joined, "first_permanent", value)


def _permanent_types(titles: list[str]) -> pl.DataFrame:
    """[title, train_type] of every permanent train type of these titles, from the title data."""
    pairs = [(title, train.name) for title in titles for train in title_named(title).trains if train.permanent]
    return pl.DataFrame(pairs, schema={"title": pl.Utf8, "train_type": pl.Utf8}, orient="row")
