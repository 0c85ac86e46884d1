"""The stock market grid: where each company's share price token stands, and how it moves.

Cells are addressed (row, column), row 0 at the top. Tokens in one cell form a stack: a token
moving in goes to the bottom, which decides operating order among equal prices.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from railledger.replay.journal import APPLYING
from railledger.replay.memo import EntityChanges


@dataclass(frozen=True, slots=True)
class Cell:
    row: int
    column: int
    price: int
    par: bool = False
    zone: str | None = None  # e.g. "yellow": certificates there do not count against the limit


class StockMarket:
    """A grid of cells with a stack of company tokens per occupied cell."""

    def __init__(self, rows: list[list[Cell | None]]) -> None:
        self.rows = rows
        self.position: dict[str, Cell] = {}
        self.stacks: dict[tuple[int, int], list[str]] = {}
        self.moved: set[str] | None = None
        """Companies whose token was placed, moved or removed, noted once a snapshot asks
        (:meth:`replay.state.GameState.track_changes`); None: nobody asks."""
        self.entity_changes: EntityChanges | None = None
        """The game's count of changes (:class:`~replay.memo.EntityChanges`): a token's move is one."""

    def cell(self, row: int, column: int) -> Cell | None:
        if 0 <= row < len(self.rows) and 0 <= column < len(self.rows[row]):
            return self.rows[row][column]
        return None

    def par_cells(self) -> list[Cell]:
        return [c for row in self.rows for c in row if c is not None and c.par]

    def place(self, company: str, cell: Cell) -> None:
        """Put a token on a cell (at the bottom of its stack)."""
        self.before_change()
        self.remove(company)
        self.position[company] = cell
        self.stacks.setdefault((cell.row, cell.column), []).append(company)
        if self.moved is not None:
            self.moved.add(company)

    def remove(self, company: str) -> None:
        self.before_change()
        cell = self.position.pop(company, None)
        if cell is not None:
            self.stacks[(cell.row, cell.column)].remove(company)
            if self.moved is not None:
                self.moved.add(company)

    def price(self, company: str) -> int:
        return self.position[company].price

    def _move_to(self, company: str, row: int, column: int) -> bool:
        target = self.cell(row, column)
        if target is None:
            return False
        self.place(company, target)
        return True

    def move_up(self, company: str) -> None:
        here = self.position[company]
        self._move_to(company, here.row - 1, here.column)

    def move_down(self, company: str) -> None:
        here = self.position[company]
        self._move_to(company, here.row + 1, here.column)

    def move_right(self, company: str) -> None:
        """Right one cell; at the end of a row, up one instead."""
        here = self.position[company]
        if not self._move_to(company, here.row, here.column + 1):
            self.move_up(company)

    def move_left(self, company: str) -> None:
        """Left one cell; at the start of a row, down one instead."""
        here = self.position[company]
        if here.column == 0 or not self._move_to(company, here.row, here.column - 1):
            self.move_down(company)

    def order_key(self, company: str) -> tuple[int, int, int, int]:
        """Sort key for descending market value: price, then right-most, then higher, then stack."""
        cell = self.position[company]
        stack = self.stacks[(cell.row, cell.column)]
        return (-cell.price, -cell.column, cell.row, stack.index(company))

    def before_change(self) -> None:
        """A token is about to move: the undo journal keeps the positions and stacks as they are
        (once per action)."""
        if self.entity_changes is not None:
            self.entity_changes.count += 1
        journal = APPLYING.journal
        if journal is not None:
            journal.save(self, {"position": dict(self.position),
                                "stacks": {cell: list(stack) for cell, stack in self.stacks.items()}})

    def restore(self, saved: dict[str, Any]) -> None:
        """Put back what :meth:`before_change` kept; the companies moved count as moved."""
        if self.moved is not None:
            self.moved.update(self.position, saved["position"])
        self.position.clear()
        self.position.update(saved["position"])
        self.stacks.clear()
        self.stacks.update(saved["stacks"])
