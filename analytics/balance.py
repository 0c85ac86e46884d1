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
    players = _players(archive, kind, games)
    events = _player_events(archive, players)
    last = archive.last_steps(players["game_key"].unique().to_list())
    first_permanent = _first_permanent_purchases(events, players)
    presidents = _presidents(archive, [last, first_permanent.select("game_key", "seq")])
    factors = pl.concat([
        _seat(players), _bots(archive, players), _privates(events, players),
        _presidencies(presidents.join(last, on=["game_key", "seq"]), players), _first_par(events, players),
        _first_permanent(presidents.join(first_permanent, on=["game_key", "seq", "company"]), players),
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


def _players(archive: Archive, games: str, scope: Scope | None) -> pl.DataFrame:
    """[game_key, title, seat, external_id, rank, winner] of every player of a game with standings
    among the games of that kind (and of ``scope``)."""
    where = None if scope is None else {"game_key": sorted(scope.keys)}
    standings = archive.select("standings", ["game_key", "seat", "rank", "winner"], where).with_columns(
        pl.col("seat", "rank").cast(pl.Int64))
    seats = archive.select("players", ["game_key", "seat", "external_id"], where).with_columns(pl.col("seat").cast(pl.Int64))
    titles = archive.select("games", ["key", "title", "source"]).rename({"key": "game_key"})
    if games != "all":
        titles = titles.filter((pl.col("source") == SELFPLAY) == (games == "selfplay"))
    return (
        standings.join(seats, on=["game_key", "seat"]).join(titles.drop("source"), on="game_key")
        .select("game_key", "title", "seat", "external_id", "rank", "winner")
        .sort("game_key", "seat")
    )


def _factor(frame: pl.DataFrame, name: str, value: pl.Expr) -> pl.DataFrame:
    return frame.select("game_key", "seat", factor=pl.lit(name), value=value.cast(pl.Utf8))


def _seat(players: pl.DataFrame) -> pl.DataFrame:
    return _factor(players, "seat", pl.col("seat"))


def _bots(archive: Archive, players: pl.DataFrame) -> pl.DataFrame:
    """The bot that played each seat a bot played."""
    bots = archive.select("seat_bots", ["game_key", "seat", "bot"]).with_columns(pl.col("seat").cast(pl.Int64))
    return _factor(players.join(bots, on=["game_key", "seat"]), "bot", pl.col("bot"))


def _player_events(archive: Archive, players: pl.DataFrame) -> pl.DataFrame:
    """The events the factors read (privates bought, pars, trains bought) of the players' games:
    one read of the archive for all of them."""
    where = {"kind": ["private", "par", "train"], "game_key": players["game_key"].unique().to_list()}
    return archive.select("events", ["game_key", "seq", "ordinal", "kind", "subject", "amount", "detail"], where)


def _by_player(events: pl.DataFrame, players: pl.DataFrame, kind: str) -> pl.DataFrame:
    """Events of ``kind`` whose detail is a player id, with that player's seat, in game order."""
    return (
        events.filter(pl.col("kind") == kind)
        .join(players.select("game_key", "seat", detail="external_id"), on=["game_key", "detail"])
        .sort("game_key", "ordinal")
    )


def _privates(events: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """The private(s) each player bought in the opening; one row per private."""
    bought = _by_player(events, players, "private").select("game_key", "seat", "subject")
    joined = players.join(bought, on=["game_key", "seat"], how="left")
    return _factor(joined, "private", pl.col("subject").fill_null("none"))


def _presidents(archive: Archive, steps: list[pl.DataFrame]) -> pl.DataFrame:
    """[game_key, seq, company, president] after the actions of ``steps`` (frames of game_key and
    seq): one read of the largest table for every factor that asks who presided."""
    at = pl.concat(steps).unique()
    return archive.select("company_states", ["game_key", "seq", "company", "president"], matching=at).with_columns(
        pl.col("president").cast(pl.Int64))


def _presidencies(last: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """How many companies each player presides over after the game's last action (``last``: the
    presidents then)."""
    counts = last.group_by("game_key", seat="president").agg(n=pl.len())
    joined = players.join(counts, on=["game_key", "seat"], how="left")
    return _factor(joined, "presidencies", pl.col("n").fill_null(0))


def _first_par(events: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """The par price of the first company each player parred."""
    first = _by_player(events, players, "par").group_by("game_key", "seat", maintain_order=True).first()
    joined = players.join(first.select("game_key", "seat", "amount"), on=["game_key", "seat"], how="left")
    return _factor(joined, "first_par", pl.col("amount").cast(pl.Utf8).fill_null("none"))


def _first_permanent_purchases(events: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """[game_key, seq, company]: the purchase of each game's first permanent train; none for a
    game where no permanent train was bought."""
    trains = (
        events.filter(pl.col("kind") == "train")
        .join(players.select("game_key", "title").unique(), on="game_key")
        .with_columns(train_type=train_type(pl.col("subject")))
    )
    return (
        trains.join(_permanent_types(trains["title"].unique().to_list()), on=["title", "train_type"])
        .sort("game_key", "ordinal")
        .group_by("game_key", maintain_order=True)
        .first()
        .select("game_key", "seq", company=pl.col("detail").str.split(" from ").list.first())
    )


def _first_permanent(buyers: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """yes/no: the player presided over the company that bought the game's first permanent train
    (``buyers``: that company's president then, per game).

    Games where no permanent train was bought have no rows: the factor does not apply.
    """
    joined = players.join(buyers.select("game_key", "president"), on="game_key")
    value = pl.when(pl.col("seat") == pl.col("president")).then(pl.lit("yes")).otherwise(pl.lit("no"))
    return _factor(joined, "first_permanent", value)


def _permanent_types(titles: list[str]) -> pl.DataFrame:
    """[title, train_type] of every permanent train type of these titles, from the title data."""
    pairs = [(title, train.name) for title in titles for train in title_named(title).trains if train.permanent]
    return pl.DataFrame(pairs, schema={"title": pl.Utf8, "train_type": pl.Utf8}, orient="row")
