"""The states a replay notes from the game's change log (replay.snapshot.StateChanges: a row per
entity whose state an action changed) give, after every action, the snapshot a full scan of the
game gives: the latest state noted, and every action's snapshot rebuilt from the columns, for
every shared record, the repository's own records (bot games with odd corners among them), and
games the bots play now."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from railledger.ingest import notation
from railledger.ingest.export import read_export
from railledger.ingest.model import Record
from railledger.replay import Game, IllegalAction, replay_record
from railledger.replay.snapshot import take_snapshot
from railledger.selfplay.bots import bot_named
from railledger.selfplay.play import play
from tests.conftest import fixture_params

TESTS = Path(__file__).parent
OWN_RECORDS = sorted([*(TESTS / "games").glob("*.rln"), *(TESTS / "selfplay_games").glob("*.rln")])


def assert_snapshots_scan_equal(record: Record) -> int:
    """Replay ``record`` (an illegal action is skipped, as ingest does) comparing the latest
    state noted with a full scan after every action, then every snapshot rebuilt from the
    noted columns, and a replay's, with those scans; the number of actions compared."""
    game = Game.from_record(record)
    scans = []
    for index, action in enumerate(record.actions):
        try:
            game.process(action)
        except IllegalAction:
            pass
        scans.append(take_snapshot(game))
        assert game.snapshot() == scans[-1], f"{record.key}: action {index} ({action.label} {action.type})"
    assert game.states is not None
    rebuilt = game.states.columns.snapshots()
    replayed = replay_record(record, keep_going=True, snapshots=True).snapshots
    for index, (action, scan) in enumerate(zip(record.actions, scans, strict=True)):
        assert rebuilt[index] == scan == replayed[index], f"{record.key}: action {index} ({action.label} {action.type})"
    assert len(rebuilt) == len(replayed) == len(scans)
    return len(record.actions)


@pytest.mark.parametrize("path", fixture_params())
def test_shared_records(path: Path) -> None:
    assert assert_snapshots_scan_equal(read_export(json.loads(path.read_text(encoding="utf-8")))) > 0


@pytest.mark.parametrize("path", fixture_params())
def test_rows_kept_from_the_previous_snapshot_are_a_full_scans(path: Path) -> None:
    """A rebuilt snapshot keeps the previous one's row of players when the action changed no
    player's state, and its row of companies when it changed no company's (over half the
    actions of a replay): each kept row must equal a full scan's, and a record's replay must
    keep both rows some time and build them anew other times."""
    record = read_export(json.loads(path.read_text(encoding="utf-8")))
    game = Game.from_record(record)
    scans = []
    for action in record.actions:
        try:
            game.process(action)
        except IllegalAction:
            pass
        game.note_state()
        scans.append(take_snapshot(game))
    assert game.states is not None
    snapshots = game.states.columns.snapshots()
    kept = {"players": 0, "corporations": 0}
    for index, (previous, snapshot, scan) in enumerate(zip(snapshots, snapshots[1:], scans[1:]), start=1):
        for row in kept:
            if getattr(snapshot, row) is getattr(previous, row):
                kept[row] += 1
                assert getattr(snapshot, row) == getattr(scan, row), f"{record.key}: action {index}: kept {row} row is stale"
        assert snapshot == scan, f"{record.key}: action {index}"
    assert all(0 < count < len(record.actions) for count in kept.values()), kept


@pytest.mark.parametrize("path", OWN_RECORDS, ids=lambda p: p.stem)
def test_own_records(path: Path) -> None:
    assert assert_snapshots_scan_equal(notation.read(path.read_text(encoding="utf-8"))) > 0


@pytest.mark.parametrize(("title", "seed", "bots"), [
    ("18MS", 5, ("greedy", "random", "random")),
    ("18Texas", 6, ("greedy", "random", "greedy", "random")),
    ("The Old Prince 1871", 7, ("greedy", "random", "greedy", "random")),
    ("The Old Prince 1871", 8, ("random", "random", "random")),
])
def test_bot_games(title: str, seed: int, bots: tuple[str, ...]) -> None:
    played = play(title, seed, [bot_named(name) for name in bots])
    assert assert_snapshots_scan_equal(played.record) > 0


def test_a_change_shows_in_the_next_state_only_where_it_was_made() -> None:
    """A field set between two notes (as a title's rule sets it) is in the next state, which
    adds a row of that company only: no player and no other company."""
    record = notation.read(OWN_RECORDS[0].read_text(encoding="utf-8"))
    game = Game.start(record.title, record.players, seed=record.seed, game_id=record.game_id, created=record.created)
    before = game.snapshot()
    states = game.note_state()
    columns = states.columns
    rows = len(columns.player_seq), len(columns.company_seq)
    sym = next(iter(game.corporations))
    game.corporations[sym].cash += 7
    game.corporations[sym].tokens_placed = [*game.corporations[sym].tokens_placed, "X1-0"]  # replaced, never changed in place
    after = game.snapshot()
    assert after == take_snapshot(game) and after != before
    changed = dict(after.corporations)[sym]
    assert (changed.cash, changed.tokens) == (dict(before.corporations)[sym].cash + 7, dict(before.corporations)[sym].tokens + 1)
    assert (len(columns.player_seq), len(columns.company_seq)) == (rows[0], rows[1] + 1)
    assert (columns.company[-1], columns.company_seq[-1]) == (sym, len(columns.rounds) - 1)
    assert [view for s, view in after.corporations if s != sym] == [view for s, view in before.corporations if s != sym]
    assert after.players == before.players
