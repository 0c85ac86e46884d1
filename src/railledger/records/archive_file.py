"""The archive's path, held to what an archive can be before DuckDB is given it.

DuckDB opens whatever path it is handed, and what it then does is no archive's business: a FIFO
blocks the open until someone writes to it (``--wait 0`` included), a directory or a device fails
as if the file were damaged, and a file of a format DuckDB reads through an extension (a SQLite
database) makes it load, and by default download, that extension. So the path is checked first:
it must be a regular file that begins as every DuckDB file begins, or nothing yet in a folder that
exists (an open for writing creates it). Each refusal says in one line what the path is instead.

The check reads at most the file's first bytes, from a descriptor opened without blocking and
checked again (:func:`os.fstat`) in case the name changed in between.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from railledger.records.errors import ArchiveError, NotAnArchive

MAGIC = b"DUCK"
"""What every DuckDB database file holds at :data:`MAGIC_AT` (after its header's checksum)."""
MAGIC_AT = 8

_SPECIAL = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
            (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))

_OTHER_FORMATS = ((b"SQLite format 3\x00", "a SQLite database"), (b"PAR1", "a Parquet file"), (b"PK\x03\x04", "a ZIP archive"),
                  (b"\x1f\x8b", "a gzip file"), (b"ARROW1", "an Arrow file"))
"""Formats a file handed to us as an archive is likely to be, by their first bytes: named so that the
refusal says what the file is."""


def check_archive_path(path: Path, read_only: bool) -> bool:
    """Whether ``path`` holds a file to open (False: nothing there yet), having refused every path
    that is not a regular file beginning as DuckDB files begin, or that cannot be read.

    Raises :class:`~records.errors.NotAnArchive` for a path that is something else (a FIFO, a
    device, a socket, a directory, an empty file, a SQLite or Parquet file, text) and
    :class:`~records.errors.ArchiveError` for one that cannot be reached (a missing folder,
    permission denied). A missing file in a folder that exists is no error here: a read-only open
    reports it, an open for writing creates it.
    """
    try:
        info = os.stat(path)
    except FileNotFoundError:
        folder = path.absolute().parent
        if not folder.is_dir():
            raise ArchiveError(f"archive {path}: the folder {folder} does not exist") from None
        return False
    except OSError as exc:
        raise _unreachable(path, exc) from None
    _require_regular(path, info.st_mode)
    _require_duckdb_file(path, _head(path), read_only)
    _require_regular_log(path)
    return True


def _require_regular(path: Path | str, mode: int, what: str = "archive") -> None:
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _SPECIAL if test(mode)), "not a regular file")
        raise NotAnArchive(f"{what} {path} is {kind}, not an archive file; name a file with --db")


def _head(path: Path) -> bytes:
    """The file's first bytes, read from a descriptor that cannot block (see the module's docstring)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise _unreachable(path, exc) from None
    try:
        _require_regular(path, os.fstat(fd).st_mode)
        return os.read(fd, 64)
    except OSError as exc:
        raise _unreachable(path, exc) from None
    finally:
        os.close(fd)


def _require_duckdb_file(path: Path, head: bytes, read_only: bool) -> None:
    if head[MAGIC_AT:MAGIC_AT + len(MAGIC)] == MAGIC:
        return
    if not head:
        remedy = "remove it, or name another file" if not read_only else "it holds no game"
        raise NotAnArchive(f"archive {path} is an empty file, not a DuckDB archive ({remedy})")
    kind = next((name for start, name in _OTHER_FORMATS if head.startswith(start)), None)
    if kind is None and _is_text(head):
        kind = "text"
    said = f"it is {kind}" if kind else "another kind of file, or an archive whose header is damaged"
    raise NotAnArchive(f"archive {path} is not a DuckDB file ({said}); railledger archives are DuckDB files that ingest makes")


def _is_text(head: bytes) -> bool:
    """Whether a file's first bytes read as printable UTF-8 text (a character cut at the end aside)."""
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 3:
            return False
        text = head[:exc.start].decode("utf-8")
    return all(c.isprintable() or c in "\t\r\n" for c in text)


def _require_regular_log(path: Path) -> None:
    """DuckDB reads the write-ahead log beside a file (``NAME.wal``) when it opens it: that too must
    be a regular file, or nothing."""
    log = f"{path}.wal"
    try:
        mode = os.stat(log).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise _unreachable(Path(log), exc) from None
    _require_regular(log, mode, what="the archive's write-ahead log")


def _unreachable(path: Path, exc: OSError) -> ArchiveError:
    if isinstance(exc, PermissionError):
        return ArchiveError(f"archive {path}: permission denied (this user may not read it or its folder)")
    return ArchiveError(f"archive {path}: cannot be opened: {exc.strerror or exc}")
