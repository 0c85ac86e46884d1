"""The engine's answers equal those tests/regression_gate.json keeps (see tests/regression_gate.py):
states and snapshots, events, flags with their messages, audits, legal actions at every position
and self-play games on fixed seeds."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from railledger.replay import engine_build
from tests.conftest import fixture_files
from tests.perft import name_of, record_of
from tests.regression_gate import GATE, SELFPLAY_SEEDS, record_entry, selfplay_entry, selfplay_name, recorded_games

KEPT = json.loads(GATE.read_text())


@pytest.mark.parametrize("path", [pytest.param(p, id=name_of(p)) for p in recorded_games()])
def test_a_test_game_answers_as_the_gate_keeps(path: Path) -> None:
    assert record_entry(record_of(path)) == KEPT[name_of(path)]


@pytest.mark.parametrize("name", sorted(k for k in KEPT if not k.startswith(("selfplay/", *(f"{d}/" for d in ("games", "selfplay_games", "sentence_games", "reference_games"))))))
def test_a_shared_record_answers_as_the_gate_keeps(name: str) -> None:
    present = {name_of(p): p for p in fixture_files()}
    if name not in present:
        pytest.skip(f"shared record {name} not found (set RAILLEDGER_FIXTURES)")
    assert record_entry(record_of(present[name])) == KEPT[name]


@pytest.mark.parametrize("title, seed, bots", SELFPLAY_SEEDS)
def test_selfplay_on_a_fixed_seed_plays_as_the_gate_keeps(title: str, seed: int, bots: tuple[str, ...]) -> None:
    assert selfplay_entry(title, seed, bots) == KEPT[selfplay_name(title, seed, bots)]


def test_the_gate_holds_every_game_and_record() -> None:
    """A record added to the test folders or the shared fixtures is in the gate too."""
    names = {name_of(p) for p in [*recorded_games(), *fixture_files()]}
    assert names <= set(KEPT), f"not in the gate: {sorted(names - set(KEPT))} (python -m tests.regression_gate)"


def test_the_engine_is_the_build_the_run_asks_for() -> None:
    """The gate on the compiled engine (make fast-gate) names the build it means to test, so a
    failed or skipped compile never passes for a compiled run; any other run tests the pure one."""
    assert engine_build() == os.environ.get("RAILLEDGER_ENGINE_BUILD", "pure")
