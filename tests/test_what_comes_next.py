"""What comes next, as the engine answers it between actions (from answers kept per moment of
the game, and counts of entities kept while the entities stand, across takebacks too), equals a
computation from scratch at every position: which step waits, who acts, which steps block, what
each open step offers its actor, the companies over their train limit, each player's
certificates and the trains the bank sells. Checked on the test games, the shared records and
bots' games."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from railledger.ingest.model import Record
from railledger.replay import Game, IllegalAction
from railledger.selfplay.bots import bot_named
from railledger.selfplay.play import play
from tests.conftest import fixture_params
from tests.perft import record_of
from tests.regression_gate import recorded_games

BOT_GAMES = int(os.environ.get("RAILLEDGER_BOT_GAMES", "24"))
"""How many bots' games are checked, shared among the titles: 24 in a test run (a few minutes);
``RAILLEDGER_BOT_GAMES=100`` checks a hundred."""
TABLES = (("18MS", ("greedy", "random", "random")), ("18Texas", ("random", "greedy", "random", "greedy")),
          ("The Old Prince 1871", ("greedy", "random", "random", "greedy")))
PATHS = [pytest.param(p, id=f"{p.parent.name}/{p.stem}") for p in recorded_games()] + fixture_params()


def answers(game: Game, *, kept: bool) -> list[Any]:
    """What comes next: with ``kept``, as the engine answers it (remembered answers included);
    without, from each step's own rules (``offers``) and the counts computed afresh, asked of a
    copy that remembers nothing."""
    round_ = game.round
    found: list[Any] = [type(round_).__name__, round_.label, round_.current]
    if kept:
        found += [game.over_train_limit(), [game.certificates(pid) for pid in game.players], game.title.bank_trains(game)]
    else:
        found += [game.count_over_train_limit(), [game.count_certificates(pid) for pid in game.players],
                  game.title.find_bank_trains(game)]
    active = round_.active_step()
    found.append(None if active is None else (round_.steps.index(active), active.actor()))
    for step in round_.steps:
        actor = step.actor()
        if step.passed or actor is None:
            found.append((type(step).__name__, step.passed, actor))
            continue
        offered = step.offers_now(actor) if kept else step.offers(actor)
        blocking = step.blocking() if kept else step.blocks and bool(step.offers(actor))
        found.append((type(step).__name__, actor, sorted(offered), blocking))
    return found


def compare_every_position(game: Game, actions: Iterator[Any], name: str) -> int:
    """Walk the actions, comparing at every position; each action is also pushed, popped and
    pushed again, so that answers kept across a takeback are compared too. Returns how many."""
    count = 0
    for number, action in enumerate(actions):
        assert answers(game, kept=True) == answers(game.copy(), kept=False), f"{name}: before #{number}"
        try:
            game.push(action)
        except IllegalAction:
            continue
        game.pop()
        assert answers(game, kept=True) == answers(game.copy(), kept=False), f"{name}: after popping #{number}"
        game.push(action)
        count += 1
    assert answers(game, kept=True) == answers(game.copy(), kept=False), f"{name}: at the end"
    return count


@pytest.mark.parametrize("path", PATHS)
def test_what_comes_next_in_a_record_is_computed_from_scratch_alike(path: Path) -> None:
    record: Record = record_of(path)
    assert compare_every_position(Game.from_record(record), iter(record.actions), path.name) > 0


@pytest.mark.parametrize("table", range(len(TABLES)), ids=[t for t, _ in TABLES])
def test_what_comes_next_in_bots_games_is_computed_from_scratch_alike(table: int) -> None:
    title, bots = TABLES[table]
    seeds = range(1, 1 + BOT_GAMES // len(TABLES) + (table < BOT_GAMES % len(TABLES)))
    for seed in seeds:
        record = play(title, seed, [bot_named(b) for b in bots]).record
        assert compare_every_position(Game.from_record(record), iter(record.actions), f"{title} seed {seed}") > 0


def entities_of(game: Game) -> list[Any]:
    return [*game.players.values(), *game.corporations.values(), *game.companies.values(),
            *game.shares.values(), *game.trains.values()]


@pytest.mark.parametrize("path", [pytest.param(p, id=f"{p.parent.name}/{p.stem}") for p in recorded_games()[:3]])
def test_every_entity_counts_its_changes_in_its_own_games_tally(path: Path) -> None:
    """A count kept while the entities stand is right only if every change of every entity, a
    title's own ones included, moves the count of changes of the game it belongs to (a copy's its own)."""
    record = record_of(path)
    game = Game.from_record(record)
    for action in record.actions[: len(record.actions) // 2]:
        game.push(action)
    twin = game.copy()
    for one in (game, twin):
        assert one.market.entity_changes is one.entity_changes
        assert all(entity.entity_changes is one.entity_changes for entity in entities_of(one))
    before = game.entity_changes.count
    for action in record.actions[len(record.actions) // 2:]:
        twin.push(action)
    assert game.entity_changes.count == before and twin.entity_changes.count > 0


def test_a_count_kept_while_the_entities_stand_follows_a_change_made_by_hand() -> None:
    """A certificate moved inside ``changing()`` (as a test or tool edits a game) is counted at
    once, although the count was kept before; a takeback is counted too."""
    record = record_of(recorded_games()[0])
    game = Game.from_record(record)
    for action in record.actions[:40]:
        game.push(action)
    pid = game.order[0]
    held = game.certificates(pid)
    share = next(s for s in game.shares.values() if s.owner == "ipo" and not s.president)
    with game.changing():
        share.owner = pid
    assert game.certificates(pid) == game.count_certificates(pid) == held + (0 if game.in_yellow_zone(share.corporation) else 1)
