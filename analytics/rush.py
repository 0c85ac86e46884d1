"""The train rush: when each train type first came out and when it rusted, per game and across games.

Rounds are counted as operating rounds started (``or_ordinal``), not as round labels, so games
whose stock and operating rounds interleave differently still compare: "3+ trains rust after
the 6th OR" means the same thing in every game of a title.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import polars as pl

from analytics.frames import train_type
from analytics.scope import Scope
from records import Archive
from replay.titles import SUPPORTED, title_named

EVENT_NAMES = {"train": "bought", "rust": "gone"}
"""Event kinds of the archive -> what they mean for a train type."""


def train_rush(archive: Archive, game: str | None = None, games: Scope | None = None) -> pl.DataFrame:
    """[game_key, title, train_type, first_bought_round, first_bought_seq, gone_round, gone_seq].

    One row per game (all games, or the one with this full key) and train type bought. Rounds are
    the labels after the action of the event; ``gone_*`` is null for a type that never rusted.
    ``games`` keeps only the games of a scope (:func:`analytics.scope.counted_games`).
    """
    return _per_game(_first_events(archive, game, games))


def train_rush_distribution(archive: Archive, games: Scope | None = None) -> pl.DataFrame:
    """[title, train_type, event ('bought' | 'gone'), or_ordinal, games]: in how many games of a
    title (of ``games``, or every replayed one) a train type was first bought (or rusted) while
    the n-th operating round was the latest started (0 before the first OR)."""
    return _distribution(_first_events(archive, None, games))


def train_rush_and_distribution(archive: Archive, games: Scope | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """:func:`train_rush` and :func:`train_rush_distribution` of the same games from one read of
    the archive, as the train rush page shows both."""
    firsts = _first_events(archive, None, games)
    return _per_game(firsts), _distribution(firsts)


def _per_game(firsts: pl.DataFrame) -> pl.DataFrame:
    bought = firsts.filter(pl.col("kind") == "train").select(
        "game_key", "title", "train_type", first_bought_round="round", first_bought_seq="seq")
    gone = firsts.filter(pl.col("kind") == "rust").select("game_key", "train_type", gone_round="round", gone_seq="seq")
    return (
        bought.join(gone, on=["game_key", "train_type"], how="left")
        .select("game_key", "title", "train_type", "first_bought_round", "first_bought_seq", "gone_round", "gone_seq")
        .sort("game_key", "first_bought_seq", "train_type")
    )


def _distribution(firsts: pl.DataFrame) -> pl.DataFrame:
    return (
        firsts.with_columns(event=pl.col("kind").replace_strict(EVENT_NAMES))
        .group_by("title", "train_type", "event", "or_ordinal")
        .agg(games=pl.col("game_key").n_unique().cast(pl.Int64))
        .sort("title", "train_type", "event", "or_ordinal")
    )


def _first_events(archive: Archive, game: str | None, games: Scope | None) -> pl.DataFrame:
    """[game_key, title, train_type, kind, seq, round, or_ordinal] of the first train and rust
    event of each type; ``round`` and ``or_ordinal`` are null for an event without a step."""
    where: dict[str, Collection[str]] = {"kind": list(EVENT_NAMES)}
    if game is not None:
        where["game_key"] = [archive.table("games", game)["key"].item()]
    if games is not None:
        where["game_key"] = sorted(games.keys & set(where.get("game_key", games.keys)))
    firsts = (
        archive.select("events", ["game_key", "seq", "ordinal", "kind", "subject"], where)
        .with_columns(train_type=train_type(pl.col("subject")))
        # each game's first of a type and kind (ordinals are unique within a game): no sort of every event
        .filter(pl.col("ordinal") == pl.col("ordinal").min().over("game_key", "train_type", "kind"))
    )
    keys = firsts["game_key"].unique().to_list()
    spans = archive.round_spans(keys)
    return (
        firsts.join(_rounds_at(archive, firsts.select("game_key", "seq").unique(), spans), on=["game_key", "seq"], how="left")
        .join(archive.select("games", ["key", "title"], {"key": keys}), left_on="game_key", right_on="key")
        .sort("seq")
        .join_asof(_or_starts(spans), on="seq", by="game_key", check_sortedness=False)  # both sorted by seq
        .select("game_key", "title", "train_type", "kind", pl.col("seq").cast(pl.Int64), "round",
                or_ordinal=pl.when(pl.col("round").is_not_null()).then(pl.col("or_ordinal").fill_null(0)))
    )


def _rounds_at(archive: Archive, at: pl.DataFrame, spans: pl.DataFrame) -> pl.DataFrame:
    """[game_key, seq, round]: the round label of the step at each (game_key, seq) of ``at`` that
    has one, found among the games' round spans (:meth:`Archive.round_spans`), and read from the
    steps themselves only for a game with a label played in more than one stretch."""
    split = spans.filter(pl.col("steps") != pl.col("last") - pl.col("first") + 1)["game_key"].unique().implode()
    whole = spans.filter(~pl.col("game_key").is_in(split)).sort("first")
    found = (
        at.filter(~pl.col("game_key").is_in(split)).sort("seq")
        .join_asof(whole, left_on="seq", right_on="first", by="game_key", check_sortedness=False)  # both sorted
        .filter(pl.col("seq") <= pl.col("last"))
        .select("game_key", "seq", "round")
    )
    rest = at.filter(pl.col("game_key").is_in(split))
    if rest.is_empty():
        return found
    return pl.concat([found, archive.select("steps", ["game_key", "seq", "round"], matching=rest)])


def _or_starts(spans: pl.DataFrame) -> pl.DataFrame:
    """[game_key, seq, or_ordinal]: the first action of each operating round of the games of
    ``spans`` (:meth:`Archive.round_spans`), and how many operating rounds have started by then
    (1, 2...), ordered by seq."""
    return (
        spans.filter(pl.col("round").str.starts_with("OR "))
        .sort("game_key", "first")
        .select("game_key", seq="first", or_ordinal=pl.int_range(1, pl.len() + 1, dtype=pl.Int64).over("game_key"))
        .sort("seq")
    )


def train_order(title: str, seen: Iterable[str] = ()) -> list[str]:
    """The title's train types in the order they come out (its trains.json), then any other type
    ``seen`` in the archive (a title without an engine has only those, sorted)."""
    known = [train.name for train in title_named(title).trains] if title in SUPPORTED else []
    return known + sorted(set(seen) - set(known))
