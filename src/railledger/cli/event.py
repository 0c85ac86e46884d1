"""``railledger event check|seat|report``: an event file's standings, its next round's seating, and
its standings as a page to send (railledger.events, railledger.reports.event).

Its own module so that the commands live apart from ``cli/app.py``, which only registers the
group. Every fault of an event file is one line on stderr naming the file, the line and the field.
"""

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from railledger.cli.options import DEFAULT_DB, DEFAULT_WAIT, DbOption, WaitOption, fail, waiting
from railledger.cli.pull import SiteOptions, site_options

if TYPE_CHECKING:  # the events room, the archive and httpx load when a command runs, not for railledger --help
    from railledger.events.checking import EventCheck, Seated
    from railledger.pipeline.fetching import Fetcher
    from railledger.reports.event import GameLink

event_app = typer.Typer(help="Tournaments and leagues run from an event file (docs/events.md): standings, seating, reports.",
                        no_args_is_help=True, rich_markup_mode=None)

EventFileArgument = Annotated[Path, typer.Argument(metavar="FILE", help="The event file (TOML, docs/events.md).")]
def pulling(command: Callable[..., None]) -> Callable[..., None]:
    """An event command with --pull and the options of railledger pull that say how to treat the site."""
    return site_options(command, ask=True)


@contextmanager
def _faults() -> Iterator[None]:
    """An event file's faults, or an archive's, as lines on stderr and exit 1."""
    from railledger.cli.output import consoles, say
    from railledger.events.file import EventError
    from railledger.records import ArchiveError

    try:
        yield
    except EventError as exc:
        for line in exc.lines:
            say(consoles()[1], line)
        raise typer.Exit(code=1) from None
    except ArchiveError as exc:
        raise fail(str(exc)) from None


@contextmanager
def _client(site: SiteOptions) -> "Iterator[Fetcher | None]":
    """The polite client of 18xx.games when the command pulls, else None (the archive alone)."""
    if not site.asked:
        yield None
        return
    with site.fetcher() as client:
        yield client


@pulling
def check(
    file: EventFileArgument,
    db: DbOption = Path(DEFAULT_DB),
    wait: WaitOption = DEFAULT_WAIT,
    *,
    site: SiteOptions,
) -> None:
    """Read an event file, fit its games to its tables, and print the standings.

    Per player: the score of each round, the total, the tie-breaks that placed them and notes
    (substitutes, abandoned seats, leaving the event). Every game whose verdict is not valid and
    that the organizer has not decided on yet is set apart with its reason; decisions are listed
    with theirs. With --pull the event's games are fetched first (a game held finished is not
    fetched again; an unfinished one is), and checked against the file before any is stored.

    Exits 1, storing nothing, when the file or its games do not fit: each fault is one line naming
    the file's line and field (an unknown game, a player at two tables of a round, a table size
    the scoring does not cover, a game of another title...).

    Example: railledger event check league.toml --pull
    """
    from railledger.cli.output import consoles, progress_bars, say
    from railledger.cli.text import listing, plain
    from railledger.events.checking import check_event
    from railledger.reports.event import (decision_rows, score_columns, scoring_line, set_apart_rows, standings_header,
                                          standings_rows, state_line)

    with _client(site) as client, progress_bars() as progress, _faults():
        checked = check_event(file, db, fetcher=client, keep=site.keep, workers=site.workers, wait=wait, on_wait=waiting,
                              progress=progress)
    event = checked.event
    if checked.pull is not None and checked.pull.ingest is not None:
        say(consoles()[1], f"pulled and stored {len(checked.pull.kept)} game{'' if len(checked.pull.kept) == 1 else 's'}")
    blocks = [plain(f"{event.name} ({', '.join(event.titles)}): {len(event.rounds)} round"
                    f"{'' if len(event.rounds) == 1 else 's'}, {len(event.players)} players. {scoring_line(event)}"),
              listing(standings_header(event), standings_rows(checked), right=score_columns(event))]
    pending = set_apart_rows(checked)
    if pending:
        blocks.append("not counted (not valid, and no decision yet):\n" + listing(("table", "game", "why"), pending))
    decisions = decision_rows(checked)
    if decisions:
        blocks.append("decisions:\n" + listing(("table", "game", "ruling", "reason", "verdict"), decisions))
    blocks.append(f"standings: {state_line(checked)}")
    sys.stdout.write("\n\n".join(blocks) + "\n")


@pulling
def seat(
    file: EventFileArgument,
    round_number: Annotated[int, typer.Option("--round", min=1, help="The round to seat: one whose games are not made "
                                                                     "yet, or the next one.")],
    top: Annotated[Optional[int], typer.Option("--top", min=1, help="Seat only the first N of the standings "
                                                                    "(a semifinal, a final).")] = None,
    db: DbOption = Path(DEFAULT_DB),
    wait: WaitOption = DEFAULT_WAIT,
    *,
    site: SiteOptions,
) -> None:
    """Propose the tables of a round and write them into the event file.

    Tables are of the sizes the event allows (seating.sizes, within the title's player counts;
    as many of seating.prefer as the players allow). Among all seatings it takes the one with the
    fewest repeat pairings (two players who shared a table before), then the one whose tables
    hold players of the closest standing (Swiss-like), then a draw seeded by the event's seed. Up
    to 16 players that seating is proven the best; above, it is the best a search found. Players
    who left the event (dropped_after) are not seated. The file keeps its comments and layout;
    the round's tables list their players, for the games to be made.

    Example: railledger event seat league.toml --round 3
    """
    from railledger.cli.output import progress_bars
    from railledger.events.checking import seat_round

    with _client(site) as client, progress_bars() as progress, _faults():
        seated = seat_round(file, db, round_number, top=top, fetcher=client, keep=site.keep, workers=site.workers,
                            wait=wait, on_wait=waiting, progress=progress)
    _print_seating(file, round_number, seated)


class EventReportFormat(str, Enum):
    html = "html"
    md = "md"
    csv = "csv"


def report(
    file: EventFileArgument,
    fmt: Annotated[EventReportFormat, typer.Option("--format", help="html (one page), md (Markdown) or csv (the standings "
                                                                     "alone).")] = EventReportFormat.html,
    output: Annotated[Optional[Path], typer.Option("-o", "--output", help="File to write (default: stdout). With html or "
                                                                          "md, each game's report is written beside it.")] = None,
    db: DbOption = Path(DEFAULT_DB),
    wait: WaitOption = DEFAULT_WAIT,
) -> None:
    """Write the event's standings as something to send: one page of the standings, every game's
    verdict and placings, the decisions with their reasons, and the games not counted.

    The archive alone is read (run event check --pull first). With -o, each game's own report
    (railledger report) is written in a folder beside the page, FILE-games/, and linked from it;
    on stdout the games link to their pages on 18xx.games.

    Example: railledger event report league.toml --format html -o standings.html
    """
    from railledger.cli.options import write_document
    from railledger.events.checking import check_event
    from railledger.reports import event as pages

    with _faults():
        checked = check_event(file, db, wait=wait, on_wait=waiting)
    if fmt is EventReportFormat.csv:
        write_document(pages.csv_text(checked), output)
        return
    link: "GameLink" = pages.site_link
    if output is not None and str(output) != "-":
        link = _game_reports(checked, output, fmt.value, db, wait)
    render = pages.page if fmt is EventReportFormat.html else pages.markdown
    write_document(render(checked, link), output)


def _game_reports(checked: "EventCheck", output: Path, extension: str, db: Path, wait: float) -> "GameLink":
    """Write each stored game's report beside ``output`` (``<name>-games/<id>.<extension>``); the
    links to them, or to 18xx.games for a game not stored."""
    from railledger.cli.options import game_record
    from railledger.cli.report import archived_report
    from railledger.pipeline.site import game_key
    from railledger.reports import game as game_pages
    from railledger.reports.event import site_link

    folder = output.with_name(f"{output.stem}-games")
    written: set[int] = set()
    for result in checked.results:
        game = result.table.game
        if game is None or result.verdict is None:
            continue
        report = archived_report(*game_record(game_key(game), db, wait), db, wait)
        text = game_pages.page(report) if extension == "html" else game_pages.markdown(report)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{game}.{extension}").write_text(text, encoding="utf-8")
        except OSError as exc:
            raise fail(f"{folder}: cannot write: {exc.strerror or exc}") from None
        written.add(game)
    return lambda game: f"{folder.name}/{game}.{extension}" if game in written else site_link(game)


def _print_seating(file: Path, number: int, seated: "Seated") -> None:
    """The proposed tables, each player with their place before the round."""
    from railledger.cli.text import listing, plain

    places = {line.player.id: line for line in seated.before}
    proposal = seated.proposal
    rows = [(str(n), ", ".join(f"{places[u].player.name} ({places[u].place})" for u in table), str(len(table)))
            for n, table in enumerate(proposal.tables, start=1)]
    lead = (f"round {number}: {len(proposal.tables)} tables, {proposal.repeats} repeat pairing"
            f"{'' if proposal.repeats == 1 else 's'}, standing distance {proposal.distance}"
            f"{'' if proposal.exact else ' (the best a search found; not proven the best)'}")
    table = listing(("table", "players (place before the round)", "seats"), rows, right=frozenset({2}))
    sys.stdout.write(f"{lead}\n{table}\n{plain(f'written to {file}')}\n")


event_app.command()(check)
event_app.command()(seat)
event_app.command()(report)
