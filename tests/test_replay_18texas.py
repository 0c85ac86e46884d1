"""The 18Texas engine: real games replay to their recorded scores, the Jay Gould draw matches
18xx.games, and every rule it enforces has a test that breaks it (rule id and action index)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from railledger.ingest import notation
from railledger.ingest.export import read_export
from railledger.ingest.model import Action, Entity, Player
from railledger.replay import Game, IllegalAction, replay_record
from railledger.replay.network import fresh_network, network_of
from tests.conftest import fixture_params
from tests.mutations import assert_flagged, distinct_rules, game_until, illegal_at, mutation_params, player

SHORT = (Path(__file__).resolve().parent / "games" / "18texas-short.rln").read_text()
TEXAS = __import__("importlib").import_module("railledger.replay.titles.g18texas")


@pytest.mark.parametrize("path", fixture_params("18Texas"))
def test_recorded_games_replay_to_their_recorded_scores(path: Path) -> None:
    record = read_export(json.loads(path.read_text()))
    outcome = replay_record(record)
    assert outcome.flags == []
    assert outcome.result == dict(record.result or {})


@pytest.mark.parametrize(("seed", "game_id", "company"), [
    (65394, None, "MP"),  # the online fixture's seed
    (None, "hs_hqrmcntr_1641188459", "T&P"),  # a hotseat game: the digits of its id
    (1, None, "T&P"), (2, None, "MKT"), (3, None, "SSW"),
])
def test_jay_gould_company_is_drawn_as_18xx_games_draws_it(seed: int | None, game_id: str | None, company: str) -> None:
    players = [Player(n, f"P{n}") for n in (1, 2, 3)]
    assert TEXAS.EighteenTexas().state(Game.start("18Texas", players, seed=seed, game_id=game_id)).jay_gould == company


def test_the_short_game_is_legal() -> None:
    outcome = replay_record(__import__("railledger.ingest.notation", fromlist=["read"]).read(SHORT), snapshots=True)
    assert outcome.flags == []
    corps = dict(outcome.snapshots[-1].corporations)
    # T&P: float at 4 certificates, $140 token fee, price up one; a half dividend; an issue at $90.
    assert (corps["T&P"].price, corps["T&P"].trains) == (82, ("2", "2", "3"))
    assert [e.subject for e in outcome.events if e.kind == "phase"] == ["3"]


MUTATIONS = [
    ("bid out of turn", (20, "20 p3 bid GRRRC 80"), "18Texas/10-auction-order", "20"),
    ("bid below face value", (10, "10 p1 bid BBBCRC 45"), "18Texas/10-auction-bid", "10"),
    ("bid not a multiple of $5", (10, "10 p1 bid BBBCRC 52"), "18Texas/10-auction-bid", "10"),
    ("bid on a private not in a 3-player game", (10, "10 p1 bid IGN 210"), "18Texas/10-auction-company", "10"),
    ("bid more than one has", (30, "30 p3 bid JG 600"), "18Texas/11.2-cash", "30"),
    ("par another company for Jay Gould", (40, "40 p3 par MP 100,2,4"), "18Texas/10-jay-gould-par", "40"),
    ("someone else acts before the Jay Gould par", (40, "40 p1 par MP 75,4,3"), "18Texas/10-jay-gould-par", "40"),
    ("Jay Gould par off the pink squares", (40, "40 p3 par T&P 110,1,4"), "18Texas/4-par-value", "40"),
    ("stock turn out of order", (50, "50 p2 par SAA 70,4,2"), "18Texas/11-turn-order", "50"),
    ("par a company twice", (60, "60 p2 par MP 75,4,3"), "18Texas/11.2-par", "60"),
    ("buy before the president's certificate", (70, "70 p3 buy_shares SSW_1 10"), "18Texas/11.2-buy-unparred", "70"),
    ("buy a certificate a player holds", (70, "70 p3 buy_shares MP_0 10"), "18Texas/11.2-buy-source", "70"),
    ("two purchases in one turn", (70, None, "75 p3 buy_shares T&P_2 10"), "18Texas/11-turn-order", "75"),
    ("sell before the company operated", (160, "160 p1 sell_shares MP_1 10"), "18Texas/11.1-sell-after-operate", "160"),
    ("sell after buying", (340, None, "345 p1 sell_shares MP_2 10"), "18Texas/11-turn-order", "345"),
    ("buy back after selling", (320, "320 p3 buy_shares T&P_4 10"), "18Texas/11.2-buy-after-sale", "320"),
    ("sell another player's certificate", (330, "330 p1 sell_shares SAA_1 10"), "18Texas/11.1-sell-own", "330"),
    ("sell the president's certificate", (330, "330 p1 sell_shares MP_0 20"), "18Texas/11.1-president-sale", "330"),
    ("buy without the cash", (360, "360 p3 buy_shares SAA_5 10"), "18Texas/11.2-cash", "360"),
    ("a company operates before its turn", (170, "170 MP lay_tile G10 57-0 2"), "18Texas/12-operating-order", "170"),
    ("first tile away from an empty home", (220, "220 MP lay_tile F9 57-1 2"), "18Texas/12.2-tile-home-first", "220"),
    ("tile on Galveston", (170, "170 T&P lay_tile J15 9-0 0"), "18Texas/12.2-tile-hex", "170"),
    ("a tile copy that does not exist", (170, "170 T&P lay_tile C10 9-99 0"), "18Texas/12.2-tile-manifest", "170"),
    ("green tile in phase 2", (170, "170 T&P lay_tile C10 14-0 0"), "18Texas/9-tile-colour", "170"),
    ("city tile on a blank hex", (170, "170 T&P lay_tile C10 57-0 0"), "18Texas/12.2-tile-upgrade", "170"),
    ("tile away from the network", (170, "170 T&P lay_tile E6 9-0 0"), "18Texas/12.2-tile-connect", "170"),
    ("tile on a hex a private blocks", (170, "170 T&P lay_tile J13 9-0 0"), "18Texas/5-private-block", "170"),
    ("a private without a track ability", (170, "170 company:JG lay_tile C10 9-0 0"), "18Texas/5-company-ability", "170"),
    ("G&RRRC lays outside Houston", (500, "500 company:GRRRC lay_tile J5 511-0 0"), "18Texas/5-private-teleport", "500"),
    ("station in a city that does not exist", (180, "180 T&P place_token 99-0-0 0"), "18Texas/12.3-token-city", "180"),
    ("second station in the home city", (180, "180 T&P place_token D9-0-1 0"), "18Texas/12.3-token-twice", "180"),
    ("station without a route", (180, "180 T&P place_token G10-0-0 0"), "18Texas/12.3-token-reach", "180"),
    ("run another company's train", (400, "400 T&P run_routes [2-2 D9-C10-B11]"), "18Texas/12.4-route-train", "400"),
    ("run over missing track", (400, "400 T&P run_routes [2-0 D9-C8]"), "18Texas/12.1-route-track", "400"),
    ("revisit a city", (400, "400 T&P run_routes [2-0 D9-C10-B11 B11-C10-D9]"), "18Texas/12.1-route-revisit", "400"),
    ("two trains on one track", (400, "400 T&P run_routes [2-0 D9-C10-B11] [2-1 D9-C10-B11]"), "18Texas/12.1-route-reuse", "400"),
    ("a 2-train to three cities", (400, "400 T&P run_routes [2-0 B11-C10-D9 D9]"), "18Texas/12.4-route-length", "400"),
    ("inflated revenue", (400, "400 T&P run_routes [2-0 D9-C10-B11 $50] [2-1 D9]"), "18Texas/12.4-route-revenue", "400"),
    ("a dividend choice that does not exist", (410, "410 T&P dividend bonus"), "18Texas/12.5-dividend-kind", "410"),
    ("dividend without a run", (230, "230 MP dividend payout"), "18Texas/12.5-dividend-no-run", "230"),
    ("a 3-train while 2-trains remain", (190, "190 T&P buy_train 3-0 200"), "18Texas/12.6-train-order", "190"),
    ("a bank train below face value", (190, "190 T&P buy_train 2-0 90"), "18Texas/12.6-train-price", "190"),
    ("a train that does not exist", (190, "190 T&P buy_train 2-9 100"), "18Texas/12.6-train-unknown", "190"),
    ("end the turn without a train", (240, "240 MP pass"), "18Texas/12.6-must-buy-train", "240"),
    ("issue in the first operating turn", (210, "210 T&P sell_shares T&P_4 10"), "18Texas/12.7-issue-first-turn", "210"),
    ("issue and redeem in one turn", (440, None, "445 T&P buy_shares T&P_3 10"), "18Texas/12-operating-order", "445"),
    ("issue another company's share", (440, "440 T&P sell_shares MP_5 10"), "18Texas/12.7-issue-own", "440"),
    ("redeem a treasury share", (440, "440 T&P buy_shares T&P_5 10"), "18Texas/12.7-redeem-own", "440"),
    ("a company buys a private", (200, "200 T&P buy_company JG 200"), "18Texas/8-action-type", "200"),
    ("an action a round does not have", (410, "410 T&P choose choice:=\"x\""), "18Texas/8-action-type", "410"),
]


@pytest.mark.parametrize(("change", "rule", "label"), mutation_params(MUTATIONS))
def test_a_changed_action_is_flagged_with_its_rule_and_index(change: tuple | list, rule: str, label: str) -> None:
    assert_flagged(SHORT, change, rule, label)


def test_mutations_cover_many_distinct_rules() -> None:
    assert distinct_rules(MUTATIONS) >= 40


def process_at(label: str, action: Action, prepare) -> IllegalAction:  # type: ignore[no-untyped-def]
    return illegal_at(SHORT, label, action, prepare)


def test_sixty_percent_limit() -> None:
    def give(game: Game) -> None:
        for i in (1, 2, 3, 4):
            game.shares[f"T&P_{i}"].owner = "Cugnot"  # 60% with the president's certificate
        game.players["Cugnot"].cash = 500
    error = process_at("70", Action("buy_shares", player("Cugnot"), 70, 0, {"shares": ["T&P_5"], "percent": 10}), give)
    assert error.rule_id == "18Texas/11.2-ownership-limit"


def test_certificate_limit_of_15_with_three_players() -> None:
    def give(game: Game) -> None:
        free = [s for s in game.shares.values() if s.owner == "ipo" and s.corporation in ("SP", "SSW", "MKT")]
        for share in free[:11]:
            share.owner = "Ada"
        game.players["Ada"].cash = 500
    error = process_at("340", Action("buy_shares", player("Ada"), 340, 0, {"shares": ["SAA_4"], "percent": 10}), give)
    assert error.rule_id == "18Texas/11.1-cert-limit"


def test_half_dividend_rounds_the_payout_up_to_ten() -> None:
    game, record, index = game_until(SHORT, "410")
    before = {p: game.cash(p) for p in ("Ada", "Brunel", "Cugnot")}
    corp_cash = game.cash("T&P")
    game.process(record.actions[index])  # half of $70: $40 paid ($4 a share), $30 kept
    assert game.cash("Cugnot") - before["Cugnot"] == 4 * 4  # Cugnot holds 40%
    assert game.cash("T&P") - corp_cash == 30 + 4 * 5  # kept half and the 50% in its treasury
    assert game.share_price("T&P") == 90  # $40 paid is less than the $90 price: no move


def test_bankruptcy_ends_the_game_with_events() -> None:
    game, record, index = game_until(SHORT, "240")  # MP must buy a train
    president = game.president("MP")
    assert president is not None
    with game.changing():  # edited by hand
        game.corporations["MP"].cash = 0
        game.players[president].cash = 0
        for share in game.shares_of["MP"]:
            if share.owner == president and not share.president:
                share.owner = "ipo"  # nothing left to sell either
    game.process(Action("bankrupt", Entity("corporation", "MP"), 240, 0, {}))
    assert game.finished
    assert [(e.kind, e.subject) for e in game.events[-2:]] == [("bankruptcy", "MP"), ("game_end", "bankruptcy")]


def test_bankruptcy_is_refused_while_the_money_reaches_the_cheapest_bank_train() -> None:
    error = process_at("240", Action("bankrupt", Entity("corporation", "MP"), 240, 0, {}), lambda g: None)
    assert error.rule_id == "18Texas/12.6-bankruptcy"


def test_a_company_may_go_bankrupt_with_no_train_due() -> None:
    """18xx.games: short of the cheapest bank train, the company on turn may declare bankruptcy
    even when it need not buy one (here: a train of its own, and no money)."""
    game, record, index = game_until(SHORT, "240")
    president = game.president("MP")
    assert president is not None
    with game.changing():  # edited by hand: MP owns a 2-train, nobody has money or shares to sell
        game.trains["2-4"].owner = "MP"
        game.corporations["MP"].cash = 0
        game.players[president].cash = 0
        for share in game.shares_of["MP"]:
            if share.owner == president and not share.president:
                share.owner = "ipo"
    assert game.is_legal(Action("bankrupt", Entity("corporation", "MP"), 240, 0, {}))


def test_bankruptcy_before_the_train_step_counts_and_sells_no_shares() -> None:
    """18xx.games counts a president's shares as money for a bankruptcy, and sells them on it,
    only while the train step lets him sell: declared in the track step, cash alone counts."""
    game, _, index = game_until(SHORT, "450")  # MP's track step; Ada holds MP 40% and SAA 10%
    step = next(s for s in game.round.steps if type(s).__name__ == "Bankrupt")
    cheapest = step.cheapest_depot_price()
    assert cheapest is not None
    with game.changing():  # edited by hand: MP is broke and Ada a dollar short of the cheapest train
        game.corporations["MP"].cash = 0
        game.players["Ada"].cash = cheapest - 1
    game.process(Action("bankrupt", Entity("corporation", "MP"), 450, 0, {}))
    assert game.finished and game.percent("Ada", "SAA") == 10 and game.percent("Ada", "MP") == 40


def test_a_teleport_station_is_offered_only_in_the_turn_of_the_teleport() -> None:
    """A private's teleport lay made after the station step's place in a turn (during the run)
    leaves no station waiting in the next company's turn, as 18xx.games decided."""
    game, record, index = game_until(SHORT, "430")  # T&P's last step; MP operates next
    with game.changing():  # edited by hand: the GRRRC teleported after T&P's station steps
        game.title.state(game).teleported = "GRRRC"  # type: ignore[attr-defined]
        next(s for s in game.round.steps if s.name == "teleport station").passed = True
    for action in record.actions[index:]:
        game.process(action)  # the rest of T&P's turn and MP's first actions stay legal
        if action.entity.id == "MP":
            break
    assert game.title.state(game).teleported is None  # type: ignore[attr-defined]


def test_the_blocked_hexes_found_once_are_the_privates_blocks() -> None:
    """The track check reads each hex's blocking privates from an index made with the title
    (``hex_blockers``): it must name, in charter order, every private whose ``blocks_hexes``
    ability lists the hex, and nothing else."""
    title = TEXAS.EighteenTexas()
    scanned = {hex_id: tuple(spec.sym for spec in title.companies for ability in spec.abilities
                             if ability.type == "blocks_hexes" and hex_id in ability.get("hexes", ()))
               for hex_id in title.map}
    assert {hex_id: found for hex_id, found in scanned.items() if found} == title.hex_blockers
    assert title.hex_blockers, "18Texas has privates that block hexes"


def test_a_station_check_that_finds_no_city_keeps_the_reach_it_walked() -> None:
    """Found by ``make crosscheck`` in a game 18xx.games' own engine played (refplay seed 408101):
    18xx.games asks whether MKT may place a station by walking its whole network; finding no city
    to take, the walk ran to its end and 18xx.games keeps the reach it found until the next tile
    lay or station a step places. SSW's home station at its float (action 151) then filled the
    one slot of D15, through which MKT's track ran on to E16, and no step cleared the kept reach:
    MKT's lay on F15 (action 169) joins its network as 18xx.games saw it then."""
    record = notation.read((Path(__file__).parent / "reference_games" / "18texas-station-check-keeps-reach.rln").read_text())
    game = Game.from_record(record)
    for action in record.actions[:168]:
        game.process(action)
    assert game.board.tokens_in("D15", 0) == ["SSW"]
    assert ("F15", 3) in network_of(game, "MKT").sides and ("F15", 3) not in fresh_network(game, "MKT").sides
    replay = replay_record(record, keep_going=True)
    assert not replay.flags and replay.matches_record
