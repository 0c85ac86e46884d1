"""Undo and redo, exactly as 18xx.games applies them when it loads a game.

The server keeps every action ever sent, including ``undo`` and ``redo``; the game is what
remains standing. The rules (also in docs/notation.md):

* ``undo`` without ``action_id`` takes back the last standing non-message action;
* ``undo`` with ``action_id`` N takes back every standing action after action N
  (``action_id: 0`` takes back everything);
* each undo pushes what it took back as one batch; ``redo`` restores the most recent batch;
* any other non-message action clears the redo stack;
* ``message`` actions are never taken back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from railledger.ingest.errors import RecordError
from railledger.ingest.schema import shown

RawAction = dict[str, Any]


@dataclass(frozen=True)
class Undo:
    """One ``undo`` or ``redo`` of a record: the raw action and what it took back or put back.

    ``after`` is the id of the last standing game action just before it (None at the start):
    where in the game it happened.
    """

    action: RawAction
    batch: tuple[RawAction, ...]
    after: Any

    @property
    def is_redo(self) -> bool:
        return self.action.get("type") == "redo"


def standing_actions(raw_actions: Iterable[RawAction]) -> list[RawAction]:
    """The actions still standing after every undo and redo, in their original order."""
    return _walk(list(raw_actions))[0]


def undo_history(raw_actions: Iterable[RawAction]) -> list[Undo]:
    """Every undo and redo of a record, in order, with the actions each one took back or restored
    (a report's undo audit: the canonical record keeps only what stands)."""
    return _walk(list(raw_actions))[1]


def _walk(actions: list[RawAction]) -> tuple[list[RawAction], list[Undo]]:
    """(standing actions, undo history) of a raw action list.

    Standing game actions are kept as a stack of indices: an undo takes back a tail of it and a
    redo puts the most recent tail back (nothing but undo, redo and messages can come between, as
    any other action clears the redo stack), so a record of any number of undos takes linear time.
    """
    index_of_id = {a.get("id"): i for i, a in enumerate(actions)}
    standing = [False] * len(actions)
    game: list[int] = []
    batches: list[list[int]] = []
    history: list[Undo] = []

    for index, action in enumerate(actions):
        kind = action.get("type")
        if kind in ("undo", "redo"):
            after = actions[game[-1]].get("id") if game else None
            if kind == "undo":
                start = _undo_start(action, index, index_of_id, game)
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
            history.append(Undo(action, tuple(actions[i] for i in batch), after))
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
