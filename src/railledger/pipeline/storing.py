"""Storing records the way ``railledger ingest`` does: replayed first when its title has an engine.

A record already stored with the same content (and, when it is replayed, by the same engine) is
recognized by its content hash before any replay, so re-ingesting an archive costs a hash each.
The work on a record, parsing, hashing, replaying and shaping it into the archive's columns, is
:func:`prepare`: a worker process (or a Dask worker) runs it and gives back a :class:`Prepared`,
plain columns that the one writer stores. An ingest run (:class:`IngestRun`) opens the archive
for each batch of writes and closes it again, so the file's lock is held for short transactions
and readers in other processes get in between; the replays, the slow part, run with it closed.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Mapping

from railledger.ingest.model import Record, SourceText
from railledger.ingest.sources import FileText, Loaded, parse_file
from railledger.records import Archive, ArchiveError, StoreOutcome
from railledger.records.archive import EncodedGame, Stored, encode_game
from railledger.records.codec import content_hash
from railledger.records.connection import WaitNotice
from railledger.records.errors import ArchiveDamaged
from railledger.replay import Replay, engine_version, replay_record
from railledger.replay.optimizer.audit import RunAudit, RunAuditor
from railledger.replay.titles import SUPPORTED
from railledger.replay.verdict import Verdict


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


def is_unchanged(stored: Stored | None, record: Record, replay: bool, digest: str | None = None) -> bool:
    """Whether the stored game already is this record as an ingest would store it (``digest``:
    its content hash, if known).

    Without a replay (not asked for, or no engine for the title) the stored replay rows, if any,
    stay: the same content is enough.
    """
    if stored is None or stored.content_hash != (content_hash(record) if digest is None else digest):
        return False
    return not replays(record, replay) or stored.engine == engine_version(record.title, record.variant)


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


@dataclass(frozen=True)
class Prepared:
    """One record of a file as a worker leaves it for the writer.

    ``encoded`` is None when the archive holds the record unchanged (``stored``, as the worker
    was told): nothing is replayed or written. ``error`` is the one line of a record that could
    not be read or shaped; it has a key when the record was read.
    """

    origin: str
    key: str | None = None
    digest: str | None = None
    encoded: EncodedGame | None = None
    stored: Stored | None = None
    error: str | None = None


Known = Mapping[str, tuple[str, Stored]]
"""(key, what is stored) by the origin the stored version was read from."""


def prepare(file: FileText, replay: bool, known: Known) -> list[Prepared]:
    """Every record of one file's text parsed, checked, hashed and, unless ``known`` says the
    archive holds it unchanged, replayed and shaped into columns. Runs in a worker process: any
    failure is that record's ``error``, never an exception."""
    return [_prepare(loaded, replay, known.get(loaded.origin)) for loaded in parse_file(file)]


def _prepare(loaded: Loaded, replay: bool, known: tuple[str, Stored] | None) -> Prepared:
    if loaded.record is None:
        return Prepared(loaded.origin, error=str(loaded.error))
    record = loaded.record
    stored = known[1] if known is not None and known[0] == record.key else None
    try:
        digest = content_hash(record)  # once: the unchanged test and the game's row both take it
        if is_unchanged(stored, record, replay, digest):
            if not takes_source(stored, loaded.source):
                return Prepared(loaded.origin, record.key, digest, stored=stored)
            encoded = encode_game(record, source=loaded.source, digest=digest)
            return Prepared(loaded.origin, record.key, digest, encoded, stored)
        found = replay_of(record, replay)
        encoded = encode_game(record, found.replay if found else None, found.runs if found else (), loaded.source, digest)
    except ValueError as exc:
        return Prepared(loaded.origin, record.key, error=f"{loaded.origin}: not stored: {exc}")
    except Exception as exc:  # a bug meeting a record nobody foresaw: that record fails, the run goes on
        return Prepared(loaded.origin, record.key,
                        error=f"{loaded.origin}: not stored: unexpected error: {type(exc).__name__}: {exc}")
    return Prepared(loaded.origin, record.key, digest, encoded, stored)


READERS_TURN = 0.1
"""Seconds the archive is left closed between two opens for writing: the turn of any process
waiting for it (they try every few hundredths of a second, records.connection)."""


class ArchiveUnavailable(Exception):
    """The archive cannot be opened (busy past the wait, damaged, foreign, newer): the run stops,
    since no later record could be stored either. ``str()`` is the archive's one-line reason."""

    def __init__(self, error: ArchiveError) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass
class IngestRun:
    """One ``railledger ingest``: records stored in order, a few at a time in short opens of the archive.

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
    written: float | None = None  # when the last open for writing closed (time.monotonic)

    @contextmanager
    def archive(self, read_only: bool = False) -> Iterator[Archive]:
        """The archive, open for one step; a failure to open it is :class:`ArchiveUnavailable`.

        An open for writing comes :data:`READERS_TURN` after the last one closed at the soonest,
        so that processes waiting for the file get it in between.
        """
        if not read_only and self.written is not None:
            time.sleep(max(0.0, self.written + READERS_TURN - time.monotonic()))
        try:
            opened = Archive.open(self.db, read_only=read_only, wait=self.wait, on_wait=self.on_wait)
        except ArchiveError as exc:
            raise ArchiveUnavailable(exc) from exc
        try:
            with opened as archive:
                yield archive
        except ArchiveDamaged as exc:  # a damaged block found by a read: no later step can use the file either
            raise ArchiveUnavailable(exc) from exc
        finally:
            if not read_only:
                self.written = time.monotonic()

    def earlier(self, key: str, digest: str, origin: str) -> tuple[bool, str] | None:
        """(same content?, origin) of this key's earlier record in the run; None when it is the first."""
        found = self.seen.get(key)
        if found is None:
            self.seen[key] = (digest, origin)
            return None
        return found[0] == digest, found[1]

    def write(self, archive: Archive, items: list[Prepared]) -> list[tuple[StoreOutcome, Verdict | None]]:
        """Store prepared records in the open archive, in one transaction: what was done with each
        and its game's verdict (None for a game stored before verdicts that is unchanged and not
        replayed).

        The archive checks each stored version again in the transaction, so a game another
        process stored meanwhile is still stored once, as it should be.
        """
        encoded = [item.encoded for item in items]
        assert all(game is not None for game in encoded)
        outcomes = archive.store_many([(game, item.origin) for game, item in zip(encoded, items) if game is not None])
        return [(outcome, self._verdict(archive, item, outcome)) for item, outcome in zip(items, outcomes)]

    @staticmethod
    def _verdict(archive: Archive, item: Prepared, outcome: StoreOutcome) -> Verdict | None:
        assert item.encoded is not None
        if outcome is StoreOutcome.UNCHANGED and item.encoded.replay_rows is None:
            stored = item.stored or archive.stored(item.encoded.key)  # not replayed: the stored replay and its verdict stay
            return stored.verdict if stored is not None else None
        return item.encoded.verdict


def compact_if_worth(run: IngestRun) -> str | None:
    """Compact the archive once an ingest has stored its games, when its free blocks are worth
    a copy (:func:`records.compaction.worth_compacting`); the line saying so, or None. A failure
    is said, not raised: the games are stored, only the file stays larger."""
    from railledger.records.compaction import compact, worth_compacting

    try:
        done = compact(run.db, worth=worth_compacting, wait=run.wait, on_wait=run.on_wait)
    except (ArchiveError, OSError) as exc:
        return f"archive not compacted ({exc}); its games are stored"
    return done.line(run.db) if done is not None else None


def refresh_ratings(run: IngestRun) -> str | None:
    """Bring the archive's stored ratings (:func:`analytics.ratings.store_ratings`) up to date
    once a command has stored its games, not after each game (each refresh reads every rated
    game's results), and say in one line what was rated, or None when no game was. A failure is
    said, not raised: the games are stored, and readers rate in memory until the next refresh."""
    from railledger.analytics.ratings import Refresh, store_ratings

    try:
        with run.archive() as archive:
            done, games = store_ratings(archive)
    except (ArchiveUnavailable, ArchiveError) as exc:
        return f"ratings not stored ({exc}); readers rate the games themselves until an ingest stores them"
    if done is Refresh.UP_TO_DATE or not games:
        return None
    rated = f"{games:,} rated game{'' if games == 1 else 's'}"
    if done is Refresh.EXTENDED:
        return f"ratings stored: {rated} rated after the stored ones"
    return f"ratings stored: {rated} rated from the first"
