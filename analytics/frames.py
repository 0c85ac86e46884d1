"""Reading archive tables for analytics: one game's rows, and train types from train ids."""

from __future__ import annotations

import polars as pl

from records import Archive


def game_rows(archive: Archive, table: str, game_key: str) -> pl.DataFrame:
    """The rows of one game (its key, e.g. ``18xx.games/14375``, or a unique source id) in a table."""
    return archive.table(table, game_key)


def train_type(train_id: pl.Expr) -> pl.Expr:
    """The type of a train id: everything before its last '-' ('2+-3' -> '2+').

    A diesel bought as a 4D keeps its '2D-n' id, so it counts as a 2D: the card it came from.
    """
    return train_id.str.replace(r"-[^-]*$", "")
