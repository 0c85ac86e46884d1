"""Which rules the archived records break, per title: where the engine and the records disagree.

A rule broken in many games is more likely an engine gap than a table's mistake, so the summary
counts both flags and distinct games. Only root causes count: a flag that follows from an earlier
one (an action that counted on a refused one) says nothing new about the rules.
"""

from __future__ import annotations

import polars as pl

from records import Archive


def validation_summary(archive: Archive) -> pl.DataFrame:
    """[title, rule, flags, games]: root-cause flags of each rule and how many games have one."""
    titles = archive.table("games").select(game_key="key", title="title")
    return (
        archive.table("flags")
        .filter(pl.col("follows").is_null())
        .join(titles, on="game_key")
        .group_by("title", "rule")
        .agg(flags=pl.len().cast(pl.Int64), games=pl.col("game_key").n_unique().cast(pl.Int64))
        .sort("title", "rule")
    )
