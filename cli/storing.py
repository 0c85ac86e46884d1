"""Storing a record the way ``railledger ingest`` does: replayed first when its title has an engine."""

from __future__ import annotations

from ingest.model import Record
from records import Archive, StoreOutcome
from replay import replay_record
from replay.titles import SUPPORTED


def store_record(archive: Archive, record: Record, origin: str | None = None, replay: bool = True) -> StoreOutcome:
    """Store one game, with its per-action states, events, standings and flags when replayable."""
    found = replay_record(record, keep_going=True, snapshots=True) if replay and record.title in SUPPORTED else None
    return archive.store(record, origin=origin, replay=found)
