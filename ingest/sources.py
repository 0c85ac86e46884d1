"""Finding and reading records: files, directories (recursively), JSON Lines and stdin.

Each record read yields a :class:`Loaded` with either the record or the one-line error that kept
it out, so one bad file never stops the others.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ingest import notation
from ingest.errors import RecordError
from ingest.export import read_export
from ingest.model import Record

JSON_EXTENSIONS = (".json",)
JSON_LINES_EXTENSIONS = (".jsonl", ".ndjson")
NOTATION_EXTENSIONS = (notation.EXTENSION,)
RECORD_EXTENSIONS = JSON_EXTENSIONS + JSON_LINES_EXTENSIONS + NOTATION_EXTENSIONS
STDIN = "-"


@dataclass(frozen=True)
class Loaded:
    """One record read from ``origin``, or the error that kept it out."""

    origin: str
    record: Record | None = None
    error: RecordError | None = None


def expand(paths: Iterable[str | Path]) -> list[str]:
    """Record files named by ``paths``: files as given, directories searched recursively."""
    found: list[str] = []
    for path in paths:
        if str(path) == STDIN:
            found.append(STDIN)
            continue
        path = Path(path)
        if path.is_dir():
            found.extend(
                str(p)
                for p in sorted(path.rglob("*"))
                if p.is_file() and p.suffix.lower() in RECORD_EXTENSIONS and not p.name.startswith(".")
            )
        else:
            found.append(str(path))
    return found


def load(origin: str) -> Iterator[Loaded]:
    """Every record in one file (several for JSON Lines), or stdin when ``origin`` is ``-``."""
    try:
        text = sys.stdin.read() if origin == STDIN else Path(origin).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        yield Loaded(origin, error=RecordError(f"cannot read: {_reason(exc)}", origin=origin))
        return
    name = "<stdin>" if origin == STDIN else origin
    for where, parse in _parsers(origin, text, name):
        try:
            yield Loaded(where, record=parse())
        except RecordError as exc:
            yield Loaded(where, error=exc.located(where))


def read_record(origin: str) -> Record:
    """Exactly one record from a file (or stdin); raises :class:`RecordError` otherwise."""
    loaded = list(load(origin))
    if len(loaded) != 1:
        raise RecordError(f"holds {len(loaded)} records, expected one", origin=origin)
    if loaded[0].error is not None:
        raise loaded[0].error
    assert loaded[0].record is not None
    return loaded[0].record


def _parsers(origin: str, text: str, name: str) -> list[tuple[str, Callable[[], Record]]]:
    """(where, parse) pairs for each record in a file's text, chosen by extension or content."""
    suffix = Path(origin).suffix.lower() if origin != STDIN else ""
    if suffix in NOTATION_EXTENSIONS or (suffix == "" and text.lstrip().startswith("[")):
        return [(name, lambda: notation.read(text, name))]
    if suffix in JSON_LINES_EXTENSIONS or (suffix == "" and _looks_like_json_lines(text)):
        return [
            (f"{name}:{number}", lambda line=line, number=number: read_export(parse_json(line, f"{name}:{number}")))
            for number, line in enumerate(text.splitlines(), start=1)
            if line.strip()
        ]
    if suffix in JSON_EXTENSIONS or suffix == "":
        return [(name, lambda: read_export(parse_json(text, name)))]
    return [(name, lambda: _raise(RecordError(f"not a record file (expected {', '.join(RECORD_EXTENSIONS)})")))]


def parse_json(text: str, origin: str) -> object:
    """Decode JSON, telling a truncated document from a malformed one."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.pos >= len(text.rstrip()):
            raise RecordError(
                f"truncated record: the JSON ends early (line {exc.lineno}, column {exc.colno})", origin=origin
            ) from None
        raise RecordError(f"malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}", origin=origin) from None


def _looks_like_json_lines(text: str) -> bool:
    lines = [line for line in text.splitlines() if line.strip()]
    return len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines)


def _raise(error: RecordError) -> Record:
    raise error


def _reason(exc: Exception) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
