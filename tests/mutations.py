"""Helpers for rule tests: change one action of a legal test game and see what the engine flags."""

from __future__ import annotations

from typing import Callable

import pytest

from railledger.ingest import notation
from railledger.ingest.model import Action, Entity, Record
from railledger.replay import Game, IllegalAction, replay_record


def edited(text: str, label: int, line: str | None = None, insert: str | None = None) -> str:
    """The game with the line of action ``label`` replaced by ``line``, or ``insert`` added after it."""
    out = []
    for row in text.splitlines():
        if row.split(" ", 1)[0] == str(label):
            if insert is not None:
                out.extend([row, insert])
                continue
            out.append(line if line is not None else row)
            continue
        out.append(row)
    return "\n".join(out) + "\n"


def apply_changes(text: str, change: tuple | list) -> str:
    """Apply one change ``(label, line)`` / ``(label, None, inserted)``, or a list of them."""
    for edit in change if isinstance(change, list) else [change]:
        text = edited(text, edit[0], edit[1]) if len(edit) == 2 else edited(text, edit[0], insert=edit[2])
    return text


def mutation_params(mutations: list[tuple]) -> list:
    """pytest params ``(change, rule, label)`` of a title's ``(name, change, rule, label)`` list."""
    return [pytest.param(change, rule, label, id=name) for name, change, rule, label in mutations]


def assert_flagged(game: str, change: tuple | list, rule: str, label: str) -> None:
    """The changed game's first flag is ``rule`` at the action labelled ``label``, at its index."""
    text = apply_changes(game, change)
    assert first_flag(text) == (rule, label, index_of(text, label))


def distinct_rules(mutations: list[tuple]) -> int:
    return len({rule for _, _, rule, _ in mutations})


def first_flag(text: str) -> tuple[str, str, int]:
    """(rule id, action id, index) of the first action the engine flags."""
    flags = replay_record(notation.read(text), keep_going=True).flags
    assert flags, "the changed game was not flagged"
    return flags[0].rule, flags[0].action_id, flags[0].index


def index_of(text: str, label: str) -> int:
    return next(i for i, a in enumerate(notation.read(text).actions) if a.label == label)


def game_until(text: str, label: str) -> tuple[Game, Record, int]:
    """The game played up to (not including) the action with this label."""
    record = notation.read(text)
    game = Game.start(record.title, record.players, seed=record.seed, game_id=record.game_id, created=record.created)
    for index, action in enumerate(record.actions):
        if action.label == label:
            return game, record, index
        game.process(action)
    raise AssertionError(f"no action {label}")


def illegal_at(text: str, label: str, action: Action, prepare: Callable[[Game], object]) -> IllegalAction:
    """Play ``text`` up to ``label``, let ``prepare`` set up a state, then expect ``action`` refused there."""
    game, _, index = game_until(text, label)
    with game.changing():  # a state set up by hand, as the game's own changes are
        prepare(game)
    game.index = index
    with pytest.raises(IllegalAction) as caught:
        game.process(action)
    assert caught.value.index == index
    return caught.value


def player(pid: str) -> Entity:
    return Entity("player", pid)


def corp(sym: str) -> Entity:
    return Entity("corporation", sym)
