"""The legal-action generator: what it offers is legal, what the records did was offered, and
its counts at every position stay what tests/perft.json says (an 18xx perft)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from railledger.replay import network
from railledger.replay.game import Game
from railledger.replay.memo import Memo
from railledger.replay.moves import move_key
from railledger.replay.steps.track import Track, TrackLaying
from railledger.replay.steps.trains import Bankrupt
from tests.conftest import fixture_params
from tests.perft import COUNTS, TEST_GAMES, name_of, played, positions, record_of

UNOFFERED = ("run_routes", "end_game")
"""A run is offered as its step (any routes may be declared); the players may end a game any time."""

PATHS = [pytest.param(p, id=p.stem) for p in TEST_GAMES] + fixture_params()


@pytest.mark.parametrize("path", PATHS)
def test_every_recorded_action_is_legal_offered_and_counted(path: Path) -> None:
    record = record_of(path)
    stored = json.loads(COUNTS.read_text())[name_of(path)]
    found = []
    for index, game in positions(record):
        action = record.actions[index]
        offered = list(game.legal_actions())
        found.append(len(offered))
        assert game.is_legal(action), f"#{index} {action.label} {action.type} is refused"
        assert all(game.is_legal(a) for a in offered), f"#{index}: an offered action is refused"
        if not action.is_program and action.type not in UNOFFERED:
            assert move_key(game, action) in {move_key(game, a) for a in offered}, f"#{index} {action.label} {action.type} was not offered"
    assert found == stored, "legal action counts changed: review, then rewrite tests/perft.json with python -m tests.perft"


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in TEST_GAMES])
def test_every_offered_action_can_be_played(path: Path) -> None:
    """Applying any offered action (every third position of the test games) raises nothing."""
    record = record_of(path)
    for index, game in positions(record):
        if index % 3:
            continue
        for action in game.legal_actions():
            copy.deepcopy(game).process(action)


def test_a_generated_action_names_a_concrete_move() -> None:
    record = record_of(TEST_GAMES[0])
    _, game = next(positions(record))
    offered = list(game.legal_actions())
    assert offered and all(a.id == 0 and a.entity.kind in ("player", "corporation", "company") for a in offered)


def forgetful(game: Game) -> Game:
    """A copy of the game that remembers nothing it was asked."""
    twin = copy.deepcopy(game)
    twin.memo = Memo()
    for step in twin.round.steps:
        step.memo = Memo()
    return twin


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in TEST_GAMES])
def test_remembered_answers_are_the_answers(path: Path) -> None:
    """What steps and the game remember between actions (replay.memo) never changes an answer:
    at every position, a copy that remembers nothing offers the same actions and judges the
    recorded one the same way."""
    record = record_of(path)
    for index, game in positions(record):
        action = record.actions[index]
        twin = forgetful(game)
        assert twin.is_legal(action) == game.is_legal(action), f"#{index} {action.label}"
        assert [move_key(twin, a) for a in twin.legal_actions()] == [move_key(game, a) for a in game.legal_actions()], f"#{index}"


SELFPLAY_GAMES = sorted((Path(__file__).resolve().parent / "selfplay_games").glob("*.rln"))


@pytest.mark.parametrize("path", [*(pytest.param(p, id=p.stem) for p in [*TEST_GAMES, *SELFPLAY_GAMES]),
                                  *fixture_params()])
def test_every_remembered_answer_is_the_answer_at_that_moment(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A round handing the turn on asks between its own changes and keeps the answers until the
    next change (replay.state.GameState.changing). A change made outside such a block would leave
    a stale answer: here every answer given from memory is asked afresh and must be equal, after
    every action of the record (the refused one too, for the bots' records that end in one)."""
    recall = Memo.recall
    stale: list[str] = []

    def checked(memo: Memo, game: object, question: object, answer: object, *arguments: object) -> object:
        known: object = recall(memo, game, question, answer, *arguments)  # type: ignore[arg-type]
        fresh = answer(*arguments)  # type: ignore[operator]
        if fresh != known:
            stale.append(f"{question!r}: remembered {known!r}, now {fresh!r}")
        return known

    monkeypatch.setattr(Memo, "recall", checked)
    for action, _ in played(record_of(path)):
        assert not stale, f"before {action.label}: {stale[0]}"
    assert not stale


@pytest.mark.parametrize("path", [*(pytest.param(p, id=p.stem) for p in [*TEST_GAMES, *SELFPLAY_GAMES]),
                                  *fixture_params()])
def test_a_reach_kept_across_changes_is_a_fresh_walk(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """fresh_network keeps a company's reach while no later tile or station touched the hexes
    its walk read, and the walk keeps each hex's paths as it reads them until another tile goes
    there: every answer is here compared with a walk of the board as it is, each path read
    afresh, at every moment of the record, and the kept answers must have been used."""
    kept_answers = 0
    original = network.fresh_network

    def checked(game: Game, corporation: str) -> network.Network:
        nonlocal kept_answers
        memo = game.graph.fresh.get(corporation)
        answer = original(game, corporation)
        if memo is not None and memo[0] != game.board.version and memo[1] is answer:
            kept_answers += 1
        kept_tracks, game.graph.tracks = game.graph.tracks, {}  # the board's paths read afresh too
        walked = network._Walk(game, corporation).network()
        game.graph.tracks = kept_tracks
        assert answer == walked, f"{corporation} at #{game.index}: kept reach differs from the board's"
        return answer

    monkeypatch.setattr(network, "fresh_network", checked)
    record = record_of(path)
    for _ in played(record):
        pass
    if any(a.type == "lay_tile" for a in record.actions[:200]) and len(record.actions) > 200:
        assert kept_answers, "no reach was kept across a change"


@pytest.mark.parametrize("path", [*(pytest.param(p, id=p.stem) for p in [*TEST_GAMES, *SELFPLAY_GAMES]),
                                  *fixture_params()])
def test_the_bankruptcy_shortcut_is_the_buying_power_test(path: Path) -> None:
    """Bankrupt.can_go_bankrupt answers no, without weighing the president's bundles, when the
    company pays the cheapest bank train itself or with its president's cash: at every position
    of an operating turn it must equal the full test (buying power below the cheapest price),
    which some record must meet."""
    record = record_of(path)
    asked = 0
    for action, game in played(record):
        for step in game.round.steps:
            if not isinstance(step, Bankrupt) or step.passed or game.round.current is None or game.finished:
                continue
            president, cheapest = step.president(), step.cheapest_depot_price()
            full = president is not None and cheapest is not None and step.buying_power(president) < cheapest
            assert step.can_go_bankrupt() == full, f"before {action.label}"
            asked += 1
    assert asked or record.title == "18MS"  # 18MS has no bankruptcy step


def test_a_memo_keeps_an_answer_for_one_moment_and_none_while_changing() -> None:
    class Clock:
        moment, mutating = 0, False

    clock, memo, asked = Clock(), Memo(), []

    def answer() -> int:
        asked.append(clock.moment)
        return len(asked)

    assert (memo.recall(clock, "q", answer), memo.recall(clock, "q", answer)) == (1, 1)
    clock.moment = 1
    assert memo.recall(clock, "q", answer) == 2
    clock.mutating = True
    assert (memo.recall(clock, "q", answer), memo.recall(clock, "q", answer)) == (3, 4)
    assert asked == [0, 1, 1, 1]


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in TEST_GAMES])
def test_lays_skipped_unchecked_are_lays_the_check_refuses(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Listing tile lays skips, without the full check, hexes where the turn's next lay may not
    go and rotations whose track leaves the hex's open sides or misses the network (of the
    company's own lays, and of a private's that must connect): at every position, listing every
    hex and rotation and checking each offers the same actions."""
    record = record_of(path)
    listed = [[repr(a) for a in game.legal_actions()] for _, game in positions(record)]
    monkeypatch.setattr(TrackLaying, "worth_checking", staticmethod(lambda edges, open_edges, joining: True))
    for step in (TrackLaying, Track):
        monkeypatch.setattr(step, "lays_open_on", lambda step, hex_id: True)
    unskipped = [[repr(a) for a in game.legal_actions()] for _, game in positions(record)]
    assert unskipped == listed
    assert any("lay_tile" in action for actions in listed for action in actions), "the game lays no tile"


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in TEST_GAMES])
def test_whether_a_step_offers_anything_is_whether_its_offers_are_empty(path: Path) -> None:
    """A stock turn lists its actions once ``offers_any`` (what the waiting test asks, kind by
    kind) says it offers something, and reads each kind from the same answers: at every
    position, for every open step and the entity on turn, ``offers_any`` must be ``offers``
    not empty and ``offers_kind`` each kind's membership in it."""
    asked = 0
    for index, game in positions(record_of(path)):
        current = game.round.current
        for step in game.round.steps:
            if step.passed or current is None:
                continue
            offered = step.offers(current)
            assert step.offers_any(current) == bool(offered), f"#{index} {type(step).__name__}"
            for kind in offered:
                assert step.offers_kind(current, kind), f"#{index} {type(step).__name__} {kind}"
            asked += 1
    assert asked
