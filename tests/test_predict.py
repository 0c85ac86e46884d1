"""Predicting people: bots' preferences in order, what makes two actions the same choice, and the
rates ``railledger predict`` and the bench print, on the repository's examples (and on the shared
records when they are there)."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from random import Random

import pytest

from railledger.bench.predict import EVERY_KIND, predict_section, tallies
from railledger.ingest.model import Action
from railledger.ingest.sources import read_record
from railledger.replay import Game
from railledger.selfplay.bots import bot_named
from railledger.selfplay.menu import offered
from railledger.selfplay.play import play
from railledger.selfplay.prediction import deciding_fields, guesses
from railledger.selfplay.ranking import TOP, ranked
from railledger.selfplay.seats import controller, seat_to_act, waited_seat
from railledger.selfplay.strong import StrongBot
from tests.conftest import fixture_files

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((REPO / "examples").glob("*.rln"))


def _decisions(title: str, seed: int, players: int) -> Iterator[tuple[Game, list[Action]]]:
    """(game, the seat's legal actions) at every decision of a greedy game with more than one."""
    record = play(title, seed, [bot_named("greedy")] * players).record
    game = Game.from_record(record)
    game.journal.enabled = False
    for action in record.actions:
        turn = seat_to_act(game, offered(game, list), waited_seat(game))
        if turn is not None and len(turn[1]) > 1:
            yield game, turn[1]
        game.process(action)


def test_every_ranking_puts_the_bots_choice_first_and_orders_each_legal_action_once() -> None:
    for n, (game, legal) in enumerate(_decisions("18MS", 4, 3)):
        if n % 7:
            continue  # a sample of the game's decisions keeps the test short
        shuffled = ranked(bot_named("random"), game, legal, Random(n))
        assert len(shuffled) == len(legal) and all(a in legal for a in shuffled[TOP:])
        order = ranked(bot_named("greedy"), game, legal, Random(n))
        assert order[0] == bot_named("greedy").choose(game, legal, Random(n))
        # the rest as listed: every legal action but the choice itself (a family it was made from stays)
        assert order[1:] == [a for a in legal if a != order[0]]


def test_the_strong_bots_order_is_its_search_again_and_again() -> None:
    bot, searched = StrongBot(), 0
    for game, legal in _decisions("18MS", 4, 3):
        me = controller(game, legal[0].entity)
        assert me is not None
        candidates = bot.candidates(game, me, legal)
        if len(candidates) < 3:
            continue
        order = ranked(bot, game, legal, Random(1))
        rng = Random(1)
        first = bot.search(game, me, candidates, rng)
        second = bot.search(game, me, [c for c in candidates if c is not first], rng)
        assert order[:2] == [first, second] and order[0] == bot.choose(game, legal, Random(1))
        assert len(order) == len(legal) and all(a in legal for a in order)
        searched += 1
        if searched == 3:
            break
    assert searched == 3


def test_two_actions_are_the_same_choice_when_their_deciding_fields_agree() -> None:
    game, legal = next((g, lg) for g, lg in _decisions("18MS", 4, 3) if any(a.type == "lay_tile" for a in lg))
    lays = [a for a in legal if a.type == "lay_tile"]
    one = lays[0]
    assert deciding_fields(game, one) == deciding_fields(game, Action(one.type, one.entity, 99, 0, dict(one.fields)))
    turned = next(a for a in lays if a.fields["hex"] == one.fields["hex"] and a.fields["rotation"] != one.fields["rotation"])
    assert deciding_fields(game, turned) != deciding_fields(game, one)
    run = Action("run_routes", one.entity, 1, 0, {"routes": [{"revenue": 40}, {"revenue": 30}]})
    other = Action("run_routes", one.entity, 2, 0, {"routes": [{"revenue": 70}], "extra_revenue": 0})
    assert deciding_fields(game, run) == deciding_fields(game, other)
    token = Action("place_token", one.entity, 3, 0, {"city": "I1-0-0", "slot": 0})
    recorded = Action("place_token", one.entity, 4, 0, {"city": "I1-0-0", "slot": 0, "tokener": str(one.entity.id)})
    assert deciding_fields(game, token) == deciding_fields(game, recorded)
    offered_price = Action("bid", one.entity, 5, 0, {"company": "AGS", "price": 30, "price_range": [30, 60]})
    assert deciding_fields(game, offered_price) == deciding_fields(game, Action("bid", one.entity, 6, 0, {"company": "AGS", "price": 30}))


def test_the_examples_decisions_are_guessed_by_every_bot_and_a_first_choice_is_in_the_top() -> None:
    records = [read_record(str(path)) for path in EXAMPLES]
    found = [guess for record in records for guess in guesses(record, [bot_named(n) for n in ("random", "greedy", "strong")])]
    by_bot = Counter(guess.bot for guess in found)
    assert set(by_bot) == {"random", "greedy", "strong"} and len(set(by_bot.values())) == 1
    assert all(guess.top for guess in found if guess.first)
    counted = tallies(found)
    for (title, kind, bot), tally in counted.items():
        if kind != EVERY_KIND:
            assert tally.first <= tally.top <= tally.decisions
    pooled = {(t, b): tally.decisions for (t, k, b), tally in counted.items() if k == EVERY_KIND}
    assert sum(pooled.values()) == len(found)
    section = predict_section(records)
    assert {row[2] for row in section.rows} == {"random", "greedy", "strong"}
    assert any("strong guesses first" in line for line in section.lines)


def test_the_command_prints_the_rates_and_names_a_file_it_cannot_read(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "railledger", "predict", str(REPO / "examples" / "18ms-opening.rln"), "--bots", "random,greedy"]
    shown = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert "18MS" in shown and "every kind" in shown and "greedy guesses first" in shown
    (tmp_path / "broken.json").write_text("{")
    failed = subprocess.run([*command, str(tmp_path / "broken.json")], capture_output=True, text=True)
    assert failed.returncode == 1 and "broken.json" in failed.stderr and "18MS" in failed.stdout
    unknown = subprocess.run([*command[:-1], "random,nobody"], capture_output=True, text=True)
    assert unknown.returncode != 0 and "no bot 'nobody'" in unknown.stderr


@pytest.mark.skipif(not fixture_files("18MS"), reason="no shared 18MS fixtures (set RAILLEDGER_FIXTURES)")
def test_greedy_guesses_people_better_than_chance_on_a_shared_record() -> None:
    record = read_record(str(fixture_files("18MS")[0]))
    counted = tallies(guesses(record, [bot_named("random"), bot_named("greedy")]))
    random_first = counted[("18MS", EVERY_KIND, "random")].first
    assert counted[("18MS", EVERY_KIND, "greedy")].first > random_first
