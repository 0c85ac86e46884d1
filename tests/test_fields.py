"""Every field an action declares is one its step reads: any other is refused with its own rule,
at that action, and the game is unchanged; docs/engine.md lists what each step reads."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from railledger.ingest.action_types import GAME_ACTION_TYPES, Kind
from railledger.ingest.model import Action
from railledger.replay import Game, IllegalAction
from railledger.replay.flow import DEFAULT_VALUES, fields_read
from tests.conftest import fixture_files
from tests.perft import TEST_GAMES, positions, record_of

DOCS = Path(__file__).resolve().parent.parent / "docs" / "engine.md"

SAMPLE_VALUES: dict[Kind, Any] = {Kind.INT: 7, Kind.STR: "x", Kind.STRS: ["x"], Kind.BOOL: True, Kind.ENTITY: "x"}


def with_field(action: Action, name: str, value: Any) -> Action:
    return dataclasses.replace(action, fields={**action.fields, name: value})


def handled_actions(path: Path) -> list[tuple[str, Action, frozenset[str], Game]]:
    record = record_of(path)
    seen: set[tuple[str, str]] = set()
    found = []
    for index, game in positions(record):
        action = record.actions[index]
        if action.is_program or action.type == "end_game":
            continue  # no step takes these: automation settings, and the players ending the game
        step = game.round.step_for(action)
        key = (type(step).__name__, action.type)
        if key in seen:
            continue
        seen.add(key)
        found.append((key[0], action, fields_read(getattr(step, f"do_{action.type}")), game.copy()))
    return found


RECORDS = [*TEST_GAMES, *fixture_files()]
"""The authored test games, and the shared records when they are present."""

CASES = [
    pytest.param(path, step, action, read, game, name, id=f"{path.stem}-{step}-{action.type}-{name}")
    for path in RECORDS
    for step, action, read, game in handled_actions(path)
    for name, kind in (GAME_ACTION_TYPES[action.type].kinds.items() if action.type in GAME_ACTION_TYPES else ())
    if name not in read
]


@pytest.mark.parametrize(("path", "step", "action", "read", "game", "name"), CASES)
def test_a_field_the_step_does_not_read_is_refused(path: Path, step: str, action: Action, read: frozenset[str], game: Game, name: str) -> None:
    kind = GAME_ACTION_TYPES[action.type].kinds[name]
    changed = with_field(action, name, SAMPLE_VALUES[kind] if kind is not Kind.ROUTES else [{"train": "x"}])
    before = game.fingerprint()
    with pytest.raises(IllegalAction) as refused:
        game.process(changed)
    assert refused.value.rule.id.endswith("field-unsupported"), refused.value.message
    assert name in refused.value.message
    assert game.fingerprint() == before
    assert game.is_legal(action), "the recorded action itself stays legal"


DEFAULTS: dict[Kind, Any] = {Kind.INT: 0, Kind.STR: "", Kind.STRS: [], Kind.BOOL: False, Kind.ENTITY: None, Kind.ROUTES: []}


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in RECORDS])
def test_a_field_holding_its_default_declares_nothing(path: Path) -> None:
    """18xx.games writes ``subsidy: 0``, ``extra_due: false``: accepted where no rule reads them."""
    for step, action, read, game in handled_actions(path):
        for name, kind in GAME_ACTION_TYPES[action.type].kinds.items():
            if name not in read:
                assert DEFAULTS[kind] in DEFAULT_VALUES
                assert game.is_legal(with_field(action, name, DEFAULTS[kind])), f"{step}: {action.type} {name}={DEFAULTS[kind]!r}"


def documented_fields() -> dict[str, set[str]]:
    """The table of docs/engine.md: action type -> the fields it says the engine reads."""
    table: dict[str, set[str]] = {}
    for line in DOCS.read_text().splitlines():
        match = re.match(r"\| `(\w+)` \| ([^|]*) \|", line)
        if match:
            table[match.group(1)] = set(re.findall(r"`(\w+)`", match.group(2)))
    return table


def test_docs_list_every_field_a_step_reads() -> None:
    table = documented_fields()
    for path in RECORDS:
        for step, action, read, _ in handled_actions(path):
            assert action.type in table, f"docs/engine.md has no row for {action.type}"
            assert read <= table[action.type], f"{step} reads {sorted(read - table[action.type])} of {action.type}, not in docs/engine.md"
