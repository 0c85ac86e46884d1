"""Conformance: replay real records and compare the final values with the recorded result."""

from __future__ import annotations

from dataclasses import dataclass

from railledger.ingest.model import PlayerId, Record, SourceText
from railledger.replay.replayer import Replay, replay_record
from railledger.replay.titles import SUPPORTED
from railledger.replay.verdict import Verdict, judge


@dataclass(frozen=True)
class ConformanceRow:
    origin: str
    record: Record
    replay: Replay | None  # None when the title has no engine yet
    error: str | None = None
    source: SourceText | None = None  # the text read: its undo history is part of the verdict's notes

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
        return judge(self.record, self.replay, self.source)


def check(origin: str, record: Record, source: SourceText | None = None) -> ConformanceRow:
    """Replay one record strictly (read from ``source``); titles without an engine are reported, not failed."""
    try:
        return ConformanceRow(origin, record, replay_record(record), source=source)
    except NotImplementedError as exc:
        return ConformanceRow(origin, record, None, str(exc), source)
