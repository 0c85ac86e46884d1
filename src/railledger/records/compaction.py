"""Giving an archive file's free blocks back to the disk.

DuckDB frees the blocks a checkpoint rewrites and reuses them at a later checkpoint, but never
shrinks the file around those left free. An ingest closes the archive after every batch of games,
so that readers get their turn, and every close checkpoints, rewriting the tables' last, partly
filled row groups: 2,000 bots' games ingested in two runs left 75 of the file's 334 blocks of
256 KiB free, and a copy of it in a new file took 222 (29 KB a game against 44). A migration that
rebuilds a table leaves as much again as the table.

Compacting copies every table into a new file beside the archive (DuckDB's ``COPY FROM
DATABASE``), checks that each of the code's tables holds as many rows in the copy, and puts the
copy in the archive's place while the archive is still open for writing: no other process can
write to the old file in between, and one waiting for the archive opens the new one. A failure
leaves the archive as it was and removes the copy. It takes about a millisecond a game stored, so
an ingest compacts only when the free blocks are worth it (:data:`WORTH_SHARE`,
:data:`WORTH_BYTES`); ``railledger compact`` does it whenever any block is free.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from railledger.records.archive import Archive, Blocks
from railledger.records.connection import WaitNotice

WORTH_SHARE = 0.1
"""An ingest compacts the archive when at least this part of its blocks is free..."""

WORTH_BYTES = 4 * 1024 * 1024
"""... and they hold at least this much: a small archive's few free blocks are not worth a copy,
and a large one compacts once about a tenth of it is free, so the copies cost an ingest about a
tenth of a millisecond a game on average however large the archive grows. (An ingest of 1,000
distinct games into a new archive leaves about 7 MB free, 15% of the file.)"""


@dataclass(frozen=True)
class Compaction:
    """What compacting did: the file's size before and after, in bytes."""

    before: int
    after: int

    def line(self, path: Path) -> str:
        """One line for the user: ``archive compacted: 87.3 MB -> 58.2 MB (games.duckdb)``."""
        return f"archive compacted: {_megabytes(self.before)} -> {_megabytes(self.after)} ({path})"


def worth_compacting(blocks: Blocks) -> bool:
    """Whether an ingest should compact a file whose blocks are so used."""
    return blocks.free_share >= WORTH_SHARE and blocks.free_bytes >= WORTH_BYTES


def any_free(blocks: Blocks) -> bool:
    """Whether compacting would give anything back (``railledger compact``)."""
    return blocks.free > 0


def compact(path: Path, *, worth: Callable[[Blocks], bool] = any_free, wait: float = 0.0,
            on_wait: WaitNotice | None = None) -> Compaction | None:
    """Compact the archive at ``path`` when ``worth`` says its blocks call for it; None when not.

    Opens the archive for writing (migrating it, waiting as :meth:`Archive.open` does) and raises
    what that raises, FileNotFoundError where there is no file (an open would make one); an
    :class:`~records.errors.ArchiveError` from the copy leaves the archive as it was.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no archive here")
    copy = path.with_name(path.name + ".compacting")
    with Archive.open(path, wait=wait, on_wait=on_wait) as archive:
        if not worth(archive.blocks()):
            return None
        before = archive_bytes(path)
        _remove(copy)  # left by a run that stopped half way: the archive itself was never touched
        try:
            archive.write_copy(copy)
            shutil.copymode(path, copy)
            _flush(copy)
            os.replace(copy, path)  # while the old file is held: nobody writes to it after this
        finally:
            _remove(copy)
        _flush(path.parent)
    return Compaction(before, archive_bytes(path))


def archive_bytes(path: Path) -> int:
    """The archive's bytes on disk, its write-ahead log's included."""
    wal = path.with_name(path.name + ".wal")
    return path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def _remove(copy: Path) -> None:
    for leftover in (copy, copy.with_name(copy.name + ".wal")):
        leftover.unlink(missing_ok=True)


def _flush(path: Path) -> None:
    """Make what was written to the file (or the folder's entries) durable before going on."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _megabytes(size: int) -> str:
    return f"{size / 1_000_000:,.1f} MB"
