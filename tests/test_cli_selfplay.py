"""``railledger play`` and ``railledger simulate`` as a user runs them: files, archive, errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from railledger.analytics.interval import wilson_interval
from railledger.analytics.rated import rated_games
from railledger.analytics.ratings import fingerprint, game_results, games_digest
from railledger.cli.app import app
from railledger.ingest.sources import read_record
from railledger.records import Archive
from railledger.records.archive import RatingBasis

runner = CliRunner()


def run(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args))


def test_play_writes_the_same_finished_record_for_the_same_seed(tmp_path: Path) -> None:
    first, again, rln = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.rln"
    for out in (first, again, rln):
        result = run("play", "--title", "18MS", "--players", "2", "--seed", "9", "--bots", "greedy,random", "--out", str(out))
        assert result.exit_code == 0, result.output
        assert "18MS, 2 players (greedy, random)" in result.output and "ended by" in result.output
    assert first.read_bytes() == again.read_bytes()
    raw = json.loads(first.read_text())
    assert raw["status"] == "finished" and raw["settings"]["seed"] == 9
    assert [(p["name"], p["bot"]) for p in raw["players"]] == [("greedy 1", "greedy"), ("random 2", "random")]
    assert read_record(str(rln)) == read_record(str(first))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--title", "18XX", "--players", "3"), "unknown title '18XX'; the titles are"),
        (("--title", "18MS", "--players", "6"), "18MS is played by"),
        (("--title", "18MS", "--players", "2", "--bots", "clever"), "no bot 'clever'; the bots are greedy, random, strong"),
        (("--title", "18MS", "--players", "3", "--bots", "greedy,random"), "give one bot, or one per seat (3), not 2"),
        (("--title", "18MS", "--players", "2", "--out", "game.txt"), "game.txt: give a .json or .rln file name"),
        (("--title", "18MS", "--players", "2", "--max-actions", "20"), "no end after 20 actions (the cap)"),
    ],
)
def test_play_refuses_bad_options_in_one_line(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    base = {"--seed": "1", "--out": str(tmp_path / "g.json")}
    given = dict(zip(args[::2], args[1::2]))
    result = run("play", *(part for key, value in {**base, **given}.items() for part in (key, value)))
    assert result.exit_code == 1 and message in result.output
    assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output


def test_simulate_stores_games_as_selfplay_with_their_bots_and_plays_none_twice(tmp_path: Path) -> None:
    db = tmp_path / "sim.duckdb"
    args = ("simulate", "--title", "18MS", "--players", "2", "--games", "3", "--bots", "greedy,random", "--rotate",
            "--workers", "2", "--db", str(db))
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert "3 games played" in result.output and "(3 new, 0 replaced, 0 unchanged, 0 failed)" in result.output
    assert "verified: 3 of 3" in result.output
    wins = re.search(r"wins: greedy (\d) of 3 seats \(\d+%, 95% interval (\d+)%-(\d+)%\)", result.output)
    assert wins is not None, result.output  # a rate comes with its interval
    low, high = wilson_interval(int(wins[1]), 3)
    assert (int(wins[2]), int(wins[3])) == (round(low * 100), round(high * 100))
    with Archive.open(db, read_only=True) as archive:
        games = archive.games()
        assert set(games["source"]) == {"selfplay"} and games.height == 3
        bots = sorted(archive.table("seat_bots").select("game_key", "seat", "bot").rows())
        assert bots == sorted([("selfplay/g18ms-2p-1-greedy.random", 1, "greedy"), ("selfplay/g18ms-2p-1-greedy.random", 2, "random"),
                               ("selfplay/g18ms-2p-2-random.greedy", 1, "random"), ("selfplay/g18ms-2p-2-random.greedy", 2, "greedy"),
                               ("selfplay/g18ms-2p-3-greedy.random", 1, "greedy"), ("selfplay/g18ms-2p-3-greedy.random", 2, "random")])
        assert archive.table("standings").height == 6 and archive.table("runs").height > 0  # the revenue audit
        results = game_results(archive, rated_games(archive))  # none: bots' games are not rated
        assert results.is_empty() and archive.rating_basis() == RatingBasis(fingerprint(results), 0, games_digest(archive))  # stored at the end
    again = run(*args)
    assert again.exit_code == 0 and "0 games played" in again.output and "3 unchanged" in again.output


def test_simulated_games_go_to_the_archive_together_and_a_refused_one_alone(tmp_path: Path) -> None:
    from dataclasses import replace

    from railledger.pipeline.simulating import _store, play_for_archive
    from railledger.pipeline.storing import IngestRun

    seats = ("greedy", "random")
    first, second = (play_for_archive("18MS", seed, seats, 2_000) for seed in (3, 4))
    unplayed = (replace(first[0], played=None, replay=None, error="no end"), None)
    writer = IngestRun(tmp_path / "a.duckdb")
    assert _store(writer, [first, unplayed, second], []) == ["new", "failed", "new"]
    assert _store(writer, [second, first], []) == ["unchanged", "unchanged"]
    # the same game twice is refused as a whole (one transaction): each is then stored alone
    third = play_for_archive("18MS", 5, seats, 2_000)
    assert _store(writer, [third, third], []) == ["new", "unchanged"]
    with Archive.open(tmp_path / "a.duckdb", read_only=True) as archive:
        keys = sorted(archive.game_keys())
    assert keys == sorted(game.played.record.key for game, _ in (first, second, third) if game.played is not None)
