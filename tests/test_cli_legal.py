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


def at(label: str) -> Game:
    record = notation.read(SHORT.read_text())
    index = next(i for i, action in enumerate(record.actions) if action.label == label)
    return next(game for i, game in positions(record) if i == index)


def test_lists_the_legal_actions_in_words_by_kind_with_the_move_made_marked() -> None:
    result = runner.invoke(app, ["legal", str(SHORT), "--at", "220"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    game = at("220")
    offered = list(game.legal_actions())
    assert lines[0].startswith(f"railledger/test-18ms-short before action 220 (OR 1.1): {len(offered)} legal actions")
    assert "  1 pass:" in lines and "    IC passes on laying track" in lines
    made = [line for line in lines if "<- the record's action 220" in line]
    assert made == ["    IC lays tile 58 on B2 (Grenada), rotation 2, for $0  <- the record's action 220"]
    kinds = [line for line in lines[1:] if not line.startswith("    ")]
    moves = [line for line in lines[1:] if line.startswith("    ")]
    assert sum(int(kind.split()[0]) for kind in kinds) == len(moves) <= len(offered)
    assert not any(mark in line for line in moves for mark in ("=", "_", "-0"))


def test_json_gives_18xx_games_action_objects_the_engine_accepts() -> None:
    result = runner.invoke(app, ["legal", str(SHORT), "--at", "40", "--json"])
    assert result.exit_code == 0, result.output
    offered = json.loads(result.stdout)
    game = at("40")
    assert len(offered) == len(list(game.legal_actions())) > 1
    for raw in offered:
        assert {"type", "entity", "entity_type"} <= raw.keys() and "id" not in raw
    pars = {raw["share_price"] for raw in offered if raw["type"] == "par"}
    assert pars and all(len(p.split(",")) == 3 for p in pars)


def test_the_end_of_the_record_is_a_position_and_an_id_it_lacks_is_an_error() -> None:
    end = runner.invoke(app, ["legal", str(SHORT), "--at", "end"])
    assert end.exit_code == 0 and end.stdout.startswith("railledger/test-18ms-short after its last action (OR 2.2): ")
    result = runner.invoke(app, ["legal", str(SHORT), "--at", "999"])
    assert result.exit_code == 1
    assert "has no action 999 (its actions: numbered 10 to 710; --at end is after the last)" in result.output
