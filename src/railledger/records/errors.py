"""Errors of the archive, worded so the CLI can print ``str(error)`` as one actionable line."""

from __future__ import annotations

import re
from pathlib import Path

_LOCK_HOLDER = re.compile(r"Conflicting lock is held in (?P<program>.+?) \(PID (?P<pid>\d+)\)")


class ArchiveError(Exception):
    """The archive file cannot be used: not an archive, from a newer railledger, or not yet migrated."""


class ArchiveBusy(ArchiveError):
    """Another process (or a differently opened connection of this one) holds the archive's lock.

    DuckDB lets one process at a time hold a database file for writing; a second writer, or a reader
    while a writer is active, fails at open. ``pid`` and ``program`` are parsed from DuckDB's message
    when it names them, so the user can see what to wait for; ``waited`` is how long the open
    waited for the holder before giving up (0 when it did not wait).
    """

    def __init__(self, path: str | Path, detail: str = "", waited: float = 0.0) -> None:
        self.path = str(path)
        self.detail = detail
        self.waited = waited
        match = _LOCK_HOLDER.search(detail)
        self.pid: int | None = int(match["pid"]) if match else None
        self.program: str | None = match["program"] if match else None
        super().__init__(self.path, detail)

    @property
    def holder(self) -> str:
        """Who holds the archive, as the message names them."""
        if self.pid is not None:
            return f"another process (PID {self.pid}, {self.program})"
        if "different configuration" in self.detail:
            return "another connection of this process opened with a different read-only setting"
        return "another process"

    def __str__(self) -> str:
        if self.waited:
            return f"archive {self.path} is in use by {self.holder}; gave up after waiting {self.waited:g} s (--wait)"
        return f"archive {self.path} is in use by {self.holder}; try again when it finishes"


class ArchiveDamaged(ArchiveError):
    """The file is a DuckDB archive whose contents cannot all be read: cut short, or corrupted."""


class NotAnArchive(ArchiveError):
    """The path is not a DuckDB file at all (a FIFO, a device, a directory, an empty file, a SQLite
    database...): refused before DuckDB is given it (:mod:`records.archive_file`)."""


class ForeignArchive(ArchiveError):
    """The file holds objects railledger did not make (tables, views, macros...): it is refused
    before any of its SQL can run, since a macro in a file shadows DuckDB's own functions."""


class ReplayWouldBeLost(ArchiveError):
    """Storing a changed record without a replay would delete the replay rows stored for it."""
