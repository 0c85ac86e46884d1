"""Errors raised while reading records.

Every reader error carries where it happened (file, line and column, action, field) so the CLI can
print one line a person can act on without a traceback, e.g.
``game.json: action 42 (#12): field rotation: must be a whole number from 0 to 5, got 'x'``.
"""

from __future__ import annotations


class RecordError(Exception):
    """A record that cannot be read or breaks the input schema (docs/input.md).

    ``origin`` names the file (or ``file:line`` inside JSON Lines, ``<stdin>`` for standard
    input); ``action`` the action, as its id and its index in the file's action list
    (``42 (#12)``) or its position alone (``#12``); ``field`` the field, spelled as the file spells
    it (``settings.seed``, ``[Seed]``, ``routes[0].revenue``); ``line`` and ``column`` point into
    a notation file.
    """

    def __init__(
        self,
        message: str,
        *,
        origin: str | None = None,
        action: str | None = None,
        field: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.origin = origin
        self.action = action
        self.field = field
        self.line = line
        self.column = column

    def located(self, origin: str) -> RecordError:
        """Return this error with ``origin`` filled in, keeping a more precise one if set."""
        if self.origin is None:
            self.origin = origin
        return self

    def __str__(self) -> str:
        where = self.origin or "<record>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        parts = [where]
        if self.action is not None:
            parts.append(f"action {self.action}")
        if self.field is not None:
            parts.append(f"field {self.field}")
        return ": ".join([*parts, self.message])


class UnknownTitle(RecordError):
    """A record of a title railledger has no rules or data for (``title``): not a broken record,
    so ``conformance`` says NO ENGINE for it rather than FAIL."""

    def __init__(self, title: object, **where: object) -> None:
        super().__init__(f"unknown title {title!r}: railledger has no engine for it", **where)  # type: ignore[arg-type]
        self.title = title
