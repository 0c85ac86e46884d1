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

from typing import Any, Iterable

from ingest.errors import RecordError

RawAction = dict[str, Any]


def standing_actions(raw_actions: Iterable[RawAction]) -> list[RawAction]:
    """The actions still standing after every undo and redo, in their original order."""
    actions = list(raw_actions)
    index_of_id = {a.get("id"): i for i, a in enumerate(actions)}
    standing: list[RawAction | None] = [None] * len(actions)
    batches: list[list[int]] = []

    for index, action in enumerate(actions):
        kind = action.get("type")
        if kind == "undo":
            start = _undo_start(action, index_of_id, standing)
            batch = [i for i in range(start, index) if _is_game(standing[i])]
            for i in batch:
                standing[i] = None
            batches.append(batch)
        elif kind == "redo":
            if not batches:
                raise RecordError("redo with nothing to redo", action=_label(action))
            for i in batches.pop():
                standing[i] = actions[i]
        else:
            if kind != "message":
                batches.clear()
            standing[index] = action
    return [a for a in standing if a is not None]


def _is_game(action: RawAction | None) -> bool:
    return action is not None and action.get("type") != "message"


def _undo_start(action: RawAction, index_of_id: dict[Any, int], standing: list[RawAction | None]) -> int:
    """Index of the first action an undo takes back."""
    target = action.get("action_id")
    if target is None:
        last = max((i for i, a in enumerate(standing) if _is_game(a)), default=None)
        return 0 if last is None else last
    if target == 0:
        return 0
    if not isinstance(target, int) or target not in index_of_id:
        raise RecordError(f"undo points at action {target}, which is not in the record", action=_label(action))
    return index_of_id[target] + 1


def _label(action: RawAction) -> str:
    return str(action.get("id", "?"))
