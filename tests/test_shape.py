"""Games that look like people's: a game's shape, the people's games a ladder reads, and the
comparison ``railledger ladder --people`` prints with its target."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from railledger.analytics.shape import (OPERATING_ROUNDS, WINNER_VALUE, GameShape, Spread, compare_shapes, game_shape,
                                        widened)
from railledger.ingest.sources import read_record
from railledger.pipeline.people import PeopleUnavailable, people_games
from railledger.replay.titles import title_named
from railledger.selfplay.play import play_game
from tests.conftest import fixture_files

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def played_18ms():  # type: ignore[no-untyped-def]
    return play_game("18MS", ["greedy", "random", "random"], seed=5)


def test_a_finished_game_has_its_winner_its_rounds_its_phases_in_order_and_its_end(played_18ms) -> None:  # type: ignore[no-untyped-def]
    shape = game_shape(played_18ms.record)
    assert shape is not None
    assert shape.winner_value == max((played_18ms.record.result or {}).values())
    assert shape.end_reason == played_18ms.end_reason
    order = [phase.name for phase in title_named("18MS").phases]
    entered = list(shape.phase_rounds)
    assert entered == sorted(entered, key=order.index) and order[0] not in entered
    rounds = list(shape.phase_rounds.values())
    assert rounds == sorted(rounds) and all(0 <= r <= shape.operating_rounds for r in rounds)
    assert shape.first_rust_round is None or 1 <= shape.first_rust_round <= shape.operating_rounds


def test_a_game_that_is_not_valid_and_finished_has_no_shape() -> None:
    assert game_shape(read_record(str(REPO / "examples" / "18ms-opening.rln"))) is None


def test_the_range_widens_by_a_quarter_of_its_width_each_side_and_the_target_reads_the_medians() -> None:
    assert widened(Spread(3, 10, 14, 18)) == (8, 20)
    assert widened(Spread(1, 7, 7, 7)) == (7, 7)
    people = [GameShape(v, r) for v, r in ((1000, 10), (1800, 14))]  # widened: 800-2000 and 9-15
    inside = compare_shapes("18MS", ["2", "3"], [GameShape(v, 12) for v in (700, 1900, 2000)], people)
    assert inside.target(WINNER_VALUE) and inside.target(OPERATING_ROUNDS) and inside.holds
    poor = compare_shapes("18MS", ["2", "3"], [GameShape(v, 12) for v in (700, 790, 2000)], people)
    assert poor.target(WINNER_VALUE) is False and poor.holds is False
    assert compare_shapes("18MS", ["2", "3"], [GameShape(700, 12)], []).holds is None


def test_people_games_read_from_files_keep_the_title_and_leave_out_what_is_not_valid(played_18ms, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    people = dict(played_18ms.export)
    people.pop("source", None)  # as 18xx.games writes a people's game
    (tmp_path / "finished.json").write_text(json.dumps(people))
    (tmp_path / "bots.json").write_text(json.dumps(played_18ms.export))  # bots' games are never people's
    (tmp_path / "broken.json").write_text("{")
    for example in ("18ms-opening.rln", "18texas-auction.rln"):
        (tmp_path / example).write_text((REPO / "examples" / example).read_text())
    found = people_games("18MS", [tmp_path])
    assert found.shapes == [game_shape(played_18ms.record)]
    assert found.left_out == 1  # the 18MS opening, unfinished; the 18Texas record is of another title
    assert len(found.unreadable) == 1 and "broken.json" in found.unreadable[0]


def test_an_archive_that_is_not_there_is_one_line_naming_it(tmp_path: Path) -> None:
    with pytest.raises(PeopleUnavailable, match="missing.duckdb: no such archive"):
        people_games("18MS", [tmp_path / "missing.duckdb"])


@pytest.mark.skipif(not fixture_files("18MS"), reason="no shared 18MS fixtures (set RAILLEDGER_FIXTURES)")
def test_an_archive_gives_the_same_people_games_as_their_files(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    subprocess.run([sys.executable, "-m", "railledger", "ingest", *map(str, fixture_files("18MS")), "--db", str(db)],
                   check=True, capture_output=True)
    from_archive = people_games("18MS", [db]).shapes
    from_files = people_games("18MS", fixture_files("18MS")).shapes
    assert from_archive and sorted(map(repr, from_archive)) == sorted(map(repr, from_files))


def test_the_ladder_prints_its_games_beside_people_and_the_target(played_18ms, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    people = dict(played_18ms.export)
    people.pop("source", None)
    (tmp_path / "game.json").write_text(json.dumps(people))
    command = [sys.executable, "-m", "railledger", "ladder", "--title", "18MS", "--players", "3", "--bots", "greedy,random,random",
               "--games", "2", "--workers", "1", "--people", str(tmp_path)]
    shown = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert "beside people's games: 1 valid finished game of 18MS" in shown
    assert "winner's value" in shown and "first rust (OR)" in shown and "target (" in shown
    found = json.loads(subprocess.run([*command, "--json"], capture_output=True, text=True, check=True).stdout)
    value = next(m for m in found["people"]["measures"] if m["measure"] == WINNER_VALUE)
    assert value["people"]["median"] == max((played_18ms.record.result or {}).values())
    assert found["people"]["bot_games"] == 2 and found["people"]["holds"] in (True, False)
    refused = subprocess.run([*command[:-1], str(tmp_path / "none.duckdb")], capture_output=True, text=True)
    assert refused.returncode != 0 and "none.duckdb: no such archive" in refused.stderr
