"""Opening the DuckDB file and running transactions, with DuckDB's errors turned into ours."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import duckdb

from records.errors import ArchiveBusy, ArchiveError


def connect(path: Path, read_only: bool) -> duckdb.DuckDBPyConnection:
    """A connection to ``path``; a file held by someone else raises :class:`ArchiveBusy`.

    A read-only open never creates the file: a missing one raises FileNotFoundError (DuckDB would
    fail the same way, but with a less direct message).
    """
    if read_only and not path.exists():
        raise FileNotFoundError(f"archive {path} does not exist (a read-only open does not create it)")
    try:
        return duckdb.connect(str(path), read_only=read_only)
    except duckdb.IOException as exc:
        if "Could not set lock" in str(exc):
            raise ArchiveBusy(path, str(exc)) from exc
        raise ArchiveError(f"cannot open archive {path}: {exc}") from exc
    except duckdb.ConnectionException as exc:
        # Same process, same file, other read_only setting: DuckDB shares one instance per file.
        if "different configuration" in str(exc):
            raise ArchiveBusy(path, str(exc)) from exc
        raise


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """Commit the block's statements together, or roll all of them back if anything raises."""
    con.begin()
    try:
        yield
        con.commit()
    except BaseException:
        try:
            con.rollback()
        except duckdb.TransactionException:
            pass  # a failed COMMIT already ended the transaction; nothing is left to roll back
        raise
