"""``railledger export``: every archive table written for other tools, as a Hive-style Parquet
dataset by title or one CSV file a table (:func:`export_archive`).

``OUT/<table>/title=<title>/part-0.parquet``: DuckDB (``read_parquet('OUT/actions/*/*.parquet',
hive_partitioning = true)``), Spark and Trino read each table folder as one dataset, with
``title`` as a column taken from the folder names, and a reader that wants one title reads
only its folder. Rows of the per-game tables get their game's title from ``games``; the files
themselves do not repeat it, as Hive's layout has it.

An export holds the games of one population (:mod:`analytics.scope`; people's valid finished
games unless asked otherwise), every table cut to those games. Its ``standings`` say of each
seat whose game it was (the game's ``source``) and the bot that played it (``bot``, NULL for a
person), so that a reader of the standings alone never takes a bot's win for a person's; a game
without a result has no rank and no winner (NULL).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path

import polars as pl

from railledger.analytics.scope import Population, Scope, counted_games
from railledger.records import Archive
from railledger.records.archive import ARCHIVE_TABLES
from railledger.records.connection import WaitNotice

FORMATS = ("parquet", "csv")

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


def export_archive(db: str | Path, out_dir: str | Path, fmt: str = "parquet", *, population: Population = Population(),
                   anonymize: bool = False, wait: float = 0.0, on_wait: WaitNotice | None = None) -> list[tuple[Path, int]]:
    """Write every table of the archive at ``db``, cut to the games of ``population``, into
    ``out_dir`` (:func:`write_tables`), read in one read-only open of the archive and written with
    it closed; with ``anonymize``, nobody named (:mod:`pipeline.anonymizing`). Raises
    :class:`~railledger.records.ArchiveError` when the archive cannot be read."""
    with Archive.open(db, read_only=True, wait=wait, on_wait=on_wait) as archive:
        frames = archive_tables(archive, counted_games(archive, population))
    if anonymize:
        from railledger.pipeline.anonymizing import anonymize_tables

        frames = anonymize_tables(frames)
    return write_tables(frames, out_dir, fmt)


def archive_tables(archive: Archive, scope: Scope | None = None) -> dict[str, pl.DataFrame]:
    """Every table of an open archive, by name, cut to the games of ``scope`` (all without one),
    the standings with each seat's ``source`` and ``bot``."""
    frames = {name: archive.table(name) for name in ARCHIVE_TABLES}
    if scope is not None:
        keys = pl.Series("key", sorted(scope.keys), dtype=pl.Utf8)
        frames = {name: frame.filter(pl.col("key" if name == "games" else "game_key").is_in(keys.implode()))
                  for name, frame in frames.items()}
    sources = frames["games"].select(game_key="key", source="source")
    frames["standings"] = (
        frames["standings"]
        .join(sources, on="game_key", how="left", maintain_order="left")
        .join(frames["seat_bots"].select("game_key", pl.col("seat").cast(frames["standings"].schema["seat"]), "bot"),
              on=["game_key", "seat"], how="left", maintain_order="left")
    )
    return frames


def write_tables(frames: Mapping[str, pl.DataFrame], out_dir: str | Path, fmt: str = "parquet") -> list[tuple[Path, int]]:
    """Write tables into ``out_dir`` (created if missing): as Parquet datasets by title
    (:func:`write_partitions`) or as ``<table>.csv``; (path, rows) of each table. Raises
    ValueError for an unknown format and OSError when ``out_dir`` cannot be written."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; the formats are {', '.join(FORMATS)}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if fmt == "parquet":
        return list(write_partitions(frames, out))
    written = []
    for name, frame in frames.items():
        path = out / f"{name}.csv"
        csv_ready(frame).write_csv(path)
        written.append((path, frame.height))
    return written


def csv_ready(frame: pl.DataFrame) -> pl.DataFrame:
    """CSV holds no lists (games.optional_rules) and no bytes (sources.text_zlib): lists are written
    as JSON text and bytes as base64, both of which read back exactly."""
    lists = [name for name, dtype in frame.schema.items() if isinstance(dtype, pl.List)]
    binary = [name for name, dtype in frame.schema.items() if dtype == pl.Binary]
    return frame.with_columns(
        *(pl.col(name).map_elements(lambda v: json.dumps(v.to_list()), return_dtype=pl.Utf8) for name in lists),
        *(pl.col(name).bin.encode("base64") for name in binary),
    )
