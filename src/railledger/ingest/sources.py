"""Finding and reading records: files, directories (recursively), JSON Lines and stdin.

Each record read yields a :class:`Loaded` with either the record or the one-line error that kept
it out, so one bad file never stops the others. Reads are bounded: only regular files are opened
for reading (a FIFO would block forever, a device such as /dev/zero never ends), no more than
``max_size`` bytes are read, and every record is held to the input schema (:mod:`ingest.schema`)
before it is handed on. Any unexpected failure while reading one record becomes that record's
error, never an exception out of :func:`load`.
"""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from railledger.ingest import DEFAULT_MAX_SIZE, jsontext, notation
from railledger.ingest.errors import RecordError
from railledger.ingest.export import parse_export
from railledger.ingest.model import Record, SourceText
from railledger.ingest.schema import Places, check_record

JSON_EXTENSIONS = (".json",)
JSON_LINES_EXTENSIONS = (".jsonl", ".ndjson")
NOTATION_EXTENSIONS = (notation.EXTENSION,)
RECORD_EXTENSIONS = JSON_EXTENSIONS + JSON_LINES_EXTENSIONS + NOTATION_EXTENSIONS
STDIN = "-"


@dataclass(frozen=True)
class Loaded:
    """One record read from ``origin`` with the text it was read from, or the error that kept it out."""

    origin: str
    record: Record | None = None
    error: RecordError | None = None
    source: SourceText | None = None


def shown_path(path: str) -> str:
    r"""A path as text that can be printed and stored: bytes of a name that are not UTF-8 (which
    Python keeps as lone surrogates) written as ``\xNN``."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def expand(paths: Iterable[str | Path]) -> list[str]:
    """Record files named by ``paths``: files as given, directories searched recursively.

    In a directory, every entry with a record extension that is not a directory is listed, even
    a FIFO or a socket, so that :func:`load` reports it rather than skipping it in silence;
    hidden entries are skipped and symbolic links to directories are not followed (no loops).
    A directory that cannot be listed, and one given that holds no record file, is listed
    itself, for :func:`load` to report: a run given nothing to read says so.
    """
    found: list[str] = []
    for path in paths:
        if str(path) == STDIN:
            found.append(STDIN)
            continue
        text = str(path)
        if not os.path.isdir(text):
            found.append(text)
            continue
        unreadable: list[str] = []
        before = len(found)
        for folder, dirs, files in os.walk(text, onerror=lambda exc: unreadable.append(str(exc.filename))):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            found.extend(
                os.path.join(folder, name)
                for name in sorted(files)
                if not name.startswith(".") and os.path.splitext(name)[1].lower() in RECORD_EXTENSIONS
            )
        found.extend(unreadable)
        if len(found) == before:
            found.append(text)
    return found


@dataclass(frozen=True)
class FileText:
    """The text of one file (or of stdin) as read, not parsed yet, or why it could not be read.

    Reading is quick and touches the file system; parsing and checking take the time. An ingest
    reads in its own process and parses in its workers, which then need no access to the files
    (a Dask worker may run on another machine).
    """

    origin: str  # as given: its extension chooses the parser
    name: str  # as shown and stored
    text: str | None = None
    error: RecordError | None = None


def read_file(origin: str, max_size: int = DEFAULT_MAX_SIZE) -> FileText:
    """The text of one file, or of stdin when ``origin`` is ``-``; an error is kept, not raised."""
    name = "<stdin>" if origin == STDIN else shown_path(origin)
    try:
        return FileText(origin, name, text=_read_text(origin, max_size))
    except RecordError as exc:
        return FileText(origin, name, error=exc.located(name))


def load(origin: str, max_size: int = DEFAULT_MAX_SIZE) -> Iterator[Loaded]:
    """Every record in one file (several for JSON Lines), or stdin when ``origin`` is ``-``."""
    return parse_file(read_file(origin, max_size))


def parse_file(file: FileText) -> Iterator[Loaded]:
    """Every record of a file's text, each parsed and checked against the input schema."""
    if file.text is None:
        yield Loaded(file.name, error=file.error)
        return
    for where, parse, source in _parsers(file.origin, file.text, file.name):
        try:
            record, places = parse()
            check_record(record, places)
        except RecordError as exc:
            yield Loaded(where, error=exc.located(where))
        except Exception as exc:  # a bug meeting a record nobody foresaw: that record fails, the run goes on
            yield Loaded(where, error=RecordError(f"unexpected error while reading: {type(exc).__name__}: {exc}", origin=where))
        else:
            yield Loaded(where, record=record, source=source)


def read_record(origin: str, max_size: int = DEFAULT_MAX_SIZE) -> Record:
    """Exactly one record from a file (or stdin); raises :class:`RecordError` otherwise."""
    loaded = list(load(origin, max_size))
    if len(loaded) != 1:
        raise RecordError(f"holds {len(loaded)} records, expected one", origin=shown_path(origin))
    if loaded[0].error is not None:
        raise loaded[0].error
    assert loaded[0].record is not None
    return loaded[0].record


def _read_text(origin: str, max_size: int) -> str:
    """The text of a regular file or of stdin, at most ``max_size`` bytes of UTF-8."""
    data = _read_stdin(max_size) if origin == STDIN else _read_file(origin, max_size)
    if len(data) > max_size:
        raise RecordError(f"is larger than {max_size:,} bytes (--max-size)")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise RecordError(f"is not UTF-8 text (byte {exc.start:,} is not valid UTF-8)") from None


def _read_stdin(max_size: int) -> bytes:
    if sys.stdin is None or sys.stdin.closed:  # None: the process was started with standard input closed
        raise RecordError("cannot read standard input: it is closed")
    try:
        return sys.stdin.buffer.read(max_size + 1)
    except (AttributeError, OSError, ValueError) as exc:
        raise RecordError(f"cannot read standard input: {exc}") from None


def _read_file(path: str, max_size: int) -> bytes:
    """At most ``max_size + 1`` bytes of a regular file; anything else is refused unread.

    The kind is checked before opening (opening a FIFO waits for a writer) and again on the open
    descriptor, opened without blocking, in case the name changed in between.
    """
    try:
        _require_regular(os.stat(path).st_mode, path)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise RecordError(f"cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        _require_regular(info.st_mode, path)
        if info.st_size > max_size:
            raise RecordError(f"is {info.st_size:,} bytes, larger than {max_size:,} (--max-size)")
        chunks: list[bytes] = []
        left = max_size + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise RecordError(f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def _require_regular(mode: int, path: str) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):  # given, or found unlistable, by expand
        try:
            os.listdir(path)
        except OSError as exc:
            raise RecordError(f"cannot list this directory: {exc.strerror or exc}") from None
        raise RecordError(f"holds no record file ({', '.join(RECORD_EXTENSIONS)}), in it or in its folders")
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    raise RecordError(f"not read: it is {kind}; only regular files are read")


Parser = Callable[[], tuple[Record, Places]]


def _parsers(origin: str, text: str, name: str) -> list[tuple[str, Parser, SourceText]]:
    """(where, parse, its text) for each record in a file's text, chosen by extension or content."""
    suffix = Path(origin).suffix.lower() if origin != STDIN else ""
    if suffix in NOTATION_EXTENSIONS or (suffix == "" and _looks_like_notation(text)):
        return [(name, lambda: notation.read_located(text, name), SourceText("notation", text))]
    if suffix in JSON_LINES_EXTENSIONS or (suffix == "" and _looks_like_json_lines(text)):
        return [
            (f"{name}:{number}", lambda line=line: parse_export(jsontext.decode(line)), SourceText("json", line))  # type: ignore[misc]
            for number, line in enumerate(text.split("\n"), start=1)
            if line.strip()
        ]
    if suffix in JSON_EXTENSIONS or suffix == "":
        return [(name, lambda: parse_export(jsontext.decode(text)), SourceText("json", text))]
    error = RecordError(f"not a record file (expected {', '.join(RECORD_EXTENSIONS)})")
    return [(name, lambda: _raise(error), SourceText("json", text))]


def _looks_like_notation(text: str) -> bool:
    """Notation opens with a header line ``[...]``, after any comment or blank lines."""
    for line in text.split("\n"):
        content = line.strip()
        if content and not content.startswith("#"):
            return content.startswith("[")
    return False


def _looks_like_json_lines(text: str) -> bool:
    lines = [line for line in text.split("\n") if line.strip()]
    return len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines)


def _raise(error: RecordError) -> tuple[Record, Places]:
    raise error
