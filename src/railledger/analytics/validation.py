"""Which rules the archived records break, per title: where the engine and the records disagree.

A rule broken in many games is more likely an engine gap than a table's mistake, so the summary
counts both flags and distinct games. Only root causes count: a flag that follows from an earlier
one (an action that counted on a refused one) says nothing new about the rules.

Beside them, every game whose verdict is not valid, with its reason (:func:`games_not_valid`), and
the revenue audit: what each run left on the table against the best run the
company could make (the route optimizer's optimum, stored at ingest), per game and per president.
"""

from __future__ import annotations

import polars as pl

from railledger.analytics.identity import labelled
from railledger.analytics.scope import NOT_JUDGED, Population, Scope, counted_games
from railledger.records import Archive
from railledger.replay.verdict import KINDS, VALID


def games_not_valid(archive: Archive, population: Population = Population()) -> tuple[pl.DataFrame, Scope]:
    """([game_key, title, verdict, reason] of every game of the population's kind whose verdict is
    not valid: illegal, result mismatch, unfinished, no engine, not replayed or not judged, in
    that order, then by title and key; the scope of every game of that kind, whatever its
    verdict, which says what the list is of and the other kind's games left out)."""
    scope = counted_games(archive, Population(population.games, every_verdict=True, title=population.title,
                                              players=population.players, variant=population.variant))
    games = scope.games.select(game_key="key", title="title", verdict=pl.col("verdict").fill_null(NOT_JUDGED))
    games = games.filter(pl.col("verdict") != VALID)
    reasons = archive.select("games", ["key", "verdict_detail"], matching=games.select(key="game_key"))
    order = {kind: n for n, kind in enumerate((*KINDS, NOT_JUDGED))}
    listed = (
        games.join(reasons.rename({"key": "game_key", "verdict_detail": "reason"}), on="game_key", how="left")
        .with_columns(pl.col("reason").fill_null("stored before verdicts were kept; ingest it again to judge it"))
        .sort(pl.col("verdict").replace_strict(order, return_dtype=pl.Int64), "title", "game_key")
    )
    return listed, scope


def validation_summary(archive: Archive) -> pl.DataFrame:
    """[title, rule, flags, games]: root-cause flags of each rule and how many games have one."""
    return archive.flag_counts()


def flags_in_words(flags: pl.DataFrame) -> pl.DataFrame:
    """A flag list (:func:`analytics.review.flag_list`) as a reader is told it: [game_key, action
    (the record's id and the round: ``22 (OR 1.1)``), what was done (the action in words), why
    (the engine's message), cause (``root cause``, or the root cause it follows from), rule,
    section, title, action_id]. A flag stored before flags kept their words (an archive not ingested since)
    shows its id alone and no words."""
    named = flags.with_columns(
        action=pl.when(pl.col("round").is_null()).then(pl.col("action_id"))
        .otherwise(pl.concat_str("action_id", pl.lit(" ("), "round", pl.lit(")"))))
    roots = named.select("game_key", follows="seq", root="action")
    return named.join(roots, on=["game_key", "follows"], how="left").select(
        "game_key", "action", pl.col("sentence").fill_null("").alias("what was done"), pl.col("message").alias("why"),
        pl.when(pl.col("follows").is_null()).then(pl.lit("root cause"))
        .otherwise(pl.concat_str(pl.lit("follows from action "), "root")).alias("cause"),
        "rule", "section", "title", "action_id",
    )


def shortfalls_by_game(archive: Archive, games: Scope | None = None) -> pl.DataFrame:
    """[game_key, title, runs, below_optimum, left_on_table, best_possible, unproven], most left
    first: what each game's runs (of ``games``, or of every game) left against the best run the
    company could make."""
    return archive.shortfalls(games=None if games is None else games.keys)


def shortfalls_by_player(archive: Archive, games: Scope | None = None) -> pl.DataFrame:
    """The same per title and president by identity (docs/identity.md), of ``games`` or of every
    game: the runs each decided, shown by name, and by name and short id where two presidents'
    names compare equal."""
    return labelled(archive.shortfalls(per_player=True, games=None if games is None else games.keys))
