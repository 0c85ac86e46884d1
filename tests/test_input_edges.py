"""Inputs at the edges of what a run is given: each is said in one line naming what is wrong.

Standard input closed, a directory holding no record, action ids of the wrong type, and an
optional rule the engine does not apply (a note on the verdict, the game judged as it is).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from railledger.cli.app import app
from railledger.ingest.export import read_export
from railledger.ingest.sources import load
from railledger.records import Archive
from railledger.replay import replay_record
from railledger.replay.verdict import VALID, judge
from tests.conftest import act, export, fixture_files, needs_fixtures

runner = CliRunner()
RAILLEDGER = Path(sys.executable).parent / "railledger"


def test_ingest_from_a_closed_standard_input_says_so(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    done = subprocess.run(["sh", "-c", f'exec "{RAILLEDGER}" ingest - --db "{db}" <&-'], capture_output=True, text=True,
                          timeout=60, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 1
    assert "failed: <stdin>: cannot read standard input: it is closed" in done.stderr.splitlines()
    assert "Traceback" not in done.stderr and "NoneType" not in done.stderr


@pytest.mark.parametrize("inside", [[], ["sub"], ["sub/deeper", ".hidden"]], ids=["empty", "folders", "nested"])
def test_a_directory_with_no_record_file_is_a_failure_naming_it(inside: list[str], tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for name in inside:
        (folder / name).mkdir(parents=True)
    (folder / "notes.txt").write_text("not a record")
    result = runner.invoke(app, ["ingest", str(folder), "--db", str(tmp_path / "a.duckdb")])
    assert result.exit_code == 1
    assert f"failed: {folder}: holds no record file (.json, .jsonl, .ndjson, .rln), in it or in its folders" in result.stderr


def test_a_directory_with_records_is_read_as_before(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    (folder / "empty").mkdir(parents=True)
    (folder / "a.json").write_text(json.dumps(export([act(1, "bid", company="AGS", price=30)], id=5)))
    result = runner.invoke(app, ["ingest", "--allow-invalid", str(folder), "--db", str(tmp_path / "a.duckdb")])
    assert result.exit_code == 0, result.output
    assert "failed:" not in result.stderr


@pytest.mark.parametrize(("value", "shown"), [("1", "'1'"), (1.5, "1.5"), (True, "true"), (None, "null"), ([1], "a list")])
def test_an_action_id_of_the_wrong_type_is_said_by_its_type(value: object, shown: str, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(export([act(1), {**act(2), "id": value}], id=6)))
    (loaded,) = load(str(path))
    assert str(loaded.error) == f"{path}: action #1: field id: action id must be a whole number, got {shown}"


def test_an_optional_rule_the_engine_does_not_apply_is_a_note_on_the_verdict(tmp_path: Path) -> None:
    data = export([act(1, "bid", company="AGS", price=30), act(2)], id=8,
                  settings={"seed": 1, "optional_rules": ["or_11", "made_up_rule"]})
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    db = tmp_path / "a.duckdb"
    result = runner.invoke(app, ["ingest", "--allow-invalid", str(path), "--db", str(db)])
    assert result.exit_code == 0, result.output
    with Archive.open(db, read_only=True) as archive:
        (detail,) = archive.games()["verdict_detail"].to_list()
    for rule in ("or_11", "made_up_rule"):
        assert f"note: optional rule '{rule}' is not one railledger's 18MS engine applies; the game was replayed without it" in detail
    assert "note:" not in judge(read_export({**data, "settings": {"seed": 1, "optional_rules": []}}), None).detail


@needs_fixtures
def test_a_valid_game_stays_valid_with_the_note() -> None:
    data = json.loads(fixture_files("18MS")[0].read_text())
    record = read_export(data)
    assert judge(record, replay_record(record)).kind == VALID
    data["settings"]["optional_rules"] = ["made_up_rule"]
    noted = read_export(data)
    verdict = judge(noted, replay_record(noted))
    assert verdict.kind == VALID and "note: optional rule 'made_up_rule'" in verdict.detail
