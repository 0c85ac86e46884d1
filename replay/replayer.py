"""Replay a whole record: every action through the engine, collecting flags and snapshots."""

from __future__ import annotations

from dataclasses import dataclass, field

from ingest.model import PlayerId, Record
from replay.errors import IllegalAction
from replay.game import Game
from replay.snapshot import Snapshot
from replay.state import Event


@dataclass(frozen=True)
class Flag:
    """An illegal action found in a record."""

    index: int
    action_id: str
    rule: str
    section: str
    message: str


@dataclass
class Replay:
    """What a replay found: the flags, the final values and (optionally) a snapshot per action."""

    record: Record
    flags: list[Flag] = field(default_factory=list)
    result: dict[PlayerId, int] = field(default_factory=dict)
    snapshots: list[Snapshot] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    stopped_at: int | None = None  # index of the action that stopped a strict replay

    @property
    def matches_record(self) -> bool:
        """No flag, and the final values equal the recorded result (when there is one)."""
        recorded = self.record.result
        return not self.flags and (recorded is None or dict(recorded) == self.result)


def replay_record(record: Record, *, keep_going: bool = False, snapshots: bool = False) -> Replay:
    """Play a record through the rules.

    Strict (default): stop at the first illegal action. ``keep_going``: an illegal action is
    flagged and not applied, and the replay goes on, so every problem shows at once.
    """
    game = Game.start(record.title, record.players, seed=record.seed, optional_rules=record.optional_rules,
                      game_id=record.game_id, created=record.created)
    outcome = Replay(record)
    for action in record.actions:
        try:
            game.process(action)
        except IllegalAction as illegal:
            outcome.flags.append(Flag(illegal.index, illegal.action_id, illegal.rule.id, illegal.section, illegal.message))
            if not keep_going:
                outcome.stopped_at = illegal.index
                break
        if snapshots:
            outcome.snapshots.append(game.snapshot())
    if outcome.stopped_at is None:
        game.end_of_record()
    outcome.result = game.result()
    outcome.events = game.events
    return outcome
