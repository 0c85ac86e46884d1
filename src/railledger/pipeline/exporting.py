"""``railledger export --format parquet``: every archive table as a Hive-style dataset by title.

``OUT/<table>/title=<title>/part-0.parquet``: DuckDB (``read_parquet('OUT/actions/*/*.parquet',
hive_partitioning = true)``), Spark and Trino read each table folder as one dataset, with
``title`` as a column taken from the folder names, and a reader that wants one title reads
only its folder. Rows of the per-game tables get their game's title from ``games``; the files
themselves do not repeat it, as Hive's layout has it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import polars as pl

PARTITION = "title"
PART_FILE = "part-0.parquet"
NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"
"""Hive's folder name for a missing value (a row whose game is not in ``games``)."""

_ESCAPED = frozenset('"#%\'*/:=?\\{[]^') | frozenset(map(chr, range(0x20))) | {"\x7f"}
"""Characters Hive writes as ``%XX`` in a partition folder's name (so a title cannot name a path)."""


def folder_name(value: str | None) -> str:
    """``title=<value>`` with Hive's escapes, or Hive's default partition for no value."""
    if value is None:
        return f"{PARTITION}={NULL_PARTITION}"
    return f"{PARTITION}=" + "".join(f"%{ord(c):02X}" if c in _ESCAPED else c for c in value)


def write_partitions(frames: Mapping[str, pl.DataFrame], out_dir: Path) -> Iterator[tuple[Path, int]]:
    """Write each table's rows by title under ``out_dir/<table>/``, replacing the part files an
    earlier export left there; (table folder, rows) of each table as it is written. ``frames``
    must hold ``games``, where the titles come from."""
    titles = frames["games"].select(pl.col("key").alias("game_key"), PARTITION)
    for name, frame in frames.items():
        titled = frame if name == "games" else frame.join(titles, on="game_key", how="left", maintain_order="left")
        folder = out_dir / name
        folder.mkdir(parents=True, exist_ok=True)
        for stale in folder.glob(f"{PARTITION}=*/{PART_FILE}"):
            stale.unlink()
        parts = titled.partition_by(PARTITION, as_dict=True, include_key=False, maintain_order=True) if titled.height else {}
        for (title,), part in parts.items():
            target = folder / folder_name(title if title is None else str(title))
            target.mkdir(exist_ok=True)
            part.write_parquet(target / PART_FILE)
        yield folder, frame.height
