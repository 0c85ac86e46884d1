"""Errors raised while reading records.

Every reader error carries where it happened (file, action, line and column) so the CLI can print
one line a person can act on without a traceback.
"""

from __future__ import annotations


class RecordError(Exception):
    """A record that cannot be read: malformed, truncated, not a record, or with an unknown part.

    ``origin`` names the file (or ``file:line`` inside JSON Lines, ``<stdin>`` for standard
    input); ``action`` the record's action id or position where the problem is; ``line`` and
    ``column`` point into a notation file.
    """

    def __init__(
        self,
        message: str,
        *,
        origin: str | None = None,
        action: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.origin = origin
        self.action = action
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
        if self.action is not None:
            return f"{where}: action {self.action}: {self.message}"
        return f"{where}: {self.message}"
