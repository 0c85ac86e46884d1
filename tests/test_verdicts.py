"""Every game gets a verdict: judged from its replay, stored at ingest, shown wherever games are
listed, and the exit code of ingest follows it."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from railledger.cli.app import app
from railledger.ingest import notation
from railledger.ingest.model import Action, Entity, Record
from railledger.records import Archive
from railledger.replay import replay_record
from railledger.replay.verdict import ILLEGAL, MISMATCH, NO_ENGINE, NOT_REPLAYED, UNFINISHED, VALID, judge
from tests.conftest import export, fixture_files, make_known, needs_fixtures

runner = CliRunner()
GAMES = Path(__file__).resolve().parent / "games"
SHORT = notation.read((GAMES / "18ms-short.rln").read_text())


def finished(record: Record, **result_changes: int) -> Record:
    """The record as a finished game whose recorded result is what it replays to (changed by seat name)."""
    replayed = replay_record(record, keep_going=True).result
    names = {p.name: p.id for p in record.players}
    result = {**replayed, **{names[name]: value for name, value in result_changes.items()}}
    return dataclasses.replace(record, status="finished", result=result)


def with_illegal_sale(record: Record) -> Record:
    """A sale in the first stock round (18MS forbids it), inserted after action 180."""
    at = next(i for i, a in enumerate(record.actions) if a.id == 180) + 1
    sale = Action("sell_shares", Entity("player", "Ada"), 185, 0, {"shares": ["GMO_1"], "percent": 10})
    return dataclasses.replace(record, actions=(*record.actions[:at], sale, *record.actions[at:]))


def test_a_game_replaying_to_its_result_is_valid() -> None:
    game = finished(SHORT)
    verdict = judge(game, replay_record(game, keep_going=True))
    assert (verdict.kind, verdict.invalid) == (VALID, False)


def test_an_illegal_action_names_its_id_round_words_and_rule() -> None:
    game = with_illegal_sale(finished(SHORT))
    verdict = judge(game, replay_record(game, keep_going=True))
    assert verdict.kind == ILLEGAL and verdict.invalid
    assert verdict.detail.startswith("action 185 (SR 1): Ada sells a 10% share of GMO to the market "
                                     "(rule 18MS/10.2-no-sale-first-sr: ")
    strict = judge(game, replay_record(game))
    assert strict.detail.endswith("(the replay stopped there)")


def test_a_result_that_differs_lists_every_players_recorded_and_replayed_value() -> None:
    replayed = replay_record(SHORT, keep_going=True).result
    game = finished(SHORT, Brunel=1)
    verdict = judge(game, replay_record(game, keep_going=True))
    assert verdict.kind == MISMATCH and verdict.invalid
    values = {p.name: replayed[p.id] for p in SHORT.players}
    assert verdict.detail == (f"Ada recorded {values['Ada']}, replayed {values['Ada']}; Brunel recorded 1, replayed "
                              f"{values['Brunel']}; Cugnot recorded {values['Cugnot']}, replayed {values['Cugnot']}")


def test_unfinished_games_say_why() -> None:
    verdict = judge(SHORT, replay_record(SHORT, keep_going=True))
    assert (verdict.kind, verdict.detail) == (UNFINISHED, "no recorded result; not finished (status active)")
    last = SHORT.actions[-1]
    ended = finished(dataclasses.replace(SHORT, actions=(*SHORT.actions, Action("end_game", Entity("player", "Cugnot"), last.id + 1))))
    verdict = judge(ended, replay_record(ended, keep_going=True))
    assert (verdict.kind, verdict.detail) == (UNFINISHED, f"ended by hand by Cugnot at action {last.id + 1}")


def test_titles_without_an_engine_and_games_not_replayed(monkeypatch: pytest.MonkeyPatch) -> None:
    make_known(monkeypatch, "18Atlantis", "g18atlantis", (3,))
    assert judge(dataclasses.replace(SHORT, title="18Atlantis"), None).kind == NO_ENGINE
    assert judge(SHORT, None).kind == NOT_REPLAYED


@needs_fixtures
def test_the_shared_records_verdicts() -> None:
    verdicts = {}
    for path in fixture_files():
        record = notation.read(notation.write(_read(path)))
        verdicts[path.stem] = judge(record, replay_record(record, keep_going=True))
    hotseat = verdicts.pop("hs_hqrmcntr_1641188459")
    assert (hotseat.kind, hotseat.detail) == (UNFINISHED, "ended by hand by Player 4 at action 72")
    assert {name: v.kind for name, v in verdicts.items()} == {name: VALID for name in verdicts}


def _read(path: Path) -> Record:
    from railledger.ingest.export import read_export

    return read_export(json.loads(path.read_text()))


# ------------------------------------------------------------------------------ the command line


def _ingest(tmp_path: Path, record: Record, *options: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "game.rln"
    path.write_text(notation.write(record))
    return runner.invoke(app, ["ingest", str(path), "--db", str(tmp_path / "a.duckdb"), *options])


def test_ingest_stores_an_illegal_game_names_it_and_exits_1(tmp_path: Path) -> None:
    game = with_illegal_sale(finished(SHORT))
    result = _ingest(tmp_path, game)
    assert result.exit_code == 1
    assert "illegal: " in result.stderr
    assert "action 185 (SR 1): Ada sells a 10% share of GMO to the market (rule 18MS/10.2-no-sale-first-sr" in result.stderr
    assert "--allow-invalid" in result.stderr
    with Archive.open(tmp_path / "a.duckdb", read_only=True) as archive:
        row = archive.games().row(0, named=True)
    assert (row["key"], row["verdict"]) == (game.key, ILLEGAL)  # stored all the same, with its verdict
    again = _ingest(tmp_path, game, "--allow-invalid")  # unchanged now: the stored verdict still counts
    assert again.exit_code == 0 and "illegal" in again.stdout


def test_ingest_counts_verdicts_and_a_mismatch_fails_the_run(tmp_path: Path) -> None:
    result = _ingest(tmp_path, finished(SHORT, Ada=0))
    assert result.exit_code == 1 and "result mismatch: " in result.stderr and "Ada recorded 0" in result.stderr
    (tmp_path / "ok").mkdir()
    ok = _ingest(tmp_path / "ok", finished(SHORT))
    assert ok.exit_code == 0, ok.output
    header, counts = [line for line in ok.stdout.splitlines() if "│" in line or "┃" in line][-2:]
    assert "valid" in header and counts.split("│")[1].strip() == "1"


def test_games_and_replay_show_the_verdict(tmp_path: Path) -> None:
    _ingest(tmp_path, SHORT)
    listed = runner.invoke(app, ["games", "--db", str(tmp_path / "a.duckdb")])
    assert "unfinished: no recorded result; not finished (status active)" in listed.stdout
    replayed = runner.invoke(app, ["replay", str(tmp_path / "game.rln")])
    assert "verdict: unfinished: no recorded result" in replayed.stdout


def test_a_strict_replay_says_where_it_stopped_and_shows_no_values_as_results(tmp_path: Path) -> None:
    path = tmp_path / "broken.rln"
    game = with_illegal_sale(finished(SHORT))
    path.write_text(notation.write(game))
    text = runner.invoke(app, ["replay", str(path)])
    assert text.exit_code == 1
    assert "stopped at action 185 (SR 1): the values there are not a result" in text.stdout
    values = [line.split() for line in text.stdout.splitlines() if line.strip().startswith(("Ada", "Brunel", "Cugnot"))]
    assert [row[1] for row in values] == ["-", "-", "-"]
    payload = json.loads(runner.invoke(app, ["replay", str(path), "--json"]).stdout)
    assert (payload["result"], payload["stopped_at"], payload["verdict"]["kind"]) == (None, 18, ILLEGAL)
    going = json.loads(runner.invoke(app, ["replay", str(path), "--json", "--keep-going"]).stdout)
    assert going["result"] and going["stopped_at"] is None


def test_states_without_json_is_an_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(GAMES / "18ms-short.rln"), "--states"])
    assert result.exit_code == 1 and "--states needs --json" in result.stderr


def test_conformance_says_no_engine_for_a_title_railledger_does_not_know(tmp_path: Path) -> None:
    path = tmp_path / "1830.json"
    path.write_text(json.dumps(export([], title="1830", status="finished")))
    result = runner.invoke(app, ["conformance", str(path)])
    assert result.exit_code == 0, result.output
    row = next(line for line in result.stdout.splitlines() if "1830.json" in line)
    assert "NO ENGINE" in row and "FAIL" not in row and "?" not in row
