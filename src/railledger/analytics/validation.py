"""Which rules the archived records break, per title: where the engine and the records disagree.

A rule broken in many games is more likely an engine gap than a table's mistake, so the summary
counts both flags and distinct games. Only root causes count: a flag that follows from an earlier
one (an action that counted on a refused one) says nothing new about the rules.

Beside the rules, the revenue audit: what each run left on the table against the best run the
company could make (the route optimizer's optimum, stored at ingest), per game and per president.
"""

from __future__ import annotations

import polars as pl

from railledger.records import Archive


def validation_summary(archive: Archive) -> pl.DataFrame:
    """[title, rule, flags, games]: root-cause flags of each rule and how many games have one."""
    return archive.flag_counts()


def shortfalls_by_game(archive: Archive) -> pl.DataFrame:
    """[game_key, title, runs, below_optimum, left_on_table, best_possible, unproven], most left
    first: what each game's runs left against the best run the company could make."""
    return archive.shortfalls()


def shortfalls_by_player(archive: Archive) -> pl.DataFrame:
    """The same per title and player: the runs each decided as president."""
    return archive.shortfalls(per_player=True)
