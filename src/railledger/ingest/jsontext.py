"""Strict JSON decoding for records: what Python's json module lets through that JSON does not.

``json.loads`` accepts ``NaN`` and ``Infinity``, turns ``1e400`` into infinity, keeps the last of
two equal keys in an object, and raises RecursionError (not a decoding error) on deeply nested
text and ValueError on integers of thousands of digits. Each of these would either crash a run or
store a value that is not what the file says, so here each is a :class:`RecordError` instead.
Nesting is bounded by the interpreter's recursion limit while decoding (about a thousand levels);
the schema (:mod:`ingest.schema`) then limits what a record keeps to far less.
"""

from __future__ import annotations

import json
import math
from typing import Any

from railledger.ingest.errors import RecordError


class _Refused(ValueError):
    """A JSON value the decoder hooks refuse; carries the reason."""


def _constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {text[:40]} is too large")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
        raise _Refused(f"the key {twice[:40]!r} appears twice in one object")
    return found


_DECODER = json.JSONDecoder(parse_constant=_constant, parse_float=_finite, object_pairs_hook=_unique_keys)


def decode(text: str) -> Any:
    """The value of a whole JSON document; raises RecordError telling a truncated one from a malformed one."""
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        if exc.pos >= len(text.rstrip()):
            raise RecordError(f"truncated record: the JSON ends early (line {exc.lineno}, column {exc.colno})") from None
        raise RecordError(f"malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except (_Refused, RecursionError, ValueError) as exc:
        raise RecordError(f"refused JSON: {_reason(exc)}") from None


def decode_at(text: str, pos: int) -> tuple[Any, int]:
    """The JSON value starting at ``pos`` in a line of text and where it ends.

    Raises RecordError whose ``column`` (1-based) points at the problem when the decoder knows it.
    """
    try:
        return _DECODER.raw_decode(text, pos)
    except json.JSONDecodeError as exc:
        raise RecordError(exc.msg, column=exc.pos + 1) from None
    except (_Refused, RecursionError, ValueError) as exc:
        raise RecordError(_reason(exc), column=pos + 1) from None


def _reason(exc: Exception) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deeply (arrays or objects inside each other too many times)"
    if isinstance(exc, _Refused):
        return str(exc)
    return "a number has too many digits to read"  # int() refuses thousands of digits
