"""Bad input never stops an ingest run, never crashes it, and never becomes data.

Each case writes one bad file (or special file) next to two good records, generated here rather
than committed, and ingests the folder into a copy of an archive that already holds games. The
run must exit 1, print one line for the bad file that names it and says what is wrong (the field,
and the action by id and index where there is one), store both good records, and leave every
other row of every table exactly as it was.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from railledger.cli.app import app
from railledger.pipeline.ingesting import OUTCOMES, Tally, store_batch
from railledger.pipeline.storing import IngestRun, prepare
from railledger.ingest import notation
from railledger.ingest.errors import RecordError
from railledger.ingest.export import read_export, write_export
from railledger.ingest.schema import check_record
from railledger.ingest.sources import load, read_file
from tests.conftest import act, every_row, export, ingest_summary

runner = CliRunner()


def game(game_id: int | str, **changes: Any) -> dict[str, Any]:
    """A small valid 18MS export: a bid and a pass, two players."""
    return export([act(1, "bid", company="AGS", price=30), act(2)], id=game_id, **changes)


def text_of(data: Any) -> str:
    return json.dumps(data)


def players(*pairs: tuple[Any, Any]) -> list[dict[str, Any]]:
    return [{"id": pid, "name": name} for pid, name in pairs]


def lay_tile(**fields: Any) -> dict[str, Any]:
    return export([act(1, "lay_tile", "GMO", "corporation", **{"hex": "E11", "tile": "57-0", "rotation": 1, **fields})], id=77)


# --------------------------------------------------------------------------------------------
# The cases: (file name, content or a maker, what the failure line must say)

Maker = Callable[[Path], list[str]]
"""Makes the bad input in a folder; returns extra command-line arguments (paths, options)."""


@dataclass(frozen=True)
class Case:
    name: str
    content: str | bytes | Maker
    message: str
    args: tuple[str, ...] = field(default=())


def _replace(data: dict[str, Any], old: str, new: str) -> str:
    text = json.dumps(data)
    assert old in text
    return text.replace(old, new, 1)


def _fifo(folder: Path) -> list[str]:
    os.mkfifo(folder / "x.json")
    return []


def _socket(folder: Path) -> list[str]:
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(folder / "s.json"))  # the socket file stays after the socket is closed
    return []


def _device(folder: Path) -> list[str]:
    return ["/dev/zero"]


def _device_link(folder: Path) -> list[str]:
    (folder / "zero.json").symlink_to("/dev/zero")
    return []


def _not_utf8_name(folder: Path) -> list[str]:
    (Path(os.fsdecode(bytes(folder) + b"/bad\xff.json"))).write_text(text_of(game(5, title="18Atlantis")))
    return []


def _big(folder: Path) -> list[str]:
    (folder / "big.json").write_text(text_of(game(6, description="x" * 5000)))
    return ["--max-size", "3000"]


NOTATION_HEADER = '[Notation 1]\n[Title "18MS"]\n[Source "railledger"]\n[Game "n1"]\n[Player 1 1 "A"]\n'

CASES = [
    Case("deep.json", '{"a":' * 100_000 + "1" + "}" * 100_000, "deep.json: refused JSON: nested too deeply"),
    Case("deep_field.json", text_of(export([act(1, note=[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]])], id=8)),
         "action 1 (#0): field note[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]: nests lists and objects more than 16 levels deep"),
    Case("one_player.json", text_of(game(9, players=players((10, "Ann")))),
         "field players: 18MS is played by 2 to 4 players, the record has 1"),
    Case("forty_players.json", text_of(game(10, players=players(*((i, f"P{i}") for i in range(1, 41))))),
         "field players: 18MS is played by 2 to 4 players, the record has 40"),
    Case("player_id_list.json", text_of(game(11, players=players(([1], "Ann"), (20, "Bob")))),
         "field players[0].id: must be a whole number of at most 64 bits or a text of 1 to 100 characters, got a list"),
    Case("player_id_float.json", text_of(game(12, players=players((1.5, "Ann"), (20, "Bob")))),
         "field players[0].id: must be a whole number of at most 64 bits or a text of 1 to 100 characters, got 1.5"),
    Case("same_ids.json", text_of(game(13, players=players((10, "Ann"), (10, "Bob")))),
         "field players[1].id: has the id of seat 1 (10)"),
    Case("space_name.json", text_of(game(14, players=players((10, "Ann"), (20, " ")))),
         "field players[1].name: must show a name, got ' ': only spaces, control or zero-width characters"),
    Case("zero_width_name.json", text_of(game(14, players=players((10, "\u200b\u200d"), (20, "Bob")))),
         "field players[0].name: must show a name, got '\\u200b\\u200d': only spaces, control or zero-width characters"),
    Case("seed_text.json", text_of(game(15, settings={"seed": "abc"})), "field settings.seed: must be a whole number of at most 64 bits, got 'abc'"),
    Case("seed_fraction.json", text_of(game(16, settings={"seed": 1.5})), "field settings.seed: must be a whole number of at most 64 bits, got 1.5"),
    Case("seed_huge.json", text_of(game(17, settings={"seed": 1e30})), "field settings.seed: must be a whole number of at most 64 bits, got 1e+30"),
    Case("seed_true.json", text_of(game(18, settings={"seed": True})), "field settings.seed: must be a whole number of at most 64 bits, got true"),
    Case("action_id_2_70.json", text_of(export([act(2**70)], id=19)), f"action {2**70} (#0): its id must be a whole number from 1 to 2147483647"),
    Case("action_id_true.json", text_of(export([act(True)], id=20)), "action #0: field id: action id must be a whole number, got true"),
    Case("action_id_text.json", text_of(export([act("1")], id=20)), "action #0: field id: action id must be a whole number, got '1'"),
    Case("action_id_fraction.json", text_of(export([act(1), act(1.5)], id=20)),
         "action #1: field id: action id must be a whole number, got 1.5"),
    Case("rules_number.json", text_of(game(21, settings={"optional_rules": 5})), "field settings.optional_rules: must be a list of texts, got 5"),
    Case("rules_text.json", text_of(game(22, settings={"optional_rules": "abc"})), "field settings.optional_rules: must be a list of texts, got 'abc'"),
    Case("result_1e400.json", _replace(game(23, result={"10": 1}), '"10": 1', '"10": 1e400'), "refused JSON: the number 1e400 is too large"),
    Case("result_stranger.json", text_of(game(24, result={"10": 1, "99": 2})), "field result: names '99', who is not a player of this game"),
    Case("result_fraction.json", text_of(game(25, result={"10": 1.5})), "field result: value of 10 must be a whole number from"),
    Case("created_1e20.json", text_of(game(26, created_at=1e20)), "field created_at: must be a Unix time (0 to 4102444800) or a text starting with a day"),
    Case("source_null.json", text_of(game(27, source=None)), "field source: must be a text of letters, digits, '.', '-' and '_' (no '/'), got null"),
    Case("source_slash.json", text_of(game(28, source="a/b")), "field source: must be a text of letters, digits, '.', '-' and '_' (no '/'), got 'a/b'"),
    Case("entity_list.json", text_of(export([act(1, entity=[1])], id=29)),
         "action 1 (#0): field entity: must be a whole number of at most 64 bits or a text of 1 to 100 characters, got a list"),
    Case("entity_stranger.json", text_of(export([act(1, entity=99)], id=30)), "action 1 (#0): field entity: names player 99, who is not a player of this game"),
    Case("entity_union_bank_outside_1871.json", text_of(export([act(1, entity=-1)], id=33)),
         "action 1 (#0): field entity: names player -1, who is not a player of this game"),
    Case("lone_surrogate.json", text_of(game(31, players=players((10, "A\ud800"), (20, "Bob")))),
         "field players[0].name: must be a text of 1 to 100 characters and hold no control character, got one holding U+D800"),
    Case("escape_in_name.json", text_of(game(32, players=players((10, "A\x1b[2J"), (20, "Bob")))),
         "field players[0].name: must be a text of 1 to 100 characters and hold no control character, got one holding U+001B"),
    Case("id_null.json", text_of(game(None)), "field id: must be a whole number of at least 0 or a text, got null"),
    Case("id_true.json", text_of(game(True)), "field id: must be a whole number of at least 0 or a text, got true"),
    Case("id_list.json", text_of(game([1])), "field id: must be a whole number of at least 0 or a text, got a list"),
    Case("id_object.json", text_of(game({"a": 1})), "field id: must be a whole number of at least 0 or a text, got an object"),
    Case("status_number.json", text_of(game(33, status=123)), "field status: must be a text of 1 to 32 characters, got 123"),
    Case("status_list.json", text_of(game(34, status=[])), "field status: must be a text of 1 to 32 characters, got a list"),
    Case("nan.json", _replace(game(35), '"price": 30', '"price": NaN'), "refused JSON: NaN is not a JSON number"),
    Case("long_number.json", _replace(game(36), '"price": 30', '"price": ' + "9" * 5000), "refused JSON: a number has too many digits to read"),
    Case("twice_a_key.json", _replace(game(37), '"price": 30', '"price": 30, "price": 40'), "refused JSON: the key 'price' appears twice in one object"),
    Case("rotation.json", text_of(lay_tile(rotation=9)), "action 1 (#0): field rotation: must be a whole number from 0 to 5, got 9"),
    Case("price_text.json", text_of(export([act(1, "bid", company="AGS", price="lots")], id=38)),
         "action 1 (#0): field price: must be a whole number from -1000000 to 1000000, got 'lots'"),
    Case("field_name.json", text_of(export([act(1, **{"bad name": 1})], id=39)), "action 1 (#0): has a field name that is not a name of letters"),
    Case("undo_true.json", text_of(export([act(1), act(2, "undo", action_id=True)], id=40)),
         "action 2 (#1): field action_id: undo points at action true, which is not in the record"),
    Case("settings_list.json", text_of(game(41, settings=[1])), "field settings: 'settings' is not an object"),
    Case("not_utf8.json", b'{"id": "caf\xe9"}', "not_utf8.json: is not UTF-8 text (byte 11 is not valid UTF-8)"),
    Case("notation_players.rln", NOTATION_HEADER + "\n1 p1 pass\n",
         "notation_players.rln:5: field [Player]: 18MS is played by 2 to 4 players, the record has 1"),
    Case("notation_result.rln", NOTATION_HEADER + '[Player 2 2 "B"]\n[Seed 3]\n[Result 999 10]\n\n1 p1 pass\n',
         "notation_result.rln:8: field [Result]: names 999, who is not a player of this game"),
    Case("notation_value.rln", NOTATION_HEADER + '[Player 2 2 "B"]\n[Seed 3]\n\n1 p1 pass\n2 GMO lay_tile E11 57-0 rotation:="x"\n',
         "notation_value.rln:10: action 2 (#1): field rotation: must be a whole number from 0 to 5, got 'x'"),
    Case("notation_deep.rln", NOTATION_HEADER + '[Player 2 2 "B"]\n\n1 p1 pass x:=' + "[" * 100_000 + "]" * 100_000 + "\n",
         "notation_deep.rln:8:14: action 1: bad JSON value: nested too deeply"),
    Case("x.json", _fifo, "x.json: not read: it is a FIFO (named pipe); only regular files are read"),
    Case("s.json", _socket, "s.json: not read: it is a socket; only regular files are read"),
    Case("zero.json", _device_link, "zero.json: not read: it is a character device; only regular files are read"),
    Case("/dev/zero", _device, "/dev/zero: not read: it is a character device; only regular files are read"),
    Case("bad\\xff.json", _not_utf8_name, "bad\\xff.json: unknown title '18Atlantis'"),
    Case("big.json", _big, "big.json: is 5,354 bytes, larger than 3,000 (--max-size)"),
]

# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An archive already holding two games (one from JSON, one from notation), replayed."""
    folder = tmp_path_factory.mktemp("base")
    (folder / "a.json").write_text(text_of(game(901)))
    (folder / "b.rln").write_text(notation.write(read_export(game(902))))
    db = folder / "base.duckdb"
    result = runner.invoke(app, ["ingest", "--allow-invalid", str(folder), "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


def without(rows: dict[str, list[tuple[Any, ...]]], keys: set[str]) -> dict[str, list[tuple[Any, ...]]]:
    """The rows that are not of the games ``keys`` (the key is the first column of every game table)."""
    return {table: [r for r in found if table == "schema_version" or r[0] not in keys] for table, found in rows.items()}



def test_the_cases_are_all_different_files() -> None:
    assert len({case.name for case in CASES}) == len(CASES)


def write_case(case: Case, folder: Path) -> list[str]:
    """Put a case's bad input into ``folder``; returns the extra command-line arguments it needs."""
    if callable(case.content):
        return case.content(folder)
    if isinstance(case.content, bytes):
        (folder / case.name).write_bytes(case.content)
    else:
        (folder / case.name).write_text(case.content, encoding="utf-8")
    return []


FILE_CASES = [case for case in CASES if not callable(case.content)]
SPECIAL_CASES = [case for case in CASES if callable(case.content)]
"""Cases that are a file's content, and those made by the operating system (FIFO, device...)."""


@pytest.mark.parametrize("case", FILE_CASES, ids=[case.name for case in FILE_CASES])
def test_a_bad_record_is_one_line_naming_file_field_and_action(case: Case, tmp_path: Path) -> None:
    write_case(case, tmp_path)
    (loaded,) = load(str(tmp_path / case.name))
    assert loaded.record is None and loaded.error is not None
    line = str(loaded.error)
    assert "\n" not in line and line.startswith(str(tmp_path / case.name))
    assert case.message in line, line


def _ingest_beside_good_files(
    case_writer: Callable[[Path], list[str]], base: Path, tmp_path: Path
) -> tuple[Any, dict[str, list[tuple[Any, ...]]], dict[str, list[tuple[Any, ...]]]]:
    """Ingest a folder of two good records and the bad input(s) into a copy of ``base``:
    (the run's result, every table before, every table after)."""
    db = tmp_path / "archive.duckdb"
    shutil.copy(base, db)
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "good_1.json").write_text(text_of(game(1001)))
    extra = case_writer(folder)
    (folder / "good_2.rln").write_text(notation.write(read_export(game(1002))))
    before = every_row(db)
    result = runner.invoke(app, ["ingest", "--allow-invalid", str(folder), *extra, "--db", str(db)])
    return result, before, every_row(db)


LANDED = {"18xx.games/1001", "18xx.games/1002"}


def assert_only_the_good_files_landed(before: dict[str, list[tuple[Any, ...]]], after: dict[str, list[tuple[Any, ...]]]) -> None:
    assert {row[0] for row in after["games"]} == {"18xx.games/901", "18xx.games/902"} | LANDED
    assert without(after, LANDED) == before  # every row of every table, as it was
    assert all(any(row[0] in LANDED for row in after[t]) for t in ("players", "actions", "steps", "standings"))


@pytest.mark.parametrize("case", SPECIAL_CASES, ids=[case.name for case in SPECIAL_CASES])
def test_a_file_that_is_not_a_regular_readable_one_fails_alone(case: Case, base: Path, tmp_path: Path, fifo_guard: None) -> None:
    result, before, after = _ingest_beside_good_files(lambda folder: write_case(case, folder), base, tmp_path)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)  # a clean exit 1
    failures = [line for line in result.stderr.splitlines() if line.startswith("failed: ")]
    assert len(failures) == 1 and case.name in failures[0] and case.message in failures[0], result.stderr
    assert ingest_summary(result.stdout) == {"new": 2, "unchanged": 0, "replaced": 0, "duplicate": 0, "failed": 1}
    assert_only_the_good_files_landed(before, after)


def test_every_bad_input_in_one_run_is_its_own_line_and_changes_nothing(base: Path, tmp_path: Path, fifo_guard: None) -> None:
    """All the cases in one run: one line each, the good files land, nothing else changes."""
    cases = [case for case in CASES if case.name != "big.json"]  # its --max-size would refuse the good files too

    def write_all(folder: Path) -> list[str]:
        return [arg for case in cases for arg in write_case(case, folder)]

    result, before, after = _ingest_beside_good_files(write_all, base, tmp_path)
    assert result.exit_code == 1
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    failures = [line for line in result.stderr.splitlines() if line.startswith("failed: ")]
    assert len(failures) == len(cases), result.stderr
    for case in cases:
        assert any(case.name in line and case.message in line for line in failures), (case.name, failures)
    assert ingest_summary(result.stdout) == {"new": 2, "unchanged": 0, "replaced": 0, "duplicate": 0, "failed": len(cases)}
    assert_only_the_good_files_landed(before, after)


def test_a_file_name_that_is_not_utf8_is_shown_and_stored_escaped(base: Path, tmp_path: Path) -> None:
    db = tmp_path / "archive.duckdb"
    shutil.copy(base, db)
    folder = tmp_path / "in"
    folder.mkdir()
    Path(os.fsdecode(bytes(folder) + b"/caf\xe9.json")).write_text(text_of(game(1003)))
    result = runner.invoke(app, ["ingest", "--allow-invalid", str(folder), "--db", str(db)])
    assert result.exit_code == 0, result.output
    con = duckdb.connect(str(db), read_only=True)
    try:
        (origin,) = con.execute("SELECT origin FROM games WHERE key = '18xx.games/1003'").fetchone()  # type: ignore[misc]
    finally:
        con.close()
    assert origin == f"{folder}/caf\\xe9.json"


# ------------------------------------------------------------------------------ anything at all


SHORT_EXPORT = write_export(notation.read((Path(__file__).parent / "games" / "18ms-short.rln").read_text()))
ODD = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**80), 2**80) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place inside a decoded JSON value, as a path of keys and indexes."""
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from _paths(item, (*path, key))


PLACES = list(_paths(SHORT_EXPORT))[1:]


def _put(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    copy = json.loads(json.dumps(data))
    target = copy
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return copy


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.lists(st.tuples(st.sampled_from(PLACES), ODD), min_size=1, max_size=3))
def test_any_value_anywhere_is_stored_or_refused_in_one_line(changes: list[tuple[tuple[Any, ...], Any]], tmp_path: Path) -> None:
    """Whatever value lands wherever in a real game, ingest stores the record or refuses it with
    one line: never an exception, never a stopped run."""
    data: Any = SHORT_EXPORT
    for path, value in changes:
        try:
            data = _put(data, path, value)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed that place
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    run = IngestRun(tmp_path / "fuzz.duckdb")
    tally = Tally()
    store_batch(run, prepare(read_file(str(path)), True, {}), tally)
    assert sum(tally.outcomes.values()) == 1 and set(tally.outcomes) <= set(OUTCOMES)
    assert (tally.outcomes["failed"] == 1) == (len(tally.failures) == 1)
    assert all("\n" not in line and "Traceback" not in line for line in tally.failures)


@settings(max_examples=200, deadline=None)
@given(cut=st.integers(0, 4000), junk=st.text(max_size=20))
def test_any_edit_of_a_notation_file_reads_or_fails_in_one_line(cut: int, junk: str) -> None:
    text = (Path(__file__).parent / "games" / "18ms-short.rln").read_text()
    cut %= len(text)
    edited = text[:cut] + junk + text[cut:]
    try:
        record, places = notation.read_located(edited, "game.rln")
        check_record(record, places)
    except RecordError as exc:
        line = str(exc.located("game.rln"))
        assert "\n" not in line and line.startswith("game.rln:")


def test_an_1871_action_may_name_the_union_bank_as_a_player() -> None:
    """1871's Union Bank acts as player -1 without a seat (its emergency sales); no other title has one."""
    seats = [{"id": 10, "name": "Ann"}, {"id": 20, "name": "Bob"}, {"id": 30, "name": "Cy"}]
    sale = act(1, "sell_shares", entity=-1, shares=["A_5"], percent=10)
    check_record(read_export(export([sale], title="The Old Prince 1871", players=seats)))
    with pytest.raises(RecordError, match="names player -1, who is not a player"):
        check_record(read_export(export([sale], players=seats)))
