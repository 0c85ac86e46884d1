"""Which rules the archived records break, per title: where the engine and the records disagree.

A rule broken in many games is more likely an engine gap than a table's mistake, so the summary
counts both flags and distinct games. Only root causes count: a flag that follows from an earlier
one (an action that counted on a refused one) says nothing new about the rules.

Beside the rules, the revenue audit: what each run left on the table against the best run the
company could make (the route optimizer's optimum, stored at ingest), per game and per president.
"""

from __future__ import annotations

import polars as pl

from railledger.analytics.identity import labelled
from railledger.records import Archive


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


def shortfalls_by_game(archive: Archive) -> pl.DataFrame:
    """[game_key, title, runs, below_optimum, left_on_table, best_possible, unproven], most left
    first: what each game's runs left against the best run the company could make."""
    return archive.shortfalls()


def shortfalls_by_player(archive: Archive) -> pl.DataFrame:
    """The same per title and president by identity (docs/identity.md): the runs each decided,
    shown by name, and by name and short id where two presidents' names compare equal."""
    return labelled(archive.shortfalls(per_player=True))
