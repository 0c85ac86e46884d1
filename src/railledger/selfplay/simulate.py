"""Many games: one game played and replayed, the unit of work ``railledger simulate`` spreads over
worker processes, and who won.

Each generated game is replayed at once by the ordinary replay (``replay_record``, with the
revenue audit of its runs), as an ingest replays a record: that is both the rows the archive stores (states, events, standings) and the
check that what the bots played is a game the engine accepts, with no flag, to the result the
game reached.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from railledger.ingest.model import PlayerId, Record
from railledger.replay import Replay, replay_record
from railledger.replay.optimizer.audit import RunAudit, RunAuditor
from railledger.selfplay.bots import bot_named
from railledger.selfplay.play import MAX_ACTIONS, Played, SelfPlayError, play


@dataclass(frozen=True)
class Simulated:
    """One seed's game: played and replayed, or why it could not be played."""

    title: str
    seed: int
    bots: tuple[str, ...]
    played: Played | None
    replay: Replay | None
    error: str | None
    cpu_seconds: float  # playing it (the bots' choices and the engine), not the replay
    runs: tuple[RunAudit, ...] = ()  # the revenue audit of its runs, as an ingest stores it

    @property
    def verified(self) -> bool:
        """Played to its end, and the replay has no flag, its end, and the recorded result."""
        return (self.played is not None and self.replay is not None and self.replay.matches_record
                and any(e.kind == "game_end" for e in self.replay.events))


def simulate(title: str, seed: int, bots: Sequence[str], max_actions: int = MAX_ACTIONS,
             variant: str | None = None) -> Simulated:
    """Play and replay one game (of a ``variant``'s data when given its TOML text); a game that
    cannot be played is a result, not an exception."""
    started = time.process_time()
    try:
        played = play(title, seed, [bot_named(name) for name in bots], max_actions, variant)
    except SelfPlayError as failed:
        return Simulated(title, seed, tuple(bots), None, None, str(failed), time.process_time() - started)
    spent = time.process_time() - started
    auditor = RunAuditor()
    replay = replay_record(played.record, keep_going=True, snapshots=True, watch=auditor)
    return Simulated(title, seed, tuple(bots), played, replay, None, spent, tuple(auditor.runs))


def seating(bots: Sequence[str], players: int, game: int = 0, rotate: bool = False) -> tuple[str, ...]:
    """The bots of one game's seats: one name for every seat, or one per seat; with ``rotate``,
    game ``n`` turns the table by ``n`` seats, so that over games every bot sits everywhere."""
    names = list(bots) * players if len(bots) == 1 else list(bots)
    if len(names) != players:
        raise ValueError(f"give one bot, or one per seat ({players}), not {len(bots)}: {','.join(bots)}")
    shift = game % players if rotate else 0
    return tuple(names[shift:] + names[:shift])


def winners(record: Record) -> set[PlayerId]:
    """The players with the highest final value (all of them on a tie)."""
    result: Mapping[PlayerId, int] = record.result or {}
    best = max(result.values(), default=None)
    return {pid for pid, value in result.items() if value == best}
