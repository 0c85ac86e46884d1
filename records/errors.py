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
    when it names them, so the user can see what to wait for.
    """

    def __init__(self, path: str | Path, detail: str = "") -> None:
        self.path = str(path)
        match = _LOCK_HOLDER.search(detail)
        self.pid: int | None = int(match["pid"]) if match else None
        self.program: str | None = match["program"] if match else None
        super().__init__(self.path, detail)

    def __str__(self) -> str:
        if self.pid is not None:
            holder = f"another process (PID {self.pid}, {self.program})"
        elif "different configuration" in str(self.args[1]):
            holder = "another connection of this process opened with a different read-only setting"
        else:
            holder = "another process"
        return f"archive {self.path} is in use by {holder}; try again when it finishes"
