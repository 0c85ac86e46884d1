"""``railledger legal``: the legal actions at a position of a record, as notation or JSON."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from railledger.cli.app import app
from railledger.ingest import notation
from railledger.replay import Game
from tests.perft import positions

SHORT = Path(__file__).resolve().parent / "games" / "18ms-short.rln"
runner = CliRunner()


def at(index: int) -> Game:
    return next(game for i, game in positions(notation.read(SHORT.read_text())) if i == index)


def test_lists_the_legal_actions_in_notation() -> None:
    result = runner.invoke(app, ["legal", str(SHORT), "--at", "30"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == f"railledger/test-18ms-short at #30 ({at(30).round.label}): {len(list(at(30).legal_actions()))} legal actions"
    assert "  WRA pass" in lines


def test_json_gives_18xx_games_action_objects_the_engine_accepts() -> None:
    result = runner.invoke(app, ["legal", str(SHORT), "--at", "3", "--json"])
    assert result.exit_code == 0, result.output
    offered = json.loads(result.stdout)
    game = at(3)
    assert len(offered) == len(list(game.legal_actions())) > 1
    for raw in offered:
        assert {"type", "entity", "entity_type"} <= raw.keys() and "id" not in raw
    pars = {raw["share_price"] for raw in offered if raw["type"] == "par"}
    assert pars and all(len(p.split(",")) == 3 for p in pars)


def test_a_position_past_the_end_is_an_error() -> None:
    result = runner.invoke(app, ["legal", str(SHORT), "--at", "999"])
    assert result.exit_code == 1
    assert "position 999 is past its end" in result.output
