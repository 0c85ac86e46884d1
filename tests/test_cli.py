"""The railledger command as a user runs it: ingest, games, show, convert, and bad input."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from typing import Any
import select
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from railledger.cli.app import app
from railledger.ingest import notation
from railledger.ingest.export import read_export
from railledger.ingest.model import Record
from railledger.records import Archive
from tests.conftest import act, export, fixture_files, fixtures_dir, ingest_summary, make_known, needs_fixtures

runner = CliRunner()


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args), input=input)


def good_export(game_id: int) -> dict:
    return export([act(1, "bid", company="AGS", price=30), act(2)], id=game_id)


@pytest.fixture()
def db(tmp_path: Path) -> str:
    return str(tmp_path / "archive.duckdb")


def game_keys(db: str) -> set[str]:
    with Archive.open(db, read_only=True) as archive:
        return set(archive.games()["key"].to_list())


@needs_fixtures
def test_ingesting_the_fixtures_twice_reports_new_then_unchanged(db: str) -> None:
    first = run("ingest", "--allow-invalid", str(fixtures_dir()), "--db", db)
    assert first.exit_code == 0, first.output
    assert ingest_summary(first.output) == {"new": 6, "unchanged": 0, "replaced": 0, "duplicate": 0, "failed": 0}
    second = run("ingest", "--allow-invalid", str(fixtures_dir()), "--db", db)
    assert ingest_summary(second.output) == {"new": 0, "unchanged": 6, "replaced": 0, "duplicate": 0, "failed": 0}



def test_a_changed_record_replaces_the_old_one(tmp_path: Path, db: str) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(good_export(7)))
    assert ingest_summary(run("ingest", "--allow-invalid", str(path), "--db", db).output)["new"] == 1
    changed = good_export(7)
    changed["actions"].append(act(3))
    path.write_text(json.dumps(changed))
    assert ingest_summary(run("ingest", "--allow-invalid", str(path), "--db", db).output)["replaced"] == 1
    with Archive.open(db, read_only=True) as archive:
        assert len(archive.record("7").actions) == 3


BAD_INPUTS = {
    "malformed.json": ('{"id": 1, "title": "18MS",, }', "malformed JSON at line 1"),
    "truncated.json": (json.dumps(good_export(3))[:-40], "truncated record"),
    "not_a_record.json": ('{"name": "a shopping list"}', "not an 18xx.games game record"),
    "unknown_title.json": (json.dumps(export([act(1)], id=4, title="18Atlantis")), "unknown title '18Atlantis'"),
    "unknown_action.json": (json.dumps(export([act(1), act(2, "teleport")], id=5)), "action 2 (#1): unknown action type"),
    "cut_actions.json": (json.dumps(export([act(1), {"type": "pass"}], id=6)), "action #1: action is not an object"),
    "bad_undo.json": (json.dumps(export([act(1), act(2, "undo", action_id=77)], id=8)), "action 2 (#1): field action_id: undo points at action 77"),
    "notes.txt": ("hello", "not a record file"),
}


def test_bad_files_fail_with_one_line_each_while_good_files_land(tmp_path: Path, db: str) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "good.json").write_text(json.dumps(good_export(1)))
    (folder / "good.rln").write_text(notation.write(read_export(good_export(2))))
    for name, (content, _) in BAD_INPUTS.items():
        (folder / name).write_text(content)

    result = run("ingest", "--allow-invalid", str(folder), str(folder / "notes.txt"), "--db", db)

    assert result.exit_code == 1
    assert ingest_summary(result.stdout)["new"] == 2
    failures = [line for line in result.stderr.splitlines() if line.startswith("failed: ")]
    assert len(failures) == len(BAD_INPUTS) - 1 + 1  # notes.txt is named explicitly; .txt is not searched
    for name, (_, message) in BAD_INPUTS.items():
        assert any(name in line and message in line for line in failures), (name, failures)
    assert game_keys(db) == {"18xx.games/1", "18xx.games/2"}


def test_a_failed_run_loses_nothing_already_stored(tmp_path: Path, db: str) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(good_export(1)))
    run("ingest", "--allow-invalid", str(good), "--db", db)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(export([act(1), act(2, "teleport")], id=1)))  # same game, now broken
    assert run("ingest", "--allow-invalid", str(bad), "--db", db).exit_code == 1
    with Archive.open(db, read_only=True) as archive:
        assert len(archive.record("1").actions) == 2


def test_json_lines_and_stdin(tmp_path: Path, db: str) -> None:
    lines = tmp_path / "games.jsonl"
    lines.write_text("\n".join(json.dumps(good_export(i)) for i in (11, 12)) + "\n{broken\n")
    result = run("ingest", "--allow-invalid", str(lines), "--db", db)
    assert result.exit_code == 1
    assert "games.jsonl:3: malformed JSON" in result.stderr
    assert run("ingest", "--allow-invalid", "-", "--db", db, input=json.dumps(good_export(13))).exit_code == 0
    assert game_keys(db) == {"18xx.games/11", "18xx.games/12", "18xx.games/13"}


@needs_fixtures
@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: p.stem)
def test_show_prints_the_archived_game_in_notation(path: Path, db: str) -> None:
    run("ingest", "--allow-invalid", str(path), "--db", db)
    record = read_export(json.loads(path.read_text()))
    shown = run("show", record.game_id, "--db", db)
    assert shown.exit_code == 0
    assert notation.read(shown.stdout) == record


@needs_fixtures
@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: p.stem)
def test_convert_round_trips(path: Path, tmp_path: Path) -> None:
    rln, back = tmp_path / "g.rln", tmp_path / "g.json"
    assert run("convert", str(path), str(rln)).exit_code == 0
    assert run("convert", str(rln), str(back)).exit_code == 0
    assert read_export(json.loads(back.read_text())) == read_export(json.loads(path.read_text()))
    again = tmp_path / "again.rln"
    assert run("convert", str(back), str(again)).exit_code == 0
    assert again.read_text() == rln.read_text()


def test_convert_reports_syntax_errors_with_line_and_column(tmp_path: Path) -> None:
    broken = tmp_path / "broken.rln"
    broken.write_text('[Notation 1]\n[Title "18MS"]\n[Source "x"]\n[Game "1"]\n[Player 1 1 "A"]\n1 p1 lay_tile E11\n')
    result = run("convert", str(broken), str(tmp_path / "out.json"))
    assert result.exit_code == 1
    assert f"{broken}:6:18: action 1: lay_tile needs tile, rotation" in result.stderr


def test_games_filters_by_title_and_player(tmp_path: Path, db: str) -> None:
    folder = tmp_path / "in"
    shutil.copytree(Path(__file__).resolve().parent.parent / "examples", folder)
    run("ingest", "--allow-invalid", str(folder), "--db", db)
    listed = run("games", "--title", "18MS", "--db", db)
    assert "example-18ms-opening" in listed.stdout and "example-1871-auction" not in listed.stdout
    assert "3 games" in run("games", "--player", "brunel", "--db", db).stdout
    newest = run("games", "--player", "brunel", "--limit", "1", "--db", db).stdout
    assert "the newest 1 of 3 games" in newest and "--limit 0 lists every one" in newest
    assert sum("railledger/example-" in line for line in newest.splitlines()) == 1


def test_every_command_explains_itself_with_an_example() -> None:
    for command in ("ingest", "games", "show", "convert", "dashboard", "replay", "conformance", "bench", "report",
                    "compact"):
        result = run(command, "--help")
        assert result.exit_code == 0 and "Example: railledger" in result.stdout, command


def test_help_lists_every_command_once_archive_work_first() -> None:
    listed = [line.split()[0] for line in run("--help").stdout.split("Commands:", 1)[1].splitlines() if line.strip()]
    assert listed == ["ingest", "pull", "games", "show", "report", "stats", "ratings", "dashboard", "export",
                      "compact", "replay", "conformance", "audit", "legal", "convert",
                      "play", "simulate", "ladder", "predict", "crosscheck", "bench", "event"]


def _hold_lock(db: str, seconds: float) -> "subprocess.Popen[str]":
    """A process holding the archive's write lock for ``seconds``, started once it holds it."""
    holder = "import duckdb, sys, time; con = duckdb.connect(sys.argv[1]); print('locked', flush=True); time.sleep(float(sys.argv[2]))"
    child = subprocess.Popen([sys.executable, "-c", holder, db, str(seconds)], stdout=subprocess.PIPE, text=True)
    assert select.select([child.stdout], [], [], 30)[0], "the holder did not take the lock"
    child.stdout.readline()  # type: ignore[union-attr]
    return child


def test_a_writer_waits_for_the_holder_then_gives_up_with_one_clear_line(tmp_path: Path, db: str) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(good_export(1)))
    child = _hold_lock(db, 60)
    try:
        busy = subprocess.run(
            [sys.executable, "-m", "railledger", "ingest", "--allow-invalid", str(good), "--db", db, "--wait", "1"], capture_output=True, text=True, timeout=60
        )
    finally:
        child.kill()
        child.wait(timeout=10)
    assert busy.returncode == 1
    lines = busy.stderr.strip().splitlines()
    assert len(lines) == 2 and "Traceback" not in busy.stderr, busy.stderr
    assert "is in use by another process" in lines[0] and lines[0].endswith("waiting up to 1 s (--wait)")
    assert lines[1].startswith("stopped: archive") and lines[1].endswith("gave up after waiting 1 s (--wait)")


def test_a_writer_that_waits_stores_once_the_holder_lets_go(tmp_path: Path, db: str) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(good_export(1)))
    child = _hold_lock(db, 8)  # longer than the command takes to start and replay, even on a loaded machine
    try:
        waited = subprocess.run(
            [sys.executable, "-m", "railledger", "ingest", "--allow-invalid", str(good), "--db", db, "--wait", "60"], capture_output=True, text=True, timeout=90
        )
    finally:
        child.kill()
        child.wait(timeout=10)
    assert waited.returncode == 0, waited.stderr
    assert "waiting up to 60 s (--wait)" in waited.stderr
    assert ingest_summary(waited.stdout)["new"] == 1 and game_keys(db) == {"18xx.games/1"}


SHORT_GAME = Path(__file__).resolve().parent / "games" / "18ms-short.rln"


def test_replay_json_with_states(tmp_path: Path) -> None:
    result = run("replay", str(SHORT_GAME), "--json", "--states")
    assert result.exit_code == 0, result.output
    game = json.loads(result.stdout.splitlines()[0])
    assert (game["game"], game["title"], game["actions"], game["flags"]) == ("railledger/test-18ms-short", "18MS", 79, [])
    assert len(game["states"]) == 79
    last = game["states"][-1]  # WRA's third train ends OR 2.1: OR 2.2 begins and the BS pays Ada
    assert (last["index"], last["action_id"], last["round"], last["phase"]) == (78, "710", "OR 2.1", "3")
    assert last["players"]["Ada"]["cash"] == 136 and last["players"]["Ada"]["shares"] == {"GMO": 60, "IC": 10}
    assert last["companies"]["WRA"]["trains"] == ["2+", "2+", "3+"] and last["companies"]["WRA"]["president"] == "Cugnot"


def test_replay_keep_going_prints_every_flag_and_fails(tmp_path: Path) -> None:
    text = SHORT_GAME.read_text().replace("180 p3 buy_shares WRA_4 10", "180 p3 buy_shares WRA_4 10\n185 p1 sell_shares GMO_1 10")
    text = text.replace("340 IC lay_tile B6 9-2 1", "340 IC lay_tile B6 9-2 1\n345 IC lay_tile B8 9-3 1")
    broken = tmp_path / "broken.rln"
    broken.write_text(text)
    result = run("replay", str(broken), "--keep-going")
    assert result.exit_code == 1
    assert "2 flags (2 root causes)" in result.stdout
    assert "action 185 (SR 1): Ada sells a 10% share of GMO to the market\n" in result.stdout
    assert "breaks 18MS/10.2-no-sale-first-sr (10.2): no certificate may be sold in the first stock round" in result.stdout
    assert "action 345 (OR 1.2): IC lays tile 9 on B8, rotation 1\n" in result.stdout
    assert "breaks 18MS/11.4.2-tile-count" in result.stdout


def test_replay_keep_going_counts_what_follows_a_root_cause_and_lists_it_when_asked(tmp_path: Path) -> None:
    """IC's two lays of OR 1.1 swapped: the first, not joined to its network yet, is the root
    cause; the actions after it that counted on it follow from it, counted under it."""
    text = SHORT_GAME.read_text().replace("220 IC lay_tile B2 58-0 2", "220 IC lay_tile B4 9-0 1", 1)
    broken = tmp_path / "swapped.rln"
    broken.write_text(text.replace("230 IC lay_tile B4 9-0 1", "230 IC lay_tile B2 58-0 2", 1))
    counted = run("replay", str(broken), "--keep-going")
    assert counted.exit_code == 1
    lines = counted.stdout.splitlines()
    assert lines[2] == "  action 220 (OR 1.1): IC lays tile 9 on B4, rotation 1, for $0"
    assert lines[3].startswith("      breaks 18MS/11.4.1-tile-connect (11.4.1): tile 9 on B4 does not connect")
    following = int(re.fullmatch(r"      (\d+) later flags follow from it \(--all-flags lists them\)", lines[4]).group(1))
    assert following > 5 and f"{following + 1} flags (1 root cause)" in lines[0]
    assert "follows:" not in counted.stdout and "the replayed values skip the refused actions" in counted.stdout
    listed = run("replay", str(broken), "--keep-going", "--all-flags")
    shown = [line for line in listed.stdout.splitlines() if line.startswith("      follows: action ")]
    assert len(shown) == following
    assert not any("#" in line for line in shown)


@needs_fixtures
def test_conformance_passes_on_the_shared_18ms_records() -> None:
    result = run("conformance", str(fixtures_dir() / "18MS"))
    assert result.exit_code == 0, result.output
    assert result.stdout.count("PASS") == 2 and "FAIL" not in result.stdout


@needs_fixtures
def test_conformance_passes_on_every_shared_record() -> None:
    result = run("conformance", str(fixtures_dir()))
    assert result.exit_code == 0, result.output
    assert result.stdout.count("PASS") == len(fixture_files()) and "FAIL" not in result.stdout


def test_conformance_reports_titles_without_an_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A title whose folder holds data but no engine yet is a NO ENGINE row, not a crash or FAIL."""
    make_known(monkeypatch, "Engineless", "engineless")
    record = tmp_path / "engineless.rln"
    record.write_text(EXAMPLES.joinpath("18ms-opening.rln").read_text().replace('[Title "18MS"]', '[Title "Engineless"]'))
    result = run("conformance", str(record))
    assert result.exit_code == 0, result.output
    assert "NO ENGINE" in result.stdout and "PASS" not in result.stdout and "FAIL" not in result.stdout


# ------------------------------------------------------------------------------ re-ingest, --no-replay, duplicates


def test_an_unchanged_record_is_recognized_by_its_hash_without_a_replay(
    tmp_path: Path, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "short.rln"
    shutil.copy(SHORT_GAME, path)
    assert ingest_summary(run("ingest", "--allow-invalid", str(path), "--db", db).stdout)["new"] == 1
    import railledger.pipeline.storing

    def no_replay(*args: object, **kwargs: object) -> None:
        raise AssertionError("an unchanged record was replayed")

    monkeypatch.setattr(railledger.pipeline.storing, "replay_record", no_replay)
    again = run("ingest", "--allow-invalid", str(path), "--db", db)
    assert again.exit_code == 0, again.output
    assert ingest_summary(again.stdout)["unchanged"] == 1


def test_no_replay_keeps_the_stored_states_and_refuses_to_drop_them(tmp_path: Path, db: str) -> None:
    path = tmp_path / "short.rln"
    shutil.copy(SHORT_GAME, path)
    run("ingest", "--allow-invalid", str(path), "--db", db)
    key = "railledger/test-18ms-short"
    with Archive.open(db, read_only=True) as archive:
        steps = archive.table("steps", key)
    assert steps.height == 79

    same = run("ingest", "--allow-invalid", str(path), "--db", db, "--no-replay")
    assert same.exit_code == 0 and ingest_summary(same.stdout)["unchanged"] == 1
    text = SHORT_GAME.read_text()
    assert '[Status "active"]\n' in text
    path.write_text(text.replace('[Status "active"]\n', '[Status "abandoned"]\n'))
    changed = run("ingest", "--allow-invalid", str(path), "--db", db, "--no-replay")
    assert changed.exit_code == 1
    assert f"{path}: not stored: {key} differs from its stored version, which was replayed" in changed.stderr
    assert "would delete that version's per-action states, events, standings and flags" in changed.stderr
    with Archive.open(db, read_only=True) as archive:
        assert archive.table("steps", key).equals(steps)
        assert archive.record(key).status != "abandoned"


def test_the_same_game_twice_in_a_run_is_stored_once_and_reported(tmp_path: Path, db: str) -> None:
    first, copy, other = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"
    first.write_text(json.dumps(good_export(5)))
    copy.write_text(json.dumps(good_export(5)))
    changed = good_export(5)
    changed["actions"].append(act(3))
    other.write_text(json.dumps(changed))

    twice = run("ingest", "--allow-invalid", str(first), str(copy), "--db", db)
    assert twice.exit_code == 0
    assert ingest_summary(twice.stdout) == {"new": 1, "unchanged": 0, "replaced": 0, "duplicate": 1, "failed": 0}
    assert f"note: {copy}: 18xx.games/5 is the same game as {first}, stored once" in twice.stderr

    clash = run("ingest", "--allow-invalid", str(first), str(other), "--db", db)
    assert clash.exit_code == 1
    assert f"failed: {other}: not stored: 18xx.games/5 was read earlier in this run from {first}, with other content" in clash.stderr
    with Archive.open(db, read_only=True) as archive:
        assert len(archive.record("5").actions) == 2  # the first one read stays


def test_an_unexpected_error_in_one_record_fails_that_record_only(
    tmp_path: Path, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import railledger.pipeline.storing

    real = railledger.pipeline.storing.replay_record

    def broken_for_7(record: Record, **kwargs: Any) -> Any:
        if record.game_id == "7":
            raise RuntimeError("the engine met something new")
        return real(record, **kwargs)

    monkeypatch.setattr(railledger.pipeline.storing, "replay_record", broken_for_7)
    for game_id in (6, 7, 8):
        (tmp_path / f"{game_id}.json").write_text(json.dumps(good_export(game_id)))
    result = run("ingest", "--allow-invalid", "--workers", "1", str(tmp_path), "--db", db)  # the patch is in this process
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"failed: {tmp_path / '7.json'}: not stored: unexpected error: RuntimeError: the engine met something new" in result.stderr
    assert game_keys(db) == {"18xx.games/6", "18xx.games/8"}


# ------------------------------------------------------------------------------ output of outside text


def test_player_text_is_printed_as_text_never_as_markup_or_terminal_codes(tmp_path: Path, db: str) -> None:
    marked = good_export(9)
    marked["players"] = [{"id": 10, "name": "[bold red]Ann[/bold red]"}, {"id": 20, "name": "Bob"}]
    marked["actions"][0]["note"] = "\x1b[2J\x9b31m"  # a field railledger does not know may hold any text
    (tmp_path / "marked.json").write_text(json.dumps(marked))
    escaping = tmp_path / "\x1b[31mred.json"
    escaping.write_text(json.dumps(export([act(1)], id=10, title="18Atlantis")))

    ingested = run("ingest", "--allow-invalid", str(tmp_path), "--db", db)
    assert "\x1b" not in ingested.stderr and "\\x1b[31mred.json: unknown title" in ingested.stderr
    listed = run("games", "--db", db)
    assert "[bold red]Ann[/bold red]" in listed.stdout
    shown = run("show", "9", "--db", db)
    assert "\x1b" not in shown.stdout and "\x9b" not in shown.stdout
    assert 'note:="\\u001b[2J\\u009b31m"' in shown.stdout
    assert notation.read(shown.stdout).actions[0].fields["note"] == "\x1b[2J\x9b31m"  # and it reads back exactly


def test_plain_escapes_what_a_terminal_would_obey() -> None:
    from railledger.cli.text import plain

    assert plain("Ann") == "Ann"
    assert plain("a\x1b[2Jb\u202ec\udcffé") == "a\\x1b[2Jb\\u202ec\\udcffé"


def test_a_listing_lines_up_its_columns_as_a_terminal_shows_them() -> None:
    """Columns padded to their widest cell counted in terminal columns (a wide character takes
    two, a combining mark none), numbers right-aligned, outside text escaped, no trailing spaces."""
    from railledger.cli.text import listing, width

    assert (width("Ann"), width("東京"), width("é"), width("e\u0301")) == (3, 4, 1, 1)
    text = listing(("name", "n", "note"), [("東京", 7, "x"), ("e\u0301mile\x1b[2J", 1234, "last")], right=frozenset({1}))
    assert text.splitlines() == [
        "name             n  note",
        "東京             7  x",
        "e\u0301mile\\x1b[2J  1234  last",
    ]


# ------------------------------------------------------------------------------ damaged and foreign archives


@pytest.fixture()
def damaged(tmp_path: Path, db: str) -> str:
    """An archive cut to a fifth of its length, as a broken copy or download leaves it."""
    for n in range(20):
        (tmp_path / f"{n}.json").write_text(json.dumps(good_export(100 + n)))
    shutil.copy(SHORT_GAME, tmp_path / "short.rln")
    assert run("ingest", "--allow-invalid", str(tmp_path), "--db", db).exit_code == 0
    cut = tmp_path / "cut.duckdb"
    data = Path(db).read_bytes()
    cut.write_bytes(data[: len(data) // 5])
    return str(cut)


@pytest.mark.parametrize(
    "command",
    [["ingest", "{good}"], ["games"], ["show", "100"], ["stats"], ["export", "{out}"], ["dashboard"], ["report", "100"]],
    ids=lambda c: c[0],
)
def test_every_command_detects_a_damaged_archive_on_open(damaged: str, tmp_path: Path, command: list[str]) -> None:
    good = tmp_path / "new.json"
    good.write_text(json.dumps(good_export(999)))
    args = [part.format(good=good, out=tmp_path / "out") for part in command]
    before = Path(damaged).read_bytes()
    result = run(*args, "--db", damaged)
    assert result.exit_code == 1, result.output
    (line,) = [line for line in result.stderr.splitlines() if "damaged" in line]
    assert damaged in line and "Traceback" not in result.output
    assert Path(damaged).read_bytes() == before


def test_ingest_refuses_an_archive_with_a_crafted_catalog(tmp_path: Path, db: str) -> None:
    import duckdb

    good = tmp_path / "good.json"
    good.write_text(json.dumps(good_export(1)))
    run("ingest", "--allow-invalid", str(good), "--db", db)
    target = tmp_path / "pwned.csv"
    con = duckdb.connect(db)
    con.execute(f'''CREATE TABLE "x; COPY (SELECT 1) TO '{target}'; --" (game_key VARCHAR)''')
    con.close()
    changed = good_export(1)
    changed["actions"].append(act(3))  # a replacement: the old code ran DELETE FROM every game_key table
    good.write_text(json.dumps(changed))
    result = run("ingest", "--allow-invalid", str(good), "--db", db)
    assert result.exit_code == 1
    assert "stopped: " in result.stderr and "is not an archive as railledger makes it" in result.stderr
    assert not target.exists()


@needs_fixtures
def test_export_json_gives_the_original_record_back(tmp_path: Path, db: str) -> None:
    original = fixture_files("18MS")[0]
    run("ingest", "--allow-invalid", str(original), str(EXAMPLES / "18ms-opening.rln"), "--db", db)
    target = tmp_path / "back.json"
    assert run("export", "--format", "json", original.stem, "-o", str(target), "--db", db).exit_code == 0
    assert target.read_bytes() == original.read_bytes()  # undos, chat and the server's own keys included
    from_notation = run("export", "--format", "json", "example-18ms-opening", "--db", db)
    assert "ingested from notation" in from_notation.stderr
    rebuilt = read_export(json.loads(from_notation.stdout))
    assert rebuilt == notation.read((EXAMPLES / "18ms-opening.rln").read_text())
    assert run("export", "--format", "json", "nope", "--db", db).exit_code == 1


def test_notation_on_stdin_is_read(db: str) -> None:
    text = (EXAMPLES / "18ms-opening.rln").read_text()
    assert text.startswith("#")  # a comment before the header, as the examples have
    result = run("ingest", "-", "--db", db, input=text)
    assert result.exit_code == 0, result.output
    assert game_keys(db) == {"railledger/example-18ms-opening"}


def test_tables_written_to_a_pipe_are_not_cut_to_80_columns(tmp_path: Path, db: str) -> None:
    run("ingest", "--allow-invalid", str(EXAMPLES), "--db", db)
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    listed = subprocess.run([sys.executable, "-m", "railledger", "games", "--db", db], capture_output=True, text=True,
                            timeout=60, env=env, stdin=subprocess.DEVNULL)
    rows = [line for line in listed.stdout.splitlines() if "example-18texas-auction" in line]
    assert len(rows) == 1, listed.stdout  # one line per game, nothing folded
    assert "Ada, Brunel, Cugnot, Diesel" in rows[0] and len(rows[0]) > 80


def test_a_dashboard_port_in_use_is_refused_with_a_hint(db: str) -> None:
    import socket

    run("ingest", "--allow-invalid", str(EXAMPLES / "18ms-opening.rln"), "--db", db)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("localhost", 0))
        holder.listen()
        port = holder.getsockname()[1]
        result = run("dashboard", "--db", db, "--port", str(port))
    assert result.exit_code == 1
    assert result.stderr.strip() == f"port {port} on localhost is in use (another dashboard?); choose another with --port {port + 1}"


def test_the_bench_times_a_replay_alone_and_with_snapshots_in_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    """What snapshots add is judged against a limit (30%): a slow spell of the machine must slow
    both timings alike, so the bench alternates them rather than timing one series, then the other."""
    from railledger.bench import figures as bench

    clock, calls = [0.0], []

    def work(name: str, seconds: float) -> Callable[[], None]:
        def run() -> None:
            calls.append(name)
            clock[0] += seconds

        return run

    monkeypatch.setattr(bench.time, "perf_counter", lambda: clock[0])
    assert bench.paired_medians_ms(work("alone", 1.0), work("snapshots", 3.0), 3) == (1000.0, 3000.0)
    assert calls == ["alone", "snapshots"] * 3
