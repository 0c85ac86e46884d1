"""The 18MS engine: real games replay to their recorded scores, and every rule it enforces has a
test that breaks it (the flag names the rule and the action's index)."""

from __future__ import annotations

import copy
from dataclasses import replace
import json
from pathlib import Path

import pytest

from railledger.ingest import notation
from railledger.ingest.notation import read
from railledger.ingest.export import read_export
from railledger.ingest.model import Action, Entity, Record
from railledger.replay import Game, IllegalAction, replay_record
from tests.conftest import fixture_params
from tests.mutations import assert_flagged, corp, distinct_rules, edited, illegal_at, index_of, mutation_params, player
from tests.mutations import game_until as play_until

GAMES = Path(__file__).resolve().parent / "games"
SHORT = (GAMES / "18ms-short.rln").read_text()


@pytest.mark.parametrize("path", fixture_params("18MS"))
def test_recorded_games_replay_to_their_recorded_scores(path: Path) -> None:
    record = read_export(json.loads(path.read_text()))
    outcome = replay_record(record)
    assert outcome.flags == []
    assert outcome.result == dict(record.result or {})


def test_the_short_test_game_is_legal_and_its_money_adds_up() -> None:
    record = notation.read(SHORT)
    outcome = replay_record(record, snapshots=True)
    assert outcome.flags == []
    last = outcome.snapshots[-1]
    players = dict(last.players)
    assert [players[p].cash for p in ("Ada", "Brunel", "Cugnot")] == [136, 230, 211]  # OR 2.2 has begun: BS paid Ada
    corps = dict(last.corporations)
    assert (corps["IC"].cash, corps["IC"].price) == (864, 90)  # Chattanooga bonus, market dividend, AGS revenue
    assert (corps["WRA"].cash, corps["WRA"].trains) == (425, ("2+", "2+", "3+"))  # M&O discount, station


def game_until(label: str, text: str = SHORT) -> tuple[Game, Record, int]:
    """The short game played up to (not including) the action with this label."""
    return play_until(text, label)


# One changed action each: (what, the change, rule id expected, label of the flagged action).
MUTATIONS = [
    ("draft out of order", (10, "10 p2 bid AGS 30"), "18MS/9-draft-order", "10"),
    ("draft below face value", (10, "10 p3 bid M&O 60"), "18MS/9-draft-price", "10"),
    ("draft a taken private", (20, "20 p2 bid M&O 70"), "18MS/9-draft-company", "20"),
    ("par value not on the chart", (40, "40 p1 par GMO 100,0,5"), "18MS/10.3-par-value", "40"),
    ("par a company twice", (50, "50 p2 par GMO 90,0,4"), "18MS/10.3-par", "50"),
    ("par without the cash", (510, "510 p3 par L&N 90,0,4"), "18MS/4-cash", "510"),
    ("two purchases in one turn", (480, "480 p1 buy_shares GMO_6 10"), "18MS/10.1-buy-one", "480"),
    ("buying again after the turn ended", (80, "80 p1 buy_shares GMO_2 10"), "18MS/10-turn-order", "80"),
    ("buy before the president's certificate", (70, "70 p1 buy_shares L&N_1 10"), "18MS/10.3-buy-unparred", "70"),
    ("buy a certificate someone holds", (80, "80 p2 buy_shares GMO_1 10"), "18MS/10.3-buy-source", "80"),
    ("buy back after selling", (500, "500 p2 buy_shares IC_6 10"), "18MS/10.3-buy-after-sale", "500"),
    ("own more than 70%", [(470, "470 p1 buy_shares GMO_6 10"), (530, "530 p1 buy_shares GMO_7 10")], "18MS/10.4-ownership-limit", "530"),
    ("sell in the first stock round", (190, "190 p1 sell_shares GMO_1 10"), "18MS/10.2-no-sale-first-sr", "190"),
    ("sell, buy, then sell again", (500, None, "505 p2 sell_shares IC_2 10"), "18MS/10-turn-order", "505"),
    ("sell a certificate of someone else", (490, "490 p2 sell_shares GMO_1 10"), "18MS/10.2-sell-own", "490"),
    ("sell the president's certificate alone", (480, "480 p1 sell_shares GMO_0 20"), "18MS/10.2-president-sale", "480"),
    ("stock turn out of order", (470, "470 p2 buy_shares WRA_5 10"), "18MS/10-turn-order", "470"),
    ("a company operates before its turn", (560, "560 IC pass"), "18MS/11-operating-order", "560"),
    ("unfloated company operates", (220, "220 L&N lay_tile B2 58-0 2"), "18MS/11-operating-order", "220"),
    ("a private nobody operates uses an ability", (620, "620 company:M&M lay_tile B8 9-3 1"), "18MS/11.2-company-owner", "620"),
    ("lay track after running", (580, None, "585 GMO lay_tile G5 9-5 0"), "18MS/11.3-step-order", "585"),
    ("a second tile lay after the first turn", (340, None, "345 IC lay_tile B8 9-3 1"), "18MS/11.4.2-tile-count", "345"),
    ("tile in Jackson", (220, "220 IC lay_tile E1 57-0 0"), "18MS/11.4.1-tile-hex", "220"),
    ("a tile copy that does not exist", (220, "220 IC lay_tile B2 58-5 2"), "18MS/11.4.1-tile-manifest", "220"),
    ("green tile in phase 2", (230, "230 IC lay_tile B4 14-0 1"), "18MS/8-tile-colour", "230"),
    ("town tile on a blank hex", (230, "230 IC lay_tile B4 58-1 1"), "18MS/11.4.3-tile-upgrade", "230"),
    ("track off the map", (230, "230 IC lay_tile B4 9-0 0"), "18MS/11.4.1-tile-edge", "230"),
    ("tile away from the network", (230, "230 IC lay_tile D4 9-0 0"), "18MS/11.4.1-tile-connect", "230"),
    ("AGS lays a green tile", (620, "620 company:AGS lay_tile B8 14-0 1"), "18MS/16-company-ability", "620"),
    ("station in a city that does not exist", (680, "680 WRA place_token 99-0-0 0"), "18MS/11.5-token-city", "680"),
    ("second station in the home city", (680, "680 WRA place_token 57-0-0 0"), "18MS/11.5-token-twice", "680"),
    ("station without a route", (680, "680 WRA place_token 5-0-0 0"), "18MS/11.5-token-reach", "680"),
    ("run another company's train", (350, "350 IC run_routes [2+-1 A1-B2]"), "18MS/11.6-route-train", "350"),
    ("run over missing track", (350, "350 IC run_routes [2+-0 A1-B2-C1]"), "18MS/11.1-route-track", "350"),
    ("a run with one stop", (350, "350 IC run_routes [2+-0 A1]"), "18MS/11.1-route-track", "350"),
    ("a run with no connection", (350, "350 IC run_routes [2+-0 $0]"), "18MS/11.6-route-stops", "350"),
    ("revisit a stop", (350, "350 IC run_routes [2+-0 A1-B2 B2-A1]"), "18MS/11.6-route-revisit", "350"),
    ("two trains on one track", (690, "690 WRA run_routes [2+-2 E11-E13-E15] [2+-3 E11-E13-E15]"), "18MS/11.1-route-reuse", "690"),
    ("a 2+ train to three cities", (690, "690 WRA run_routes [2+-2 E9-E11 E11-E13-E15]"), "18MS/11.6-route-length", "690"),
    ("a route without a station", (400, "400 GMO run_routes [2+-1 H8-H10]"), "18MS/11.1-route-token", "400"),
    ("inflated revenue", (350, "350 IC run_routes [2+-0 A1-B2 $100]"), "18MS/11.6-route-revenue", "350"),
    ("pass instead of running trains", (580, "580 GMO pass"), "18MS/11.6-run-required", "580"),
    ("dividend without revenue", (280, "280 GMO dividend payout"), "18MS/11.7-dividend-no-run", "280"),
    ("a second dividend", (360, None, "365 IC dividend payout"), "18MS/11.3-step-order", "365"),
    ("half dividend", (360, "360 IC dividend half"), "18MS/11.7-dividend-kind", "360"),
    ("buy a train that does not exist", (240, "240 IC buy_train 9+-0 80"), "18MS/11.8-train-unknown", "240"),
    ("a bank train below face value", (240, "240 IC buy_train 2+-0 70"), "18MS/11.8-train-price", "240"),
    ("a 3+ while 2+ trains remain", (240, "240 IC buy_train 3+-0 180"), "18MS/11.8-train-order", "240"),
    ("buy its own train", (450, "450 WRA buy_train 2+-2 10"), "18MS/11.8-train-source", "450"),
    ("a private from another player", (380, "380 IC buy_company M&O 70"), "18MS/11.3-company-buy", "380"),
    ("a private above 1.5 times face value", (380, "380 IC buy_company AGS 50"), "18MS/11.3-company-price", "380"),
    ("M&O bought in OR 1", (320, "320 WRA buy_company M&O 70"), "18MS/16-company-buy-phase", "320"),
    ("end the turn without a train", (320, "320 WRA pass"), "18MS/11.8-must-buy-train", "320"),
    ("an action a round does not have", (360, "360 IC choose choice:=\"x\""), "18MS/4-action-type", "360"),
    ("a rotation written as text", (230, '230 IC lay_tile B4 9-0 rotation:="1"'), "18MS/4-action-malformed", "230"),
    ("M&O discount on a 2+", (710, "710 company:M&O buy_train 3+-1 180"), "18MS/11.8-train-price", "710"),
]


@pytest.mark.parametrize(("change", "rule", "label"), mutation_params(MUTATIONS))
def test_a_changed_action_is_flagged_with_its_rule_and_index(change: tuple | list, rule: str, label: str) -> None:
    assert_flagged(SHORT, change, rule, label)


def test_mutations_cover_many_distinct_rules() -> None:
    assert distinct_rules(MUTATIONS) >= 40


# Rules whose breach needs a state the short game does not reach: the state is set directly.


def process_at(label: str, action: Action, prepare) -> IllegalAction:  # type: ignore[no-untyped-def]
    return illegal_at(SHORT, label, action, prepare)


def give_certificates(game: Game, pid: str, count: int) -> None:
    free = [s for s in game.shares.values() if s.owner == "ipo" and not s.president and s.corporation in ("L&N", "Fr")]
    for share in free[:count]:
        share.owner = pid


def _set(game: Game, **changes: object) -> None:
    for key, value in changes.items():
        setattr(game, key, value)


def test_cert_limit() -> None:
    error = process_at("470", Action("buy_shares", player("Ada"), 470, 0, {"shares": ["IC_5"], "percent": 10}),
                       lambda g: give_certificates(g, "Ada", 8))
    assert error.rule_id == "18MS/10.4-cert-limit"
    assert "Ada holds 14 certificates; the limit with 3 players is 14" in error.message


def test_cert_limit_excess_must_sell() -> None:
    error = process_at("480", Action("pass", player("Ada"), 480, 0, {}), lambda g: give_certificates(g, "Ada", 9))
    assert error.rule_id == "18MS/10.4-cert-limit-excess"


def test_market_limit() -> None:
    def five_in_market(game: Game) -> None:
        for i in (6, 7, 8):
            game.shares[f"IC_{i}"].owner = "market"
        game.shares["IC_2"].owner = "market"

    error = process_at("490", Action("sell_shares", player("Brunel"), 490, 0, {"shares": ["IC_1", "IC_3"], "percent": 20}), five_in_market)
    assert error.rule_id == "18MS/10.2-market-limit"


def test_terrain_cost_needs_cash() -> None:
    error = process_at("270", Action("lay_tile", corp("GMO"), 270, 0, {"hex": "G7", "tile": "9-1", "rotation": 0}),
                       lambda g: setattr(g.corporations["GMO"], "cash", 10))
    assert error.rule_id == "18MS/11.4.4-terrain-cost"


def test_mobile_tile_only_in_mobile() -> None:
    error = process_at("230", Action("lay_tile", corp("IC"), 230, 0, {"hex": "B2", "tile": "X31b-0", "rotation": 0}),
                       lambda g: _set(g, phase_index=3))
    assert error.rule_id == "18MS/11.4.3-tile-special"


def test_first_turn_second_tile_not_an_upgrade_after_an_upgrade() -> None:
    game, _, index = game_until("230")
    with game.changing():  # edited by hand
        game.phase_index = 1  # green available
        game.round.turn.lays, game.round.turn.upgraded = 1, True  # as if the first lay had been an upgrade
    tile, rotation = next((t, r) for t in ("87-0", "88-0", "143-0", "204-0") for r in range(6) if _fits(game, "B2", t, r))
    game.index = index
    with pytest.raises(IllegalAction) as caught:
        game.process(Action("lay_tile", corp("IC"), 230, 0, {"hex": "B2", "tile": tile, "rotation": rotation}))
    assert caught.value.rule_id == "18MS/11.3-tile-first-turn"


def _fits(game: Game, hex_id: str, tile: str, rotation: int) -> bool:
    try:
        game.board.check_lay(hex_id, tile, rotation, game.phase.tiles)
    except Exception:
        return False
    return True


def test_token_one_per_turn() -> None:
    error = process_at("680", Action("place_token", corp("WRA"), 680, 0, {"city": "57-1-0", "slot": 0}),
                       lambda g: setattr(g.round.turn, "tokened", True))
    assert error.rule_id == "18MS/11.5-token-one"


def test_token_none_left() -> None:
    error = process_at("680", Action("place_token", corp("WRA"), 680, 0, {"city": "57-1-0", "slot": 0}),
                       lambda g: g.corporations["WRA"].tokens_placed.extend(["X", "Y"]))
    assert error.rule_id == "18MS/11.5-token-none-left"


def test_token_slot_taken() -> None:
    error = process_at("680", Action("place_token", corp("WRA"), 680, 0, {"city": "57-1-0", "slot": 0}),
                       lambda g: g.board.place_token("E9", 0, 0, "GMO"))
    assert error.rule_id == "18MS/11.5-token-slot"


def test_token_reserved_home() -> None:
    game, _, index = game_until("680")
    spec = game.title.corporations
    fr = next(c for c in spec if c.sym == "Fr")
    original = copy.copy(fr)
    object.__setattr__(fr, "home_hex", "E9")
    try:
        assert game.title.slot_reserved(game, "WRA", "E9", 0)
        game.index = index
        with pytest.raises(IllegalAction) as caught:
            game.process(Action("place_token", corp("WRA"), 680, 0, {"city": "57-1-0", "slot": 0}))
    finally:
        object.__setattr__(fr, "home_hex", original.home_hex)
    assert caught.value.rule_id == "18MS/11.5-token-reserved"


def test_no_buying_a_train_that_ran_and_becomes_obsolete() -> None:
    def run_and_last_of_the_2plus(game: Game) -> None:
        game.trains["2+-0"].reserved = True  # IC ran it in the second OR of the set it rusts after

    error = process_at("450", Action("buy_train", corp("WRA"), 450, 0, {"train": "2+-0", "price": 10}), run_and_last_of_the_2plus)
    assert error.rule_id == "18MS/11.9-train-obsolete"


def test_forced_purchase_without_enough_president_cash_needs_a_loan_only_after_sales() -> None:
    def broke(game: Game) -> None:
        game.corporations["WRA"].cash = 0
        game.players["Cugnot"].cash = 10

    # WRA has a route and no train, so it must buy; Cugnot has shares he could sell, so the bank
    # lends nothing yet: 18MS gives a loan only after sales.
    error = process_at("320", Action("buy_train", corp("WRA"), 320, 0, {"train": "2+-2", "price": 80}), broke)
    assert error.rule_id == "18MS/11.8.3-forced-purchase"


def test_president_assist_needs_half_the_price() -> None:
    def permanent_available(game: Game) -> None:
        for train in game.trains.values():
            if train.id.startswith(("3+", "4+")) and train.owner is None:
                train.rusted = True
        game.corporations["GMO"].cash = 100

    error = process_at("600", Action("buy_train", corp("GMO"), 600, 0, {"train": "5-0", "price": 500}), permanent_available)
    assert error.rule_id == "18MS/4-cash"
    assert "less than $500" in error.message


def test_train_limit() -> None:
    def third_train(game: Game) -> None:
        game.trains["3+-2"].owner = "WRA"
    error = process_at("710", Action("buy_train", Entity("company", "M&O"), 710, 0, {"train": "3+-1", "price": 80}), third_train)
    assert error.rule_id == "18MS/11.8.1-train-limit"


def test_game_over() -> None:
    error = process_at("710", Action("pass", corp("WRA"), 710, 0, {}), lambda g: _set(g, finished=True))
    assert error.rule_id == "18MS/12-game-over"


def test_blocked_city() -> None:
    def block_e11(game: Game) -> None:
        game.board.place_token("E11", 0, 0, "GMO")
        game.board.place_token("E9", 0, 0, "WRA")

    error = process_at("690", Action("run_routes", corp("WRA"), 690, 0, {"routes": [{"train": "2+-2", "connections": [["E9", "E11"], ["E11", "E13", "E15"]]}]}), block_e11)
    assert error.rule_id == "18MS/11.1-route-blocked"


def test_legal_does_not_change_the_game_and_snapshots_are_values() -> None:
    game, record, index = game_until("350")
    before = game.snapshot()
    good = record.actions[index]
    bad = Action("run_routes", corp("IC"), 350, 0, {"routes": [{"train": "2+-0", "connections": [["A1", "B2"]], "revenue": 999}]})
    assert game.is_legal(good) and not game.is_legal(bad)
    assert game.snapshot() == before
    game.process(good)
    game.process(record.actions[index + 1])  # the dividend moves money and the share price
    assert game.snapshot() != before and before.round == "OR 1.2"


def test_keep_going_flags_every_problem_and_applies_none() -> None:
    text = edited(edited(SHORT, 180, insert="185 p1 sell_shares GMO_1 10"), 340, insert="345 IC lay_tile B8 9-3 1")
    outcome = replay_record(notation.read(text), keep_going=True)
    assert [(f.rule, f.action_id) for f in outcome.flags] == [
        ("18MS/10.2-no-sale-first-sr", "185"),
        ("18MS/11.4.2-tile-count", "345"),
    ]
    assert outcome.result == replay_record(notation.read(SHORT)).result  # nothing of the flagged actions applied
    strict = replay_record(notation.read(text))
    assert len(strict.flags) == 1 and strict.stopped_at == index_of(text, "185")


def test_flags_that_follow_from_a_refused_action_point_at_it() -> None:
    """A par refused at the start: every later flag of its company and turn follows from it."""
    record = read(SHORT)
    actions = list(record.actions)
    first_par = next(i for i, a in enumerate(actions) if a.type == "par")
    actions[first_par] = replace(actions[first_par], fields={**actions[first_par].fields, "share_price": "100,0,5"})
    outcome = replay_record(replace(record, actions=tuple(actions)), keep_going=True)
    assert len(outcome.flags) > 10
    assert [f.index for f in outcome.flags if f.root] == [first_par]
    assert outcome.roots_first()[0].index == first_par
    assert all(f.follows == first_par for f in outcome.flags if not f.root)


def test_independent_mistakes_are_separate_root_causes() -> None:
    text = SHORT.replace("180 p3 buy_shares WRA_4 10", "180 p3 buy_shares WRA_4 10\n185 p1 sell_shares GMO_1 10")
    text = text.replace("360 IC dividend payout", "360 IC dividend half")
    outcome = replay_record(read(text), keep_going=True)
    roots = [f for f in outcome.flags if f.root]
    assert [(f.action_id, f.rule) for f in roots] == [("185", "18MS/10.2-no-sale-first-sr"), ("360", "18MS/11.7-dividend-kind")]
    assert all(f.follows == roots[1].index for f in outcome.flags if not f.root)  # IC's turn waits for its dividend
