"""Storing records the way ``railledger ingest`` does: replayed first when its title has an engine.

A record already stored with the same content (and, when it is replayed, by the same engine) is
recognized by its content hash before any replay, so re-ingesting an archive costs a hash each.
An ingest run (:class:`IngestRun`) opens the archive for each step and closes it again, so the
file's lock is held for one short transaction at a time and readers in other processes get in
between; a record's replay, the slow part, runs with the file closed.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from ingest.model import Record, SourceText
from records import Archive, ArchiveError, StoreOutcome
from records.archive import Stored
from records.codec import content_hash
from records.connection import WaitNotice
from replay import Replay, engine_version, replay_record
from replay.optimizer.audit import RunAudit, RunAuditor
from replay.titles import SUPPORTED
from replay.verdict import Verdict, judge


def store_record(
    archive: Archive, record: Record, origin: str | None = None, replay: bool = True, source: SourceText | None = None
) -> StoreOutcome:
    """Store one game in an open archive, with its per-action states, events, standings, flags
    and revenue audit when replayable; an unchanged one is not replayed."""
    stored = archive.stored(record.key)
    if is_unchanged(stored, record, replay) and not takes_source(stored, source):
        return StoreOutcome.UNCHANGED
    found = replay_of(record, replay)
    return archive.store(record, origin=origin, replay=found.replay if found else None,
                         runs=found.runs if found else (), source=source)


def is_unchanged(stored: Stored | None, record: Record, replay: bool) -> bool:
    """Whether the stored game already is this record as an ingest would store it.

    Without a replay (not asked for, or no engine for the title) the stored replay rows, if any,
    stay: the same content is enough.
    """
    if stored is None or stored.content_hash != content_hash(record):
        return False
    return not replays(record, replay) or stored.engine == engine_version(record.title)


def takes_source(stored: Stored | None, source: SourceText | None) -> bool:
    """Whether an unchanged game would keep this text instead of its own (see :meth:`Archive.store`)."""
    if stored is None or source is None:
        return False
    return stored.source_format is None or (stored.source_format, source.format) == ("notation", "json")


def replays(record: Record, replay: bool) -> bool:
    """Whether an ingest replays this record: asked to, and its title has a complete engine."""
    return replay and record.title in SUPPORTED


@dataclass(frozen=True)
class Replayed:
    """What one pass of the engine over a record found: the replay, and the revenue audit of
    every run on the way (the optimum at each run_routes)."""

    replay: Replay
    runs: list[RunAudit]


def replay_of(record: Record, replay: bool) -> Replayed | None:
    """What the engine finds in the record (flags, not exceptions, for illegal actions), or None."""
    if not replays(record, replay):
        return None
    auditor = RunAuditor()
    found = replay_record(record, keep_going=True, snapshots=True, watch=auditor)
    return Replayed(found, auditor.runs)


class ArchiveUnavailable(Exception):
    """The archive cannot be opened (busy past the wait, damaged, foreign, newer): the run stops,
    since no later record could be stored either. ``str()`` is the archive's one-line reason."""

    def __init__(self, error: ArchiveError) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass
class IngestRun:
    """One ``railledger ingest``: records stored one by one, each in its own short open of the archive.

    ``wait`` and ``on_wait`` say how long to wait for another process holding the archive and
    whom to tell. Keys read earlier in the run are remembered with their content hash and
    origin: the same game read twice is a duplicate (stored once); the same key with other
    content is refused, keeping the first.
    """

    db: Path
    replay: bool = True
    wait: float = 0.0
    on_wait: WaitNotice | None = None
    seen: dict[str, tuple[str, str]] = field(default_factory=dict)

    @contextmanager
    def archive(self, read_only: bool = False) -> Iterator[Archive]:
        """The archive, open for one step; a failure to open it is :class:`ArchiveUnavailable`."""
        try:
            opened = Archive.open(self.db, read_only=read_only, wait=self.wait, on_wait=self.on_wait)
        except ArchiveError as exc:
            raise ArchiveUnavailable(exc) from exc
        with opened as archive:
            yield archive

    def earlier(self, record: Record, origin: str) -> tuple[bool, str] | None:
        """(same content?, origin) of this key's earlier record in the run; None when it is the first."""
        digest = content_hash(record)
        found = self.seen.get(record.key)
        if found is None:
            self.seen[record.key] = (digest, origin)
            return None
        return found[0] == digest, found[1]

    def store(self, record: Record, origin: str, source: SourceText | None = None) -> tuple[StoreOutcome, Verdict | None]:
        """Store one record: look its stored version up, replay it if it changed, then store it.
        Gives what was done and the game's verdict (None for a game stored before verdicts that
        is unchanged and not replayed).

        The look-up opens the archive read-only, alongside any other reader; only the store
        takes the write lock.
        """
        with self.archive(read_only=True) as archive:
            stored = archive.stored(record.key)
        if is_unchanged(stored, record, self.replay):
            assert stored is not None
            if takes_source(stored, source):
                with self.archive() as archive:
                    archive.store(record, origin=origin, source=source)  # unchanged: only the text is kept
            return StoreOutcome.UNCHANGED, stored.verdict
        found = replay_of(record, self.replay)
        with self.archive() as archive:
            outcome = archive.store(record, origin=origin, replay=found.replay if found else None,
                                    runs=found.runs if found else (), source=source)
        if outcome is StoreOutcome.UNCHANGED and stored is not None:
            return outcome, stored.verdict  # without a replay, the stored replay and its verdict stay
        return outcome, judge(record, found.replay if found else None)
