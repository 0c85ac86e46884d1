"""``railledger report GAME|RECORD``: one page about one game, for an organizer to send the players.

Its own module so that the command lives apart from ``cli/app.py``, which only registers it.
A file (or ``-``) is replayed and its runs audited now; an archived game is reported from the
archive alone: its record, the text it was read from and its stored revenue audit.
"""

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from railledger.cli.options import (DEFAULT_DB, DEFAULT_WAIT, DbOption, WaitOption, game_record, is_record_file, reading,
                                    write_document)

if TYPE_CHECKING:  # analytics and the engine load when the command runs, not for railledger --help
    from railledger.analytics.report import GameReport
    from railledger.ingest.model import Record, SourceText


class ReportFormat(str, Enum):
    md = "md"
    html = "html"


def report(
    game: Annotated[str, typer.Argument(metavar="GAME|RECORD", help="An archived game (key or source id), or a record file (.json, .rln, - for stdin).")],
    fmt: Annotated[ReportFormat, typer.Option("--format", help="md (Markdown) or html (one self-contained page).")] = ReportFormat.md,
    output: Annotated[Optional[Path], typer.Option("-o", "--output", help="File to write (default: stdout).")] = None,
    db: DbOption = Path(DEFAULT_DB),
    wait: WaitOption = DEFAULT_WAIT,
) -> None:
    """Write a game's report: its header, verdict, recorded and replayed values, the rules broken
    (the action in notation, the rule's text and rulebook section), an undo audit per player,
    actions sent on another player's behalf, each player's time to act, a manual end, and the
    runs that earned less than the company's best run.

    A name that is not a file is looked up in the archive (--db). The HTML has no external asset
    and prints well.

    Example: railledger report 14375 --format html -o 14375.html
    """
    from railledger.reports.game import markdown, page

    record, source = game_record(game, db, wait)
    found = _from_file(record, source) if is_record_file(game) else archived_report(record, source, db, wait)
    text = page(found) if fmt is ReportFormat.html else markdown(found)
    write_document(text, output)


def _from_file(record: "Record", source: "SourceText | None") -> "GameReport":
    """A record file's report: replayed, and its runs audited, now."""
    from railledger.analytics.report import audited_shortfalls, build_report
    from railledger.replay import engine_version, replay_record
    from railledger.replay.optimizer.audit import RunAuditor
    from railledger.replay.titles import SUPPORTED

    if record.title not in SUPPORTED:
        return build_report(record, source, None, None, 0, None)
    auditor = RunAuditor()
    replay = replay_record(record, keep_going=True, snapshots=True, watch=auditor)
    return build_report(record, source, replay, engine_version(record.title, record.variant), len(auditor.runs),
                        audited_shortfalls(record, auditor.runs))


def archived_report(record: "Record", source: "SourceText | None", db: Path, wait: float) -> "GameReport":
    """An archived game's report (as :func:`cli.options.game_record` found it) from what the
    archive keeps: the record, its text, its runs (a game stored before the revenue audit has
    none: not audited, rather than none short)."""
    from railledger.analytics.report import build_report, stored_shortfalls
    from railledger.replay import engine_version, replay_record
    from railledger.replay.titles import SUPPORTED

    with reading(db, wait) as archive:
        audited, shortfalls = stored_shortfalls(archive, record.key)
    if record.title not in SUPPORTED:
        return build_report(record, source, None, None, 0, None)
    unaudited = not audited and any(action.type == "run_routes" for action in record.actions)
    replay = replay_record(record, keep_going=True, snapshots=True)
    return build_report(record, source, replay, engine_version(record.title, record.variant), audited, None if unaudited else shortfalls)
