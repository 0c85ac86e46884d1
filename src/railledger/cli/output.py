"""Printing text that came from records, files or the archive: shown as what it is, never obeyed.

Everything outside text passes through :func:`cli.text.plain` (each character a terminal would not
print as itself becomes a visible escape such as ``\\x1b``), and it reaches rich as a
:class:`~rich.text.Text`, which rich never parses as markup (``[bold red]`` in a name stays text).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rich.console import Console, ConsoleDimensions
from rich.text import Text

from railledger.cli.text import plain

if TYPE_CHECKING:
    from railledger.bench.sections import Section
    from railledger.pipeline.progress import Progress


def cell(value: object) -> Text:
    """A table cell (or title) of outside text: escaped, and never read as markup."""
    return Text(plain(value))


def print_section(console: Console, section: Section) -> None:
    """A bench section as a table (figures right-aligned, text left) or its title, then its lines."""
    from rich.table import Table

    if section.columns:
        table = Table(title=cell(section.title))
        for n, column in enumerate(section.columns):
            table.add_column(column, justify="left" if n in section.left else "right", overflow="fold")
        for row in section.rows:
            table.add_row(*map(cell, row))
        console.print(table)
    else:
        say(console, section.title + ":")
    for line in section.lines:
        say(console, line)


def say(console: Console, value: object) -> None:
    """Print one line of outside text on ``console``."""
    console.print(cell(value), soft_wrap=True, markup=False, highlight=False)


UNBOUNDED = 100_000
"""Columns a console writing to a file or pipe lays tables out in: as wide as their cells."""


class Output(Console):
    """A console as wide as its terminal, and unbounded when it writes to a file or a pipe.

    rich lays tables out in 80 columns when its output is not a terminal, folding every cell of
    ``railledger games > list.txt`` into narrow stacks; a file has no width. ``COLUMNS`` still
    sets one, as it does for rich.

    It writes no emoji for ``:name:`` codes: railledger's own texts use none, and looking for them
    loads rich's table of codes (4 ms of every command that prints a table).
    """

    def __init__(self, **options: Any) -> None:
        super().__init__(**{"emoji": False, **options})

    @property
    def size(self) -> ConsoleDimensions:
        measured = super().size
        if self._width is None and not self.is_terminal and not self._environ.get("COLUMNS"):
            return ConsoleDimensions(UNBOUNDED, measured.height)
        return measured

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)  # type: ignore[attr-defined]


@functools.cache
def consoles(**options: Any) -> tuple[Output, Output]:
    """The (stdout, stderr) consoles of a command, made on first use and shared after.

    A command asks for them when it prints rather than at import, so that ``railledger --help``
    does not load rich's console; a console writes to whatever ``sys.stdout`` is when it prints.
    """
    return Output(**options), Output(stderr=True, **options)


@contextmanager
def progress_bars(console: Console | None = None) -> Iterator[Progress]:
    """A :class:`~railledger.pipeline.progress.Progress` drawn as one bar a label on ``console``
    (stderr by default), gone when the work is done (transient).

    The bars appear at the work's first report, not before: a line said while the work waits to
    begin (for an archive another process holds) is printed as it is, with no bar beside it.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as Bars

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    bars = Bars(*columns, console=console or consoles()[1], transient=True)
    tasks: dict[str, Any] = {}

    def advance(label: str, done: int, total: int) -> None:
        if not tasks:
            bars.start()
        if label not in tasks:
            tasks[label] = bars.add_task(label, total=total)
        bars.update(tasks[label], completed=done, total=total)

    try:
        yield advance
    finally:
        if tasks:
            bars.stop()
