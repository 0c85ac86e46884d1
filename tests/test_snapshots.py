"""Snapshots built from the previous one and the game's change log (replay.snapshot.Snapshots)
equal a full scan of the game after every action: of every shared record, of the repository's
own records (bot games with odd corners among them), and of games the bots play now."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from railledger.ingest import notation
from railledger.ingest.export import read_export
from railledger.ingest.model import Record
from railledger.replay import Game, IllegalAction
from railledger.replay.snapshot import take_snapshot
from railledger.selfplay.bots import bot_named
from railledger.selfplay.play import play
from tests.conftest import fixture_params

TESTS = Path(__file__).parent
OWN_RECORDS = sorted([*(TESTS / "games").glob("*.rln"), *(TESTS / "selfplay_games").glob("*.rln")])


def assert_snapshots_scan_equal(record: Record) -> int:
    """Replay ``record`` (an illegal action is skipped, as ingest does) comparing the game's
    snapshot with a full scan after every action; the number of actions compared."""
    game = Game.from_record(record)
    for index, action in enumerate(record.actions):
        try:
            game.process(action)
        except IllegalAction:
            pass
        assert game.snapshot() == take_snapshot(game), f"{record.key}: action {index} ({action.label} {action.type})"
    return len(record.actions)


@pytest.mark.parametrize("path", fixture_params())
def test_shared_records(path: Path) -> None:
    assert assert_snapshots_scan_equal(read_export(json.loads(path.read_text(encoding="utf-8")))) > 0


@pytest.mark.parametrize("path", fixture_params())
def test_rows_kept_from_the_previous_snapshot_are_a_full_scans(path: Path) -> None:
    """A snapshot keeps the previous one's row of players when the action moved no holder's
    cash, certificates or worth, and its row of companies when no company's view changed (over
    half the actions of a replay): each kept row must equal a full scan's, and a record's
    replay must keep both rows some time and build them anew other times."""
    record = read_export(json.loads(path.read_text(encoding="utf-8")))
    game = Game.from_record(record)
    previous = game.snapshot()
    kept = {"players": 0, "corporations": 0}
    for index, action in enumerate(record.actions):
        try:
            game.process(action)
        except IllegalAction:
            pass
        snapshot, scan = game.snapshot(), take_snapshot(game)
        for row in kept:
            if getattr(snapshot, row) is getattr(previous, row):
                kept[row] += 1
                assert getattr(snapshot, row) == getattr(scan, row), f"{record.key}: action {index}: kept {row} row is stale"
        assert snapshot == scan, f"{record.key}: action {index} ({action.label} {action.type})"
        previous = snapshot
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


def test_a_change_shows_in_the_next_snapshot_only_where_it_was_made() -> None:
    """A field set between two snapshots (as a title's rule sets it) is in the next one, and
    the views of what was not touched are the previous snapshot's own objects."""
    record = notation.read(OWN_RECORDS[0].read_text(encoding="utf-8"))
    game = Game.start(record.title, record.players, seed=record.seed, game_id=record.game_id, created=record.created)
    before = game.snapshot()
    sym = next(iter(game.corporations))
    game.corporations[sym].cash += 7
    game.corporations[sym].tokens_placed.append("X1-0")
    after = game.snapshot()
    assert after == take_snapshot(game) and after != before
    changed = dict(after.corporations)[sym]
    assert (changed.cash, changed.tokens) == (dict(before.corporations)[sym].cash + 7, dict(before.corporations)[sym].tokens + 1)
    assert all(new is old for (s, new), (_, old) in zip(after.corporations, before.corporations) if s != sym)
    assert all(new is old for new, old in zip(after.players, before.players))
