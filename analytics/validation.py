"""Which rules the archived records break, per title: where the engine and the records disagree.

A rule broken in many games is more likely an engine gap than a table's mistake, so the summary
counts both flags and distinct games. Only root causes count: a flag that follows from an earlier
one (an action that counted on a refused one) says nothing new about the rules.

Beside the rules, the revenue audit: what each run left on the table against the best run the
company could make (the route optimizer's optimum, stored at ingest), per game and per president.
"""

from __future__ import annotations

import polars as pl

from records import Archive


def validation_summary(archive: Archive) -> pl.DataFrame:
    """[title, rule, flags, games]: root-cause flags of each rule and how many games have one."""
    return archive.flag_counts()


def _audited_runs(archive: Archive) -> pl.DataFrame:
    """Every stored run with its title, president's name and shortfall (optimum minus what the
    engine says the declared routes earn; NULL when the engine refused the declared run)."""
    titles = archive.table("games").select(game_key="key", title="title")
    names = archive.table("players").select("game_key", "seat", player="name")
    return (
        archive.table("runs")
        .join(titles, on="game_key")
        .join(names, on=["game_key", "seat"], how="left")
        .with_columns(shortfall=pl.col("optimum") - pl.col("engine"))
    )


def _shortfall_totals(runs: pl.DataFrame, *by: str) -> pl.DataFrame:
    return (
        runs.group_by(*by)
        .agg(
            runs=pl.len().cast(pl.Int64),
            below_optimum=(pl.col("shortfall") > 0).sum().cast(pl.Int64),
            left_on_table=pl.col("shortfall").sum().cast(pl.Int64),
            best_possible=pl.col("optimum").sum().cast(pl.Int64),
            unproven=(~pl.col("proven")).sum().cast(pl.Int64),
        )
        .sort("left_on_table", *by, descending=[True, *[False] * len(by)])
    )


def shortfalls_by_game(archive: Archive) -> pl.DataFrame:
    """[game_key, title, runs, below_optimum, left_on_table, best_possible, unproven], most left first."""
    return _shortfall_totals(_audited_runs(archive), "game_key", "title")


def shortfalls_by_player(archive: Archive) -> pl.DataFrame:
    """The same per title and player: the runs each decided as president."""
    return _shortfall_totals(_audited_runs(archive).drop_nulls("player"), "title", "player")
