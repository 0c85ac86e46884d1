"""Actions in sentences (replay.sentences): every action of every test game and shared record
reads as a player writes it, states the money the engine moves, and the hand-checked sentences
of tests/sentences_golden.json (every action type of every title) stay as they were checked."""

from __future__ import annotations

import dataclasses
import json
import math
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from railledger.ingest import notation
from railledger.ingest.action_types import GAME_ACTION_TYPES
from railledger.ingest.model import Action, Entity, Player, Record
from railledger.ingest.sources import DEFAULT_MAX_SIZE, read_record
from railledger.ingest.titles import PLAYER_COUNTS
from railledger.replay import Game, IllegalAction, replay_record
from railledger.replay.rounds.operating import OperatingRound
from railledger.replay.names import entity_name
from railledger.replay.sentences import _by_kind, _Telling, describe, group_offers, is_move, narrate
from railledger.replay.titles import SUPPORTED, title_named
from tests.conftest import REPO, fixture_params
from tests.mutations import edited

TESTS = REPO / "tests"
GAMES = sorted([*(TESTS / "games").glob("*.rln"), *(TESTS / "selfplay_games").glob("*.rln"),
                *(TESTS / "reference_games").glob("*.rln"), *(TESTS / "sentence_games").glob("*.rln"),
                *(REPO / "examples").glob("*.rln")])
RECORDS = [pytest.param(p, id=p.stem) for p in GAMES] + fixture_params()
GOLDEN = TESTS / "sentences_golden.json"

NOTATION = re.compile(r":=|=|@")
COPY_ID = re.compile(r"(?<![\w-])\d+[A-Za-z+]*-\d+(?![\w])")  # a tile or train copy (57-0, 2+-1), a city (619-0-0)
TYPE_NAMES = [name for name in GAME_ACTION_TYPES if "_" in name] + ["program_"]


def actions_with_games(record: Record) -> Iterator[tuple[Action, Game, bool]]:
    """Each action with the game before it and whether the engine takes it (a refused one leaves
    the game as it was, as ``replay --keep-going`` goes on)."""
    game = Game.from_record(record)
    for action in record.actions:
        yield action, game, game.is_legal(action) if not action.is_program else True
        try:
            game.process(action)
        except IllegalAction:
            pass


def names_in(game: Game) -> list[str]:
    """What a sentence may name that could look like notation: the record's players and the
    title's privates (a name is the table's own)."""
    return [p.name for p in game.players.values()] + [c.name for c in game.companies.values()]


@pytest.mark.parametrize("path", RECORDS)
def test_every_action_reads_as_a_sentence(path: Path) -> None:
    """No notation syntax, no type name, no copy id and no player id where a name exists; the
    subject is who acts (a private's action is its company's); a legal action is never said by
    its kind alone (its speaker read every field)."""
    record = read_record(str(path), DEFAULT_MAX_SIZE)
    long_ids = {str(p.id) for p in record.players if len(str(p.id)) >= 3}  # 18xx.games user ids
    for action, game, legal in actions_with_games(record):
        said = describe(game, action)
        where = f"{path.name} action {action.label}: {said.text!r}"
        text = said.text
        for name in names_in(game):
            text = text.replace(name, "")
        assert not NOTATION.search(text), where
        assert not any(t in text for t in TYPE_NAMES) and "_" not in text, where
        assert not COPY_ID.search(text), where
        assert not long_ids & set(re.findall(r"\d+", text)), where
        if action.entity.kind == "player":
            assert said.text.startswith(game.player_name(action.entity.id)), where
        elif action.entity.kind == "corporation":
            assert said.text.startswith(str(action.entity.id)), where
        elif not action.is_program:
            assert game.companies[str(action.entity.id)].name in said.text, where
        if legal and action.type not in ("pass", "end_game") and not action.is_program:  # those say no more than their kind
            assert said.text != _by_kind(_Telling(game, action, None, False)).text, where
        assert said.headline and len(said.headline) <= len(said.text), where


def payments(game: Game) -> list[tuple[object, object, int]]:
    """Every payment the game makes from now on (payer, payee, amount; None the bank)."""
    made: list[tuple[object, object, int]] = []
    pay = game.pay

    def recording(payer: object, payee: object, amount: int) -> None:
        made.append((payer, payee, amount))
        pay(payer, payee, amount)  # type: ignore[arg-type]

    game.pay = recording  # type: ignore[method-assign]
    return made


def moved_by(action: Action, operating: str | None, made: list[tuple[object, object, int]]) -> int | None:
    """The money the action itself moves, as the sentence should state it: what its buyer pays
    (for a Union Bank purchase, the bank and its owner together), what its seller receives, what
    the operating company pays for a lay, a token, a private or a Hunslet train. None: a type
    whose amount a sentence does not state as paid (a bid, a run, a train's declared price)."""
    entity = action.entity.id
    if action.type in ("buy_shares", "par"):
        payers = {entity, -1} if action.fields.get("purchase_for") == -1 else {entity}
        return sum(amount for payer, payee, amount in made if payer in payers and payee not in payers)
    if action.type == "sell_shares":
        return next((amount for _, payee, amount in made if payee == entity), 0)
    if action.type in ("lay_tile", "place_token", "purchase_train", "buy_company"):
        return next((amount for payer, _, amount in made if payer == operating), 0)
    return None


@pytest.mark.parametrize("path", RECORDS)
def test_every_amount_a_sentence_states_is_the_money_the_action_moves(path: Path) -> None:
    """A sentence says what the action costs or brings its actor, read from the game before it;
    the replay then moves exactly that (bonuses and the next round's opening aside, which the
    payments after the action's own come to)."""
    record = read_record(str(path), DEFAULT_MAX_SIZE)
    game = Game.from_record(record)
    made = payments(game)
    for action in record.actions:
        said = describe(game, action).text
        operating = game.round.corporation if isinstance(game.round, OperatingRound) else None
        made.clear()
        try:
            game.process(action)
        except IllegalAction:
            continue
        moved = moved_by(action, operating, made)
        if moved is None:
            continue
        stated = [int(x) for x in re.findall(r"\$(\d+)(?![\d.])", said)]
        if moved:
            assert moved in stated, f"{path.name} action {action.label}: {said!r}, but {moved} moved"
        else:
            assert not re.search(r"for \$[1-9]", said), f"{path.name} action {action.label}: {said!r}, but nothing moved"


@pytest.mark.parametrize("path", RECORDS)
def test_a_payout_states_what_each_share_gets(path: Path) -> None:
    """``$11 a share``: a holder of n 10% shares (n PEIR shares) gets n times it, rounded up."""
    record = read_record(str(path), DEFAULT_MAX_SIZE)
    game = Game.from_record(record)
    made = payments(game)
    for action in record.actions:
        said = describe(game, action).text
        holdings = {pid: [s for s in game.shares.values() if s.owner == pid and s.corporation == action.entity.id]
                    for pid in game.order}
        made.clear()
        try:
            game.process(action)
        except IllegalAction:
            continue
        each = re.search(r"\$([\d.]+) a share", said)
        if action.type != "dividend" or each is None:
            continue
        per_share = float(each.group(1))
        for pid, shares in holdings.items():
            if not shares:
                continue
            paid = [amount for payer, payee, amount in made if payer is None and payee == pid]
            if action.entity.id == "PEIR":  # each PEIR share is paid on its own
                got, due = sum(paid[:len(shares)]), len(shares) * per_share
            else:  # the holder's first payment (a private's revenue may follow, in the next round)
                got, due = paid[0], math.ceil(sum(s.percent for s in shares) / 10 * per_share)
            assert got == due, f"{path.name} action {action.label}: {said!r}; {pid} got {got}"


def title_action_types(title: str) -> set[str]:
    """Every action type a title's engine takes: its steps' handlers in each kind of round
    (the opening round, a stock round, an operating round), and the players' end of a game."""
    rules = title_named(title)
    game = Game.start(title, [Player(seat, f"P{seat}") for seat in range(1, min(PLAYER_COUNTS[title]) + 1)], seed=1)
    types = {"end_game"}
    for round_ in (game.round, rules.stock_round(game), rules.operating_round(game, 1)):
        for step in round_.steps:
            types.update(name[3:] for name in dir(step) if name.startswith("do_") and (name != "do_pass" or step.can_pass))
    return types


def golden_cases() -> list:
    cases = json.loads(GOLDEN.read_text(encoding="utf-8"))["sentences"]
    return [pytest.param(case, id=f"{case['title']}-{case['type']}-{case['action']}") for case in cases]


def golden_record(case: dict) -> Record:
    """The case's record, with a hand-written action put in after one of its actions where the
    case says so (an action no test game holds, said at a position that has what it names)."""
    path = REPO / case["record"]
    if not path.exists():
        pytest.skip(f"{case['record']} is not here (a shared record: set RAILLEDGER_FIXTURES)")
    if "insert_after" not in case:
        return read_record(str(path), DEFAULT_MAX_SIZE)
    return notation.read(edited(path.read_text(encoding="utf-8"), case["insert_after"], insert=case["line"]))


@pytest.mark.parametrize("case", golden_cases())
def test_the_hand_checked_sentences_stay_as_checked(case: dict) -> None:
    record = golden_record(case)
    assert record.title == case["title"]
    said = {line.action_id: line for line in narrate(record)}[case["action"]]
    assert said.text == case["sentence"], case["checked"]
    assert next(a for a in record.actions if a.label == case["action"]).type == case["type"]


def test_the_golden_file_holds_every_action_type_of_every_title() -> None:
    cases = json.loads(GOLDEN.read_text(encoding="utf-8"))["sentences"]
    for title in sorted(SUPPORTED):
        held = {case["type"] for case in cases if case["title"] == title}
        missing = title_action_types(title) - held
        assert not missing, f"{title}: no hand-checked sentence of {sorted(missing)}"
        assert all(case["checked"].strip() for case in cases), "every case says how it was checked"


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in GAMES if p.parent.name == "games"])
def test_the_legal_actions_group_by_kind_with_the_move_made_marked_once(path: Path) -> None:
    """At every tenth position of the short games: each group's lines differ, every legal action
    is in one line, the recorded action is the one marked (it is legal: the games are)."""
    record = read_record(str(path), DEFAULT_MAX_SIZE)
    game = Game.from_record(record)
    for index, action in enumerate(record.actions):
        if index % 10 == 0:
            offered = list(game.legal_actions())
            groups = group_offers(game, offered, action)
            lines = [offer for group in groups for offer in group.offers]
            assert sum(len(offer.actions) for offer in lines) == len(offered)
            for group in groups:
                assert len({offer.text for offer in group.offers}) == len(group.offers)
                assert group.title.startswith(f"{len(group.offers)} ")
            marked = [offer for offer in lines if offer.made]
            assert len(marked) == 1, f"{path.name} action {action.label}: marked {[o.text for o in marked]}"
            assert any(is_move(game, a, action) for a in marked[0].actions) or marked[0].text == describe(game, action).text
        game.process(action)


def test_an_action_that_names_nothing_in_the_game_is_still_said() -> None:
    """Fields of the wrong shape, a certificate, train, hex or private the game does not have:
    the sentence says what the action is by its kind, and says it without failing."""
    record = read_record(str(GAMES[0]), DEFAULT_MAX_SIZE)
    game = Game.from_record(record)
    odd = [("buy_shares", {"shares": ["GMO_99"]}), ("buy_shares", {"shares": "GMO_1"}), ("lay_tile", {"hex": 7}),
           ("place_token", {"city": "nowhere-0-0"}), ("run_routes", {"routes": [{"train": "9-9"}]}),
           ("buy_train", {"train": "none"}), ("bid", {"company": "XX", "price": "lots"}), ("choose", {"choice": [1]}),
           ("par", {"corporation": "GMO", "share_price": "x"}), ("teleport", {})]
    for kind, fields in odd:
        said = describe(game, Action(kind, Entity("player", record.players[0].id), 1, 0, fields))
        assert said.text.startswith(record.players[0].name) and said.text.strip() != record.players[0].name


JUNK = (None, 0, -1, 10**9, "", "x", "57-0", "GMO_1", [], ["GMO_99"], [1, 2], {}, {"a": 1}, True, 1.5,
        [{"train": "2+-0", "connections": [["A1"]]}], [{"train": 5}], ["x", None])
"""Values of the wrong kind or naming nothing, for any field."""


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in GAMES if p.parent.name == "games"])
def test_no_field_of_any_shape_makes_a_sentence_fail(path: Path) -> None:
    """At every fourth position of the short games, actions with one field (known to some type)
    replaced by a value of the wrong kind, some by an entity the game does not have: each is said,
    as a record's action and as an offered one, and names who acts."""
    chosen = random.Random(path.stem)
    record = read_record(str(path), DEFAULT_MAX_SIZE)
    names = ["shares", "hex", "tile", "rotation", "city", "train", "routes", "company", "price", "kind", "choice",
             "corporation", "share_price", "purchase_for", "price_range", "choice_range", "variant"]
    strangers = [Entity("player", 99999), Entity("corporation", "ZZ"), Entity("company", "QQ")]
    for action, game, _ in actions_with_games(record):
        if action.id % 4:
            continue
        for name in names:
            entity = action.entity if chosen.random() < 0.7 else chosen.choice(strangers)
            odd = dataclasses.replace(action, entity=entity, fields={**action.fields, name: chosen.choice(JUNK)})
            for offered in (False, True):
                said = describe(game, odd, offered)
                assert said.text.startswith(entity_name(game, entity)) or entity.kind == "company", said.text


def test_a_run_whose_routes_are_not_a_list_is_flagged_and_said_without_a_crash() -> None:
    """Found by tests/test_transactional.py's random insertions: a run whose routes field is a
    string, recorded while its company lays track, reached the run step's own check when its
    flag was put in words (and that check reads each route as a mapping)."""
    record = notation.read((TESTS / "games" / "18texas-short.rln").read_text())
    at = next(n for n, a in enumerate(record.actions) if a.type == "lay_tile" and a.entity.kind == "corporation")
    broken = Action("run_routes", record.actions[at].entity, record.actions[at].id, 0, {"routes": "zz"})
    damaged = dataclasses.replace(record, actions=(*record.actions[:at], broken, *record.actions[at:]))
    replay = replay_record(damaged, keep_going=True)
    assert replay.flags[0].index == at and replay.flags[0].rule.endswith("action-malformed")
    assert replay.flags[0].sentence
