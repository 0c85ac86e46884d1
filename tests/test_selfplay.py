"""Self-play: bots play whole games by the rules, and every game is a record that replays.

A few seeds per title (seconds each); ``make selfplay`` plays a thousand per title.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from random import Random

import pytest

from railledger.ingest import notation
from railledger.ingest.export import read_export
from railledger.ingest.model import Action, Entity, Player, PlayerId, Record
from railledger.ingest.schema import check_record
from railledger.ingest.sources import read_record
from railledger.replay import Game, IllegalAction, replay_record
from railledger.replay.shares import sale_bundles
from railledger.replay.steps.trains import BuyTrain
from railledger.replay.steps.routes import check_declared_route
from railledger.replay.routes import build_route
from railledger.replay.optimizer import position_of, solve
from railledger.selfplay import greedy
from railledger.selfplay.bots import Bot, bot_named, bot_names
from railledger.selfplay.concrete import as_recorded, bounds, grid, with_amount
from railledger.selfplay.menu import offered
from railledger.selfplay.play import MAX_ACTIONS, SelfPlayError, agreed_choice, game_id, play
from railledger.selfplay.random_bot import RandomBot
from railledger.selfplay.seats import controller
from railledger.selfplay.simulate import Simulated, seating, simulate, winners

TABLES = [
    ("18MS", 1, ("greedy", "random", "greedy")),
    ("18MS", 6, ("random", "random")),
    ("18Texas", 1, ("greedy", "random", "random", "greedy")),
    ("18Texas", 2, ("greedy", "greedy", "greedy")),
    ("The Old Prince 1871", 1, ("greedy", "random", "greedy")),
    ("The Old Prince 1871", 2, ("random", "random", "random", "random")),
]
"""(title, seed, bots per seat): every title, both bots, the smallest and largest tables."""


@pytest.fixture(scope="module", params=TABLES, ids=[f"{t}-{s}-{'.'.join(b)}" for t, s, b in TABLES])
def game(request: pytest.FixtureRequest) -> Simulated:
    title, seed, bots = request.param
    return simulate(title, seed, bots)


def test_a_game_is_played_to_its_own_end_and_replays_to_its_result(game: Simulated) -> None:
    assert game.error is None and game.played is not None
    record = game.played.record
    assert record.status == "finished" and record.source == "selfplay"
    replay = game.replay
    assert replay.flags == [], replay.roots_first()[:1]
    ends = [e for e in replay.events if e.kind == "game_end"]
    assert len(ends) == 1 and ends[0].subject == game.played.end_reason
    assert replay.result == dict(record.result or {}) and game.verified
    assert [p.bot for p in record.players] == list(game.bots)


def test_the_record_is_an_18xx_games_game_in_its_own_shapes(game: Simulated) -> None:
    export = json.loads(json.dumps(game.played.export))  # what the file holds
    assert export["id"] == game_id(game.title, game.seed, game.bots) and export["title"] == game.title
    assert export["settings"] == {"seed": game.seed, "optional_rules": []}
    assert export["status"] == "finished" and export["result"] == {str(k): v for k, v in game.played.record.result.items()}
    assert [p["id"] for p in export["players"]] == list(range(1, len(game.bots) + 1))
    assert [a["id"] for a in export["actions"]] == list(range(1, len(export["actions"]) + 1))
    assert not any("auto_actions" in a or "price_range" in a or "choice_range" in a for a in export["actions"])
    runs = [a for a in export["actions"] if a["type"] == "run_routes" and a["routes"]]
    assert runs, "some company ran"
    for run in runs:
        for route in run["routes"]:
            assert set(route) == {"train", "connections", "hexes", "revenue", "revenue_str", "nodes"}
            assert route["revenue_str"].startswith("-".join(route["hexes"]))
    check_record(game.played.record)  # the input schema every ingested record meets
    assert read_export(export) == game.played.record
    assert notation.read(notation.write(game.played.record)) == game.played.record


def test_declared_routes_are_what_the_engine_computes() -> None:
    """Every run of a game replayed to just before it: each declared route, read by the engine,
    has the declared revenue, stops, nodes and text (the check the replay makes, made here on
    the export's own routes, revenue_str included)."""
    played = play("18MS", 3, [bot_named("greedy")] * 3)
    game = Game.start("18MS", played.record.players, seed=3)
    checked = 0
    for raw, action in zip(played.export["actions"], played.record.actions):
        if raw["type"] == "run_routes":
            for route in raw["routes"]:
                check_declared_route(game, raw["entity"], build_route(game, raw["entity"], route), route)
                checked += 1
        game.process(action)
    assert checked > 10


def test_the_same_seed_plays_the_same_game_and_another_seed_another() -> None:
    bots = ("greedy", "random", "random")
    first, again, other = simulate("18MS", 4, bots), simulate("18MS", 4, bots), simulate("18MS", 5, bots)
    assert first.played is not None and again.played is not None and other.played is not None
    assert first.played.export == again.played.export
    assert first.played.record.actions != other.played.record.actions


class Cheat(Bot):
    """Plays an action nobody offered it."""

    name = "cheat"

    def choose(self, game: Game, legal: Sequence[Action], rng: Random) -> Action:
        return dataclasses.replace(legal[0], type="bankrupt", fields={})


def test_the_action_cap_is_a_clear_error() -> None:
    with pytest.raises(SelfPlayError, match=r"^g18ms-2p-1-random.random: no end after 12 actions \(the cap\); the game is at SR 1$"):
        play("18MS", 1, [bot_named("random")] * 2, max_actions=12)


def test_an_illegal_choice_is_an_error_naming_the_bot_and_seat() -> None:
    with pytest.raises(SelfPlayError, match=r"bot cheat \(seat \d\) chose an illegal action 1 \(18MS/"):
        play("18MS", 1, [Cheat()] * 2)


def test_the_built_in_bots_are_known_by_name() -> None:
    assert bot_names() == ["greedy", "random", "strong"]
    assert type(bot_named("greedy")).name == "greedy"
    with pytest.raises(KeyError, match="no bot 'clever'; the bots are greedy, random, strong"):
        bot_named("clever")


def test_seats_take_one_bot_each_or_one_for_all_and_rotate() -> None:
    assert seating(["greedy"], 3) == ("greedy", "greedy", "greedy")
    assert seating(["a", "b", "c"], 3, game=1, rotate=True) == ("b", "c", "a")
    assert seating(["a", "b", "c"], 3, game=1) == ("a", "b", "c")
    with pytest.raises(ValueError, match="one per seat"):
        seating(["a", "b"], 3)


def test_the_menu_with_every_hex_is_exactly_the_legal_actions() -> None:
    """A bot asking for lays on every hex gets ``legal_actions()`` itself, at every position of a
    game (tile lays, privates, runs, trains, stock rounds)."""
    played = play("18MS", 3, [bot_named("random")] * 3)
    game = Game.start("18MS", played.record.players, seed=3)
    lays = 0
    for action in played.record.actions:
        listed = offered(game, list)
        assert listed == list(game.legal_actions())
        lays += sum(a.type == "lay_tile" for a in listed)
        game.process(action)
    assert lays > 100


def test_a_bot_asking_for_few_hexes_gets_lays_only_there_and_all_of_them() -> None:
    played = play("18MS", 2, [bot_named("greedy")] * 2)
    game = Game.start("18MS", played.record.players, seed=2)
    compared = 0
    for action in played.record.actions:
        everything = list(game.legal_actions())
        hexes = sorted({str(a.fields["hex"]) for a in everything if a.type == "lay_tile" and a.entity.kind == "corporation"})
        if hexes:
            few = hexes[::2]
            listed = offered(game, lambda reachable: [h for h in reachable if h in few])
            assert [a for a in listed if a.type == "lay_tile" and a.entity.kind == "corporation"] == [
                a for a in everything if a.type == "lay_tile" and a.entity.kind == "corporation" and a.fields["hex"] in few]
            assert [a for a in listed if a.type != "lay_tile"] == [a for a in everything if a.type != "lay_tile"]
            compared += 1
        game.process(action)
    assert compared > 5


def test_a_free_amount_is_chosen_on_the_grid_the_engine_accepts() -> None:
    """18Texas's auction: a bid's range says $80 up to the player's cash; only multiples of $5
    are bids, which the grid finds by asking the engine."""
    game = Game.start("18Texas", [Player(1, "a"), Player(2, "b"), Player(3, "c")], seed=1)
    bid = next(a for a in game.legal_actions() if a.type == "bid")
    low, high = bounds(bid)  # type: ignore[misc]
    assert low < high and grid(game, bid) == 5
    assert game.is_legal(with_amount(bid, low + 5)) and not game.is_legal(with_amount(bid, low + 1))
    with pytest.raises(ValueError, match="outside"):
        with_amount(bid, high + 5)


def test_the_union_bank_is_decided_by_its_owner() -> None:
    """1871's Union Bank holds shares and may preside a company; whoever owns its private decides
    for it, so every action of a game has a seated player behind it."""
    played = play("The Old Prince 1871", 13, [bot_named("random")] * 3)
    game = Game.start("The Old Prince 1871", played.record.players, seed=13)
    bank_buys = 0
    for action in played.record.actions:
        owner = game.companies["UB"].owner
        assert controller(game, Entity("player", -1)) == (owner if owner in game.order else None)
        assert controller(game, action.entity) in game.order
        bank_buys += action.fields.get("purchase_for") == -1
        game.process(action)
    assert bank_buys > 0


def test_a_game_replays_with_no_flag_from_its_file(tmp_path: Path) -> None:
    """The written record read back by the ordinary readers replays to the same result."""
    played = play("18Texas", 4, [bot_named("greedy"), bot_named("random"), bot_named("random")])
    for path, text in ((tmp_path / "g.json", json.dumps(played.export)), (tmp_path / "g.rln", notation.write(played.record))):
        path.write_text(text)
        record = read_record(str(path))
        outcome = replay_record(record, keep_going=True)
        assert outcome.matches_record and not outcome.flags and record.players[0].bot == "greedy"


def test_winners_are_the_highest_values_and_all_of_a_tie(game: Simulated) -> None:
    record = game.played.record
    best = max(record.result.values())
    assert winners(record) == {pid for pid, value in record.result.items() if value == best}
    tied = dataclasses.replace(record, result={pid: 100 for pid in record.result})
    assert winners(tied) == set(record.result) and winners(dataclasses.replace(record, result=None)) == set()



def found_by_the_bots(name: str) -> tuple[Record, Game, Action]:
    """A bots' game from tests/selfplay_games, replayed up to its last action (the one in
    question), with that action."""
    record = notation.read((Path(__file__).parent / "selfplay_games" / name).read_text())
    game = Game.start(record.title, record.players, seed=record.seed)
    *before, last = record.actions
    for action in before:
        game.process(action)
    return record, game, last

def test_after_a_presidents_sale_a_train_of_another_company_costs_what_the_sale_needed() -> None:
    """Found by the bots, refused by 18xx.games: in 18MS WRA (two 5 trains, $14) bought a 4+
    from Fr for $10 after its president sold 40% of WRA at $45 a share. Having sold, he may not
    have sold more than the price needed: the price is at least both purses less one share
    plus $1 ($14 + $356 - $45 + 1 = $326), above any price WRA may pay, so no train of another
    company is offered and the recorded purchase (the record's last action) is refused."""
    record, game, purchase = found_by_the_bots("18ms-sale-then-cheap-train.rln")
    assert game.round.turn.emergency_sale_price == 45 and (game.cash("WRA"), game.cash(4)) == (14, 356)
    assert not [a for a in game.legal_actions() if a.type == "buy_train" and "price_range" in a.fields]
    assert not game.is_legal(purchase)
    replay = replay_record(record, keep_going=True)
    assert [(f.index, f.rule) for f in replay.flags] == [(210, "18MS/4-cash")]
    assert "the least it may pay ($326) is more than the most ($14" in replay.flags[0].message


def test_a_bank_broken_once_ends_the_set_though_a_purchase_refills_it() -> None:
    """Found by the bots, refused by 18xx.games: in 18Texas MP's payout took the bank below zero
    in the last OR of a set, and SAA's $800 train later in that OR put it back above. The bank
    is broken once it ran out, so the game ends with that set; the player's pass that followed
    (in a stock round railledger had started) is refused as the game is over."""
    record = notation.read((Path(__file__).parent / "selfplay_games" / "18texas-bank-broken-then-refilled.rln").read_text())
    game = Game.start(record.title, record.players, seed=record.seed)
    for action in record.actions[:781]:
        game.process(action)
    assert game.bank >= 0 and not game.bank_broken
    game.process(record.actions[781])  # MP pays out
    assert game.bank < 0 and game.bank_broken
    for action in record.actions[782:795]:  # ... SAA buys an 8 from the bank
        game.process(action)
    assert game.bank >= 0 and game.bank_broken and not game.finished
    game.process(record.actions[795])  # SAA's pass ends OR 31.3, the set's last
    assert game.finished and game.end_reason == "end of OR 31.3"
    replay = replay_record(record, keep_going=True)
    assert [(f.index, f.rule) for f in replay.flags] == [(796, "18Texas/13-game-over")]


def test_a_player_over_the_certificate_limit_is_offered_sales_only() -> None:
    """Found by the bots: 1871's stock turn offered a pass (and purchases) to a player over the
    certificate limit, which is_legal then refused (he must sell). Every such position of a game
    that has them offers sales and nothing else."""
    played = play("The Old Prince 1871", 300017, [bot_named(b) for b in ("greedy", "random", "greedy")])
    game = Game.start(played.record.title, played.record.players, seed=played.record.seed)
    over = 0
    for action in played.record.actions:
        step = game.round.active_step()
        current = game.round.current
        if step is not None and hasattr(step, "must_sell") and current is not None and current.kind == "player" \
                and step.must_sell(current.id):
            over += 1
            assert {a.type for a in game.legal_actions()} == {"sell_shares"}
        game.process(action)
    assert over > 0


@pytest.mark.parametrize("name", ["18texas-teleport-after-a-yellow.rln", "18texas-teleport-on-blank-after-a-yellow.rln"])
def test_a_teleport_is_the_companys_tile_lay_and_not_an_upgrade_after_a_yellow(name: str) -> None:
    """Found by the bots, refused by 18xx.games ("Cannot lay an upgrade now"): in 18Texas a
    company laid a yellow tile, then the NOPR teleported the green 511 onto J5 as its second
    lay (on a blank J5 too: green on blank is an upgrade). The teleport counts as the
    company's tile lay, and a second lay may not be an upgrade, so it is neither offered nor
    accepted."""
    record, game, teleport = found_by_the_bots(name)
    assert game.round.turn.lays == 1 and not game.round.turn.upgraded
    assert not [a for a in game.legal_actions() if a.type == "lay_tile" and a.entity.kind == "company"]
    assert not game.is_legal(teleport)
    replay = replay_record(record, keep_going=True)
    assert [(f.index, f.rule) for f in replay.flags] == [(len(record.actions) - 1, "18Texas/12.2-tile-two-yellow")]


def test_an_1871_president_sells_each_companys_shares_once_for_a_train() -> None:
    """Found by the bots, refused by 18xx.games ("Cannot sell shares of MR", MUST_SELL_IN_BLOCKS):
    Gt's president sold 20% of MR to pay for a train, then MR's president's certificate in a
    second sale. Each company's shares go in one block, so no second sale of MR is offered."""
    record, game, second = found_by_the_bots("1871-two-sales-of-one-company.rln")
    assert game.round.turn.emergency_sold == ["MR"]
    sales = [a for a in game.legal_actions() if a.type == "sell_shares"]
    assert not [a for a in sales if game.shares[str(a.fields["shares"][0])].corporation == "MR"]
    assert not game.is_legal(second)
    replay = replay_record(record, keep_going=True)
    assert [(f.index, f.rule) for f in replay.flags] == [(429, "The Old Prince 1871/emergency-sale")]


def test_a_president_in_debt_lowers_what_may_be_paid_for_another_companys_train() -> None:
    """Found by the bots, refused by 18xx.games: in 18MS Fr ($43) bought WRA's 5 train for $1
    while its president owed $111 (an 18MS loan). What may be paid is at most what both hold,
    -$68 here, so no train of another company is offered and the purchase is refused."""
    record, game, purchase = found_by_the_bots("18ms-president-in-debt.rln")
    assert (game.cash("Fr"), game.cash(game.president("Fr"))) == (43, -111)
    assert not [a for a in game.legal_actions() if a.type == "buy_train" and "price_range" in a.fields]
    replay = replay_record(record, keep_going=True)
    assert [(f.index, f.rule) for f in replay.flags] == [(128, "18MS/4-cash")]


def test_no_loan_buys_a_bank_train_for_a_company_holding_no_cash() -> None:
    """Found by the bots, refused by 18xx.games ("Cannot spend zero or negative money"): in 18MS
    WRA ($0, no train) had to buy a train, and its president ($85 after selling) bought the $500
    5 from the bank with a loan. 18xx.games lends by taking the company's own cash after the
    purchase and cannot take $0, so the engine refuses it; L&N's 5 stays on offer."""
    record, game, purchase = found_by_the_bots("18ms-loan-for-a-company-without-cash.rln")
    assert (game.cash("WRA"), game.cash(game.president("WRA"))) == (0, 85)
    offered_trains = [a.fields["train"] for a in game.legal_actions() if a.type == "buy_train"]
    assert purchase.fields["train"] not in offered_trains and offered_trains == ["5-0"]
    replay = replay_record(record, keep_going=True)
    assert [(f.index, f.rule) for f in replay.flags] == [(140, "18MS/11.8.3-forced-purchase")]


def test_a_president_in_debt_makes_a_forced_purchase_a_loan_and_a_loan_charging_nothing_is_refused() -> None:
    """Found by the bots, refused by 18xx.games ("Cannot spend zero or negative money in
    Spender.spend(-10)"): in 18MS IC ($560, no train) had to buy a train while its president owed
    $157. 18xx.games lends whenever the price is above what the company and its president hold
    together, a debt counted ($403 here), and charges the president the price less the company's
    cash plus the $50 fee: -$10 for the $500 2D, which it cannot record. The engine refuses that
    purchase; the $550 6 (a charge of $40) stays on offer."""
    record, game, purchase = found_by_the_bots("18ms-loan-charging-nothing.rln")
    assert (game.cash("IC"), game.cash(game.president("IC"))) == (560, -157)
    bank = {(a.fields["variant"], a.fields["price"]) for a in game.legal_actions()
            if a.type == "buy_train" and "price_range" not in a.fields}
    assert ("2D", 500) not in bank and ("6", 550) in bank
    assert not game.is_legal(purchase)
    replay = replay_record(record, keep_going=True)
    assert [(f.index, f.rule) for f in replay.flags] == [(206, "18MS/11.8.3-forced-purchase")]
    assert "would charge him -$10" in replay.flags[0].message


def test_a_loan_takes_the_rest_of_the_companys_cash_and_ends_its_purchases() -> None:
    """Found by the bots, refused by 18xx.games ("Blocking step Lay/Upgrade Track cannot process
    action pass"): in 18MS GMO ($510, no train) bought the $500 2D while its president owed $55.
    Above what both hold ($455), the purchase is a loan: GMO's last $10 goes to the bank, its
    president is charged $40 ($500 - $510 + $50) and GMO's purchases end, so its recorded pass
    is refused: L&N operates."""
    record, game, passing = found_by_the_bots("18ms-loan-though-the-company-pays.rln")
    president = game.president("GMO")
    assert president is not None
    assert (game.cash("GMO"), game.cash(president)) == (0, -95)
    assert game.round.label == "OR 5.1" and game.round.current == Entity("corporation", "L&N")
    assert not game.is_legal(passing)
    replay = replay_record(record, keep_going=True)
    assert [(f.index, f.rule) for f in replay.flags] == [(286, "18MS/11-operating-order")]


def test_a_last_round_with_nothing_to_do_ends_the_game_only_after_the_next_action() -> None:
    """Found by the bots, unfinished in 18xx.games: in a two-player 18MS game no company ever
    floated, so the stock round's last pass opened OR 9 and OR 10 with nothing to do in them.
    18xx.games asks whether the game is over once per action, before the rounds it finishes move
    on: OR 10 had not begun when that pass was taken, so stock round 6 follows, and the game
    ends after the operating round that follows it (OR 11, also empty)."""
    record = notation.read((Path(__file__).parent / "selfplay_games" / "18ms-no-company-runs-in-the-last-rounds.rln").read_text())
    game = Game.start(record.title, record.players, seed=record.seed)
    for action in record.actions:
        game.process(action)
    assert not game.finished and game.round.label == "SR 6" and game.or_number == 10
    for _ in range(2):
        game.process(next(a for a in game.legal_actions() if a.type == "pass"))
    assert game.finished and game.end_reason == "end of OR 6.1" and game.or_number == 11


def test_an_obsolete_four_plus_rusts_at_its_companys_dividend() -> None:
    """Found by the bots, refused by 18xx.games ("Blocking step Buy Trains cannot process action
    pass"): in 1871 Gt's 4+, bought after its run and made obsolete by the first Diesel, ran once
    more; its dividend rusts it (18xx.games rusts a company's obsolete trains at its dividend),
    so Gt holds no train and must buy one: its recorded pass is refused."""
    record, game, passing = found_by_the_bots("1871-obsolete-four-plus-rusts-at-the-dividend.rln")
    assert passing.type == "pass" and game.round.label == "OR 8.2"
    assert game.corporation_trains("Gt") == [] and game.trains["4+-1"].rusted
    assert passing not in game.legal_actions() and any(a.type == "buy_train" for a in game.legal_actions())
    replay = replay_record(record, keep_going=True)
    assert [(f.index, f.rule) for f in replay.flags] == [(404, "The Old Prince 1871/7.6.3-must-buy-train")]


def test_the_peir_waits_for_its_pass_after_buying_another_companys_train() -> None:
    """Found by the bots, refused by 18xx.games ("Blocking step Buy Trains cannot process"):
    the PEIR bought its one bank train of the OR and then MR's 2H; railledger ended its turn,
    18xx.games keeps the step open (it asks the bank's depot, not the PEIR's limit), so the next
    player's stock purchase came while the PEIR still had to pass."""
    record, game, purchase = found_by_the_bots("1871-peir-buys-from-another.rln")
    assert game.round.label == "OR 1.1" and game.round.current == Entity("corporation", "PEIR")
    assert Action("pass", Entity("corporation", "PEIR"), 0) in game.legal_actions()
    replay = replay_record(record, keep_going=True)
    assert [(f.index, f.rule) for f in replay.flags] == [(35, "The Old Prince 1871/4-action-type")]


def test_the_meridian_and_memphis_station_in_new_orleans_earns_no_bonus() -> None:
    """Found by the bots, refused by 18xx.games (Fr later spent $300 of $283): in 18MS the M&M
    placed Fr's station in New Orleans at half price ($20). 18xx.games places it through its
    generic special-token step, which pays neither the $100 nor the $10 route bonus, so Fr
    gets neither and its later run there earns $10 less than the bots declared."""
    record, game, station = found_by_the_bots("18ms-meridian-station-in-new-orleans.rln")
    assert station.entity == Entity("company", "M&M") and station.fields["city"] == "I1-0-0"
    cash, bank = game.cash("Fr"), game.bank
    game.process(station)
    assert (game.cash("Fr"), game.bank) == (cash - 20, bank + 20)
    assert "new_orleans_bonus" not in game.corporations["Fr"].abilities


def test_a_union_bank_president_sells_its_shares_before_its_owner_pays() -> None:
    """Found by the bots, refused by 18xx.games ("Union Bank has 185 and cannot spend 465"): in
    1871 A (the Union Bank its president, $135) bought a $600 D with the owner paying what the
    bank lacked. The bank pays alone while it holds shares it may sell; it sells them as
    player -1, and then pays. 18xx.games accepts this very sequence, with the same cash."""
    record, game, purchase = found_by_the_bots("1871-union-bank-sells-before-its-owner-pays.rln")
    union_bank, owner = -1, 3
    assert game.president("A") == union_bank and (game.cash(union_bank), game.cash("A")) == (185, 135)
    assert not game.is_legal(purchase)
    replay = replay_record(record, keep_going=True)
    assert replay.flags[0].rule == "The Old Prince 1871/7.6.4-forced-purchase"
    sales = [a for a in game.legal_actions() if a.entity == Entity("player", union_bank)]
    assert sales and {a.type for a in sales} == {"sell_shares"}
    owner_cash = game.cash(owner)
    while sales:
        game.process(sales[0])
        sales = [a for a in game.legal_actions() if a.entity == Entity("player", union_bank)]
    assert game.cash(union_bank) == 486
    game.process(dataclasses.replace(purchase, id=purchase.id + 10))
    assert (game.cash(union_bank), game.cash("A"), game.cash(owner)) == (21, 0, owner_cash)


def test_a_union_bank_owner_who_sold_a_company_is_not_kept_waiting_for_the_banks_purchase_of_it() -> None:
    """Found by the bots, refused by 18xx.games ("Blocking step Sell then Buy Shares cannot
    process action pass"): in 1871 the Union Bank's owner sold his So share and could do
    nothing more; only the bank could have bought So. 18xx.games asks whether the owner's turn
    waits of the owner's sales, so his turn ended with the sale and his pass is out of turn."""
    record, game, late_pass = found_by_the_bots("1871-union-bank-owner-sold-then-nothing-left.rln")
    owner = late_pass.entity
    assert game.title.union_bank_owner(game) == owner.id and game.round.current != owner
    assert not game.is_legal(late_pass)
    replay = replay_record(record, keep_going=True)
    assert [(f.index, f.rule) for f in replay.flags][:1] == [(len(record.actions) - 1, "The Old Prince 1871/6.1-turn-order")]


def test_a_company_the_union_bank_presides_lays_no_9_though_the_banks_owner_holds_the_sbc() -> None:
    """Found by the bots, refused by 18xx.games ("N18 is not upgradeable to 9"): in 1871 tile 9
    is laid only by a company whose president owns the Schreiber and Burpee Construction (11.3).
    C's president is the Union Bank, which owns no private; its owner's SBC does not count."""
    record, game, lay = found_by_the_bots("1871-union-bank-president-lays-a-9.rln")
    sbc = game.companies["SBC"]
    assert game.president("C") == -1 and sbc.owner == game.title.union_bank_owner(game) and not sbc.closed
    assert lay.fields["tile"] == "9-0" and not game.is_legal(lay)
    assert not [a for a in game.legal_actions() if a.type == "lay_tile" and str(a.fields["tile"]).startswith("9-")]
    replay = replay_record(record, keep_going=True)
    assert [(f.index, f.rule) for f in replay.flags] == [(len(record.actions) - 1, "The Old Prince 1871/7.2-private-sbc")]


def test_a_company_sells_no_treasury_shares_after_its_president_sold_its_shares_for_the_train() -> None:
    """Found by the bots, refused by 18xx.games ("Cannot sell shares of C", MUST_SELL_IN_BLOCKS):
    in 1871 C's president sold 10% of C for C's forced train, then C sold its treasury shares.
    Each company's shares go in one block for a purchase, whoever sells them."""
    record, game, issue = found_by_the_bots("1871-treasury-sale-after-the-presidents.rln")
    assert "C" in game.round.turn.emergency_sold and issue.entity == Entity("corporation", "C")
    assert not [a for a in game.legal_actions() if a.type == "sell_shares" and a.entity.kind == "corporation"]
    replay = replay_record(record, keep_going=True)
    assert [(f.index, f.rule) for f in replay.flags][:1] == [(len(record.actions) - 1, "The Old Prince 1871/emergency-sale")]


def test_a_rich_greedy_company_buys_a_train_that_adds_no_revenue_so_that_1871_ends() -> None:
    """Found by the bots: four greedy players of 1871 (seed 400086) ran past the action cap at
    OR 114, every company at the top of the market with cash and none buying a train its routes
    could not use. 1871's bank never breaks, so only trains bring the end: a company holding
    twice the cheapest train's price buys it."""
    played = play("The Old Prince 1871", 400086, [bot_named("greedy")] * 4)
    assert played.end_reason.startswith("end of OR") and len(played.record.actions) < MAX_ACTIONS


def test_rich_greedy_players_float_another_company_when_no_company_can_buy_a_train_in_1871() -> None:
    """Found by the crosscheck: three greedy players of 1871 (seed 309610) ran past the action cap
    at OR 111, every floated company at its train limit or short of the next train's price, the
    one company parred and not floated led by a player at his certificate limit, and the other
    two, richer than $40,000, buying none of it. Once no train has been bought for a long while, a
    rich greedy player buys into such a company: it floats, must buy a train, and the game goes
    on to the Diesel."""
    played = play("The Old Prince 1871", 309610, [bot_named("greedy")] * 3)
    assert played.end_reason.startswith("end of OR") and len(played.record.actions) < MAX_ACTIONS


def test_a_station_the_company_cannot_pay_for_is_offered_only_at_its_privates_price() -> None:
    """Found by the bots (an illegal choice from the legal actions): in 18MS L&N ($75) held the
    M&M, so its token step stayed open for the half-price station ($50), but its own $100
    station was offered too, and then refused."""
    record, game, station = found_by_the_bots("18ms-station-only-at-the-privates-price.rln")
    assert game.cash("L&N") == 75 and station.entity == Entity("corporation", "L&N")
    offered = [a for a in game.legal_actions() if a.type == "place_token"]
    assert offered and {a.entity for a in offered} == {Entity("company", "M&M")}
    assert all(game.is_legal(a) for a in offered) and not game.is_legal(station)


def test_a_president_may_sell_for_a_train_only_what_the_purchase_needs() -> None:
    """18Texas (EBUY_SELL_MORE_THAN_NEEDED off): MP ($139) may buy another train and its
    president ($142) sells for it; 20% of T&P at $82 a share would raise more than needed when
    10% already covers what both purses lack for the cheapest bank train, so the 20% sale (the
    record's last action) is refused and the 10% one offered. The listing tests that rule first
    (BuyTrain.emergency_bundles): it offers exactly the bundles the full check allows."""
    record, game, sale = found_by_the_bots("18texas-emergency-sale-more-than-needed.rln")
    step = game.round.active_step()
    assert isinstance(step, BuyTrain) and step.corporation == "MP" and sale.fields["shares"] == ["T&P_2", "T&P_7"]
    with pytest.raises(IllegalAction, match="emergency-sale: random 4 may sell only what the purchase needs"):
        game.check(sale)
    offered = [a.fields["shares"] for a in game.legal_actions() if a.type == "sell_shares"]
    assert ["T&P_2"] in offered and all(game.is_legal(a) for a in game.legal_actions() if a.type == "sell_shares")
    allowed = [(shares, percent) for sym in game.corporations for shares, percent in sale_bundles(game, 4, sym)
               if step.emergency_sale_problem(4, shares, percent) is None]
    assert list(step.emergency_bundles(4)) == allowed and len(allowed) == len(offered)


def test_a_president_deep_in_debt_leaves_no_price_for_another_companys_train() -> None:
    """Found by the bots (an illegal choice from the legal actions): in 18MS WRA ($105) could
    pay at most -$73 for Fr's 5 with its president $178 in debt, after his $40 sale. The least
    price (both purses less the sale, plus $1) was below $1 too, and the range was offered; it
    starts at $1, so nothing is offered."""
    record, game, purchase = found_by_the_bots("18ms-price-range-from-one.rln")
    assert (game.cash("WRA"), game.cash(game.president("WRA")), game.round.turn.emergency_sale_price) == (105, -178, 40)
    assert not [a for a in game.legal_actions() if a.type == "buy_train"]
    assert not game.is_legal(purchase)


def test_bots_are_not_offered_the_sale_that_leaves_nobody_able_to_act() -> None:
    """Found by the bots (seed 861): in 1871 C had to issue its treasury shares for a train and
    its president sold a C share first, as 18xx.games allows. C may then issue none (one block
    per company) and its bankruptcy still counts them, so nobody could act. The sale stays
    legal; bots are not offered it while the company's own issue is."""
    record, game, sale = found_by_the_bots("1871-president-sells-the-issuing-company.rln")
    assert sale.entity.kind == "player" and game.shares[str(sale.fields["shares"][0])].corporation == "C"
    legal = list(game.legal_actions())
    assert sale in [dataclasses.replace(a, id=sale.id) for a in legal] and game.is_legal(sale)
    assert Entity("corporation", "C") in {a.entity for a in legal if a.type == "sell_shares"}
    listed = offered(game, list)
    assert [a for a in legal if a not in listed] == [
        a for a in legal if a.type == "sell_shares" and a.entity.kind == "player" and game.shares[str(a.fields["shares"][0])].corporation == "C"]


GREEDY_18MS_SEEDS = range(1, 13)
"""Seeds of the 18MS tables where greedy sits with two random bots, turned one seat a game."""


def _greedy_buys_by_choice(seed: int) -> Iterator[tuple[Game, Action]]:
    """(game just before it, action) of every bank train a greedy 18MS company bought while it
    could have passed, in a game of three greedy players."""
    played = play("18MS", seed, [bot_named("greedy")] * 3)
    game = Game.start("18MS", played.record.players, seed=seed)
    for action in played.record.actions:
        if action.type == "buy_train" and game.trains[str(action.fields["train"])].owner not in game.corporations:
            if any(offer.type == "pass" for offer in game.legal_actions()):
                yield game, action
        game.process(action)


def test_greedy_buys_in_18ms_only_trains_that_earn_back_their_price_before_they_go() -> None:
    """Found by watching greedy lose 44 of 45 18MS games to random bots: its company bought three
    3+ trains in OR 3.1 that the title's schedule takes away after OR 3.2, a 4+ that went after one
    run, and then had to buy a 5 with its president's money in the last set. A train it buys by
    choice now earns back its price in the runs the schedule and the game's end leave it."""
    bought = 0
    for seed in (1, 2, 3):
        for game, action in _greedy_buys_by_choice(seed):
            sym = str(action.entity.id)
            position = position_of(game, sym)
            gain = greedy._with_train(game, sym, position, action) - solve(position).revenue
            runs = greedy._runs_left(game, action)
            assert runs is not None and gain * runs >= int(action.fields["price"]), (seed, action)
            bought += 1
    assert bought > 0


def test_greedy_pays_out_in_the_last_operating_round_of_18ms() -> None:
    """Withholding saves for a train; in the game's last operating round that train would never run."""
    paid = 0
    for seed in (1, 2, 3):
        played = play("18MS", seed, [bot_named("greedy")] * 3)
        last = [a for a, label in zip(played.record.actions, replay_record(played.record, snapshots=True).snapshots)
                if a.type == "dividend" and label.round == "OR 5.2"]
        assert last and all(a.fields["kind"] == "payout" for a in last), seed
        paid += len(last)
    assert paid >= 3


def test_greedy_wins_more_18ms_seats_than_random() -> None:
    wins = {"greedy": 0, "random": 0}
    seats = {"greedy": 0, "random": 0}
    for seed in GREEDY_18MS_SEEDS:
        table = seating(["greedy", "random", "random"], 3, game=seed, rotate=True)
        played = play("18MS", seed, [bot_named(name) for name in table])
        won = winners(played.record)
        for bot, player in zip(table, played.record.players):
            seats[bot] += 1
            wins[bot] += player.id in won
    assert wins["greedy"] / seats["greedy"] > wins["random"] / seats["random"]


class _Refusing(RandomBot):
    """The random bot, refusing every sale of its company's trains."""

    def consents(self, game: Game, purchase: Action, rng: Random) -> bool:
        return False


class _Agreeing(RandomBot):
    """The random bot, agreeing to every sale of its company's trains."""

    def consents(self, game: Game, purchase: Action, rng: Random) -> bool:
        return True


def _trades_between_seats(bot: Bot, seeds: Sequence[int]) -> int:
    """Trains bought from a company another seat presides, over 18MS games of three such bots."""
    trades = 0
    for seed in seeds:
        record = play("18MS", seed, [bot] * 3).record
        game = Game.start(record.title, record.players, seed=record.seed)
        for action in record.actions:
            owner = game.trains[str(action.fields["train"])].owner if action.type == "buy_train" else None
            if owner in game.corporations and game.president(str(owner)) != controller(game, action.entity):
                trades += 1
            game.process(action)
    return trades


def test_a_train_passes_between_two_seats_companies_only_when_its_seller_agrees() -> None:
    """The rules sell a train between companies of different presidents at an agreed price; a
    bot that never agrees keeps its company's trains, and the same tables with bots that always
    agree do trade (the check sees trades where there are some)."""
    seeds = range(1, 7)
    assert _trades_between_seats(_Refusing(), seeds) == 0
    assert _trades_between_seats(_Agreeing(), seeds) > 0


def test_a_bot_agrees_by_default_to_its_trains_face_value_or_more() -> None:
    game = Game.start("18MS", [Player(1, "a"), Player(2, "b"), Player(3, "c")], seed=1)
    train = game.trains["2+-0"]
    face = game.title.train_price(train, train.name)
    purchase = Action("buy_train", Entity("corporation", "GMO"), 1, 0, {"train": "2+-0", "price": face})
    assert bot_named("greedy").consents(game, purchase, Random(1))
    cheap = dataclasses.replace(purchase, fields={"train": "2+-0", "price": face - 1})
    assert not bot_named("greedy").consents(game, cheap, Random(1))


def _another_seats_train() -> tuple[Game, Entity, str]:
    """An 18MS position where a company may be offered a train of a company another seat leads:
    (the game, the buying company, the train)."""
    record = play("18MS", 1, [bot_named("greedy")] * 3).record
    game = Game.start(record.title, record.players, seed=record.seed)
    for action in record.actions:
        game.process(action)
        trains = [t for t in game.trains.values() if t.owner in game.corporations and not t.rusted]
        for train in trains:
            seller = game.president(str(train.owner))
            buyers = [sym for sym, corp in game.corporations.items() if corp.floated and game.president(sym) != seller]
            if buyers:
                return game, Entity("corporation", buyers[0]), train.id
    pytest.fail("no company of the game held a train while another seat led a company")


def test_a_refused_purchase_leaves_the_buyers_other_choices_and_an_only_one_is_made() -> None:
    """The seller's refusal takes the train off the buyer's menu; where that purchase is the
    buyer's only way on, refusing would leave nobody able to act, and it is made."""
    game, buyer, train = _another_seats_train()
    seat = controller(game, buyer)
    assert seat is not None
    purchase = Action("buy_train", buyer, 0, 0, {"train": train, "price": 1})
    passing = Action("pass", buyer, 0, 0, {})
    refusing: dict[PlayerId, Bot] = {pid: _Refusing() for pid in game.order}
    assert agreed_choice(game, seat, [purchase], refusing, Random(1)) == purchase
    for n in range(20):
        assert agreed_choice(game, seat, [purchase, passing], refusing, Random(n)) == passing


def test_a_position_that_leaves_nobody_an_action_is_a_dead_end_as_in_18xx_games() -> None:
    """Found by the bots, stuck in 18xx.games too: in 18MS, GMO placed a station with its last
    $40 while it held no train and had a route; its president, $126 in debt, could sell nothing
    (the open market held half of IC, nobody else 20% of his companies). 18xx.games' loan takes
    the company's own cash after the purchase and cannot take $0 ("Cannot spend zero or negative
    money"), and WRA's 5 costs at least $1: nobody has an action, and the game is not over."""
    record, game, station = found_by_the_bots("18ms-dead-end-company-without-cash-or-train.rln")
    assert station.type == "place_token" and game.cash("GMO") == 40 and not game.corporation_trains("GMO")
    game.process(station)
    assert not game.finished and game.cash("GMO") == 0 and game.cash(game.president("GMO")) < 0
    assert list(game.legal_actions()) == []


class Scripted(Bot):
    """Plays a record's actions while they are on offer (at the recorded price), then greedy's."""

    name = "scripted"

    def __init__(self, record: Record) -> None:
        self.actions = record.actions

    def choose(self, game: Game, legal: Sequence[Action], rng: Random) -> Action:
        if game.index < len(self.actions):
            wanted = self.actions[game.index]
            unpriced = {k: v for k, v in wanted.fields.items() if k != "price"}
            for action in legal:
                fields = {k: v for k, v in as_recorded(action).fields.items() if k != "price"}
                if (action.type, action.entity, fields) == (wanted.type, wanted.entity, unpriced) and game.is_legal(wanted):
                    return wanted
        return greedy.GreedyBot().choose(game, legal, rng)


def test_the_loop_takes_back_the_action_that_led_into_a_dead_end() -> None:
    """Bots playing the dead end's record (greedy's choices after it) reach it, take its last
    action back and choose again: GMO keeps its $40, and its president's loan buys the 5."""
    record, _, station = found_by_the_bots("18ms-dead-end-company-without-cash-or-train.rln")
    played = play(record.title, int(record.seed or 0), [Scripted(record)] * len(record.players)).record
    assert played.actions[: len(record.actions) - 1] == record.actions[:-1]
    assert played.actions[len(record.actions) - 1] != station
    assert any(a.type == "buy_train" and a.entity.id == "GMO" for a in played.actions[len(record.actions) - 1:][:3])
    replay = replay_record(played)
    assert not replay.flags and replay.result == dict(played.result or {})


def test_a_union_bank_without_cash_does_not_help_its_company_buy_a_train() -> None:
    """Found by the bots, refused by 18xx.games ("Cannot spend zero or negative money"): in 1871
    S ($312, no train), presided by the Union Bank ($0), bought a $500 7 from the bank, the
    bank's owner paying the $188 it lacked. 18xx.games takes the bank's part first and cannot
    take $0, so the engine refuses the purchase; trains of other companies S can pay alone
    stay on offer."""
    record, game, purchase = found_by_the_bots("1871-union-bank-with-no-cash-cannot-help.rln")
    assert game.president("S") == -1 and (game.cash("S"), game.cash(-1)) == (312, 0)
    assert not game.is_legal(purchase)
    offered_trains = [a for a in game.legal_actions() if a.type == "buy_train"]
    assert offered_trains and all(game.trains[str(a.fields["train"])].owner in game.corporations for a in offered_trains)
    replay = replay_record(record, keep_going=True)
    assert [(f.index, f.rule) for f in replay.flags] == [(458, "The Old Prince 1871/7.6.4-forced-purchase")]
