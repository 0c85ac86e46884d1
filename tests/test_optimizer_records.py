"""The optimizer on recorded games: every declared run of the shared 18xx.games records and of the
short test games, and the ``railledger audit`` command that lists them."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from railledger.cli.app import app
from railledger.ingest.sources import read_record
from railledger.ingest.model import Action, Record
from railledger.replay import replay_record
from railledger.replay.game import Game
from railledger.replay.optimizer import DEFAULT_BUDGET, Optimum, position_of
from railledger.replay.optimizer.audit import RunAuditor, audit_record
from railledger.selfplay.play import play_game
from tests.conftest import fixture_params

GAMES = Path(__file__).resolve().parent / "games"
runner = CliRunner()
solve_module = importlib.import_module("railledger.replay.optimizer.solve")  # the package's ``solve`` is the function


@pytest.mark.fixtures
@pytest.mark.parametrize("path", fixture_params())
def test_every_recorded_run_is_legal_and_at_most_the_proven_optimum(path: Path) -> None:
    runs = audit_record(read_record(str(path)))
    assert runs, f"{path.name} has no run"
    for run in runs:
        where = f"{path.name} {run.round} {run.company}"
        assert run.error is None, f"{where}: {run.error}"
        assert run.engine is not None
        if run.declared is not None:
            assert run.engine == run.declared, where
        assert run.optimum.proven, where
        assert run.optimum.revenue >= run.engine, where
        assert {r.train for r in run.optimum.routes} <= {t for t, _ in run.trains}, where


@pytest.mark.fixtures
@pytest.mark.parametrize("path", fixture_params("18MS"))
def test_some_18ms_runs_left_money_on_the_table(path: Path) -> None:
    """Both 18MS records have runs below the optimum: the audit finds what players missed."""
    runs = audit_record(read_record(str(path)))
    assert any(run.shortfall for run in runs)


@pytest.mark.parametrize("name", ["18ms-short.rln", "18texas-short.rln", "1871-short.rln"])
def test_audit_json_lists_every_run(name: str) -> None:
    record = read_record(str(GAMES / name))
    result = runner.invoke(app, ["audit", str(GAMES / name), "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    runs = payload["runs"]
    assert len(runs) == sum(1 for a in record.actions if a.type == "run_routes")
    for run in runs:
        assert {"company", "round", "declared", "engine", "optimum", "proven", "routes", "optimal_routes"} <= set(run)
        assert run["round"].startswith("OR ") and run["proven"]
        assert run["optimum"] == sum(r["revenue"] for r in run["optimal_routes"]) >= run["engine"]
        assert run["shortfall"] == run["optimum"] - run["engine"]


def test_audit_shows_the_shortfall_of_a_poor_run(tmp_path: Path) -> None:
    """WRA runs only one of its two 2+ trains in OR 2.1 of the short 18MS game: $40 left."""
    text = (GAMES / "18ms-short.rln").read_text(encoding="utf-8")
    full = "690 WRA run_routes [2+-2 E11-E13-E15] [2+-3 E9-E11]"
    assert full in text
    poor = tmp_path / "poor.rln"
    poor.write_text(text.replace(full, "690 WRA run_routes [2+-2 E11-E13-E15]"), encoding="utf-8")
    run = next(r for r in audit_record(read_record(str(poor))) if r.action_id == "690")
    assert (run.engine, run.optimum.revenue, run.shortfall) == (60, 100, 40)
    result = runner.invoke(app, ["audit", str(poor)])
    assert result.exit_code == 0, result.output
    assert "1 of 6 runs below the optimum, 40 left on the table; every optimum proven" in result.stdout


def test_audit_reports_a_declared_run_the_engine_refuses(tmp_path: Path) -> None:
    text = (GAMES / "18ms-short.rln").read_text(encoding="utf-8")
    bad = tmp_path / "bad.rln"
    bad.write_text(text.replace("690 WRA run_routes [2+-2 E11-E13-E15] [2+-3 E9-E11]",
                                "690 WRA run_routes [2+-2 E11-E13-E15] [2+-2 E9-E11]"), encoding="utf-8")
    run = next(r for r in audit_record(read_record(str(bad))) if r.action_id == "690")
    assert run.engine is None and run.shortfall is None and "twice" in (run.error or "")
    assert run.optimum.revenue == 100


def test_audit_of_a_missing_file_fails() -> None:
    result = runner.invoke(app, ["audit", "no-such-record.json"])
    assert result.exit_code == 1


def audited_and_fresh(record: Record, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Optimum], list[Optimum], int]:
    """The audit's optimum of every run, a fresh search's on the same position, and how many
    positions the audit searched."""
    searched: list[str] = []
    search = solve_module.solve
    monkeypatch.setattr(solve_module, "solve",
                        lambda position, budget: searched.append(position.corporation) or search(position, budget))
    auditor = RunAuditor()
    fresh: list[Optimum] = []

    class Both:
        def before(self, game: Game, index: int, action: Action) -> None:
            auditor.before(game, index, action)
            if action.type == "run_routes":
                fresh.append(search(position_of(game, str(action.entity.id)), DEFAULT_BUDGET))

        def after(self, game: Game, index: int, action: Action) -> None:
            auditor.after(game, index, action)

    replay_record(record, keep_going=True, watch=Both())
    return [run.optimum for run in auditor.runs], fresh, len(searched)


@pytest.mark.fixtures
@pytest.mark.parametrize("path", fixture_params())
def test_the_audit_answers_each_recorded_run_as_a_fresh_search(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit's solver answers a company's run from its last search when the position is the
    same (:class:`RunSolver`); every answer equals a fresh search's."""
    audited, fresh, _ = audited_and_fresh(read_record(str(path)), monkeypatch)
    assert audited == fresh


@pytest.mark.parametrize("title, players", [("18Texas", 4), ("The Old Prince 1871", 4), ("18MS", 3)])
def test_the_audit_searches_again_only_a_changed_position(title: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """In bots' games many runs meet the position of the company's last run (track laid
    elsewhere, nothing bought): those are not searched again, and every answer still equals a
    fresh search's. 18MS's route bonus reads more than the position: there every run is searched."""
    record = play_game(title, ["greedy", "random"] * (players // 2) + ["random"] * (players % 2), seed=11).record
    audited, fresh, searched = audited_and_fresh(record, monkeypatch)
    assert audited == fresh
    if title == "18MS":
        assert searched == len(fresh)
    else:
        assert 0 < searched < len(fresh)
