"""The train rush: when each train type first came out and when it rusted, per game and across games.

Rounds are counted as operating rounds started (``or_ordinal``), not as round labels, so games
whose stock and operating rounds interleave differently still compare: "3+ trains rust after
the 6th OR" means the same thing in every game of a title.
"""

from __future__ import annotations

import polars as pl

from analytics.frames import game_rows, train_type
from analytics.scope import Scope
from records import Archive

EVENT_NAMES = {"train": "bought", "rust": "gone"}
"""Event kinds of the archive -> what they mean for a train type."""


def train_rush(archive: Archive, game: str | None = None, games: Scope | None = None) -> pl.DataFrame:
    """[game_key, title, train_type, first_bought_round, first_bought_seq, gone_round, gone_seq].

    One row per game (all games, or the one with this full key) and train type bought. Rounds are
    the labels after the action of the event; ``gone_*`` is null for a type that never rusted.
    ``games`` keeps only the games of a scope (:func:`analytics.scope.counted_games`).
    """
    firsts = _first_events(archive, game, games)
    bought = firsts.filter(pl.col("kind") == "train").select(
        "game_key", "train_type", first_bought_round="round", first_bought_seq="seq")
    gone = firsts.filter(pl.col("kind") == "rust").select("game_key", "train_type", gone_round="round", gone_seq="seq")
    return (
        bought.join(gone, on=["game_key", "train_type"], how="left")
        .join(_titles(archive), on="game_key")
        .select("game_key", "title", "train_type", "first_bought_round", "first_bought_seq", "gone_round", "gone_seq")
        .sort("game_key", "first_bought_seq", "train_type")
    )


def train_rush_distribution(archive: Archive, games: Scope | None = None) -> pl.DataFrame:
    """[title, train_type, event ('bought' | 'gone'), or_ordinal, games]: in how many games of a
    title (of ``games``, or every replayed one) a train type was first bought (or rusted) while
    the n-th operating round was the latest started (0 before the first OR)."""
    return (
        _first_events(archive, None, games)
        .join(_titles(archive), on="game_key")
        .with_columns(event=pl.col("kind").replace_strict(EVENT_NAMES))
        .group_by("title", "train_type", "event", "or_ordinal")
        .agg(games=pl.col("game_key").n_unique().cast(pl.Int64))
        .sort("title", "train_type", "event", "or_ordinal")
    )


def _first_events(archive: Archive, game: str | None, games: Scope | None) -> pl.DataFrame:
    """[game_key, train_type, kind, seq, round, or_ordinal] of the first train and rust event of each type."""
    events = archive.table("events") if game is None else game_rows(archive, "events", game)
    if games is not None:
        events = events.filter(pl.col("game_key").is_in(sorted(games.keys)))
    steps = archive.table("steps") if game is None else game_rows(archive, "steps", game)
    return (
        events.filter(pl.col("kind").is_in(list(EVENT_NAMES)))
        .with_columns(train_type=train_type(pl.col("subject")))
        .sort("game_key", "ordinal")
        .group_by("game_key", "train_type", "kind", maintain_order=True)
        .first()
        .join(_or_ordinals(steps), on=["game_key", "seq"], how="left")
        .select("game_key", "train_type", "kind", pl.col("seq").cast(pl.Int64), "round", "or_ordinal")
    )


def _or_ordinals(steps: pl.DataFrame) -> pl.DataFrame:
    """[game_key, seq, round, or_ordinal]: operating rounds started up to each action's round."""
    starts_or = pl.col("round").str.starts_with("OR ") & pl.col("round").is_first_distinct().over("game_key")
    return (
        steps.sort("game_key", "seq")
        .with_columns(or_ordinal=starts_or.cast(pl.Int64).cum_sum().over("game_key"))
        .select("game_key", "seq", "round", "or_ordinal")
    )


def _titles(archive: Archive) -> pl.DataFrame:
    return archive.table("games").select(game_key="key", title="title")
