"""The regression gate: hashes of everything the engine answers, kept in tests/regression_gate.json.

Work that makes the engine cheaper must not change an answer. For every test game (tests/games,
tests/selfplay_games, tests/sentence_games, tests/reference_games), every shared record
(RAILLEDGER_FIXTURES) and a few self-play games on fixed seeds, the gate hashes:

- ``states``: the snapshot after every action (``replay --json --states``), the events, the result;
- ``flags``: every flag of a keep-going replay, with its rule, message, round and sentence, of
  the record and of the record with every :data:`DAMAGE_STRIDE`-th action left out (the records
  are legal: the damaged ones give the flags and refusals to compare);
- ``audits``: the revenue audit of every run (engine revenue, optimum);
- ``legal``: at every position, the legal actions in the order the engine yields them, whether
  the recorded action is legal, and the generic state (``GameState.fingerprint``), none sampled
  (all records together take well under a minute);
- ``selfplay``: the actions and end of self-play games on :data:`SELFPLAY_SEEDS`.

``python -m tests.regression_gate`` writes the JSON (on an engine whose answers are trusted);
``tests/test_regression_gate.py`` compares a fresh computation with it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from railledger.ingest.model import Action, Record
from railledger.replay import Game, IllegalAction
from railledger.replay.optimizer.audit import audit_record
from railledger.replay.replayer import replay_record
from railledger.replay.state import GameState
from railledger.selfplay.bots import bot_named
from railledger.selfplay.play import play
from tests.perft import name_of, record_of

HERE = Path(__file__).resolve().parent
GATE = HERE / "regression_gate.json"
GAME_DIRS = ("games", "selfplay_games", "sentence_games", "reference_games")
DAMAGE_STRIDE = 9
"""Every ninth action (from the fifth) is left out of the damaged copy of a record."""
SELFPLAY_SEEDS: tuple[tuple[str, int, tuple[str, ...]], ...] = (
    ("18MS", 1, ("greedy", "random", "random")),
    ("18MS", 2, ("greedy", "greedy", "random", "random")),
    ("18Texas", 3, ("greedy", "random", "greedy", "random")),
    ("18Texas", 4, ("random", "greedy", "random")),
    ("The Old Prince 1871", 5, ("greedy", "random", "greedy", "random")),
    ("The Old Prince 1871", 6, ("random", "greedy", "random")),
)


def recorded_games() -> list[Path]:
    """The repository's own records, in a fixed order."""
    return sorted(p for folder in GAME_DIRS for p in (HERE / folder).glob("*.rln"))


def digest(parts: Iterable[Any]) -> str:
    """A short stable hash of a sequence of JSON-able (or repr-able) values."""
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(json.dumps(part, sort_keys=True, default=repr).encode())
        hasher.update(b"\n")
    return hasher.hexdigest()[:20]


def action_key(action: Action) -> list[Any]:
    return [action.type, action.entity.kind, str(action.entity.id), action.auto, dict(action.fields)]


def damaged(record: Record) -> Record:
    """The record without every :data:`DAMAGE_STRIDE`-th action."""
    kept = [a for i, a in enumerate(record.actions) if i % DAMAGE_STRIDE != DAMAGE_STRIDE // 2]
    return dataclasses.replace(record, actions=kept)


def flags_of(record: Record) -> list[list[Any]]:
    outcome = replay_record(record, keep_going=True)
    return [[f.index, f.action_id, f.rule, f.section, f.message, f.follows, f.round, f.sentence] for f in outcome.flags]


def states_of(record: Record) -> dict[str, str]:
    """The replay's snapshots, events, result and flags, hashed."""
    outcome = replay_record(record, keep_going=True, snapshots=True)
    payload = outcome.as_dict(states=True)
    events = [[e.index, e.kind, e.subject, e.amount, e.detail] for e in outcome.events]
    return {
        "states": digest([payload["states"], events, payload["result"]]),
        "flags": digest([flags_of(record), flags_of(damaged(record))]),
    }


def audits_of(record: Record) -> str:
    return digest(run.as_dict() for run in audit_record(record))


def legal_of(record: Record) -> str:
    """At every position: the legal actions, the recorded action's legality and the generic
    state; a refused action is skipped as a keep-going replay does."""
    game = Game.from_record(record)
    parts: list[Any] = []
    for index, action in enumerate(record.actions):
        legal = [action_key(a) for a in game.legal_actions()]
        allowed = game.is_legal(action)
        parts.append([index, allowed, legal, state_of(game)])
        try:
            game.process(action)
        except IllegalAction:
            pass  # changes nothing; the record goes on, as with --keep-going
    parts.append(state_of(game))
    return digest(parts)


def canonical(value: Any) -> Any:
    """A value with its sets in sorted order, so that its hash does not follow PYTHONHASHSEED."""
    if isinstance(value, dict):
        return sorted(([canonical(k), canonical(v)] for k, v in value.items()), key=repr)
    if isinstance(value, (set, frozenset)):
        return sorted((canonical(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return canonical(vars(value)) if hasattr(value, "__dict__") else repr(value)


def state_of(game: Game) -> Any:
    """The generic state (``GameState.fingerprint``, the title's state in canonical order) and
    the round under way (the round's and steps' own fields are the engine's business)."""
    return [canonical(GameState.fingerprint(game)[:-1]), canonical(vars(game.extra)), game.round.label]


def record_entry(record: Record) -> dict[str, str]:
    return {**states_of(record), "audits": audits_of(record), "legal": legal_of(record)}


def selfplay_actions(title: str, seed: int, bots: tuple[str, ...]) -> tuple[list[list[Any]], str]:
    """The actions bots play on this seed, and why the game ended."""
    played = play(title, seed, [bot_named(b) for b in bots])
    return [action_key(a) for a in played.record.actions], played.end_reason


def selfplay_entry(title: str, seed: int, bots: tuple[str, ...]) -> str:
    return digest(selfplay_actions(title, seed, bots))


def selfplay_name(title: str, seed: int, bots: tuple[str, ...]) -> str:
    return f"selfplay/{title}/{seed}/{','.join(bots)}"


def compute(paths: Iterable[Path]) -> dict[str, Any]:
    """Every entry of the gate for these records, plus the self-play games."""
    entries: dict[str, Any] = {name_of(p): record_entry(record_of(p)) for p in paths}
    for title, seed, bots in SELFPLAY_SEEDS:
        entries[selfplay_name(title, seed, bots)] = selfplay_entry(title, seed, bots)
    return entries


def main() -> None:
    from tests.conftest import fixture_files

    fixtures = fixture_files()
    if not fixtures:
        sys.exit("no shared fixtures found (set RAILLEDGER_FIXTURES): the gate must hold them")
    GATE.write_text(json.dumps(compute([*recorded_games(), *fixtures]), indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
