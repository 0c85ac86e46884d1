"""Ingesting record files into an archive: files read here, records prepared by workers, one writer.

This process reads each file's text (quick) and hands it to a worker with what the archive holds
of the games last read from that file; the worker parses, checks, hashes and replays, and gives
back columns (:func:`pipeline.storing.prepare`). Results are taken in the order of the files, so the
summary, the duplicates and the failures are those of a serial ingest, and each batch of results
already done is written in one short open of the archive. :func:`ingest_paths` is the whole of
``railledger ingest`` as one call.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

from railledger.ingest import DEFAULT_MAX_SIZE
from railledger.ingest.sources import FileText, expand, read_file
from railledger.pipeline.progress import Progress, silent
from railledger.pipeline.storing import (ArchiveUnavailable, IngestRun, Known, Prepared, compact_if_worth, prepare,
                                         refresh_ratings)
from railledger.pipeline.workers import COLLECT_SECONDS, Workers, gathered, worker_pool
from railledger.records import Archive, ArchiveError
from railledger.records.archive import Stored
from railledger.records.connection import WaitNotice
from railledger.records.errors import ArchiveDamaged
from railledger.replay.verdict import Verdict

OUTCOMES = ("new", "unchanged", "replaced", "duplicate", "failed")

BATCH_SECONDS = 0.15
"""How long one open of the archive goes on writing (one transaction at least), so that a reader
waits less than the half second after which it says it waits (records.connection)."""

GAMES_PER_WRITE = 32
"""Games stored in one transaction, each table's rows of all of them in one statement: a
statement costs milliseconds whatever its size, so a single writer keeps up with many workers."""


@dataclass
class Tally:
    """What an ingest did: outcomes, verdicts, and the lines to print after the summary."""

    outcomes: Counter[str] = field(default_factory=Counter)
    verdicts: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)
    stopped: str | None = None
    """Why the run stopped before its last file: the archive could not be opened any more."""
    ratings: str | None = None
    """What the ratings kept in the archive became at the end, in one line (None: nothing to rate)."""
    compacted: str | None = None
    """What compacting the archive at the end gave back, in one line (None: not worth it)."""

    def count(self, item: Prepared, outcome: str, line: str | None, verdict: Verdict | None) -> None:
        """Count one record's outcome, keeping its line (a note for a duplicate, else a failure)
        and, for a game that is illegal or mismatched, a line naming it."""
        self.outcomes[outcome] += 1
        if line is not None:
            (self.notes if outcome == "duplicate" else self.failures).append(line)
        if verdict is not None:
            self.verdicts[verdict.kind] += 1
            if verdict.invalid:
                self.invalid.append(f"{verdict.kind}: {item.origin}: {item.key}: {verdict.detail}")


def ingest_paths(paths: Sequence[str], db: str | Path, *, replay: bool = True, workers: int = 1,
                 cluster: str | None = None, max_size: int = DEFAULT_MAX_SIZE, wait: float = 0.0,
                 on_wait: WaitNotice | None = None, progress: Progress = silent) -> Tally:
    """Ingest record files and directories (searched recursively; ``-`` for standard input) into
    the archive at ``db``, as ``railledger ingest`` does, and return what was done.

    Records are parsed and replayed by ``workers`` processes (1: in this one) or by the
    workers of the Dask cluster at ``cluster``; this process alone writes the archive, and brings
    the ratings kept in it up to date at the end. A bad record is a line in the tally's
    ``failures``, never an exception; an archive that cannot be opened stops the run with
    ``stopped`` set. Raises :class:`~railledger.pipeline.workers.ClusterUnavailable` when the
    cluster cannot be reached (nothing was done).

    Example: ``ingest_paths(["examples"], "games.duckdb").verdicts``
    """
    files = expand(list(paths))
    run = IngestRun(Path(db), replay=replay, wait=wait, on_wait=on_wait)
    tally = Tally()
    with worker_pool(workers, cluster) as pool:
        try:
            ingest_files(files, run, max_size, pool, tally, progress)
        except ArchiveUnavailable as exc:
            tally.stopped = str(exc)
            return tally
    tally.ratings = refresh_ratings(run)
    tally.compacted = compact_if_worth(run)
    return tally


def ingest_files(files: Sequence[str], run: IngestRun, max_size: int, pool: Workers, tally: Tally,
                 progress: Progress = silent) -> None:
    """Ingest ``files`` in order into ``run``'s archive with ``pool``'s workers, counting in ``tally``.

    Raises :class:`ArchiveUnavailable` when the archive cannot be opened any more (``tally`` then
    holds what was done before).
    """
    with run.archive() as archive:  # create or upgrade it, and refuse a damaged or foreign one, before reading anything
        known = by_file(archive.stored_by_origin())
    names: deque[str] = deque()  # of the files given out, in order, for a worker that fails

    def calls() -> Iterator[tuple[FileText, bool, Known]]:
        for origin in files:
            text = read_file(origin, max_size)
            names.append(text.name)
            yield text, run.replay, known.get(text.name, {})

    work = ((names.popleft(), future) for future in pool.results(prepare, calls()))
    done = 0
    progress("ingesting", done, len(files))
    for batch in batches(work):
        store_batch(run, [item for items in batch for item in items], tally)
        done += len(batch)
        progress("ingesting", done, len(files))


_LINE = re.compile(r"(.*):\d+")
"""A record's origin in a JSON Lines file: ``file.jsonl:3``."""


def by_file(stored: Known) -> dict[str, dict[str, tuple[str, Stored]]]:
    """The stored games grouped by the file each was read from (a JSON Lines line under its file)."""
    files: dict[str, dict[str, tuple[str, Stored]]] = {}
    for origin, entry in stored.items():
        line = _LINE.fullmatch(origin)
        files.setdefault(line.group(1) if line else origin, {})[origin] = entry
    return files


def batches(work: Iterator[tuple[str, Future[list[Prepared]]]], seconds: float = COLLECT_SECONDS,
            most: int = 256) -> Iterator[list[list[Prepared]]]:
    """The prepared records of each file (named by the first of each pair) in order, grouped as
    :func:`pipeline.workers.gathered` groups them, so that the writer stores many games in each of
    its transactions (see :func:`_write`) while the workers go on."""
    for group in gathered(work, seconds, most):
        yield [_settled(name, future) for name, future in group]


def _settled(name: str, future: Future[list[Prepared]]) -> list[Prepared]:
    """A file's prepared records; a worker that died or could not send them back (a process
    killed, a cluster lost) fails that file in one line, and the run goes on."""
    try:
        return future.result()
    except Exception as exc:
        return [Prepared(name, error=f"{name}: not stored: its worker failed: {type(exc).__name__}: {exc}")]


Outcome = tuple[str, str | None, Verdict | None]
"""(outcome, one line to print or None, the game's verdict) of one record."""


def store_batch(run: IngestRun, items: list[Prepared], tally: Tally) -> None:
    """Count the prepared records of a batch in order, storing those to be written (see
    :func:`_write`; the archive is not opened when none is). A record's failure is its own; an
    archive that cannot be opened or read any more is :class:`ArchiveUnavailable`."""
    decided = [_before_writing(run, item) for item in items]
    written = iter(_write(run, [item for item, outcome in zip(items, decided) if outcome is None]))
    for item, outcome in zip(items, decided):
        tally.count(item, *(outcome if outcome is not None else next(written)))


def _before_writing(run: IngestRun, item: Prepared) -> Outcome | None:
    """The outcome of a record that is not to be written (failed, duplicate, known unchanged), or
    None for one to write. A duplicate has no verdict of its own (its first reading counted)."""
    if item.key is None or item.digest is None:
        return "failed", item.error, None
    earlier = run.earlier(item.key, item.digest, item.origin)
    if earlier is not None:
        same, where = earlier
        if same:
            return "duplicate", f"{item.origin}: {item.key} is the same game as {where}, stored once", None
        return ("failed", f"{item.origin}: not stored: {item.key} was read earlier in this run from {where}, "
                "with other content; the first is kept", None)
    if item.error is not None:
        return "failed", item.error, None
    if item.encoded is None:
        return "unchanged", None, item.stored.verdict if item.stored is not None else None
    return None


def _write(run: IngestRun, items: list[Prepared]) -> list[Outcome]:
    """Store prepared records, their outcomes in order: in opens of the archive that each write
    one transaction of up to :data:`GAMES_PER_WRITE` games, and more while :data:`BATCH_SECONDS`
    of writing last.

    A transaction's cost is mostly fixed (a statement per table, the summaries derived once): 32
    games cost well under twice one. A first transaction as large as the games at hand therefore
    holds the file scarcely longer than a single game would, and stores each at a fraction of the
    cost.
    """
    outcomes: list[Outcome] = []
    while len(outcomes) < len(items):
        with run.archive() as archive:
            opened = time.monotonic()
            while True:
                outcomes.extend(_write_together(run, archive, items[len(outcomes):len(outcomes) + GAMES_PER_WRITE]))
                if len(outcomes) == len(items) or time.monotonic() - opened >= BATCH_SECONDS:
                    break
    return outcomes


def _write_together(run: IngestRun, archive: Archive, items: list[Prepared]) -> list[Outcome]:
    """Store records in one transaction; when that fails, each alone, so a failure is one record's."""
    try:
        return [(outcome.name.lower(), None, verdict) for outcome, verdict in run.write(archive, items)]
    except ArchiveDamaged as exc:
        raise ArchiveUnavailable(exc) from exc
    except Exception as exc:
        if len(items) > 1:
            return [outcome for item in items for outcome in _write_together(run, archive, [item])]
        if isinstance(exc, (ArchiveError, ValueError)):
            return [("failed", f"{items[0].origin}: not stored: {exc}", None)]
        # a bug meeting a record nobody foresaw: that record fails, the run goes on
        return [("failed", f"{items[0].origin}: not stored: unexpected error: {type(exc).__name__}: {exc}", None)]
