"""The undo journal (replay.journal): ``pop`` after ``push`` leaves the game exactly as a fresh
replay to that position has it (round and steps included), at every position of the test games
and shared records, and popping every action back to the start passes through every position
again; a copy is independent of its original, plays on as it would, and pops what was pushed to it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from railledger.bench.search import applied_actions
from railledger.replay import Game
from railledger.replay.snapshot import take_snapshot
from tests.conftest import fixture_params
from tests.perft import record_of
from tests.regression_gate import action_key, canonical, recorded_games, state_of

COPY_EVERY = 5
"""A copy is made, pushed to and popped at every fifth position."""

PATHS = [pytest.param(p, id=f"{p.parent.name}/{p.stem}") for p in recorded_games()] + fixture_params()


LINKS = frozenset({"game", "round", "steps", "memo"})
"""A round's or step's links and memo of answers, not its state (as ``Game.fingerprint``)."""


def position(game: Game) -> tuple[Any, ...]:
    """Everything a position answers: the whole state (the round's and steps' own fields
    included, sets in sorted order: a set put back may list its items in another order), the
    snapshot, the legal actions in the order they are offered."""
    parts = [game.round, *game.round.steps]
    own = [(type(part).__name__, {k: v for k, v in vars(part).items() if k not in LINKS}) for part in parts]
    return (state_of(game), canonical(own), game.index, game.acted_in, take_snapshot(game),
            [action_key(a) for a in game.legal_actions()])


@pytest.mark.parametrize("path", PATHS)
def test_pop_after_push_is_a_fresh_replay_at_every_position(path: Path) -> None:
    record = record_of(path)
    actions = applied_actions(record)
    fresh, searched = Game.from_record(record), Game.from_record(record)
    seen = [position(fresh)]
    for number, action in enumerate(actions):
        twin = searched.copy() if number % COPY_EVERY == 0 else None
        searched.push(action)
        assert searched.pop() is action
        assert position(searched) == seen[-1], f"after popping #{number} {action.label}"
        searched.push(action)
        fresh.push(action)
        seen.append(position(fresh))
        assert seen[-1] == position(searched), f"after pushing #{number} {action.label} again"
        if twin is not None:
            assert position(twin) == seen[-2], f"a copy made before #{number} {action.label} changed with its original"
            twin.push(action)
            assert position(twin) == seen[-1], f"a copy after pushing #{number} {action.label}"
            twin.pop()
            assert position(twin) == seen[-2], f"a copy after popping #{number} {action.label}"
    for number in reversed(range(len(actions))):
        assert searched.pop() is actions[number]
        assert position(searched) == seen[number], f"popping back to #{number} {actions[number].label}"
    with pytest.raises(IndexError):
        searched.pop()


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in recorded_games()[:3]])
def test_a_copy_is_independent_and_pops_what_was_pushed_to_it(path: Path) -> None:
    record = record_of(path)
    actions = applied_actions(record)
    half = len(actions) // 2
    game = Game.from_record(record)
    for action in actions[:half]:
        game.push(action)
    before = position(game)
    twin = game.copy()
    assert position(twin) == before
    for action in actions[half:]:
        twin.push(action)
    assert position(game) == before, "pushing to the copy changed the original"
    for _ in actions[half:]:
        twin.pop()
    assert position(twin) == before
    twin.pop()  # an action pushed before the copy: replayed without it
    game.pop()
    assert position(twin) == position(game)


def test_a_change_by_hand_makes_pop_replay() -> None:
    """A change outside an action cannot be undone by the journal: pop replays instead, and
    takes the hand-made change away with the action (a replay knows only the moves)."""
    record = record_of(recorded_games()[0])
    actions = applied_actions(record)
    game, fresh = Game.from_record(record), Game.from_record(record)
    for action in actions[:10]:
        game.push(action)
    for action in actions[:9]:
        fresh.push(action)
    with game.changing():
        game.bank += 1000
    game.pop()
    assert position(game) == position(fresh)


def test_the_bench_times_push_pop_and_copy_per_title() -> None:
    """``make bench``'s search section: one row per title, every applied action timed, and pop
    (what the action changed) no dearer than twice push, measured alternately in one walk."""
    from railledger.bench.search import search_section

    games = [p for p in recorded_games() if p.parent.name == "games"]
    section = search_section(record_of(p) for p in games)
    rows = {row[0]: row for row in section.rows}
    assert set(rows) == {"18MS", "18Texas", "1871"}
    for path in games:
        record = record_of(path)
        row = rows[record.title.removeprefix("The Old Prince ")]
        assert int(row[1]) == len(applied_actions(record))
        assert float(row[5]) <= 2, f"{record.title}: pop/push {row[5]}"


def test_a_game_applying_in_another_thread_notes_its_changes_in_its_own_journal() -> None:
    """The dashboard's sessions replay games in threads of one process: while one game applies
    an action, a game in another thread pushes and pops on its own journal, and neither is
    noted in the other's."""
    import threading

    from railledger.replay.journal import APPLYING

    record = record_of(recorded_games()[0])
    actions = applied_actions(record)
    mine, theirs, fresh = Game.from_record(record), Game.from_record(record), Game.from_record(record)
    for action in actions[:19]:
        theirs.push(action)
        fresh.push(action)
    undo = mine.journal.begin(mine, [], [])

    def elsewhere() -> None:
        theirs.push(actions[19])
        theirs.pop()

    worker = threading.Thread(target=elsewhere)
    worker.start()
    worker.join()
    assert APPLYING.journal is mine.journal and undo.sets == [] and not undo.saved
    mine.journal.end()
    assert position(theirs) == position(fresh)
