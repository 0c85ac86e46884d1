"""Which line of a TOML file says what: so that an error names the line and the field.

tomlkit keeps a document's text and comments but not where each value stood, so the lines are
found here by reading the file's headers (``[scoring]``, ``[[rounds]]``, ``[[rounds.tables]]``)
and keys, counting each array of tables as TOML does: the second ``[[rounds.tables]]`` after the
first ``[[rounds]]`` is ``rounds[0].tables[1]``. Values spanning lines (arrays, multi-line
strings) are skipped over, and a key inside an inline table is on its table's line.
"""

from __future__ import annotations

import re

_HEADER = re.compile(r"\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"""\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=""")


def _parts(dotted: str) -> list[str]:
    return [part.strip().strip("\"'") for part in re.findall(r"""[A-Za-z0-9_-]+|"[^"]*"|'[^']*'""", dotted)]


class Lines:
    """The line (from 1) of each table and key of a TOML text, by path (``rounds[0].tables[1].game``)."""

    def __init__(self, text: str) -> None:
        self.found: dict[str, int] = {}
        counts: dict[str, int] = {}
        current = ""
        depth = 0  # open brackets and braces of a value spanning lines
        in_string: str | None = None  # the quotes of a multi-line string being read
        for number, line in enumerate(text.splitlines(), start=1):
            if in_string is not None:
                if in_string in line:
                    in_string = None
                continue
            if depth > 0:
                depth = max(0, depth + _balance(line))
                continue
            header = _HEADER.match(line)
            if header is not None:
                current = self._table(header.group(2), header.group(1) == "[[", counts)
                self.found.setdefault(current, number)
                continue
            key = _KEY.match(line)
            if key is None:
                continue
            path = ".".join(filter(None, [current, *_parts(key.group(1))]))
            self.found.setdefault(path, number)
            value = line[key.end():]
            for quotes in ('"""', "'''"):
                if value.count(quotes) == 1:
                    in_string = quotes
            depth = max(0, _balance(value))

    def _table(self, dotted: str, array: bool, counts: dict[str, int]) -> str:
        """The path of a header, each array of tables it passes through at its latest element."""
        path = ""
        parts = _parts(dotted)
        for n, part in enumerate(parts):
            path = f"{path}.{part}" if path else part
            last = n == len(parts) - 1
            if last and array:
                counts[path] = counts.get(path, -1) + 1
                for stale in [key for key in counts if key.startswith(f"{path}[")]:
                    del counts[stale]  # a new element starts its own inner arrays from 0
                path = f"{path}[{counts[path]}]"
            elif path in counts:
                path = f"{path}[{counts[path]}]"
        return path

    def line(self, path: str) -> int | None:
        """The line of ``path``, or of the nearest table or key holding it; None when none is found."""
        while path:
            if path in self.found:
                return self.found[path]
            cut = max(path.rfind("."), path.rfind("["))
            path = path[:cut] if cut > 0 else ""
        return None


def _balance(text: str) -> int:
    """Brackets and braces opened less those closed in a line, outside strings and comments."""
    balance = 0
    quote: str | None = None
    for char in text:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "#":
            break
        elif char in "[{":
            balance += 1
        elif char in "]}":
            balance -= 1
    return balance
