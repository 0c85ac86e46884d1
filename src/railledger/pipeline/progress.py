"""How long work tells whoever runs it how far it has come, without knowing how it is shown.

The command line draws a progress bar from these calls; a notebook or a test passes nothing and
is told nothing. Each piece of work has a label ("ingesting", "playing 18MS"); a label's first
call carries its total.
"""

from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    """Called with a piece of work's label, the units done so far and the units in all."""

    def __call__(self, label: str, done: int, total: int) -> None:
        """Say that ``done`` of ``total`` units of the work called ``label`` are done."""


def silent(label: str, done: int, total: int) -> None:
    """The progress of work nobody watches."""
