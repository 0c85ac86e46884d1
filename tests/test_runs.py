"""The revenue audit stored at ingest: every run with the best run beside it, read by the
Validation page (shortfalls per game and president), the game review (both runs on the map) and
``railledger audit GAME``.

The archive holds the short 18MS test game with WRA running only one of its two 2+ trains in
OR 2.1 (action 690): $40 below the best run, decided by its president Cugnot.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path

import duckdb
import numpy as np
import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from railledger.analytics.validation import shortfalls_by_game, shortfalls_by_player
from railledger.cli.app import app
from railledger.ingest.sources import read_record
from railledger.records import Archive
from railledger.replay.optimizer.audit import audit_record

REPO = Path(__file__).resolve().parent.parent
FULL_RUN = "690 WRA run_routes [2+-2 E11-E13-E15] [2+-3 E9-E11]"
POOR_RUN = "690 WRA run_routes [2+-2 E11-E13-E15]"
KEY = "railledger/test-18ms-poor"
runner = CliRunner()


@pytest.fixture(scope="module")
def poor_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    text = (REPO / "tests" / "games" / "18ms-short.rln").read_text(encoding="utf-8")
    assert FULL_RUN in text
    text = text.replace(FULL_RUN, POOR_RUN).replace('[Game "test-18ms-short"]', '[Game "test-18ms-poor"]')
    path = tmp_path_factory.mktemp("runs") / "poor.rln"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def db(poor_game: Path) -> Path:
    archive = poor_game.parent / "runs.duckdb"
    result = runner.invoke(app, ["ingest", str(poor_game), "--db", str(archive)])
    assert result.exit_code == 0, result.output
    return archive


def test_every_run_is_stored_with_the_audit_of_a_fresh_replay(db: Path, poor_game: Path) -> None:
    audited = audit_record(read_record(str(poor_game)))
    with Archive.open(db, read_only=True) as archive:
        stored = archive.table("runs", KEY).sort("seq")
    assert stored["seq"].to_list() == [run.index for run in audited]
    assert stored["optimum"].to_list() == [run.optimum.revenue for run in audited]
    assert stored["engine"].to_list() == [run.engine for run in audited]
    assert stored["proven"].all()
    poor = stored.filter(stored["action_id"] == "690").row(0, named=True)
    assert (poor["company"], poor["round"], poor["engine"], poor["optimum"]) == ("WRA", "OR 2.1", 60, 100)
    declared, best = json.loads(poor["declared_routes"]), json.loads(poor["optimal_routes"])
    assert [r["train"] for r in declared] == ["2+-2"] and [s[0] for s in declared[0]["stops"]] == ["E11", "E15"]
    assert sum(r["revenue"] for r in best) == 100 and len(best) == 2


def test_best_routes_are_stored_only_where_they_differ_from_the_declared_ones(db: Path, poor_game: Path) -> None:
    """The file holds the best routes of the poor run only; every reader sees each run's best
    routes, the declared ones where they are the best: as a whole table, one game's, and selected."""
    audited = audit_record(read_record(str(poor_game)))
    con = duckdb.connect(str(db), read_only=True)
    try:
        kept = con.execute("SELECT action_id FROM runs WHERE optimal_routes IS NOT NULL").fetchall()
        runs = con.execute("SELECT count(*) FROM runs").fetchone()
    finally:
        con.close()
    assert kept == [("690",)] and runs == (len(audited),)
    with Archive.open(db, read_only=True) as archive:
        whole, one = archive.table("runs").sort("seq"), archive.table("runs", KEY).sort("seq")
        selected = archive.select("runs", ["seq", "optimal_routes"]).sort("seq")
    best = [[route.revenue for route in run.optimum.routes] for run in audited]
    for read in (whole, one, selected):
        assert [[route["revenue"] for route in json.loads(text)] for text in read["optimal_routes"]] == best
    assert whole.filter(whole["action_id"] != "690")["optimal_routes"].to_list() == \
        whole.filter(whole["action_id"] != "690")["declared_routes"].to_list()


def test_shortfalls_are_counted_per_game_and_per_president(db: Path) -> None:
    with Archive.open(db, read_only=True) as archive:
        by_game, by_player = shortfalls_by_game(archive), shortfalls_by_player(archive)
    game = by_game.row(0, named=True)
    assert (game["game_key"], game["runs"], game["below_optimum"], game["left_on_table"], game["unproven"]) == (KEY, 6, 1, 40, 0)
    players = {row["name"]: row for row in by_player.iter_rows(named=True)}  # each its own player of this game
    assert players["Cugnot"]["left_on_table"] == 40 and players["Cugnot"]["below_optimum"] == 1
    assert players["Ada"]["left_on_table"] == players["Brunel"]["left_on_table"] == 0
    assert sum(row["runs"] for row in players.values()) == 6


def test_audit_reads_an_archived_game_by_its_key(db: Path) -> None:
    result = runner.invoke(app, ["audit", "test-18ms-poor", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    runs = json.loads(result.stdout)["runs"]
    assert [(r["action_id"], r["shortfall"]) for r in runs if r["shortfall"]] == [("690", 40)]
    missing = runner.invoke(app, ["audit", "no-such-game", "--db", str(db)])
    assert missing.exit_code == 1 and "no-such-game: no such record file, and no game no-such-game" in missing.output


@pytest.fixture()
def dashboard(db: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    monkeypatch.setenv("RAILLEDGER_DB", str(db))
    page = AppTest.from_file(str(REPO / "src" / "railledger" / "dashboard" / "app.py"), default_timeout=60).run()
    assert not page.exception
    yield page


def test_validation_page_shows_what_runs_left_on_the_table(dashboard: AppTest) -> None:
    dashboard.switch_page("views/validation.py").run()
    assert not dashboard.exception
    audited = next(caption.value for caption in dashboard.caption if "runs audited" in caption.value)
    assert "6 runs audited" in audited and "40 left on the table" in audited
    by_player, by_game = (frame.value for frame in dashboard.dataframe if "left_on_table" in frame.value.columns)
    assert dict(zip(by_player["shown"], by_player["left_on_table"]))["Cugnot"] == 40
    assert list(by_game["left_on_table"]) == [40]


def test_review_draws_the_declared_and_the_best_run_at_a_run_step(dashboard: AppTest) -> None:
    dashboard.query_params.update(game=KEY, action="690")  # the action by the record's own id
    dashboard.switch_page("views/review.py").run()
    assert not dashboard.exception
    board = next(json.loads(c.proto.spec) for c in dashboard.get("plotly_chart") if any(
        t.get("name") == "track" for t in json.loads(c.proto.spec)["data"]))
    traces = {t.get("name"): t for t in board["data"]}
    assert {"declared run", "best run"} <= set(traces)
    assert _points(traces["declared run"]["x"]) == 3  # one route over three hexes
    assert _points(traces["best run"]["x"]) == 5  # two routes: three hexes and two
    assert any("the best run earns $100" in m.value for m in dashboard.markdown)


def _points(values: object) -> int:
    """How many points a figure's coordinate array holds, gaps left out: plotly writes a numpy
    array as a typed array (dtype and base64 bytes), a list as JSON with null gaps."""
    if isinstance(values, dict):
        array = np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"])
        return int(np.count_nonzero(~np.isnan(array)))
    return sum(value is not None for value in values)  # type: ignore[attr-defined]



def test_a_route_is_named_by_its_stops_hexes_as_18xx_games_logs_it() -> None:
    from railledger.replay.optimizer.naming import route_name, run_name

    assert route_name("5-0", [("I1", "c0"), ("I1", "t0")], 100) == "5-0 I1-I1 100"
    assert route_name("2D-2", (("E1", "c0"), ("I1", "c0")), None) == "2D-2 E1-I1"
    assert run_name([("2+-2", [["E11", "c0"], ["E15", "o0"]], 60), ("2+-3", [["E11", "c0"], ["E9", "c0"]], 40)]) == \
        "2+-2 E11-E15 60; 2+-3 E11-E9 40"
    assert run_name([]) == "no route"


def test_audit_names_the_routes_run_and_the_better_ones(poor_game: Path) -> None:
    result = runner.invoke(app, ["audit", str(poor_game)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    at = lines.index("OR 2.1 WRA: 40 short")
    assert lines[at + 1:at + 3] == ["  ran     2+-2 E11-E15 60", "  better  2+-2 E11-E15 60; 2+-3 E11-E9 40"]
    payload = json.loads(runner.invoke(app, ["audit", str(poor_game), "--json"]).stdout)
    poor = next(run for run in payload["runs"] if run["action_id"] == "690")
    assert (poor["declared_run"], poor["optimal_run"]) == ("2+-2 E11-E15 60", "2+-2 E11-E15 60; 2+-3 E11-E9 40")


def test_the_report_names_the_better_routes_from_the_archive_as_from_the_record(db: Path, poor_game: Path) -> None:
    stored = runner.invoke(app, ["report", "test-18ms-poor", "--db", str(db)])
    fresh = runner.invoke(app, ["report", str(poor_game)])
    assert stored.exit_code == fresh.exit_code == 0, stored.output + fresh.output
    row = "| OR 2.1 | WRA | Cugnot | 2+-2 E11-E15 60 | 2+-2 E11-E15 60; 2+-3 E11-E9 40 | 60 | 100 | 40 |"
    assert row in stored.stdout.splitlines() and row in fresh.stdout.splitlines()
