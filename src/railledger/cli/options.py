"""What the commands that read the archive share: its options, and opening it read-only with one
line (and exit 1) for any failure."""

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

if TYPE_CHECKING:  # the archive (duckdb), polars and rich load when a command runs, not for --help
    from railledger.analytics.scope import Population
    from railledger.ingest.model import Record, SourceText
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


def titled(text: str) -> str:
    """The title a command's --title names (:func:`ingest.titles.resolve_title`: ignoring case, by
    the short names people use); one line listing the titles, and exit 1, for any other."""
    from railledger.ingest.titles import NoSuchTitle, resolve_title

    try:
        return resolve_title(text)
    except NoSuchTitle as exc:
        raise fail(str(exc)) from None


class Games(str, Enum):
    """Whose games a command counts (analytics.scope.GAME_KINDS)."""

    people = "people"
    bots = "bots"
    all = "all"


GamesOption = Annotated[Games, typer.Option(
    "--games", help="Whose games count: people (those people played), bots (railledger simulate's) or all.")]
EveryVerdictOption = Annotated[bool, typer.Option(
    "--every-verdict", help="Count every game whatever its verdict (unfinished, illegal, result mismatch...), not only "
                            "valid finished ones; a game with no result still ranks nobody.")]
ManualEndsOption = Annotated[bool, typer.Option(
    "--manual-ends", help="Also count games the players ended by hand (valid but for their end).")]
PlayersOption = Annotated[Optional[int], typer.Option("--players", min=1, help="Only games of this many players.")]
VariantChoiceOption = Annotated[Optional[str], typer.Option(
    "--variant", metavar="HASH|FILE", help="Only the games of this variant (its hash, or the beginning of it, or its "
                                           ".toml file); without it, the titles as published.")]


def variant_choice(choice: str | None) -> str | None:
    """The hash (or its beginning) of a variant named on the command line: a variant file's (the
    file checked against its title) or 6 to 64 hex digits; the command fails in one line for
    anything else."""
    import re

    from railledger.replay.variant import VariantError
    from railledger.replay.variant_games import load_playable_variant

    if choice is None:
        return None
    if Path(choice).is_file():
        try:
            variant = load_playable_variant(Path(choice))
        except VariantError as refused:
            raise fail(str(refused)) from None
        return variant.hash
    if not re.fullmatch(r"[0-9a-fA-F]{6,64}", choice):
        raise fail(f"--variant: {choice!r} is neither a variant file nor a variant's hash (6 to 64 hex digits)")
    return choice.lower()


def population(games: Games, every_verdict: bool, manual_ends: bool = False, title: str | None = None,
               players: int | None = None, variant: str | None = None) -> "Population":
    """The population a command's scope options name (docs/statistics.md)."""
    from railledger.analytics.scope import Population

    return Population(games.value, every_verdict, manual_ends, title, players, variant)


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


def is_record_file(name: str) -> bool:
    """Whether a command's GAME names a record file (or stdin, ``-``): a file of that name
    exists. Any other name is an archived game's key or source id."""
    return name == "-" or Path(name).exists()


def game_record(name: str, db: Path, wait: float) -> "tuple[Record, SourceText | None]":
    """The one game ``name`` names, with the text it was read from, for every command that takes
    a game (show, replay, legal, audit, report): the record in that file (:func:`is_record_file`),
    else the archived game of that key or source id. Anything else is one line and exit 1."""
    from railledger.ingest.sources import DEFAULT_MAX_SIZE, load

    if not is_record_file(name):
        if not db.exists():
            raise fail(f"{name}: no such record file, and no archive {db} to look it up in (--db)")
        with reading(db, wait) as archive:
            try:
                record = archive.record(name)
            except KeyError as exc:
                raise fail(f"{name}: no such record file, and {exc.args[0] if exc.args else exc}") from None
            return record, archive.source(record.key)
    loaded = list(load(name, DEFAULT_MAX_SIZE))
    if len(loaded) != 1:
        raise fail(f"{name}: holds {len(loaded)} records; give one")
    if loaded[0].record is None:
        raise fail(str(loaded[0].error or f"{name}: not a record"))
    return loaded[0].record, loaded[0].source
