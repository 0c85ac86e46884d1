"""Outside text made safe to print, and plain column listings, without rich.

Player names, game ids, file names and error messages quoting them are written by other people.
Printed raw, an escape sequence in a name would drive the terminal (clear it, retitle it, hide
text). :func:`plain` writes each character a terminal would not print as itself (controls,
escape, bidi overrides, line separators, lone surrogates from a non-UTF-8 file name) as a
visible escape such as ``\\x1b``. :mod:`cli.output` hands such text to rich; a listing that
should print before rich would even be imported (``railledger games``) lays it out here.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

_UNPRINTABLE = re.compile(r"[^\x20-\x7e]")

GAP = "  "
"""Between two columns of a listing."""


def plain(value: object) -> str:
    """``str(value)`` with every unprintable character written as its Python escape (``\\x1b``)."""
    text = str(value)
    if text.isascii() and text.isprintable():
        return text
    return _UNPRINTABLE.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return char if char.isprintable() else char.encode("unicode_escape").decode("ascii")


def width(text: str) -> int:
    """The terminal columns ``text`` (already :func:`plain`) takes: two for a wide East Asian
    character, none for a combining mark, one for any other. (rich's ``cells.cell_len`` says the
    same and more, but importing it loads rich's width tables: 24 ms of a listing's start.)"""
    if text.isascii():
        return len(text)
    return sum(0 if unicodedata.combining(char) else 2 if unicodedata.east_asian_width(char) in "WF" else 1
               for char in text)


def listing(header: Sequence[str], rows: Iterable[Sequence[object]], right: frozenset[int] = frozenset()) -> str:
    """A table as lines of text: a header line, then one line per row, each cell :func:`plain`
    and padded to its column's widest (right-aligned in the columns numbered in ``right``), the
    columns :data:`GAP` apart, no trailing spaces. What ``grep``, ``sort`` and a reader's eye
    take alike: one row per line, no borders."""
    cells = [list(header), *([plain(value) for value in row] for row in rows)]
    widths = [max(width(line[column]) for line in cells) for column in range(len(header))]
    last = len(header) - 1

    def laid_out(line: list[str]) -> str:
        padded = []
        for column, text in enumerate(line):
            fill = " " * (widths[column] - width(text))
            if column in right:
                padded.append(fill + text)
            else:
                padded.append(text if column == last else text + fill)
        return GAP.join(padded)

    return "\n".join(laid_out(line).rstrip() for line in cells)
