"""Which rules the archived records break, per title: where the engine and the records disagree.

A rule broken in many games is more likely an engine gap than a table's mistake, so the summary
counts both flags and distinct games.
"""

from __future__ import annotations

import polars as pl

from records import Archive


def validation_summary(archive: Archive) -> pl.DataFrame:
    """[title, rule, flags, games]: flags of each rule and how many games have at least one."""
    titles = archive.table("games").select(game_key="key", title="title")
    return (
        archive.table("flags")
        .join(titles, on="game_key")
        .group_by("title", "rule")
        .agg(flags=pl.len().cast(pl.Int64), games=pl.col("game_key").n_unique().cast(pl.Int64))
        .sort("title", "rule")
    )
