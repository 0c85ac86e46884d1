"""What ``railledger ingest`` (and ``pull``, which ingests what it fetched) prints of an ingest's
tally: two tables, then a line a note or failure."""

from __future__ import annotations

from pathlib import Path

from rich.table import Table

from railledger.cli.options import fail
from railledger.cli.output import cell, consoles, say
from railledger.pipeline.ingesting import OUTCOMES, Tally
from railledger.replay.verdict import KINDS as VERDICTS


def print_summary(tally: Tally, db: Path) -> None:
    """The outcomes and verdicts as two tables, then the notes, failures and invalid games."""
    out, err = consoles()
    table = Table(title=cell(f"ingest into {db}"))
    for column in OUTCOMES:
        table.add_column(column, justify="right")
    table.add_row(*(str(tally.outcomes[c]) for c in OUTCOMES))
    out.print(table)
    stored = sum(tally.outcomes[c] for c in ("new", "unchanged", "replaced"))
    counts = {kind: tally.verdicts[kind] for kind in VERDICTS if tally.verdicts[kind] or kind == VERDICTS[0]}
    if stored > sum(tally.verdicts.values()):  # unchanged games stored before verdicts were kept
        counts["not judged yet"] = stored - sum(tally.verdicts.values())
    judged = Table(title="verdicts")
    for kind in counts:
        judged.add_column(kind, justify="right")
    judged.add_row(*(str(n) for n in counts.values()))
    out.print(judged)
    for note in tally.notes:
        say(err, f"note: {note}")
    for failure in tally.failures:
        say(err, f"failed: {failure}")
    for line in tally.invalid:
        say(err, line)


def report_ingest(tally: Tally, db: Path, allow_invalid: bool) -> bool:
    """Print an ingest's summary and what follows it; whether it went well (no record failed, and
    no game is illegal or mismatched unless ``allow_invalid``). An ingest the archive stopped is
    one line and exit 1, after the summary of what it did before it stopped, if anything."""
    if tally.stopped is not None and not tally.outcomes:  # refused before any record: nothing to sum up
        raise fail(f"stopped: {tally.stopped}")
    print_summary(tally, db)
    if tally.stopped is not None:
        raise fail(f"stopped: {tally.stopped}")
    for line in (tally.ratings, tally.compacted):
        if line is not None:
            say(consoles()[0], line)
    if tally.invalid and not allow_invalid:
        count = len(tally.invalid)
        say(consoles()[1], f"{count} game{'s are' if count != 1 else ' is'} illegal or mismatched (stored, with "
                           "the verdict); --allow-invalid accepts them with exit code 0")
    return not tally.failures and (allow_invalid or not tally.invalid)
