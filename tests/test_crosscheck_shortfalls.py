"""``railledger crosscheck --shortfalls``: every shortfall of the revenue audit becomes a claim (at
this ``run_routes``, these better routes earn this much) sent to 18xx.games' engine in place of
the declared run, without its revenue, so that the engine values it; its answers are read and
judged. CI checks the claims, the driver's input and the reading of its output; the engine itself
runs only where ruby, the ref18xx tools and TOBYMAO_GIT are (make crosscheck)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from railledger.cli.app import app
from railledger.crosscheck.reference import extracted_engine, find_tools
from railledger.crosscheck.shortfalls import (
    Answer, Claim, ShortfallVerdict, audited, check, judge, parse_answers, records_in, spread,
)
from railledger.crosscheck.undo import tools_folder
from tests.conftest import fixtures_dir

GAMES = Path(__file__).resolve().parent / "games"
runner = CliRunner()


def claim(record: str = "67889.json", action: int = 327, revenues: tuple[int, ...] = (280,), ran_revenue: int = 200) -> Claim:
    """GMO's 2D in OR 5.1 of 67889: E1-E5 declared for 200, E1-I1 claimed for 280."""
    return Claim(record=Path(record), title="18MS", action_id=action, round="OR 5.1", company="GMO",
                 ran=({"train": "2D-2", "connections": [["E1", "E3", "E5"]]},), ran_name="2D-2 E1-E5 200",
                 ran_revenue=ran_revenue, better=({"train": "2D-2", "connections": [["E1", "F2", "G1", "H2", "I1"]]},),
                 better_name="2D-2 E1-I1 280", revenues=revenues)


def test_a_claim_sends_both_runs_without_revenue_so_that_the_engine_values_them() -> None:
    better, declared = claim().requests()
    assert better["case"] == "67889.json action 327 better" and declared["case"] == "67889.json action 327 declared"
    assert better["action_id"] == declared["action_id"] == 327 and better["entity"] == "GMO"
    assert Path(better["record"]).is_absolute()
    assert better["routes"] == [{"train": "2D-2", "connections": [["E1", "F2", "G1", "H2", "I1"]]}]
    assert declared["routes"] == [{"train": "2D-2", "connections": [["E1", "E3", "E5"]]}]
    assert "revenue" not in json.dumps([better, declared])


def test_the_drivers_answers_are_read_by_case() -> None:
    text = "\n".join([
        json.dumps({"case": "a better", "accepted": True, "revenues": [230, 90], "stops": ["I1-E1-B2-A1-C7", "I1-I1"], "total": 320}),
        "",
        json.dumps({"case": "a declared", "accepted": False, "error": "Route must have at least 2 stops"}),
    ])
    answers = parse_answers(text)
    assert answers["a better"] == Answer(True, (230, 90), ("I1-E1-B2-A1-C7", "I1-I1"), 320)
    assert answers["a better"].said() == "320 (I1-E1-B2-A1-C7 230; I1-I1 90)"
    assert answers["a declared"] == Answer(False, error="Route must have at least 2 stops")
    assert answers["a declared"].said() == "refused: Route must have at least 2 stops"


@pytest.mark.parametrize("line", ['{"case": "a", "accepted": true, "revenues": [1]}', "ruby: warning", '{"case": "a", "accepted": "yes"}',
                                  '{"accepted": false, "error": "x"}'])
def test_a_line_that_is_no_answer_is_named(line: str) -> None:
    with pytest.raises(ValueError, match="line 2 of the reference engine's answers"):
        parse_answers(json.dumps({"case": "ok", "accepted": False, "error": "x"}) + "\n" + line)


def test_a_claim_holds_only_with_every_route_paid_what_it_claims() -> None:
    paid = Answer(True, (280,), ("E1-I1",), 280)
    declared = Answer(True, (200,), ("E1-E5",), 200)
    assert ShortfallVerdict(claim(), paid, declared).confirmed
    less = ShortfallVerdict(claim(), Answer(True, (270,), ("E1-I1",), 270), declared)
    assert not less.confirmed and not less.other_rules and not less.ok
    assert "18xx.games: 270 (E1-I1 270)" in less.why() and "2D-2 E1-I1 280 (total 280)" in less.why()
    refused = ShortfallVerdict(claim(), Answer(False, error="Cannot run train twice"), declared)
    assert not refused.ok and "refused: Cannot run train twice" in refused.why()
    split = ShortfallVerdict(claim(revenues=(140, 140)), Answer(True, (200, 80), ("E1-I1", "E5-E1"), 280), declared)
    assert not split.confirmed


def test_a_record_paid_under_rules_since_changed_is_set_apart() -> None:
    """The engine today pays the declared run otherwise than the record was paid: it cannot judge the claim."""
    older = ShortfallVerdict(claim(ran_revenue=210), Answer(True, (270,), ("E1-I1",), 270), Answer(True, (200,), ("E1-E5",), 200))
    assert older.other_rules and older.ok and not older.confirmed
    refused = ShortfallVerdict(claim(), Answer(True, (270,), ("E1-I1",), 270), Answer(False, error="no route"))
    assert not refused.other_rules and not refused.ok, "a declared run the engine refuses is looked at, not set apart"


def test_an_unanswered_case_is_refused_with_what_the_driver_said() -> None:
    [verdict] = judge([claim()], {"67889.json action 327 better": Answer(True, (280,), ("E1-I1",), 280)}, "ruby: killed")
    assert verdict.better.accepted and not verdict.ran.accepted
    assert verdict.ran.error == "no answer from the reference engine (ruby: killed)"


def test_claims_are_spread_over_jobs_a_records_claims_together() -> None:
    claims = [claim("a.json", 1), claim("b.json", 2), claim("a.json", 3), claim("c.json", 4), claim("a.json", 5)]
    groups = spread(claims, 2)
    assert sorted(c.action_id for g in groups for c in g) == [1, 2, 3, 4, 5]
    assert [sorted(c.record.name for c in g) for g in groups] == [["a.json"] * 3, ["b.json", "c.json"]]
    assert len(spread(claims, 8)) == 3


def test_records_are_the_files_given_and_the_json_of_folders(tmp_path: Path) -> None:
    (tmp_path / "t").mkdir()
    for name in ("t/1.json", "t/2.json", "t/notes.txt", "3.json"):
        (tmp_path / name).write_text("{}")
    found = records_in([tmp_path / "3.json", tmp_path, tmp_path / "t" / "1.json"])
    assert [p.relative_to(tmp_path).as_posix() for p in found] == ["3.json", "t/1.json", "t/2.json"]


def test_a_record_in_notation_cannot_be_given_to_the_reference_engine() -> None:
    reason = audited(GAMES / "18ms-short.rln")
    assert isinstance(reason, str) and "not an 18xx.games record (.json)" in reason


@pytest.mark.fixtures
def test_the_claims_of_67889_are_its_audit_shortfalls() -> None:
    path = fixtures_dir() / "18MS" / "67889.json"
    if not path.is_file():
        pytest.skip(f"the shared record 67889 is not in {fixtures_dir()} (set RAILLEDGER_FIXTURES)")
    found = audited(path)
    assert not isinstance(found, str)
    assert (found.title, found.runs, len(found.claims)) == ("18MS", 37, 14)
    assert sum(c.revenue - c.ran_revenue for c in found.claims) == 430
    gmo = [c for c in found.claims if c.company == "GMO" and c.better_name == "2D-2 E1-I1 280"]
    assert [(c.round, c.ran_name, c.revenue - c.ran_revenue) for c in gmo] == [("OR 5.1", "2D-2 E1-E5 200", 80),
                                                                               ("OR 5.2", "2D-2 E1-E5 200", 80)]
    assert gmo[0].better == ({"train": "2D-2", "connections": [["E1", "F2", "G1", "H2", "I1"]]},)


def test_without_the_tools_the_shortfall_check_says_skipped(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    record.write_text("{}")
    result = runner.invoke(app, ["crosscheck", "--tools", str(tmp_path), "--games", "0", "--shortfalls", str(record)])
    assert result.exit_code == 0
    assert result.output.startswith("crosscheck skipped: the reference tools are not in")


def test_records_need_shortfalls_and_must_exist(tmp_path: Path) -> None:
    record = tmp_path / "r.json"
    record.write_text("{}")
    alone = runner.invoke(app, ["crosscheck", "--tools", str(tmp_path), str(record)])
    assert alone.exit_code == 2 and "only with --shortfalls" in alone.output
    missing = runner.invoke(app, ["crosscheck", "--tools", str(tmp_path), "--shortfalls", str(tmp_path / "absent.json")])
    assert missing.exit_code == 2 and "absent.json: no such file or folder" in missing.output


def test_18xx_games_engine_bears_out_the_shortfalls_of_67889() -> None:
    """Live: 18xx.games' engine given each better run of 67889 in place of the declared one. GMO's
    2D E1-I1 is accepted for 280 in OR 5.1 and 5.2; only IC's OR 3.2 run is not confirmed, as the
    record was paid a New Orleans bonus that 18xx.games has since ruled out (g18ms/notes.md)."""
    tools = find_tools(tools_folder())
    if isinstance(tools, str):
        pytest.skip(f"skipped, needs 18xx.games' engine: {tools}")
    engine = extracted_engine(tools)
    if isinstance(engine, str):
        pytest.skip(f"skipped, needs 18xx.games' engine: {engine}")
    path = fixtures_dir() / "18MS" / "67889.json"
    if not path.is_file():
        pytest.skip(f"the shared record 67889 is not in {fixtures_dir()} (set RAILLEDGER_FIXTURES)")
    checked = check(engine, [path], 1)
    assert not checked.unchecked and len(checked.verdicts) == 14
    unconfirmed = [v for v in checked.verdicts if not v.confirmed]
    assert [(v.claim.round, v.claim.company, v.other_rules) for v in unconfirmed] == [("OR 3.2", "IC", True)]
    assert (unconfirmed[0].better.total, unconfirmed[0].ran.total) == (320, 300)
    gmo = [v.better for v in checked.verdicts if v.claim.company == "GMO" and v.claim.better_name == "2D-2 E1-I1 280"]
    assert [(a.revenues, a.stops) for a in gmo] == [((280,), ("E1-I1",))] * 2
