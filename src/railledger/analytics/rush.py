"""The train rush: when each train type first came out and when it rusted, per game and across games.

Rounds are counted as operating rounds started (``or_ordinal``), not as round labels, so games
whose stock and operating rounds interleave differently still compare: "3+ trains rust after
the 6th OR" means the same thing in every game of a title.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import polars as pl

from railledger.analytics.scope import Scope
from railledger.records import Archive
from railledger.replay.titles import SUPPORTED, title_named

EVENT_NAMES = {"train": "bought", "rust": "gone"}
"""Event kinds of the archive -> what they mean for a train type."""


def train_rush(archive: Archive, game: str | None = None, games: Scope | None = None) -> pl.DataFrame:
    """[game_key, title, train_type, first_bought_round, first_bought_seq, first_bought_action,
    gone_round, gone_seq, gone_action].

    One row per game (all games, or the one with this full key) and train type bought. Rounds are
    the labels after the action of the event, ``*_action`` that action as its record numbers it
    (what a reader is shown; ``*_seq`` orders); ``gone_*`` is null for a type that never rusted.
    ``games`` keeps only the games of a scope (:func:`analytics.scope.counted_games`).
    """
    firsts = _first_events(archive, game, games)
    actions = archive.select("steps", ["game_key", "seq", "action_id"], matching=firsts.select("game_key", "seq").unique())
    return _per_game(firsts.join(actions.with_columns(pl.col("seq").cast(pl.Int64)), on=["game_key", "seq"], how="left"))


def train_rush_distribution(archive: Archive, games: Scope | None = None) -> pl.DataFrame:
    """[title, train_type, event ('bought' | 'gone'), or_ordinal, games]: in how many games of a
    title (of ``games``, or every replayed one) a train type was first bought (or rusted) while
    the n-th operating round was the latest started (0 before the first OR). Counted inside
    DuckDB from each game's first trains: a handful of rows, whatever the number of games."""
    return (
        archive.rush_counts(None if games is None else games.keys)
        .with_columns(event=pl.col("kind").replace_strict(EVENT_NAMES))
        .select("title", "train_type", "event", "or_ordinal", "games")
        .sort("title", "train_type", "event", "or_ordinal")
    )


def rush_games(archive: Archive, games: Scope | None = None) -> pl.DataFrame:
    """[game_key, title] of the games (of ``games``, or every replayed one) in which a train was
    bought (those :func:`train_rush` has rows for), by title and key."""
    return archive.rush_games(None if games is None else games.keys).sort("title", "game_key")


def _per_game(firsts: pl.DataFrame) -> pl.DataFrame:
    bought = firsts.filter(pl.col("kind") == "train").select(
        "game_key", "title", "train_type", first_bought_round="round", first_bought_seq="seq", first_bought_action="action_id")
    gone = firsts.filter(pl.col("kind") == "rust").select("game_key", "train_type", gone_round="round", gone_seq="seq",
                                                          gone_action="action_id")
    return (
        bought.join(gone, on=["game_key", "train_type"], how="left")
        .select("game_key", "title", "train_type", "first_bought_round", "first_bought_seq", "first_bought_action",
                "gone_round", "gone_seq", "gone_action")
        .sort("game_key", "first_bought_seq", "train_type")
    )


def _first_events(archive: Archive, game: str | None, games: Scope | None) -> pl.DataFrame:
    """[game_key, title, train_type, kind, seq, round, or_ordinal] of the first train and rust
    event of each type (the archive's ``train_firsts``: a few rows a game, kept when the game was
    stored); ``round`` and ``or_ordinal`` are null for an event without a step."""
    keys: Collection[str] | None = None if games is None else games.keys
    if game is not None:
        one = archive.table("games", game)["key"].item()
        keys = [one] if keys is None or one in keys else []
    columns = ["game_key", "title", "train_type", "kind", "seq", "round", "or_ordinal"]
    if keys is None:
        firsts = archive.select("train_firsts", columns)
    else:  # thousands of keys: matched as a frame, not as a list of parameters
        firsts = archive.select("train_firsts", columns, matching=pl.DataFrame({"game_key": list(keys)},
                                                                               schema={"game_key": pl.Utf8}))
    return firsts.with_columns(pl.col("seq", "or_ordinal").cast(pl.Int64))


def train_order(title: str, seen: Iterable[str] = ()) -> list[str]:
    """The title's train types in the order they come out (its trains.json), then any other type
    ``seen`` in the archive (a title without an engine has only those, sorted)."""
    known = [train.name for train in title_named(title).trains] if title in SUPPORTED else []
    return known + sorted(set(seen) - set(known))
