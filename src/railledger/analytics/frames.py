"""Reading archive tables for analytics: one game's rows."""

from __future__ import annotations

import polars as pl

from railledger.records import Archive


def game_rows(archive: Archive, table: str, game_key: str) -> pl.DataFrame:
    """The rows of one game (its key, e.g. ``18xx.games/14375``, or a unique source id) in a table."""
    return archive.table(table, game_key)
