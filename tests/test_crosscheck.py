"""``railledger crosscheck``: skipped without the reference engine, seeds planned per title and
player count, the reference comparison read. (The comparison itself runs by hand: make crosscheck.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from railledger.cli.app import app
from railledger.crosscheck import PLAYER_COUNTS, REFERENCE_GAMES
from railledger.crosscheck.reference import Verdict, batches, bots_of, find_tools, objection, parse_comparison, selfplay_batches

runner = CliRunner()


def test_without_the_tools_it_says_skipped_and_succeeds(tmp_path: Path) -> None:
    result = runner.invoke(app, ["crosscheck", "--tools", str(tmp_path), "--games", "1"])
    assert result.exit_code == 0
    assert result.output.startswith("crosscheck skipped: the reference tools are not in")


def test_without_the_mirror_it_says_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("refplay", "reftrace", "compare_trace.py"):
        (tmp_path / name).write_text("")
    monkeypatch.setenv("TOBYMAO_GIT", str(tmp_path / "absent"))
    monkeypatch.setenv("PATH", str(tmp_path))  # no ruby either: one of the two reasons is given
    reason = find_tools(tmp_path)
    assert isinstance(reason, str) and ("ruby" in reason or "TOBYMAO_GIT" in reason)


def test_seeds_cover_every_title_and_player_count_once() -> None:
    planned = batches(games=7, first_seed=50, jobs=2)
    for title, counts in PLAYER_COUNTS.items():
        mine = [b for b in planned if b.title == title]
        assert sum(len(b.seeds) for b in mine) == 7
        assert {b.players for b in mine} == set(counts)
    seeds = [(b.title, s) for b in planned for s in b.seeds]
    assert len(seeds) == len(set(seeds))


def test_each_title_plays_its_own_count_of_reference_games() -> None:
    planned = batches(REFERENCE_GAMES, first_seed=1, jobs=2)
    played = {title: sum(len(b.seeds) for b in planned if b.title == title) for title in PLAYER_COUNTS}
    assert played == REFERENCE_GAMES
    assert played["The Old Prince 1871"] == 50 and played["18MS"] == played["18Texas"] == 200


def test_the_comparison_line_is_read() -> None:
    text = "first divergence: filtered action 12 (id 13, pass, OR 1.1): ['IC cash 10 != 20']\ntrace 40/41 states match\n"
    assert parse_comparison(text) == ((40, 41), "filtered action 12 (id 13, pass, OR 1.1): ['IC cash 10 != 20']")
    assert parse_comparison("ruby failed") == (None, None)


def test_a_game_is_right_only_with_no_flag_its_result_and_every_state() -> None:
    right = Verdict(Path("g.json"), 10, True, None, True, (9, 9), None)
    assert right.ok
    assert not Verdict(Path("g.json"), 10, True, None, True, (8, 9), "x").ok
    assert not Verdict(Path("g.json"), 10, True, "#3 flag", True, (9, 9), None).ok
    assert not Verdict(Path("g.json"), 10, True, None, False, (9, 9), None).ok
    assert not Verdict(Path("g.json"), 10, True, None, True, None, None).ok
    assert not Verdict(Path("g.json"), 10, True, None, True, (9, 9), None, "18xx.games refused action 3").ok


def test_generated_games_cover_every_title_count_and_table_of_bots() -> None:
    planned = selfplay_batches(games=6, first_seed=1)
    for title, counts in PLAYER_COUNTS.items():
        mine = [b for b in planned if b.title == title]
        assert sum(len(b.seeds) for b in mine) == 6 and {b.players for b in mine} == set(counts)
    tables = {bots_of(seed, 4) for seed in range(5)}
    assert tables == {("greedy",) * 4, ("random",) * 4, ("greedy", "random", "greedy", "random"), ("strong",) * 4,
                      ("strong", "greedy", "random", "strong")}


def test_what_the_reference_objects_to_is_said() -> None:
    finished = {"status": "finished"}
    refused = {"error": {"id": 211, "type": "buy_train", "at": "OR 4.1", "message": "WRA may not spend $10"}}
    assert objection(finished, refused) == "18xx.games refused action 211 (buy_train, OR 4.1): WRA may not spend $10"
    assert objection(finished, {"finished": False}) == "18xx.games did not reach the game's end"
    assert objection(finished, {"finished": True, "result_match": False, "result": {"1": 5}}) == (
        "18xx.games' result {'1': 5} is not the record's")
    assert objection(finished, {"finished": True, "result_match": True}) is None
    assert objection({"status": "active"}, {"finished": False}) is None
