"""The strong bot: its games end and replay, it is deterministic for a seed, it chooses a legal
action without changing the game, and it plays what its evaluation scores highest."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from random import Random

import pytest

from railledger.ingest.model import Action, PlayerId
from railledger.replay import Game
from railledger.replay.hexgrid import distance
from railledger.replay.network import fresh_network
from railledger.replay.optimizer import position_of, solve
from railledger.replay.shares import transfer
from railledger.replay.state import MARKET
from railledger.selfplay.bots import bot_named
from railledger.selfplay.building import FADING, planned_trains, prospect
from railledger.selfplay.concrete import as_recorded
from railledger.selfplay.evaluation import Debt, Standing, heir
from railledger.selfplay.greedy import operating_company, par_price
from railledger.selfplay.menu import offered
from railledger.selfplay.play import play
from railledger.selfplay.seats import seat_to_act, waited_seat
from railledger.selfplay.simulate import simulate
from railledger.selfplay.strong import StrongBot

TABLES = [
    ("18MS", 3, ("strong", "greedy", "random")),
    ("18Texas", 4, ("strong", "greedy", "random", "greedy")),
    ("The Old Prince 1871", 5, ("strong", "random", "greedy", "random")),
]


@pytest.mark.parametrize(("title", "seed", "bots"), TABLES, ids=[t for t, _, _ in TABLES])
def test_a_strong_bots_game_ends_by_its_rules_and_replays_with_no_flag(title: str, seed: int, bots: tuple[str, ...]) -> None:
    game = simulate(title, seed, bots)
    assert game.error is None and game.played is not None and game.replay is not None
    assert game.replay.flags == [] and game.verified
    assert game.replay.result == dict(game.played.record.result or {})


def test_the_same_seed_plays_the_same_game() -> None:
    first = play("18MS", 11, [bot_named("strong"), bot_named("greedy"), bot_named("strong")])
    again = play("18MS", 11, [bot_named("strong"), bot_named("greedy"), bot_named("strong")])
    assert first.record.actions == again.record.actions and first.record.result == again.record.result


def _moments(title: str, seed: int, players: int, wanted: Callable[[list[Action]], bool],
             bot: str = "greedy") -> Iterator[tuple[Game, list[Action]]]:
    """(game, the seat's legal actions) at every moment of a game of ``bot`` in every seat whose
    seat's legal actions are ``wanted``."""
    record = play(title, seed, [bot_named(bot)] * players).record
    game = Game.from_record(record)
    game.journal.enabled = False
    for action in record.actions:
        legal = offered(game, list)
        turn = seat_to_act(game, legal, waited_seat(game))
        if turn is not None and wanted(turn[1]):
            yield game, turn[1]
        game.process(action)


def _stock_turns(title: str, seed: int, players: int, bot: str = "greedy") -> Iterator[tuple[Game, list[Action]]]:
    """Every stock turn of a game of ``bot`` in every seat where the seat may buy, par and pass:
    the moments the strong bot searches."""
    return _moments(title, seed, players, lambda legal: {"buy_shares", "pass"} <= {a.type for a in legal}, bot)


def test_the_bot_chooses_one_of_the_legal_actions_and_leaves_the_game_as_it_was() -> None:
    bot, rng, asked = StrongBot(), Random(3), 0
    for game, legal in _stock_turns("18MS", 4, 3):
        before = game.fingerprint()
        chosen = as_recorded(bot.choose(game, legal, rng))
        assert chosen in [as_recorded(a) for a in legal]
        assert game.fingerprint() == before
        asked += 1
    assert asked > 5


class Cash:
    """An evaluation that is the player's cash and nothing else."""

    def __init__(self, sign: int) -> None:
        self.sign = sign

    def __call__(self, game: Game, me: PlayerId) -> float:
        return self.sign * game.cash(me)


def _searched_stock_turns(title: str, seed: int, players: int) -> Iterator[tuple[Game, list[Action]]]:
    """The stock turns of :func:`_stock_turns` where the strong bot searches (no rule decides)."""
    return ((game, legal) for game, legal in _stock_turns(title, seed, players)
            if len(StrongBot().candidates(game, legal[0].entity.id, legal)) > 1)


def test_the_search_plays_what_the_evaluation_scores_highest() -> None:
    """Scored by cash, the search keeps the most of it among its candidates; scored against cash,
    it spends the most."""
    game, legal = next(_searched_stock_turns("18MS", 4, 3))
    me = legal[0].entity.id

    def cash_after(action: Action) -> int:
        sandbox = game.copy()
        sandbox.push(as_recorded(action))
        return sandbox.cash(me)

    left = [cash_after(action) for action in StrongBot().candidates(game, me, legal)]
    assert len(set(left)) > 1
    assert cash_after(StrongBot(Cash(+1)).choose(game, legal, Random(1))) == max(left)
    assert cash_after(StrongBot(Cash(-1)).choose(game, legal, Random(1))) == min(left)


def test_a_share_of_a_company_holding_cash_is_worth_more_than_passing() -> None:
    """A floated company's treasury buys the trains that earn: a certificate of it carries its
    part of the treasury, so the default evaluation buys rather than pass when it may."""
    for game, legal in _stock_turns("18MS", 4, 3):
        me = legal[0].entity.id
        buys = [a for a in legal if a.type == "buy_shares" and a.entity.kind == "player"
                and game.corporations[game.shares[str(a.fields["shares"][0])].corporation].cash >= 500]
        if not buys:
            continue
        evaluation = Standing()
        passing = game.copy()
        passing.push(as_recorded(next(a for a in legal if a.type == "pass")))
        buying = game.copy()
        buying.push(as_recorded(buys[0]))
        assert evaluation(buying, me) > evaluation(passing, me)
        assert StrongBot().choose(game, legal, Random(2)).type != "pass"
        return
    pytest.fail("no stock turn of the game offered a share of a company holding 500")


def test_a_player_leading_no_company_starts_one_whatever_the_evaluation() -> None:
    """Where the player leads no company and can pay a company's float, the bot pars one before
    it searches: scored by its cash alone, the search would pass."""
    asked = 0
    for game, legal in _stock_turns("18MS", 4, 3):
        me = legal[0].entity.id
        leads = any(game.president(sym) == me for sym in game.corporations)
        pars = [a for a in legal if a.type == "par"]
        floats = [a for a in pars if par_price(a) * 6 <= game.cash(me)]
        chosen = StrongBot(Cash(+1)).choose(game, legal, Random(1))
        if not leads and floats:
            assert chosen.type == "par" and par_price(chosen) * 6 <= game.cash(me)
            asked += 1
        elif len(StrongBot().candidates(game, me, legal)) > 1:
            assert chosen.type != "par"  # searched, a par costs cash
    assert asked >= 2


def test_in_the_first_stock_round_every_strong_player_starts_a_company_of_their_own() -> None:
    """As people do in 18MS: three players, three companies parred, each by another player."""
    for seed in (4, 5):
        record = play("18MS", seed, [bot_named("strong")] * 3).record
        game = Game.from_record(record)
        starters = []
        for action in record.actions:
            if game.or_number > 0:
                break
            if action.type == "par":
                starters.append(action.entity.id)
            game.push(action)
        assert sorted(starters) == sorted(game.order), seed


def test_a_table_of_strong_bots_starts_a_company() -> None:
    """Before any run the evaluation sees nothing to earn; the last player who could start a
    company before the stock round ends with none starts one, or 18MS would pass to its end."""
    record = play("18MS", 2, [bot_named("strong")] * 3).record
    assert any(action.type == "par" for action in record.actions)
    assert any(action.type == "run_routes" for action in record.actions)


def _dividends(title: str, seed: int, players: int) -> Iterator[tuple[Game, list[Action]]]:
    """Every dividend of a greedy game offering more than one kind."""
    return _moments(title, seed, players, lambda legal: len([a for a in legal if a.type == "dividend"]) > 1)


def test_where_the_end_is_timed_the_dividend_is_searched() -> None:
    """18Texas ends when the bank breaks: scored by its president's cash, the company pays out;
    scored against it, it withholds."""
    game, legal = next(_dividends("18Texas", 4, 4))
    me = game.president(str(legal[0].entity.id))
    assert me is not None
    assert StrongBot(Cash(+1)).choose(game, legal, Random(1)).fields["kind"] == "payout"
    assert StrongBot(Cash(-1)).choose(game, legal, Random(1)).fields["kind"] == "withhold"


def test_where_the_end_waits_for_a_train_the_dividend_is_greedys() -> None:
    """1871 ends when the first Diesel is bought: a company that paid out what greedy saves for a
    train could leave the game without an end, so the strong bot's dividend is greedy's."""
    kinds = set()
    for game, legal in _dividends("The Old Prince 1871", 5, 4):
        greedy = bot_named("greedy").choose(game, legal, Random(1))
        assert StrongBot(Cash(+1)).choose(game, legal, Random(1)) == greedy
        kinds.add(greedy.fields["kind"])
    assert "withhold" in kinds


def _operating_rounds(title: str, seed: int, players: int) -> Iterator[tuple[Game, list[Action]]]:
    """Every moment of a greedy game where a company may buy a train."""
    return _moments(title, seed, players, lambda legal: any(a.type == "buy_train" for a in legal))


def test_a_train_the_schedule_takes_away_earns_only_until_then() -> None:
    """18MS's 2+, 3+ and 4+ run until a given operating round: a company's runs over the rounds
    to come count each only while it is kept; a company whose trains all go after round ``end``
    earns nothing in the rounds after it."""
    checked = 0
    for game, _ in _operating_rounds("18MS", 4, 3):
        for sym in _floated(game):
            trains = game.corporation_trains(sym)
            ends = {game.title.train_type(t.card).obsolete_after_or for t in trains}
            if len(ends) != 1 or None in ends:
                continue
            end = int(next(iter(ends)))  # type: ignore[arg-type]
            evaluation, horizon = Standing(), 6
            run = evaluation.run(game, sym, tuple(t.id for t in trains))
            rounds = max(0, min(end, game.or_number + horizon) - game.or_number)
            assert evaluation.income(game, sym, float(run), horizon) == run * rounds
            checked += rounds < horizon
    assert checked


def _floated(game: Game) -> list[str]:
    return [sym for sym, corp in game.corporations.items() if corp.floated and not corp.closed]


def _lays(title: str, seed: int, players: int) -> Iterator[tuple[Game, list[Action]]]:
    """Every moment of a greedy game where a company may lay track."""
    return _moments(title, seed, players, lambda legal: any(a.type == "lay_tile" for a in legal))


def _planned_run(game: Game, action: Action) -> int:
    """The company's best run after ``action`` with the trains it has and the next the bank sells."""
    sym = operating_company(game, action)
    after = game.copy()
    after.push(as_recorded(action))
    return solve(dataclasses.replace(position_of(after, sym), trains=planned_trains(game, sym))).revenue


@pytest.mark.parametrize(("title", "seed", "players"), [("18MS", 4, 3), ("18Texas", 4, 4)])
def test_the_bot_lays_the_tile_that_opens_the_best_run(title: str, seed: int, players: int) -> None:
    """Of the lays on offer, none opens a better run than the bot's; and some lay the bot chose
    opened a better run than greedy's rule (an upgraded city first) would have."""
    bot, checked, better = StrongBot(), 0, 0
    for game, legal in _lays(title, seed, players):
        lays = [a for a in legal if a.type == "lay_tile"]
        chosen = bot.choose(game, legal, Random(5))
        runs = {n: _planned_run(game, a) for n, a in enumerate(lays)}
        assert chosen.type == "lay_tile" and _planned_run(game, chosen) == max(runs.values())
        greedy = bot_named("greedy").choose(game, legal, Random(5))
        better += _planned_run(game, chosen) > _planned_run(game, greedy)
        checked += 1
    assert checked > 10 and better


def test_the_next_train_is_planned_within_the_limit() -> None:
    """A company with no train plans the bank's next one; one with trains plans those the next
    would not rust and the next, never more than the phase's train limit."""
    planned_first = 0
    for game, legal in _lays("18MS", 4, 3):
        sym = operating_company(game, legal[0])
        following = game.title.bank_trains(game)[0].card
        held = [t.card for t in game.corporation_trains(sym) if game.title.train_type(t.card).rusts_on != following]
        names = [t.name for t in planned_trains(game, sym)]
        assert len(names) == min(len(held) + 1, max(len(held), game.phase.train_limit))
        assert sorted(names[:len(held)]) == sorted(held) and all(n == following for n in names[len(held):])
        planned_first += not held and names == [following]
    assert planned_first


def test_the_prospect_halves_a_stop_for_each_hex_between_it_and_the_network() -> None:
    """A stop one hex off the company's network promises half its revenue, two hexes off a
    quarter; a stop the company reaches promises nothing more."""
    game, legal = next(_lays("18MS", 4, 3))
    sym = operating_company(game, legal[0])
    network = fresh_network(game, sym)
    reached = {hex_id for hex_id, _ in network.nodes}
    touched = {hex_id for hex_id, _ in network.sides} | reached
    gap = {hex_id: min(distance(hex_id, t) for t in touched) for hex_id in game.board.hexes}
    one = next(h for h, d in sorted(gap.items()) if d == 1)
    two = next(h for h, d in sorted(gap.items()) if d == 2)
    assert FADING == 0.5
    assert prospect(game, sym, [(one, 40)]) == 20 and prospect(game, sym, [(two, 40)]) == 10
    assert prospect(game, sym, [(min(reached), 40), (one, 40), (two, 40)]) == 30


def test_strong_tables_run_further_than_greedy_ones() -> None:
    """Track laid for runs earns: over the same seeds, the companies of strong tables earn more in
    their first six operating rounds than greedy tables' (18MS)."""
    def earned(bots: str, seed: int) -> int:
        record = play("18MS", seed, [bot_named(bots)] * 3).record
        runs = [a for a in record.actions if a.type == "run_routes"]
        return sum(int(r.get("revenue", 0)) for a in runs[:18] for r in a.fields.get("routes", []))
    assert sum(earned("strong", seed) for seed in (4, 5, 6)) > sum(earned("greedy", seed) for seed in (4, 5, 6))


def test_a_company_whose_trains_all_go_owes_the_train_that_lasts() -> None:
    """18MS fixes its last operating round (10) and takes its 2+, 3+ and 4+ away after rounds 4,
    6 and 8: a floated company holding no permanent train owes the cheapest one (the 5, $500)
    less its cash; what its runs earn until its last train goes is withheld, the rest is its
    president's. 18Texas fixes no last round: nothing is owed there."""
    evaluation, owing, run = Standing(), 0, 30.0
    for game, _ in _operating_rounds("18MS", 4, 3):
        cheapest = min(kind.price for kind in game.title.trains if kind.permanent)
        for sym in _floated(game):
            kinds = [game.title.train_type(t.card) for t in game.corporation_trains(sym)]
            debt = evaluation.debt(game, sym, run)
            if any(kind.permanent for kind in kinds) or game.cash(sym) >= cheapest:
                assert debt is None
                continue
            assert debt is not None
            kept = max([int(kind.obsolete_after_or or 0) - game.or_number for kind in kinds] + [0])
            assert debt.withheld == min(cheapest - game.cash(sym), run * kept)
            assert debt.withheld + debt.lacking == cheapest - game.cash(sym)
            owing += debt.withheld > 0 and debt.lacking > 0
    assert owing
    for game, _ in _operating_rounds("18Texas", 4, 4):
        assert all(evaluation.debt(game, sym, run) is None for sym in _floated(game))


def test_the_heir_is_who_the_presidency_passes_to_when_the_president_sells_out() -> None:
    """A president may sell out: the company then passes to the player :func:`heir` names, as the
    engine settles it (random bots' games, where large holdings beside the president's are
    common)."""
    checked = 0
    for game, _ in _stock_turns("18MS", 5, 3, "random"):
        for sym in _floated(game):
            president = game.president(sym)
            if president is None:
                continue
            expected = heir(game, sym)
            sold = game.copy()
            transfer(sold, sold.held(president, sym), MARKET)
            if expected is not None:
                assert sold.president(sym) == expected
                checked += 1
            else:
                most = max(game.percent(pid, sym) for pid in game.order if pid != president)
                assert sold.president(sym) is None or most == game.percent(sold.president(sym), sym)
    assert checked


def test_a_debt_costs_the_president_and_in_part_the_heir() -> None:
    """The president pays a company's debt (his share of what it withholds and all it lacks), the
    heir :attr:`Weights.heir` of that, every other holder nothing."""
    evaluation, debt, charged = Standing(), Debt(40.0, 100.0), set()
    for game, _ in _stock_turns("18MS", 5, 3, "random"):
        for sym in _floated(game):
            next_in_line = heir(game, sym)
            for pid in game.order:
                percent = game.percent(pid, sym)
                lost = evaluation.expected_value(game, pid, {}, 0.0) - evaluation.expected_value(game, pid, {}, 0.0, {sym: debt})
                if pid == game.president(sym):
                    assert lost == pytest.approx(debt.cost(percent))
                    charged.add("president")
                elif pid == next_in_line:
                    assert lost == pytest.approx(evaluation.weights.heir * debt.cost(percent))
                    charged.add("heir")
                else:
                    assert lost == 0
    assert charged == {"president", "heir"}


def test_debts_are_weighed_in_stock_rounds_only() -> None:
    """A player takes on a company's debt in a stock round; a company's trains and dividend are
    weighed by what they earn."""
    evaluation = Standing()
    owed_in_stock_rounds = 0
    for game, _ in _stock_turns("18MS", 4, 3):
        earning = {sym: 30.0 for sym in _floated(game)}
        owed_in_stock_rounds += len(evaluation.debts(game, earning))
    assert owed_in_stock_rounds
    for game, _ in _operating_rounds("18MS", 4, 3):
        assert evaluation.debts(game, {sym: 30.0 for sym in _floated(game)}) == {}
