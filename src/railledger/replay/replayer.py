"""Replay a whole record: every action through the engine, collecting flags and per-action states.

With ``keep_going`` an illegal action is flagged, changes nothing, and the record goes on. The
record's later actions may then depend on what the refused one would have done: a flag is marked
as following from an earlier one (``follows``: that flag's index) when its action involves
something a flagged action involved (an entity, company, certificate, train or hex), or when it
came at the wrong moment (out of turn, in a step or round the game is not in) after an earlier
flag, which left the game where the record did not expect it. The other flags are root causes;
:meth:`Replay.roots_first` lists them first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

from railledger.ingest.model import Action, PlayerId, Record
from railledger.replay.errors import IllegalAction
from railledger.replay.game import Game
from railledger.replay.sentences import place, sentence
from railledger.replay.snapshot import Snapshot, StateColumns
from railledger.replay.state import Event

ORDER_KEYS = ("turn-order", "operating-order", "step-order", "draft-order", "auction-order", "action-type",
              "company-owner")
"""Rule keys of an action that came at the wrong moment (often because an earlier one was refused)."""


class Watcher(Protocol):
    """Something that looks at the game around each action of a replay (the revenue audit looks
    at every run), so one pass over a record serves both."""

    def before(self, game: Game, index: int, action: Action) -> None:
        """Look at the game before the record's ``index``-th action is processed."""

    def after(self, game: Game, index: int, action: Action) -> None:
        """Look at the game after it (also after an illegal one, which changed nothing)."""


@dataclass(frozen=True)
class Flag:
    """An illegal action found in a record."""

    index: int  # position in the canonical list, from 0
    action_id: str  # how the record numbers the action ("42", "42.1"): what every reader is shown
    rule: str
    section: str
    message: str
    follows: int | None = None  # index of the earlier flag this one follows from; None: a root cause
    round: str = ""  # the round the action came in ("OR 1.1")
    sentence: str = ""  # the action as a player says it (replay.sentences), against the game it came in

    @property
    def root(self) -> bool:
        """Whether this flag is a root cause: it follows from no earlier flag."""
        return self.follows is None

    @property
    def where(self) -> str:
        """``action 22 (OR 1.1)``: the action as the record numbers it, in its round."""
        return f"action {place(self.action_id, self.round)}"


@dataclass
class Replay:
    """What a replay found: the flags, the final values and (optionally) the state after each
    action, as the columns of what each action changed."""

    record: Record
    flags: list[Flag] = field(default_factory=list)
    result: dict[PlayerId, int] = field(default_factory=dict)
    states: StateColumns | None = None  # None: not asked for
    events: list[Event] = field(default_factory=list)
    stopped_at: int | None = None  # index of the action that stopped a strict replay

    @cached_property
    def snapshots(self) -> list[Snapshot]:
        """The state after each action, rebuilt from :attr:`states` when first asked for (none
        without them)."""
        return self.states.snapshots() if self.states is not None else []

    @property
    def matches_record(self) -> bool:
        """No flag, and the final values equal the recorded result (when there is one)."""
        recorded = self.record.result
        return not self.flags and (recorded is None or dict(recorded) == self.result)

    def roots_first(self) -> list[Flag]:
        """The flags, root causes first, each group in the record's order."""
        return sorted(self.flags, key=lambda f: (not f.root, f.index))

    def as_dict(self, states: bool = False) -> dict[str, Any]:
        """The JSON form (``railledger replay --json [--states]``, see README). A strict replay
        that stopped at an illegal action has no ``result`` (null): its values are those of a game
        cut short there, not final ones; ``stopped_at`` is that action's index."""
        record = self.record
        payload: dict[str, Any] = {
            "game": record.key,
            "title": record.title,
            "actions": len(record.actions),
            "flags": [{"index": f.index, "action_id": f.action_id, "round": f.round, "sentence": f.sentence,
                       "rule": f.rule, "message": f.message, "follows": f.follows} for f in self.roots_first()],
            "stopped_at": self.stopped_at,
            "result": None if self.stopped_at is not None else {str(pid): value for pid, value in self.result.items()},
            "recorded_result": {str(pid): value for pid, value in (record.result or {}).items()},
        }
        if states:
            payload["states"] = [
                {"index": i, "action_id": action.label, **snapshot.as_dict()}
                for i, (action, snapshot) in enumerate(zip(record.actions, self.snapshots))
            ]
        return payload


def involved(game: Game, action: Action) -> set[str]:
    """What an action touches, as names: its entity, companies, certificates' companies, trains, hexes."""
    fields = action.fields
    names = {f"entity:{action.entity.id}"}
    for name in ("corporation", "company", "hex", "train"):
        if isinstance(fields.get(name), str):
            names.add(f"{name}:{fields[name]}")
    shares = fields.get("shares")
    for share_id in shares if isinstance(shares, list) else []:
        share = game.shares.get(share_id) if isinstance(share_id, str) else None
        if share is not None:
            names.add(f"corporation:{share.corporation}")
    routes = fields.get("routes")
    for raw in routes if isinstance(routes, list) else []:
        if isinstance(raw, dict) and isinstance(raw.get("train"), str):
            names.add(f"train:{raw['train']}")
    if action.entity.kind == "corporation":
        names.add(f"corporation:{action.entity.id}")
    return names


class _Causes:
    """Follows which later flags come from earlier ones (see the module's docstring)."""

    def __init__(self) -> None:
        self.tainted: dict[str, int] = {}  # name -> index of the first flag that touched it
        self.latest: int | None = None  # the root of the latest flag

    def flag(self, game: Game, action: Action, illegal: IllegalAction) -> Flag:
        names = involved(game, action)
        if illegal.rule_id.endswith(ORDER_KEYS) and self.latest is not None:
            follows: int | None = self.latest  # the game is not where the record thought
        else:
            follows = min((self.tainted[n] for n in names if n in self.tainted), default=None)
        root = illegal.index if follows is None else follows
        for name in names:
            self.tainted.setdefault(name, root)
        self.latest = root
        return Flag(illegal.index, illegal.action_id, illegal.rule.id, illegal.section, illegal.message, follows,
                    illegal.round_label, sentence(game, action))  # a refused action left the game as it found it


def replay_record(record: Record, *, keep_going: bool = False, snapshots: bool = False,
                  watch: Watcher | None = None) -> Replay:
    """Play a record through the rules.

    Strict (default): stop at the first illegal action. ``keep_going``: an illegal action is
    flagged and not applied, and the replay goes on, so every problem shows at once. ``watch``
    sees the game before and after every action (after: also after a refused one).
    """
    game = Game.from_record(record)
    game.journal.enabled = False  # a replay never takes an action back: nothing to keep for pop
    outcome = Replay(record)
    causes = _Causes()
    for index, action in enumerate(record.actions):
        if watch is not None:
            watch.before(game, index, action)
        try:
            game.process(action)
        except IllegalAction as illegal:
            outcome.flags.append(causes.flag(game, action, illegal))
            if not keep_going:
                outcome.stopped_at = illegal.index
                break
        if watch is not None:
            watch.after(game, index, action)
        if snapshots:
            game.note_state()
    if outcome.stopped_at is None:
        game.end_of_record()
    outcome.result = game.result()
    outcome.events = game.events
    if snapshots and game.states is not None:
        outcome.states = game.states.columns
    return outcome
