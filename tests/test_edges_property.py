"""Records near the input schema's edges: stored, or refused in one line with the archive unchanged.

Hypothesis changes a small valid game at one to four places, each to a value at or just past one
of the schema's limits (docs/input.md: the largest name, id, amount, list or nesting allowed and
one more, the types a field must not have, empty and blank texts, control and zero-width
characters) or to an odd undo and redo. Every generated record is ingested into a copy of an
archive that already holds a game, and replayed on its own. Whatever it is:

* no command ends in an exception (a clean exit, 0 or 1);
* a refused record is one line naming the file, and every row of every table is as it was;
* a stored record is stored whole, once.

CI runs a short form; ``make edges`` runs it long (``RAILLEDGER_EDGE_EXAMPLES``, default 25 here).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from railledger.cli.app import app
from railledger.ingest import notation, schema
from railledger.ingest.export import write_export
from tests.conftest import every_row

runner = CliRunner()
EXAMPLES = int(os.environ.get("RAILLEDGER_EDGE_EXAMPLES", "25"))


SHORT_GAME = Path(__file__).parent / "games" / "18ms-short.rln"


def base_game() -> dict[str, Any]:
    """The opening of an 18MS game that breaks no rule (tests/games/18ms-short.rln), as an export."""
    return write_export(notation.read(SHORT_GAME.read_text()))


def just(*values: Any) -> st.SearchStrategy[Any]:
    return st.sampled_from(values)


WHOLE_EDGES = just(0, -1, 1, schema.MONEY, schema.MONEY + 1, -schema.MONEY - 1, schema.JSON_INT, schema.JSON_INT + 1,
                   schema.MAX_ACTION_ID, schema.MAX_ACTION_ID + 1, schema.BIGINT, schema.BIGINT + 1, -schema.BIGINT - 2,
                   1.0, 1.5, "1", True, False, None, [], {})
TEXT_EDGES = just("", " ", "\t", "\n", "a" * schema.MAX_NAME, "a" * (schema.MAX_NAME + 1), "b" * schema.MAX_TEXT,
                  "b" * (schema.MAX_TEXT + 1), " x", "x ", "\x00", "\x1b[2J", "a\u200bb", "\u200b", "e\u0301", "\ud800",
                  "\u202eevil", "名前", "<script>", "x'; DROP TABLE games; --", 0, None, ["x"], {"x": 1})


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


ANY_EDGES = st.one_of(WHOLE_EDGES, TEXT_EDGES, just(nested(schema.MAX_DEPTH - 1), nested(schema.MAX_DEPTH + 1),
                                                       list(range(schema.MAX_ITEMS)), list(range(schema.MAX_ITEMS + 1))))

HEADER = ("id", "title", "status", "created_at", "result", "settings", "players", "actions", "source")
PLAYER = ("id", "name")
ACTION = ("id", "type", "entity", "entity_type", "company", "price", "created_at", "user", "auto_actions", "rotation",
          "percent", "hex", "routes", "odd_field")


@st.composite
def change(draw: st.DrawFn) -> tuple[str, Any, Any, Any]:
    """(where, which, key, value): a header key, a player's key, an action's key, a setting, or
    an undo or redo added at some place."""
    where = draw(just("header", "player", "action", "setting", "undo", "remove"))
    if where == "header":
        return where, None, draw(just(*HEADER)), draw(ANY_EDGES)
    if where == "player":
        return where, draw(st.integers(0, 2)), draw(just(*PLAYER)), draw(st.one_of(TEXT_EDGES, WHOLE_EDGES))
    if where == "action":
        return where, draw(st.integers(0, 1)), draw(just(*ACTION)), draw(ANY_EDGES)
    if where == "setting":
        rules = just([], ["or_11"], ["x"] * 2, ["r%d" % n for n in range(schema.MAX_RULES)],
                     ["r%d" % n for n in range(schema.MAX_RULES + 1)], [""], [" "], [1], "or_11", None)
        return where, None, draw(just("seed", "optional_rules")), draw(st.one_of(rules, WHOLE_EDGES))
    if where == "undo":
        target = draw(st.one_of(st.none(), just(0, -1, 1, 2, 3, 4, 99, "1", 1.5, True)))
        return where, draw(st.integers(0, 3)), draw(just("undo", "redo")), target
    return where, draw(st.integers(0, 3)), None, None


def apply(data: dict[str, Any], where: str, which: Any, key: Any, value: Any) -> None:
    """Make one change in place (a change whose place a former change removed does nothing)."""
    players, actions = data.get("players"), data.get("actions")
    if where == "header":
        data[key] = value
    elif where == "player" and isinstance(players, list) and which < len(players) and isinstance(players[which], dict):
        players[which][key] = value
    elif where == "player" and isinstance(players, list):
        players.append({"id": 40 + which, "name": value})  # a seat more: past the title's player count, or an odd name
    elif where == "action" and isinstance(actions, list) and which < len(actions) and isinstance(actions[which], dict):
        actions[which][key] = value
    elif where == "setting" and isinstance(data.get("settings"), dict):
        data["settings"][key] = value
    elif where == "undo" and isinstance(actions, list):
        step = {"type": key, "entity": 10, "entity_type": "player", "id": 0}
        if key == "undo" and value is not None:
            step["action_id"] = value
        actions.insert(min(which, len(actions)), step)
        for number, action in enumerate(actions, start=1):  # ids in order, so that only the undo is odd
            if isinstance(action, dict) and isinstance(action.get("id"), int):
                action["id"] = number
    elif where == "remove" and isinstance(actions, list) and which < len(actions):
        del actions[which]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("edges")
    first = base_game()
    first["id"] = "first"
    (folder / "first.json").write_text(json.dumps(first))
    db = folder / "base.duckdb"
    result = runner.invoke(app, ["ingest", str(folder / "first.json"), "--db", str(db), "--workers", "1"])
    assert result.exit_code == 0, result.output
    return db


def test_the_base_game_breaks_no_rule(base: Path, tmp_path: Path) -> None:
    """The game the changes start from is itself whole, so that what a change does is the change's."""
    path = tmp_path / "g.json"
    path.write_text(json.dumps(base_game()))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(changes=st.lists(change(), min_size=1, max_size=4))
def test_a_record_near_the_edges_is_stored_or_refused_in_one_line(changes: list[tuple[str, Any, Any, Any]], base: Path) -> None:
    data = base_game()
    for where, which, key, value in changes:
        apply(data, where, which, key, value)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "edge.json"
        path.write_text(json.dumps(data))  # lone surrogates go out as JSON escapes, as a server may write them
        db = Path(folder) / "a.duckdb"
        shutil.copy(base, db)
        before = every_row(db)
        result = runner.invoke(app, ["ingest", "--allow-invalid", "--workers", "1", str(path), "--db", str(db)])
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert "Traceback" not in result.output
        failed = [line for line in result.stderr.splitlines() if line.startswith("failed: ")]
        after = every_row(db)
        event("refused" if result.exit_code != 0 else "stored")  # how the examples split (--hypothesis-show-statistics)
        if result.exit_code != 0:
            (line,) = failed
            assert line.startswith(f"failed: {path}"), line
            assert after == before  # nothing of a refused record, and nothing else, changed
        else:
            assert not failed
            new = {row[0] for row in after["games"]} - {row[0] for row in before["games"]}
            assert len(after["games"]) == len(before["games"]) + len(new) and len(new) <= 1
        replayed = runner.invoke(app, ["replay", "--keep-going", str(path)])
        assert replayed.exception is None or isinstance(replayed.exception, SystemExit), repr(replayed.exception)
        assert replayed.exit_code in (0, 1) and "Traceback" not in replayed.output
