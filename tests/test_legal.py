"""The legal-action generator: what it offers is legal, what the records did was offered, and
its counts at every position stay what tests/perft.json says (an 18xx perft)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from replay.moves import move_key
from tests.conftest import fixture_params
from tests.perft import COUNTS, TEST_GAMES, name_of, positions, record_of

UNOFFERED = ("run_routes", "end_game")
"""A run is offered as its step (any routes may be declared); the players may end a game any time."""

PATHS = [pytest.param(p, id=p.stem) for p in TEST_GAMES] + fixture_params()


@pytest.mark.parametrize("path", PATHS)
def test_every_recorded_action_is_legal_offered_and_counted(path: Path) -> None:
    record = record_of(path)
    stored = json.loads(COUNTS.read_text())[name_of(path)]
    found = []
    for index, game in positions(record):
        action = record.actions[index]
        offered = list(game.legal_actions())
        found.append(len(offered))
        assert game.is_legal(action), f"#{index} {action.label} {action.type} is refused"
        assert all(game.is_legal(a) for a in offered), f"#{index}: an offered action is refused"
        if not action.is_program and action.type not in UNOFFERED:
            assert move_key(game, action) in {move_key(game, a) for a in offered}, f"#{index} {action.label} {action.type} was not offered"
    assert found == stored, "legal action counts changed: review, then rewrite tests/perft.json with python -m tests.perft"


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in TEST_GAMES])
def test_every_offered_action_can_be_played(path: Path) -> None:
    """Applying any offered action (every third position of the test games) raises nothing."""
    record = record_of(path)
    for index, game in positions(record):
        if index % 3:
            continue
        for action in game.legal_actions():
            copy.deepcopy(game).process(action)


def test_a_generated_action_names_a_concrete_move() -> None:
    record = record_of(TEST_GAMES[0])
    _, game = next(positions(record))
    offered = list(game.legal_actions())
    assert offered and all(a.id == 0 and a.entity.kind in ("player", "corporation", "company") for a in offered)
