"""The 1871 engine: real games replay to their recorded scores, the setup draws match
18xx.games, and every rule it enforces has a test that breaks it (rule id and action index)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from railledger.ingest import notation
from railledger.ingest.export import read_export
from railledger.ingest.model import Action, Entity
from railledger.replay import Game, IllegalAction, replay_record
from railledger.replay.titles.g1871.operating import Bankrupt1871
from tests.conftest import fixture_params
from tests.mutations import assert_flagged, corp, distinct_rules, game_until, illegal_at, mutation_params, player

SHORT = (Path(__file__).resolve().parent / "games" / "1871-short.rln").read_text()
T = "The Old Prince 1871"


@pytest.mark.parametrize("path", fixture_params("1871"))
def test_recorded_games_replay_to_their_recorded_scores(path: Path) -> None:
    record = read_export(json.loads(path.read_text()))
    outcome = replay_record(record)
    assert outcome.flags == []
    assert outcome.result == dict(record.result or {})


def test_the_short_game_is_legal() -> None:
    outcome = replay_record(notation.read(SHORT), snapshots=True)
    assert outcome.flags == []
    corps = dict(outcome.snapshots[-1].corporations)
    assert corps["C"].trains == ("2H", "2H") and corps["PEIR"].trains == ("3H", "3H")
    assert [e.subject for e in outcome.events if e.kind == "float"] == ["C", "Gt"]
    assert [e.subject for e in outcome.events if e.kind == "phase"] == ["3H"]


MUTATIONS = [
    # the initial auction (5.2)
    ("offer an item of another pile", (10, "10 p1 offer UB"), f"{T}/5.2-draft-company", "10"),
    ("offer out of turn", (10, "10 p2 offer UB"), f"{T}/5.2-draft-order", "10"),
    ("offer while an item is on offer", (20, "20 p2 offer UB"), f"{T}/5.2-draft-company", "20"),
    ("bid the face value", (20, "20 p2 bid SL 160"), f"{T}/5.2-draft-price", "20"),
    ("bid not a multiple of $5", (20, "20 p2 bid SL 167"), f"{T}/5.2-draft-price", "20"),
    ("bid on an item not on offer", (20, "20 p2 bid UB 125"), f"{T}/5.2-draft-price", "20"),
    ("bid by the auctioneer", (20, "20 p1 bid SL 165"), f"{T}/5.2-draft-order", "20"),
    ("bid more than one has", (20, "20 p2 bid SL 600"), f"{T}/6.5-cash", "20"),
    # stock rounds (6)
    ("exchange for a pool share", (450, "450 company:MC buy_shares Gt_2 10"), f"{T}/6.2-private-exchange", "450"),
    ("exchange a private without the ability", (450, "450 company:UB buy_shares Gt_6 10"), f"{T}/6.2-private-exchange", "450"),
    ("buy a reserved exchange share", (460, "460 p1 buy_shares Gt_7 10"), f"{T}/6.5-buy-source", "460"),
    ("buy without the cash", (460, "460 p1 buy_shares C_4 10"), f"{T}/6.5-cash", "460"),
    ("sell before the company operated", (460, "460 p1 sell_shares C_0 20"), f"{T}/6.4-sell-after-operate", "460"),
    ("buy a share of a company not started", (470, "470 p3 buy_shares So_1 10"), f"{T}/6.7.3-buy-unparred", "470"),
    ("start a company with no tranche open", (470, "470 p3 par So 58,6,1"), f"{T}/6.7.1-tranche", "470"),
    ("start a branch company", (470, "470 p3 par CB 58,6,1"), f"{T}/6.7.3-start-peir", "470"),
    ("stock turn out of order", (470, "470 p2 buy_shares C_3 10"), f"{T}/6.1-turn-order", "470"),
    ("act for the Union Bank without its charter", (470, "470 p3 buy_shares Gt_1 10 purchase_for=player:-1"), f"{T}/6.8-union-bank", "470"),
    ("borrow from the owner when buying for oneself", (640, "640 p1 buy_shares Gt_2 10 borrow_from=p1"), f"{T}/6.8-union-bank", "640"),
    ("the Union Bank acting as a company", (640, "640 p1 buy_shares Gt_2 10 purchase_for=corporation:-1 borrow_from=p1"), f"{T}/6.8-union-bank", "640"),
    ("the Union Bank borrowing from another player", (640, "640 p1 buy_shares Gt_2 10 purchase_for=player:-1 borrow_from=p2"), f"{T}/6.8-union-bank", "640"),
    ("two purchases in one turn", (470, None, "475 p3 buy_shares Gt_2 10"), f"{T}/6.2-buy-one", "475"),
    ("sell after buying", (470, None, "475 p3 sell_shares Gt_1 10"), f"{T}/6.4-sell-buy-sell", "475"),
    ("sell a company twice in a turn", (620, None, "625 p1 sell_shares C_2 10"), f"{T}/6.4-sell-once", "625"),
    ("buy back after selling", (640, "640 p1 buy_shares C_4 10"), f"{T}/6.5-buy-after-sale", "640"),
    ("sell another player's share", (620, "620 p1 sell_shares C_3 10"), f"{T}/6.4-sell-own", "620"),
    ("sell the president's certificate nobody can take", (670, "670 p2 sell_shares C_0 20"), f"{T}/6.4-president-sale", "670"),
    ("start at a reserved price", (670, "670 p2 par So 92,1,1"), f"{T}/6.7.2-par-value", "670"),
    ("start the Mainline", (670, "670 p2 par C 58,6,1"), f"{T}/6.7.3-start-peir", "670"),
    ("start without the cash", (670, "670 p2 par So 80,3,1"), f"{T}/6.5-cash", "670"),
    ("split with under 40%", (670, "670 p2 split C"), f"{T}/6.7.4-split", "670"),
    ("answer a split that was not started", (670, "670 p2 choose choice:=\"CB\""), f"{T}/6.7.4-split-order", "670"),
    # operating rounds (7, 12, 13)
    ("a company operates before its turn", (510, "510 Gt lay_tile R16 5-0 0"), f"{T}/7.1.1-operating-order", "510"),
    ("a tile not in the manifest", (510, "510 C lay_tile K17 4-0 0"), f"{T}/12.3-tile-manifest", "510"),
    ("a green tile in phase 2H", (510, "510 C lay_tile K17 16-0 0"), f"{T}/12.1-tile-colour", "510"),
    ("a tile away from the network", (510, "510 C lay_tile K13 8-0 0"), f"{T}/12.2-tile-connect", "510"),
    ("track on the bridge hex without consent", (510, "510 C lay_tile N18 8-0 0"), f"{T}/12.2-private-block", "510"),
    ("a third tile", [(510, None, "512 C lay_tile K15 1-0 0"), (510, None, "511 C lay_tile J16 7-0 4")], f"{T}/12.2-tile-count", "512"),
    ("a station in a city that does not exist", (520, "520 C place_token 99-0-0 0"), f"{T}/7.3-token-city", "520"),
    ("a second station at home", (520, "520 C place_token L16-0-0 0"), f"{T}/7.3-token-twice", "520"),
    ("a bank train below its price", (520, "520 C buy_train 2H-0 60 variant=2H"), f"{T}/7.6-train-price", "520"),
    ("a 3H while 2H trains remain", (520, "520 C buy_train 3H-0 100 variant=3H"), f"{T}/7.6-train-order", "520"),
    ("a train that does not exist", (520, "520 C buy_train 2H-9 80 variant=2H"), f"{T}/13.2-train-unknown", "520"),
    ("end the turn without a train", [(560, "560 Gt pass"), (570, "570 Gt pass")], f"{T}/7.6.3-must-buy-train", "560"),
    ("dividend without a run", (590, "590 PEIR dividend payout"), f"{T}/7.5-dividend-no-run", "590"),
    ("the PEIR buys two bank trains", (600, None, "605 PEIR buy_train 3H-1 100 variant=3H"), f"{T}/7.7-peir-train", "605"),
    ("run another company's train", (730, "730 Gt run_routes [2H-0 R16-R18]"), f"{T}/13.3-route-train", "730"),
    ("run over missing track", (730, "730 Gt run_routes [2H-2 R16-S17]"), f"{T}/13.3-route-track", "730"),
    ("two trains on one track", (730, "730 Gt run_routes [2H-2 R16-R18] [2H-3 R16-R18]"), f"{T}/13.3-route-reuse", "730"),
    ("revisit a stop", (730, "730 Gt run_routes [2H-2 R16-R18 R18-R16]"), f"{T}/13.3-route-revisit", "730"),
    ("inflated revenue", (730, "730 Gt run_routes [2H-2 R16-R18 $50] [2H-3 R16-Q17]"), f"{T}/7.4-route-revenue", "730"),
    ("run again after the run", (730, None, "735 Gt run_routes [2H-2 R16-R18]"), f"{T}/7.1.1-step-order", "735"),
    ("half dividend by a company", (740, "740 Gt dividend half"), f"{T}/7.5-dividend-kind", "740"),
    ("buy the Hunslet before phase 4H", (790, "790 C buy_company HSE 100"), f"{T}/7.1.1-company-buy-phase", "790"),
    ("buy a private other than the Hunslet", (790, "790 C buy_company SBC 100"), f"{T}/7.1.1-company-buy", "790"),
    ("an action a round does not have", (790, "790 C choose choice:=\"x\""), f"{T}/4-action-type", "790"),
]


@pytest.mark.parametrize(("change", "rule", "label"), mutation_params(MUTATIONS))
def test_a_changed_action_is_flagged_with_its_rule_and_index(change: tuple | list, rule: str, label: str) -> None:
    assert_flagged(SHORT, change, rule, label)


def test_mutations_cover_many_distinct_rules() -> None:
    assert distinct_rules(MUTATIONS) >= 40


def process_at(label: str, action: Action, prepare) -> IllegalAction:  # type: ignore[no-untyped-def]
    return illegal_at(SHORT, label, action, prepare)


def lay(sym: str, hex_id: str, tile: str, rotation: int, label: int) -> Action:
    return Action("lay_tile", corp(sym), label, 0, {"hex": hex_id, "tile": tile, "rotation": rotation})


def buy(pid: str, share: str, label: int, **fields: object) -> Action:
    return Action("buy_shares", player(pid), label, 0, {"shares": [share], "percent": 10, **fields})


def give(game: Game, owner: str, *shares: str) -> None:
    for share in shares:
        game.move_share(share, owner)


def test_second_yellow_tile_needs_its_twenty_dollars() -> None:
    error = process_at("520", lay("C", "J16", "7-0", 4, 520), lambda g: setattr(g.corporations["C"], "cash", 10))
    assert error.rule_id == f"{T}/7.2-tile-two-yellow"


def test_water_costs_sixty() -> None:
    error = process_at("550", lay("Gt", "R16", "5-0", 0, 550), lambda g: setattr(g.corporations["Gt"], "cash", 30))
    assert error.rule_id == f"{T}/7.2-terrain-cost"


def test_tile_9_needs_schreiber_and_burpee() -> None:
    error = process_at("510", lay("C", "K17", "9-0", 1, 510), lambda g: setattr(g.companies["SBC"], "owner", "Ada"))
    assert error.rule_id == f"{T}/7.2-private-sbc"


def test_sixty_percent_limit() -> None:
    error = process_at("480", buy("Brunel", "C_3", 480), lambda g: give(g, "Brunel", "C_4", "C_5", "C_6", "C_7"))
    assert error.rule_id == f"{T}/6.5-ownership-limit"


def many_shares(game: Game) -> list[str]:
    return [f"{sym}_{i}" for sym in ("So", "A") for i in range(1, 9)][:14]


def test_certificate_limit_of_20_with_three_players() -> None:
    error = process_at("480", buy("Brunel", "C_3", 480), lambda g: give(g, "Brunel", *many_shares(g)))
    assert error.rule_id == f"{T}/6.3-cert-limit"


def test_a_player_over_the_limit_must_sell_before_passing() -> None:
    def over_the_limit_with_a_share_to_sell(game: Game) -> None:
        give(game, "Ada", *many_shares(game), "C_3", "C_4")
        game.corporations["C"].operated = True  # so that its shares may be sold

    pass_ = Action("pass", player("Ada"), 460, 0, {})
    assert process_at("460", pass_, over_the_limit_with_a_share_to_sell).rule_id == f"{T}/6.3-cert-limit-excess"


def test_a_player_over_the_limit_with_nothing_to_sell_may_pass() -> None:
    """18xx.games asks for a sale only when one is possible (nothing has operated in SR 1)."""
    game, record, index = game_until(SHORT, "460")
    with game.changing():  # edited by hand
        give(game, "Ada", *many_shares(game), "MS_1", "MS_2", "MS_3")
    assert game.certificates("Ada") > game.cert_limit()
    assert game.is_legal(Action("pass", player("Ada"), 460, 0, {}))


def test_at_most_thirty_percent_sold_in_a_turn() -> None:
    sale = Action("sell_shares", player("Ada"), 620, 0, {"shares": ["C_1", "C_2", "C_4", "C_5"], "percent": 40})
    error = process_at("620", sale, lambda g: give(g, "Ada", "C_4", "C_5"))
    assert error.rule_id == f"{T}/6.4-sell-limit"


def test_the_hunslet_buys_only_what_its_company_can_pay_for() -> None:
    def hunslet_to_c(game: Game) -> None:
        game.companies["HSE"].owner = "C"
        game.corporations["C"].cash = 0
    error = process_at("790", Action("purchase_train", Entity("company", "HSE"), 790, 0, {}), hunslet_to_c)
    assert error.rule_id == f"{T}/7.1.1-private-hunslet"


def test_first_stock_round_goes_in_ascending_cash() -> None:
    game, _, _ = game_until(SHORT, "450")
    assert game.order == ["Ada", "Cugnot", "Brunel"]
    assert [game.cash(p) for p in game.order] == sorted(game.cash(p) for p in game.order)


def test_nobody_bidding_and_a_broke_receiver_forces_the_richest_player() -> None:
    game, record, index = game_until(SHORT, "100")  # Cugnot offered VR; Ada and Brunel may bid
    with game.changing():  # edited by hand
        game.players["Cugnot"].cash = 10  # the receiver (with three players, the auctioneer) cannot pay $40
    richest = max(game.order, key=game.cash)
    game.process(record.actions[index])
    game.process(record.actions[index + 1])
    assert game.companies["VR"].owner == richest


def test_the_union_bank_pays_what_it_can_and_its_owner_the_rest() -> None:
    game, record, index = game_until(SHORT, "640")
    with game.changing():  # edited by hand
        game.players[-1].cash = 50
    ada = game.cash("Ada")
    game.process(record.actions[index])  # Gt_2 at $82 for the Union Bank
    assert (game.cash(-1), ada - game.cash("Ada"), game.shares["Gt_2"].owner) == (0, 32, -1)


def test_dividends_round_up_per_holder_and_pool_shares_pay_the_company() -> None:
    game, record, index = game_until(SHORT, "740")  # Gt pays out $60: $6 a share
    before = {who: game.cash(who) for who in ("Ada", "Cugnot", -1, "Gt")}
    game.process(record.actions[index])
    paid = {who: game.cash(who) - before[who] for who in before}
    assert paid == {"Ada": 12, "Cugnot": 24, -1: 6, "Gt": 18}  # the pool's 30% pays Gt
    assert game.share_price("Gt") == 86  # a full payout moves right


def test_peir_half_pay_keeps_half_and_pays_each_peir_share() -> None:
    game, record, index = game_until(SHORT, "830")  # the PEIR ran $30
    before = {p: game.cash(p) for p in game.order}
    peir = game.cash("PEIR")
    game.process(record.actions[index])
    held = {p: sum(1 for s in game.shares_of["PEIR"] if s.owner == p) for p in game.order}
    assert game.cash("PEIR") - peir == 15
    assert {p: game.cash(p) - before[p] for p in game.order} == {p: 3 * n for p, n in held.items()}


def test_exchanges_float_the_shortline_with_its_reserved_shares() -> None:
    game, _, _ = game_until(SHORT, "470")
    assert not game.corporations["Gt"].floated  # president 20% + MC's exchange 10% + 20% still reserved
    game, _, _ = game_until(SHORT, "480")
    assert game.corporations["Gt"].floated and game.cash("Gt") == 860


def bankrupt_record(change: dict[int, object]) -> tuple:
    path = next(p for p in fixture_params("1871") if p.values[0] is not None and "bankrupt" in str(p.values[0])).values[0]
    data = json.loads(path.read_text())
    for action in data["actions"]:
        if action["id"] in change:
            fields = change[action["id"]]
            action.update(fields if isinstance(fields, dict) else {"choice": fields})
    flags = replay_record(read_export(data), keep_going=True).flags
    return flags[0].rule, flags[0].action_id


@pytest.mark.skipif(not any(p.values[0] for p in fixture_params("1871")), reason="no shared 1871 fixtures")
@pytest.mark.parametrize(("change", "rule", "action_id"), [
    ({300: "So"}, f"{T}/6.7.4-split-branch", "300"),  # a started company is no branch
    ({303: 99999}, f"{T}/6.7.4-split-assets", "303"),  # more cash than the parent has
    ({301: "80,3,1"}, f"{T}/6.7.2-par-value", "301"),  # 80 is gone after the first 5H
    ({303: {"choice_range": [0, 1]}}, f"{T}/6.7.4-split-assets", "303"),  # not the parent's cash
    ({300: {"choice_range": [0, 100]}}, f"{T}/6.7.4-split-assets", "300"),  # only the cash answer has one
])
def test_a_changed_split_answer_is_flagged(change: dict[int, object], rule: str, action_id: str) -> None:
    assert bankrupt_record(change) == (rule, action_id)


def test_the_peir_need_not_own_a_train() -> None:
    game, _, _ = game_until(SHORT, "600")
    game.process(Action("pass", corp("PEIR"), 600, 0, {}))  # the other companies would have to buy one
    assert game.round.label == "SR 2"  # the PEIR operates last: its turn and the round are over


def test_a_4_plus_stays_with_its_company_after_the_first_diesel() -> None:
    def diesel_phase(game: Game) -> None:
        game.trains["4+-0"].owner = "Gt"
        game.phase_index = [p.name for p in game.title.phases].index("D")
        assert game.title.rusts_later(game, game.trains["4+-0"])  # it never ran: obsolete, not rusted
    purchase = Action("buy_train", corp("C"), 520, 0, {"train": "4+-0", "price": 1})
    assert process_at("520", purchase, diesel_phase).rule_id == f"{T}/7.6-train-source"


def test_a_company_at_400_pays_40_dollars_a_share_more() -> None:
    game, record, index = game_until(SHORT, "740")  # Gt pays out $60
    top = game.market.cell(0, 14)
    assert top is not None and top.price == 400
    game.market.place("Gt", top)
    before = {who: game.cash(who) for who in ("Ada", "Cugnot", -1, "Gt")}
    game.process(record.actions[index])
    paid = {who: game.cash(who) - before[who] for who in before}
    assert paid == {"Ada": 2 * 46, "Cugnot": 4 * 46, -1: 46, "Gt": 3 * 46}  # ($60 + 10 x $40) / 10 a share
    assert game.share_price("Gt") == 400


def test_a_discard_only_over_the_limit_and_the_train_leaves_the_game() -> None:
    discard = Action("discard_train", corp("C"), 790, 0, {"train": "2H-0"})
    assert process_at("790", discard, lambda g: None).rule_id == f"{T}/7.6.1-train-discard"
    game, _, index = game_until(SHORT, "790")
    with game.changing():  # edited by hand
        game.trains["3H-2"].owner = "C"
        game.phase_index = [p.name for p in game.title.phases].index("7")  # train limit 2
    game.index = index
    game.process(discard)
    assert game.trains["2H-0"].owner is None and game.trains["2H-0"].rusted


def short_of_cash(game: Game) -> None:
    game.corporations["C"].cash = 50


def test_a_company_sells_its_treasury_shares_before_its_president_helps() -> None:
    def with_treasury(game: Game) -> None:
        short_of_cash(game)
        game.move_share("C_4", "ipo")
    purchase = Action("buy_train", corp("C"), 520, 0, {"train": "2H-0", "price": 80, "variant": "2H"})
    assert process_at("520", purchase, with_treasury).rule_id == f"{T}/7.6.4-emr-treasury"


def union_bank_presiding_c(keep_shares: bool) -> tuple[Game, Action]:
    """C ($50) must buy a 2H ($80); the Union Bank ($20) presides it, Ada owns the bank ($100)."""
    game, record, index = game_until(SHORT, "520")
    with game.changing():  # edited by hand
        short_of_cash(game)
        game.move_share("C_0", -1)  # the Union Bank presides C
        game.players[-1].cash, game.players["Ada"].cash = 20, 100
        for share in [] if keep_shares else [s for s in game.shares.values() if s.owner == -1 and s.id != "C_0"]:
            game.move_share(share.id, "Cugnot")
    return game, record.actions[index]


def test_a_union_bank_president_pays_what_it_can_and_its_owner_the_rest() -> None:
    game, purchase = union_bank_presiding_c(keep_shares=False)
    game.process(purchase)  # C $50, the Union Bank $20, Ada $10
    assert (game.cash("C"), game.cash(-1), game.cash("Ada")) == (0, 0, 90)


def test_a_union_bank_president_sells_what_it_may_before_its_owner_pays() -> None:
    """15: the UB spends all it has first (REF: the owner pays only once the bank's liquidity is its cash)."""
    game, purchase = union_bank_presiding_c(keep_shares=True)
    sales = [a for a in game.legal_actions() if a.type == "sell_shares" and a.entity == Entity("player", -1)]
    assert sales
    with pytest.raises(IllegalAction) as refused:
        game.process(purchase)
    assert refused.value.rule_id == f"{T}/7.6.4-forced-purchase" and "Union Bank has $20" in refused.value.message


def test_a_bankrupt_president_raises_nothing_more_from_a_company_he_sold_for_the_purchase() -> None:
    """REF MUST_SELL_IN_BLOCKS holds for a bankruptcy too: what the president may still raise, and
    what he sells on going bankrupt, leave out a company he already sold shares of for this purchase."""
    game, _, _ = game_until(SHORT, "520")
    step = next(s for s in game.round.steps if isinstance(s, Bankrupt1871))
    before = step.buying_power("Brunel")
    held = game.percent("Brunel", "C")
    with game.changing():  # edited by hand: Brunel sold C shares for C's train already
        game.round.turn.emergency_sold.append("C")
    assert before - step.buying_power("Brunel") == game.share_price("C")  # the 10% C he could have sold
    with game.changing():
        step.liquidate("Brunel")
    assert game.percent("Brunel", "C") == held


def union_bank_par(owner: str) -> Action:
    return Action("par", player(owner), 670, 0, {"corporation": "So", "share_price": "58,6,1", "purchase_for": -1,
                                                 "purchase_for_type": "player", "borrow_from": owner,
                                                 "borrow_from_type": "player"})


def test_the_union_bank_starts_a_company_only_when_its_owner_could() -> None:
    """18xx.games offers a start, also one for the Union Bank, only to a player who could start a
    company himself (a bot's game started one for the bank with its owner penniless)."""
    game, _, _ = game_until(SHORT, "670")  # Brunel's turn; So may be started
    with game.changing():  # edited by hand: Brunel owns the Union Bank, which has the money
        game.companies["UB"].owner = "Brunel"
        game.round.union_bank_acted = False
        game.players[-1].cash = 500
    assert game.is_legal(union_bank_par("Brunel"))
    with game.changing():
        game.players["Brunel"].cash = 0
    with pytest.raises(IllegalAction) as caught:
        game.check(union_bank_par("Brunel"))
    assert caught.value.rule_id == f"{T}/6.8-union-bank"


def test_the_union_bank_owner_keeps_his_turn_while_the_bank_could_buy() -> None:
    """18xx.games counts the Union Bank's cash in its owner's purchases even after the bank bought
    this round, so the turn waits for his pass though he cannot pay for anything himself."""
    game, _, _ = game_until(SHORT, "680")  # Ada's turn; the Union Bank bought Gt_2 at 640
    with game.changing():  # edited by hand: Ada is penniless with nothing to sell, the bank is rich
        game.players["Ada"].cash = 0
        game.players[-1].cash = 500
        for share in [s for s in game.shares.values() if s.owner == "Ada" and s.corporation in ("Gt", "C")]:
            game.move_share(share.id, "Cugnot")
    offered = list(game.legal_actions())
    assert game.round.current == player("Ada")
    assert not [a for a in offered if a.type == "buy_shares" and a.entity == player("Ada")]
    assert game.is_legal(Action("pass", player("Ada"), 680, 0, {}))


def test_the_pools_branch_shares_exchanged_in_a_split_go_to_the_end_of_its_order() -> None:
    """Found by ``make crosscheck`` in a game 18xx.games' own engine played (refplay seed 300001):
    when the Southern splits off SB, the bank pool gives its parent shares for SB shares as the
    players do, and 18xx.games moves the branch shares it takes, the pool's first (SB_1, SB_2),
    to the end of the pool's order. So when Player 3 later sells SB's president's certificate
    keeping 10% of it (action 302), the share he takes back from the pool is its first, SB_8, and
    SB_1 is left for Player 2 to buy (action 304); with the pool in charter order he took SB_1
    and that purchase was refused."""
    record = notation.read((Path(__file__).parent / "reference_games" / "1871-split-pool-order.rln").read_text())
    game = Game.from_record(record)
    for action in record.actions:
        game.process(action)
        if action.id == 302:
            assert {s.id: s.owner for s in game.shares_of["SB"] if s.id in ("SB_1", "SB_8")} == {"SB_1": "market", "SB_8": 3}
    replay = replay_record(record, keep_going=True)
    assert not replay.flags and replay.matches_record
