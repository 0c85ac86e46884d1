"""What is in the archive: the games table the dashboard and reports start from."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from railledger.records import Archive


def archived_games(db: str | Path, title: str | None = None, player: str | None = None) -> pl.DataFrame:
    """One row per archived game (key, title, players, status, action count...), read-only."""
    with Archive.open(db, read_only=True) as archive:
        return archive.games(title=title, player=player)
