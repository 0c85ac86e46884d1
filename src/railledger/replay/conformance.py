"""Conformance: replay real records and compare the final values with the recorded result."""

from __future__ import annotations

from dataclasses import dataclass

from railledger.ingest.model import PlayerId, Record
from railledger.replay.replayer import Replay, replay_record
from railledger.replay.titles import SUPPORTED
from railledger.replay.verdict import Verdict, judge


@dataclass(frozen=True)
class ConformanceRow:
    origin: str
    record: Record
    replay: Replay | None  # None when the title has no engine yet
    error: str | None = None

    @property
    def supported(self) -> bool:
        return self.record.title in SUPPORTED

    @property
    def status(self) -> str:
        if self.replay is None:
            return "FAIL" if self.supported else "NO ENGINE"
        return "PASS" if self.replay.matches_record else "FAIL"

    @property
    def replayed(self) -> dict[PlayerId, int] | None:
        """The final values replayed; None without an engine or when the replay stopped early."""
        return self.replay.result if self.replay and self.replay.stopped_at is None else None

    @property
    def verdict(self) -> Verdict:
        return judge(self.record, self.replay)


def check(origin: str, record: Record) -> ConformanceRow:
    """Replay one record strictly; titles without an engine are reported, not failed."""
    try:
        return ConformanceRow(origin, record, replay_record(record))
    except NotImplementedError as exc:
        return ConformanceRow(origin, record, None, str(exc))
