"""What the commands that read the archive share: its options, and opening it read-only with one
line (and exit 1) for any failure."""

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

if TYPE_CHECKING:  # the archive (duckdb) and rich load when a command runs, not for --help
    from railledger.records import Archive, ArchiveBusy

DEFAULT_DB = "railledger.duckdb"
DbOption = Annotated[
    Path,
    typer.Option("--db", envvar="RAILLEDGER_DB", help="DuckDB archive file (env RAILLEDGER_DB).", show_default=True),
]
DEFAULT_WAIT = 30.0
WaitOption = Annotated[
    float,
    typer.Option("--wait", min=0, help="Seconds to wait while another process holds the archive (0: fail at once)."),
]

WorkersOption = Annotated[int, typer.Option("--workers", help="Worker processes that replay (1: this process).", min=1)]
ClusterOption = Annotated[
    Optional[str],
    typer.Option("--cluster", metavar="ADDRESS", help="Replay on the Dask distributed cluster whose scheduler is at "
                                                      "ADDRESS (tcp://host:8786) instead of local processes."),
]


def fail(message: str) -> typer.Exit:
    """Say ``message`` on stderr; the exit (code 1) for the caller to raise."""
    from railledger.cli.output import consoles, say

    say(consoles()[1], message)
    return typer.Exit(code=1)


def write_document(text: str, output: Path | None) -> None:
    """Write a command's document to ``output``, or to stdout without one (or with ``-``); a
    failure is one line."""
    if output is None or str(output) == "-":
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise fail(f"{output}: cannot write: {exc.strerror or exc}") from None


def waiting(busy: "ArchiveBusy", wait: float) -> None:
    """Say once that an open is waiting for another process, and for how long at most."""
    from railledger.cli.output import consoles, say

    say(consoles()[1], f"archive {busy.path} is in use by {busy.holder}; waiting up to {wait:g} s (--wait)")


@contextmanager
def reading(db: Path, wait: float) -> Iterator["Archive"]:
    """The archive opened read-only for one command; any archive failure is one line and exit 1."""
    from railledger.records import Archive, ArchiveError

    try:
        with Archive.open(db, read_only=True, wait=wait, on_wait=waiting) as archive:
            yield archive
    except ArchiveError as exc:  # busy past the wait, damaged, foreign, or not yet migrated
        raise fail(str(exc)) from None
    except FileNotFoundError:
        raise fail(f"{db}: no archive here; run 'railledger ingest' first") from None
