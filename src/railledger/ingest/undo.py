"""Undo and redo, exactly as 18xx.games applies them when it loads a game.

The server keeps every action ever sent, including ``undo`` and ``redo``; the game is what
remains standing. The rules (also in docs/notation.md):

* ``undo`` without ``action_id`` takes back the last standing non-message action;
* ``undo`` with ``action_id`` N takes back every standing action after action N
  (``action_id: 0`` takes back everything);
* each undo pushes what it took back as one batch; ``redo`` restores the most recent batch;
* any other non-message action clears the redo stack;
* ``message`` actions are never taken back.

18xx.games accepts an undo that takes nothing back (the first action, one whose ``action_id``
points at itself, at a later action, or at a point after which no game action stands): it pushes
an empty batch, which a redo restores as nothing. So does railledger; such an undo changes no
game, and :attr:`Undo.remark` says what it did, for the verdict's notes and the report's undo
audit. A redo with nothing to redo, and an ``action_id`` that is no action's id, make
18xx.games fail to load the game: both are refused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable

from railledger.ingest.errors import RecordError
from railledger.ingest.model import SourceText
from railledger.ingest.schema import shown

RawAction = dict[str, Any]


@dataclass(frozen=True)
class Undo:
    """One ``undo`` or ``redo`` of a record: the raw action and what it took back or put back.

    ``after`` is the id of the last standing game action just before it (None at the start):
    where in the game it happened. ``index`` is its place in the export's list, and ``target``
    the raw action its ``action_id`` names, with that action's place (None without one, or 0).
    """

    action: RawAction
    batch: tuple[RawAction, ...]
    after: Any
    index: int = 0
    target: tuple[int, RawAction] | None = None

    @property
    def is_redo(self) -> bool:
        return self.action.get("type") == "redo"

    @property
    def remark(self) -> str | None:
        """What is odd about this undo or redo, in one sentence, or None: an undo that takes
        nothing back, or that points at a message or at an action after it; a redo that puts
        nothing back. 18xx.games accepts each, and none changes the game. The undo or redo is
        named by the record's own id, as every action is named to people."""
        label = shown(self.action.get("id"))
        if self.is_redo:
            return None if self.batch else f"redo {label} puts nothing back (the undo it reverses took nothing back)"
        place, target = self.target if self.target is not None else (-1, {})
        named = f"action {shown(target.get('id'))}"
        if place == self.index:
            return f"undo {label} points at itself: it takes nothing back"
        if place > self.index:
            return f"undo {label} points at {named}, which comes after it: it takes nothing back"
        nothing = "" if self.batch else ", and no game action stood after it: it takes nothing back"
        if target.get("type") == "message":
            return f"undo {label} points at a chat message ({named}){nothing}"
        if not self.batch:
            where = f"after {named}" if self.target is not None else "before it"
            return f"undo {label} takes nothing back: no game action stood {where}"
        return None


def standing_actions(raw_actions: Iterable[RawAction]) -> list[RawAction]:
    """The actions still standing after every undo and redo, in their original order."""
    return _walk(list(raw_actions))[0]


def undo_history(raw_actions: Iterable[RawAction]) -> list[Undo]:
    """Every undo and redo of a record, in order, with the actions each one took back or restored
    (a report's undo audit: the canonical record keeps only what stands)."""
    return _walk(list(raw_actions))[1]


def undo_remarks(source: SourceText | None) -> tuple[str, ...]:
    """What is odd about the undos and redos of a record's text (:attr:`Undo.remark`), in order;
    none for notation, which keeps no undo history."""
    raw = source_actions(source)
    return () if raw is None else tuple(u.remark for u in undo_history(raw) if u.remark is not None)


def source_actions(source: SourceText | None) -> list[RawAction] | None:
    """The raw action list of an export's text (undos, redos and chat included); None for notation."""
    if source is None or source.format != "json":
        return None
    actions = json.loads(source.text).get("actions")
    return actions if isinstance(actions, list) else None


def _walk(actions: list[RawAction]) -> tuple[list[RawAction], list[Undo]]:
    """(standing actions, undo history) of a raw action list.

    Standing game actions are kept as a stack of indices: an undo takes back a tail of it and a
    redo puts the most recent tail back (nothing but undo, redo and messages can come between, as
    any other action clears the redo stack), so a record of any number of undos takes linear time.
    """
    index_of_id: dict[Any, int] = {}
    for i, a in enumerate(actions):
        index_of_id.setdefault(a.get("id"), i)  # an action_id names the first action of that id, as 18xx.games finds it
    standing = [False] * len(actions)
    game: list[int] = []
    batches: list[list[int]] = []
    history: list[Undo] = []

    for index, action in enumerate(actions):
        kind = action.get("type")
        if kind in ("undo", "redo"):
            after = actions[game[-1]].get("id") if game else None
            target = None
            if kind == "undo":
                start = _undo_start(action, index, index_of_id, game)
                if action.get("action_id"):
                    target = (start - 1, actions[start - 1])
                cut = len(game)
                while cut and game[cut - 1] >= start:
                    cut -= 1
                batch = game[cut:]
                del game[cut:]
                batches.append(batch)
            else:
                if not batches:
                    raise RecordError("redo with nothing to redo", action=_label(action, index))
                batch = batches.pop()
                game.extend(batch)
            for i in batch:
                standing[i] = kind == "redo"
            history.append(Undo(action, tuple(actions[i] for i in batch), after, index, target))
        else:
            if kind != "message":
                batches.clear()
                game.append(index)
            standing[index] = True
    return [a for a, kept in zip(actions, standing) if kept], history


def _undo_start(action: RawAction, index: int, index_of_id: dict[Any, int], game: list[int]) -> int:
    """Index of the first action an undo takes back (``game``: standing game actions, in order)."""
    target = action.get("action_id")
    if target is None:
        return game[-1] if game else index
    if isinstance(target, bool) or not isinstance(target, int) or (target != 0 and target not in index_of_id):
        raise RecordError(
            f"undo points at action {shown(target)}, which is not in the record", action=_label(action, index), field="action_id"
        )
    return 0 if target == 0 else index_of_id[target] + 1


def _label(action: RawAction, index: int) -> str:
    """How errors name a raw action: its id and its index in the export's list, ``42 (#12)``."""
    return f"{action.get('id', '?')} (#{index})"
