"""The undo journal: what each applied action changed, so that ``Game.pop()`` puts it back.

A search pushes an action, looks, and pops it, thousands of times a game; replaying the game from
its start for every pop costs the whole game each time. The journal keeps, per applied action, an
:class:`Undo` holding what that action changed, and nothing else:

- every field set on a player, corporation, private, certificate or train (``Tracked`` entities
  call :meth:`Journal.note_set` with the old value while an action is applied);
- the board's and the stock market's containers, saved the first time the action changes them
  (tile lays and stations, price moves: most actions change neither);
- the game's own values (a shallow copy of its attributes: cash of the bank, phase, index...),
  the round and steps under way and the title's state, which are a few dozen small values
  kept whole, copied down to their lists, dicts and sets;
- how many events, entities and moves there were.

``pop`` restores them: the entity fields newest first, then the board's and market's
containers, the round, steps and title state, the lengths, and the game's attributes. Answers kept per moment of the game (:class:`~replay.memo.Memo`)
are keyed by a counter that only grows, counts of entities by the game's count of entity changes,
which only grows too, and what is kept of the map is keyed by lists of the board's changes that
only grow (a hex put back counts as changed), so nothing remembered of the popped state is read
again. An undo for the map's memos is thus a change like any other. What the game and its steps
answered about the state before the action is kept in its undo (:meth:`Undo.keep_answers`) and
put back with that state: a search that pushes an action, looks and pops it finds the answers
about its position as it left them.

Entities set fields only while an action is applied (everything else happens at setup); a change
made outside an action (a test editing a game by hand inside ``changing()``, the end of a
record) cannot be taken back by the journal, which then forgets its history: an earlier action
is popped by replaying the game without it.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from railledger.replay.memo import Memo, Versioned

if TYPE_CHECKING:
    from railledger.replay.state import GameState

_PLAIN = frozenset({int, str, bool, type(None), tuple, frozenset, float})
"""Values that are never changed in place: kept as they are (the most common case, tested first)."""

_COPIED: dict[type, bool] = {}
"""Whether objects of a class are copied (a changeable dataclass that is not an entity), per class."""


def kept(value: Any) -> Any:
    """``value`` with its lists, dicts, sets and changeable dataclasses (a turn's record) copied,
    to any depth; other objects are shared: what a round, a step or a title keeps is plain
    values, containers of them and the game's entities, which the journal restores by field."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is list:
        return [kept(v) for v in value]
    if kind is dict:
        return {k: kept(v) for k, v in value.items()}
    if kind is set:
        return value.copy()  # its items are hashable, so never changed in place; a copy keeps their order
    copied = _COPIED.get(kind)
    if copied is None:
        params = getattr(kind, "__dataclass_params__", None)
        copied = _COPIED[kind] = params is not None and not params.frozen and not getattr(kind, "restored_by_field", False)
    if copied:
        twin = object.__new__(kind)
        vars(twin).update({k: kept(v) for k, v in vars(value).items()})
        return twin
    return value


class Undo:
    """What one applied action changed (see the module's docstring)."""

    __slots__ = ("attributes", "parts", "sets", "saved", "sizes", "answers", "counts")

    def __init__(self, attributes: dict[str, Any], parts: list[tuple[object, dict[str, Any]]],
                 sizes: list[tuple[Any, int]]) -> None:
        self.attributes = attributes  # the game's own attributes before the action
        self.parts = parts  # (round, step or title state, its values copied)
        self.sets: list[tuple[object, str, Any]] = []  # (entity, field, old value), in order
        self.saved: dict[int, tuple[object, dict[str, Any]]] = {}  # id -> (board or market, its containers)
        self.sizes = sizes  # (append-only list or entity dict, its length before)
        self.answers: list[tuple[Memo, dict[Hashable, object]]] = []  # each memo's answers about the state before
        self.counts: dict[Hashable, tuple[int, Hashable, object]] = {}  # the entity counts kept before

    def keep_answers(self, moment: int, memos: list[Memo], counts: Versioned) -> None:
        """Keep what the game and its steps answered about the state before the action (the
        answers of ``moment``, the game's moment then): a takeback puts that state back, and
        with it these answers, so a search that pushes, looks and pops asks nothing twice."""
        self.answers = [(memo, memo.answers) for memo in memos if memo.moment == moment]
        self.counts = counts.current()


class _Applying(threading.local):
    """The journal of the game applying an action now, in this thread (the dashboard's sessions
    replay games in threads of one process): entities, the board and the market note their
    changes in it. Only one game of a thread applies an action at a time."""

    journal: Journal | None = None


APPLYING = _Applying()


class Journal:
    """The undos of the actions applied to one game, last one last."""

    __slots__ = ("undos", "current", "enabled")

    def __init__(self) -> None:
        self.undos: list[Undo] = []
        self.current: Undo | None = None
        self.enabled = True
        """False for a game that never takes an action back (a record's replay, a bots' game):
        nothing is kept, and ``pop`` would replay."""

    def begin(self, game: GameState, parts: list[object], sizes: list[Any]) -> Undo:
        """Start the undo of an action about to be applied; ``parts`` are kept whole, ``sizes``
        are append-only lists and dicts whose length is kept."""
        undo = Undo(dict(vars(game)), [(part, {k: kept(v) for k, v in vars(part).items()}) for part in parts],
                    [(sized, len(sized)) for sized in sizes])
        self.undos.append(undo)
        self.current = undo
        APPLYING.journal = self
        return undo

    def end(self) -> None:
        """The action is applied: nothing more is noted in its undo."""
        self.current = None
        if APPLYING.journal is self:
            APPLYING.journal = None

    def forget(self) -> None:
        """The game changed outside an action: no earlier action can be taken back from here."""
        self.undos.clear()

    def note_set(self, entity: object, name: str, old: Any) -> None:
        undo = self.current
        if undo is not None:
            undo.sets.append((entity, name, old))

    def save(self, owner: object, containers: dict[str, Any]) -> None:
        """Keep the board's or market's containers as they were before the action's first change
        to them (later changes in the same action find them kept)."""
        undo = self.current
        if undo is not None and id(owner) not in undo.saved:
            undo.saved[id(owner)] = (owner, containers)

    def undo_last(self, game: GameState) -> bool:
        """Put the game back as it was before its last applied action; False when the journal
        does not hold it (the caller replays)."""
        if not self.undos:
            return False
        undo = self.undos.pop()
        for entity, name, old in reversed(undo.sets):
            object.__setattr__(entity, name, old)
        for owner, containers in undo.saved.values():
            restore = getattr(owner, "restore")
            restore(containers)
        for part, values in undo.parts:
            _replace_vars(part, values)
        for sized, length in undo.sizes:
            _truncate(sized, length)
        moment = game.moment
        _replace_vars(game, undo.attributes)
        game.moment = moment + 1  # answers remembered since belong to moments that are over
        game.entity_changes.count += 1  # so do answers kept while the entities stood: fields were put back
        for memo, answers in undo.answers:  # but the state before the action is back, and its answers
            memo.moment, memo.answers = game.moment, answers
        game.entity_answers.resume(undo.counts)
        return True


def _replace_vars(part: object, values: dict[str, Any]) -> None:
    own = vars(part)
    for name in [n for n in own if n not in values]:
        del own[name]
    own.update(values)


def _truncate(sized: Any, length: int) -> None:
    """Drop what was appended to a list, or added to a dict, after it had ``length`` items."""
    if isinstance(sized, list):
        del sized[length:]
    else:
        for key in list(sized)[length:]:
            del sized[key]
