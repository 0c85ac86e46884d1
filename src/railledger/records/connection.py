"""Opening the DuckDB file and running transactions, with DuckDB's errors turned into ours.

DuckDB gives a file to one writing process, or to any number of reading ones, never both: the
lock is taken when a connection opens and released when it closes. Readers and writers share an
archive by holding it briefly and by waiting for each other: :func:`connect` retries a busy file
(with growing, jittered pauses) for up to ``wait`` seconds before it gives up.
"""

from __future__ import annotations

import random
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

import duckdb

from railledger.records.archive_file import check_archive_path
from railledger.records.errors import ArchiveBusy, ArchiveDamaged, ArchiveError

if TYPE_CHECKING:  # frames come from the callers that make them; opening an archive needs no polars
    import polars as pl

NOTICE_AFTER = 0.5
"""Seconds of waiting before ``on_wait`` is told: brief turns between processes say nothing."""

LONGEST_PAUSE = 0.05
"""Seconds between tries at most: a writer leaves the file free for a moment between its opens
(an ingest: a tenth of a second), which a waiting process must not sleep through."""

WaitNotice = Callable[[ArchiveBusy, float], None]
"""Told once per open that waits, with the busy error and the seconds it will wait at most."""


def connect(
    path: Path, read_only: bool, wait: float = 0.0, on_wait: WaitNotice | None = None
) -> duckdb.DuckDBPyConnection:
    """A connection to ``path``, waiting up to ``wait`` seconds while someone else holds it.

    Raises :class:`ArchiveBusy` when the file is still held after ``wait``. A read-only open never
    creates the file: a missing one raises FileNotFoundError (DuckDB would fail the same way, but
    with a less direct message).
    """
    start = time.monotonic()
    pause = 0.01
    told = False
    while True:
        try:
            return _connect_once(path, read_only)
        except ArchiveBusy as busy:
            waited = time.monotonic() - start
            if waited >= wait:
                raise ArchiveBusy(busy.path, busy.detail, waited=wait) if wait else busy from None
            if on_wait is not None and not told and waited >= min(NOTICE_AFTER, wait):
                on_wait(busy, wait)
                told = True
            time.sleep(min(pause * random.uniform(0.5, 1.5), max(0.0, wait - waited)))
            pause = min(pause * 1.6, LONGEST_PAUSE)


SETTINGS = {"autoinstall_known_extensions": False, "autoload_known_extensions": False,
            "allow_community_extensions": False}
"""DuckDB's settings for every database railledger opens, given at connect time because DuckDB
reads a file's catalog during the open: a file naming a type or function of an extension (a
SQLite database handed over as an archive) would otherwise make it load that extension there and
then, and download it first when it is not installed (seconds without a network, and a folder
under the user's home). No extension is installed, loaded or fetched; railledger needs none but
those built into DuckDB (json, parquet, icu)."""


def open_duckdb(database: str, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection with :data:`SETTINGS`, its progress bar off, and its configuration locked.

    The lock keeps any later statement from turning extension loading back on. It follows the
    one statement that turns the progress bar off (DuckDB's own bar would print into a command's
    output), because the bar is a per-connection setting that DuckDB takes only by ``SET``, which
    the lock refuses; nothing from the file runs before the lock, and loading was off from the open.
    """
    con = duckdb.connect(database, read_only=read_only, config=dict(SETTINGS))
    try:
        try:
            con.execute("SET enable_progress_bar = false")
        except duckdb.InvalidInputException:
            pass  # in a Jupyter kernel without ipywidgets, where the bar is off and DuckDB refuses to touch it
        con.execute("SET lock_configuration = true")
    except BaseException:
        con.close()
        raise
    return con


def _connect_once(path: Path, read_only: bool) -> duckdb.DuckDBPyConnection:
    exists = check_archive_path(path, read_only)
    if read_only and not exists:
        raise FileNotFoundError(f"archive {path} does not exist (a read-only open does not create it)")
    before = _inode(path)
    try:
        con = open_duckdb(str(path), read_only)
    except duckdb.Error as exc:
        raise archive_failure(path, exc, opening=True) from exc
    if before is not None and _inode(path) != before:
        con.close()
        raise ArchiveBusy(path, "another file was put in the archive's place while it was opened")
    return con


def _inode(path: Path) -> int | None:
    """The file ``path`` names now (None: none). A compaction puts a new file in an archive's place
    while holding the old one (:mod:`records.compaction`): an open that reached the old file
    before that and got its lock only after must not use it, since nobody will read it again."""
    try:
        return path.stat().st_ino
    except FileNotFoundError:
        return None


DAMAGE = (duckdb.IOException, duckdb.SerializationException, duckdb.InternalException, duckdb.FatalException)
"""What DuckDB raises on reading a block it cannot trust (a file cut short, bytes it cannot
decode), besides the plain :class:`duckdb.Error` of a block whose checksum does not match."""


def archive_failure(path: Path, exc: duckdb.Error, opening: bool = False) -> ArchiveError:
    """The :class:`ArchiveError` that says in one line what DuckDB's ``exc`` means for the archive.

    Busy (another process holds the file), permission denied, written by a DuckDB of another
    storage version, out of memory, or damaged: DuckDB reports a
    checksum that does not match as a plain :class:`duckdb.Error`, a block it cannot decode as
    one of :data:`DAMAGE`. While ``opening`` (connecting, then checking the catalog, which runs
    only DuckDB's own catalog functions), any other failure is the file's too; afterwards it may
    be a statement's (a value no column holds) and is said as DuckDB says it.
    """
    text = str(exc)
    if isinstance(exc, duckdb.IOException) and "Could not set lock" in text:
        return ArchiveBusy(path, text)
    if isinstance(exc, duckdb.ConnectionException) and "different configuration" in text:
        return ArchiveBusy(path, text)  # same process, same file, other read_only setting: one instance per file
    if isinstance(exc, duckdb.PermissionException) or "Permission denied" in text:
        return ArchiveError(f"archive {path}: permission denied ({_first_line(exc)})")
    if "database file with version number" in text:
        return ArchiveError(f"archive {path} was written by a DuckDB this railledger cannot read ({_first_line(exc)})")
    if isinstance(exc, duckdb.OutOfMemoryException):
        return ArchiveError(f"archive {path}: DuckDB ran out of memory ({_first_line(exc)})")
    if opening or type(exc) is duckdb.Error or isinstance(exc, DAMAGE):
        return ArchiveDamaged(f"archive {path} is damaged: {_first_line(exc)} ({DAMAGED_HELP})")
    return ArchiveError(f"archive {path}: {_first_line(exc)}")


DAMAGED_HELP = "ingest its records again into a new archive; docs/damaged-archive.md says what export can still save"


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


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


def one_row(con: duckdb.DuckDBPyConnection, query: str, params: Sequence[Any] | None = None) -> tuple[Any, ...] | None:
    """The first row of a query, or None, with the result read to its end.

    DuckDB (from 2.0) keeps a result that ``fetchone()`` did not exhaust open on the connection
    and refuses any relation query (``con.sql``) until it is finished, so a row is never fetched
    alone: a fresh process that checked a file on open could not read a table after it.
    """
    rows = con.execute(query, params).fetchall() if params is not None else con.execute(query).fetchall()
    return rows[0] if rows else None


class _ArrowStream:
    """A polars frame offered to DuckDB through the Arrow C stream interface alone: registering
    the frame itself converts it with pyarrow, whose import (numpy with it) costs half a second
    of a command's start. Each scan takes a new stream, so a statement may read it twice."""

    def __init__(self, frame: pl.DataFrame) -> None:
        import polars as pl

        # A column of nulls only (polars' Null type) goes out with no validity bitmap, which
        # DuckDB's stream reader refuses; as text it is NULL in a column of any type.
        self._frame = frame.with_columns(pl.col(pl.Null).cast(pl.Utf8))

    def __arrow_c_stream__(self, requested_schema: object | None = None) -> object:
        return self._frame.__arrow_c_stream__(requested_schema)


@contextmanager
def registered(con: duckdb.DuckDBPyConnection, frames: Mapping[str, pl.DataFrame]) -> Iterator[None]:
    """Let the statements run inside read these frames as relations of these names (the code's
    own names, never a caller's), scanned in place as Arrow columns: thousands of keys as list
    parameters are copied value by value, and rows inserted through Python lists cost more still."""
    for name, frame in frames.items():
        con.register(name, _ArrowStream(frame))
    try:
        yield
    finally:
        for name in frames:
            con.unregister(name)
