"""Engine mechanics of 18MS checked on the short test game: routes and revenue, presidency,
sold-out rises, phase changes, private abilities, presidential help and loans."""

from __future__ import annotations

import pytest

from railledger.ingest.model import Action, Entity
from railledger.replay import Game, IllegalAction
from railledger.replay.routes import Route, build_route
from railledger.replay.steps.tokens import Placement
from railledger.replay.titles.g18ms.steps import MsToken
from tests.mutations import corp
from tests.test_replay_18ms import game_until


def route(game: Game, sym: str, train: str, *connections: str) -> Route:
    return build_route(game, sym, {"train": train, "connections": [c.split("-") for c in connections]})


@pytest.fixture()
def end_of_or3() -> Game:
    """OR 2.1 (the third OR) during WRA's turn, before it buys its 3+ with the M&O."""
    game, _, _ = game_until("710")
    return game


def test_offboard_values_follow_the_phase(end_of_or3: Game) -> None:
    game = end_of_or3
    assert route(game, "WRA", "2+-2", "E11-E13-E15").revenue == 20 + 40  # Atlanta's yellow value
    with game.changing():  # as the engine changes a game: a route read before is not kept
        game.phase_index = 2  # phase 6
    assert route(game, "WRA", "2+-2", "E11-E13-E15").revenue == 20 + 50  # its brown value


def test_diesels_double_every_stop(end_of_or3: Game) -> None:
    game = end_of_or3
    game.trains["2D-0"].owner, game.trains["2D-0"].name = "WRA", "2D"
    assert route(game, "WRA", "2D-0", "E11-E13-E15").revenue == 2 * (20 + 40)


def test_plus_trains_ignore_towns_and_permanent_trains_count_them(end_of_or3: Game) -> None:
    game = end_of_or3
    assert route(game, "GMO", "2+-1", "H6-H8", "H8-H10").stops == (("H6", "c0"), ("H8", "t0"), ("H10", "o0"))
    game.trains["2D-0"].owner, game.trains["2D-0"].name = "GMO", "2D"
    with pytest.raises(Exception, match="reaches 3 stops, more than 2"):
        route(game, "GMO", "2D-0", "H6-H8", "H8-H10")


def test_new_orleans_bonus_only_for_the_company_holding_it(end_of_or3: Game) -> None:
    game = end_of_or3
    stops = (("I1", "c0"), ("I1", "t0"))
    fake = Route("2+-0", game.title.train_type("2+"), stops, frozenset(), 60)
    assert game.title.route_bonus(game, "IC", fake) == 0
    game.corporations["IC"].abilities.add("new_orleans_bonus")
    assert game.title.route_bonus(game, "IC", fake) == 10


def test_the_first_station_in_new_orleans_earns_100(end_of_or3: Game) -> None:
    game = end_of_or3
    token_step = next(s for s in game.round.steps if isinstance(s, MsToken))
    before = game.cash("WRA")
    token_step.after_placement(Placement("I1", 0, 0, 40))
    assert game.cash("WRA") == before + 100 and "new_orleans_bonus" in game.corporations["WRA"].abilities
    token_step.after_placement(Placement("I1", 0, 0, 40))  # only the first station earns it
    assert game.cash("WRA") == before + 100


def test_a_sale_hands_the_presidency_to_the_largest_holder() -> None:
    game, record, index = game_until("470")
    with game.changing():  # edited by hand
        for i in (5, 6, 7, 8):
            game.shares[f"GMO_{i}"].owner = "Brunel"
    game.process(Action("sell_shares", Entity("player", "Ada"), 470, 0, {"shares": ["GMO_1", "GMO_2", "GMO_3"], "percent": 30}))
    assert game.president("GMO") == "Brunel"
    assert (game.percent("Ada", "GMO"), game.percent("Brunel", "GMO")) == (30, 40)
    assert game.share_price("GMO") == 70  # down from 80: 75, 70, then the grid ends below


def test_sold_out_companies_rise_at_the_end_of_the_stock_round() -> None:
    game, record, index = game_until("550")
    with game.changing():  # edited by hand
        for share in game.shares.values():
            if share.corporation == "WRA" and share.owner in ("ipo", "market"):
                share.owner = "Cugnot"
    before = game.market.position["WRA"]
    for action in record.actions[index:index + 2]:  # the last pass, then OR 3's first action
        game.process(action)
    after = game.market.position["WRA"]
    assert (after.row, after.column) == (before.row - 1, before.column)


def test_the_first_6_train_starts_phase_6_and_closes_the_privates(end_of_or3: Game) -> None:
    game = end_of_or3
    with game.changing():  # edited by hand
        for train in game.trains.values():
            if train.id.split("-")[0] in ("3+", "4+", "5") and train.owner is None:
                train.rusted = True
        game.corporations["WRA"].cash = 1000
        for train in game.corporation_trains("WRA")[:2]:
            train.owner = None
            train.rusted = True
    game.process(Action("buy_train", corp("WRA"), 715, 0, {"train": "6-0", "price": 550, "variant": "6"}))
    assert game.phase.name == "6"
    assert all(c.closed for c in game.companies.values())
    assert "2D" in {t.card for t in game.title.bank_trains(game)}


def test_presidential_contribution_for_a_permanent_train(end_of_or3: Game) -> None:
    game = end_of_or3
    with game.changing():  # edited by hand
        for train in game.trains.values():
            if train.id.split("-")[0] in ("3+", "4+") and train.owner is None:
                train.rusted = True
        game.corporations["WRA"].cash = 300
        for train in game.corporation_trains("WRA")[:1]:  # one 2+ stays: contribution needs a train
            train.owner, train.rusted = None, True
        game.players["Cugnot"].cash = 500
    game.process(Action("buy_train", corp("WRA"), 715, 0, {"train": "5-0", "price": 500, "variant": "5"}))
    assert game.round.label == "OR 2.2"  # nothing more to do: the round is over, the next has paid
    assert game.cash("WRA") == sum(c.revenue for c in game.companies.values() if c.owner == "WRA" and not c.closed)
    assert game.cash("Cugnot") == 500 - (500 - 300) - 50


def test_a_forced_purchase_borrows_after_every_sale() -> None:
    game, _, index = game_until("320")  # WRA has a route and no train: it must buy
    with game.changing():  # edited by hand
        game.corporations["WRA"].cash = 10  # not 0: 18xx.games lends nothing to a company holding none
        game.players["Cugnot"].cash = 30
        for share in game.shares.values():
            if share.owner == "Cugnot" and not share.president:
                share.owner = "ipo"  # nothing left Cugnot could sell
    game.process(Action("buy_train", corp("WRA"), 320, 0, {"train": "2+-2", "price": 80, "variant": "2+"}))
    assert game.round.label == "OR 1.2"  # WRA was the last to operate: the next round has paid the privates
    income = sum(c.revenue for c in game.companies.values() if c.owner == "Cugnot" and not c.closed)
    assert game.cash("WRA") == 0
    assert game.cash("Cugnot") == -(80 - 10 - 30) - 50 + income  # the loan plus its flat fee


def test_mississippi_central_is_exchanged_for_its_2plus_train() -> None:
    game, _, index = game_until("380")
    with game.changing():  # edited by hand
        game.companies["MC"].owner, game.companies["MC"].closed = "Brunel", False
    game.process(Action("buy_company", corp("IC"), 380, 0, {"company": "MC", "price": 60}))
    assert game.companies["MC"].closed
    assert "2+-4" in [t.id for t in game.corporation_trains("IC")]


def test_meridian_and_memphis_station_at_half_price(end_of_or3: Game) -> None:
    game, _, index = game_until("680")
    with game.changing():  # edited by hand
        game.companies["M&M"].owner, game.companies["M&M"].closed = "WRA", False
    cash = game.cash("WRA")
    game.process(Action("place_token", Entity("company", "M&M"), 680, 0, {"city": "57-1-0", "slot": 0}))
    assert game.cash("WRA") == cash - 20
    with pytest.raises(IllegalAction):
        game.process(Action("place_token", Entity("company", "M&M"), 681, 0, {"city": "57-1-0", "slot": 0}))


def test_birmingham_southern_lays_its_two_tiles_in_one_operating_round() -> None:
    game, _, index = game_until("620")
    with game.changing():  # edited by hand
        game.companies["BS"].owner = "IC"
    game.process(Action("lay_tile", Entity("company", "BS"), 620, 0, {"hex": "B8", "tile": "9-3", "rotation": 1}))
    game.title.on_or_start(game, 1)  # what every operating round does first
    with pytest.raises(IllegalAction) as caught:
        game.process(Action("lay_tile", Entity("company", "BS"), 621, 0, {"hex": "B10", "tile": "9-4", "rotation": 1}))
    assert caught.value.rule_id == "18MS/16-company-ability"


def test_the_train_step_stays_open_for_a_train_only_a_private_discount_makes_affordable(end_of_or3: Game) -> None:
    """18xx.games counts the M&O's $100 off in whether WRA can buy: with $100 and a $180 3+
    next, the train step offers buy_train and pass; without the private it is skipped."""
    game = end_of_or3
    for train in game.trains.values():
        train.reserved = train.reserved or train.owner not in (None, "WRA")  # no trade between companies
    game.corporations["WRA"].cash = 100
    train_step = next(s for s in game.round.steps if type(s).__name__ == "MsBuyTrain")
    assert train_step.offers(Entity("corporation", "WRA")) == {"buy_train", "pass"}
    game.companies["M&O"].owner = "Cugnot"
    assert train_step.offers(Entity("corporation", "WRA")) == frozenset()
