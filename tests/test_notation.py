"""The notation reads back what it writes, on real games and on generated ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from railledger.ingest import notation
from railledger.ingest.errors import RecordError
from railledger.ingest.export import read_export, write_export
from railledger.ingest.model import Record
from railledger.ingest.model import ENVELOPE
from railledger.ingest.undo import standing_actions
from tests.conftest import fixture_params
from tests.test_records import strict
from tests.strategies import records

REPO = Path(__file__).resolve().parent.parent


def via_json(record: Record) -> Record:
    return read_export(json.loads(json.dumps(write_export(record))))


@pytest.mark.parametrize("path", fixture_params())
def test_fixture_json_to_notation_to_json_keeps_the_canonical_record(path: Path) -> None:
    record = read_export(json.loads(path.read_text()))
    text = notation.write(record)
    assert notation.read(text) == record
    assert via_json(notation.read(text)) == record


@pytest.mark.parametrize("path", fixture_params())
def test_fixture_notation_to_json_to_notation_keeps_the_text(path: Path) -> None:
    text = notation.write(read_export(json.loads(path.read_text())))
    assert notation.write(via_json(notation.read(text))) == text


@pytest.mark.parametrize("path", fixture_params())
def test_every_field_of_every_standing_action_survives_json_to_notation_to_json(path: Path) -> None:
    """user, original_id, created_at, skip, a route's revenue_str and each automatic action's own
    fields, nested under its parent: the export written from the notation holds every standing
    action exactly as the original export does (undone ones live in the archive's raw copy). An
    envelope field written as null is as if absent (65394 has ``original_id: null`` once)."""
    raw = json.loads(path.read_text())
    standing = [{k: v for k, v in action.items() if v is not None or k not in ENVELOPE}
                for action in standing_actions(raw["actions"]) if action["type"] != "message"]
    back = write_export(notation.read(notation.write(read_export(raw))))
    assert strict(back["actions"]) == strict(standing)
    envelope = {key for action in standing for key in action} & {"user", "original_id", "created_at", "skip"}
    assert envelope, "a shared record without any envelope field proves nothing here"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_generated_records_round_trip_both_ways(record: Record) -> None:
    text = notation.write(record)
    assert notation.read(text) == record
    assert via_json(record) == record
    assert notation.write(via_json(notation.read(text))) == text


def test_examples_are_valid_notation() -> None:
    files = sorted((REPO / "examples").glob("*.rln"))
    assert len(files) >= 3
    for path in files:
        record = notation.read(path.read_text(), str(path))
        assert record.source == "railledger" and record.actions


def test_a_written_game_reads_like_the_documentation() -> None:
    text = """\
[Notation 1]
[Title "18MS"]
[Source "18xx.games"]
[Game "1"]
[Player 1 680 "Ann"]
[Player 2 "Bob" "Bob"]
[Result 680 3000 "Bob" 2500]

4 p1 par GMO 80,1,4   # a comment
5 GMO lay_tile E11 57-0 1
6 GMO run_routes [2+-0 E15-E13-E11 E11-D10 $70 @E11,E15] extra_revenue=0
6.1 p2 pass
7 company:AGS lay_tile C3 1-0 0
8 p2 buy_shares IC_1,IC_2 20 purchase_for=p1
"""
    record = notation.read(text)
    par, lay, run, auto, private, buy = record.actions
    assert (par.entity.kind, par.entity.id, dict(par.fields)) == ("player", 680, {"corporation": "GMO", "share_price": "80,1,4"})
    assert dict(lay.fields) == {"hex": "E11", "tile": "57-0", "rotation": 1}
    assert run.fields["routes"] == [
        {"train": "2+-0", "connections": [["E15", "E13", "E11"], ["E11", "D10"]], "hexes": ["E11", "E15"], "revenue": 70}
    ]
    assert (auto.id, auto.auto, auto.entity.id) == (6, 1, "Bob")
    assert (private.entity.kind, private.entity.id) == ("company", "AGS")
    assert buy.fields["purchase_for"] == 680 and buy.fields["purchase_for_type"] == "player"
    assert record.result == {680: 3000, "Bob": 2500}


def test_the_envelope_reads_as_documented() -> None:
    text = HEADER.replace('[Player 1 1 "A"]', '[Player 1 1 "A"]\n[Player 2 "B" "B"]') + (
        '7 p1 lay_tile E11 57-0 1 @created_at=2021-12-17T19:36:15Z @user=p2 @original_id=12\n'
        '8 p2 pass @user:="A Steaming Kyle" @skip=true\n'
    )
    lay, passed = notation.read(text).actions
    assert (lay.created_at, lay.user, lay.original_id, lay.skip) == (1639769775, "B", 12, None)
    assert dict(lay.fields) == {"hex": "E11", "tile": "57-0", "rotation": 1}
    assert (passed.user, passed.skip, passed.created_at) == ("A Steaming Kyle", True, None)
    assert notation.write(notation.read(text)).splitlines()[-2:] == text.splitlines()[-2:]


HEADER = '[Notation 1]\n[Title "18MS"]\n[Source "x"]\n[Game "1"]\n[Player 1 1 "A"]\n'


@pytest.mark.parametrize(
    ("body", "line", "column", "message"),
    [
        ("1 p1 teleport", 6, 6, "unknown action type 'teleport'"),
        ("1 p1 lay_tile E11 57-0 x", 6, 24, "expected a whole number"),
        ("1 p1 lay_tile E11", 6, 18, "lay_tile needs tile, rotation"),
        ("1 p9 pass", 6, 3, "no player in seat 9"),
        ("2 p1 pass\n1 p1 pass", 7, 1, "out of order"),
        ("1.1 p1 pass", 6, 1, "out of order"),
        ("x1 p1 pass", 6, 1, "expected an action id"),
        ("1 p1 pass color=red", 6, 11, "unknown field color"),
        ("1 p1 run_routes [2-0 A1-B2", 6, 27, "route is not closed"),
        ("1 p1 pass x:={bad", 6, 15, "bad JSON value"),
        ("1 p1 pass @when=now", 6, 11, "expected an envelope field"),
        ("1 p1 pass @created_at=2021-02-30T10:00:00Z", 6, 23, "is not a real time"),
        ("1 p1 pass @created_at=yesterday", 6, 23, "bad value 'yesterday' for @created_at"),
        ("1 p1 pass @skip=true @skip=false", 6, 22, "@skip given twice"),
    ],
)
def test_syntax_errors_name_file_line_and_column(body: str, line: int, column: int, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        notation.read(HEADER + body + "\n", "game.rln")
    error = caught.value
    assert (error.origin, error.line, error.column) == ("game.rln", line, column)
    assert message in error.message
    assert str(error).startswith(f"game.rln:{line}:{column}: ")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[Notation 1]\n[Title "18Nowhere"]\n[Source "x"]\n[Game "1"]\n[Player 1 1 "A"]\n', "unknown title"),
        ('[Notation 2]\n[Title "18MS"]\n[Source "x"]\n[Game "1"]\n[Player 1 1 "A"]\n', "notation version"),
        ('[Notation 1]\n[Title "18MS"]\n[Source "x"]\n[Player 1 1 "A"]\n', "[Game ...] is missing"),
        ('[Notation 1]\n[Title "18MS"]\n[Source "x"]\n[Game "1"]\n', "no [Player"),
        ('[Notation 1]\n[Title "18MS"\n', "not closed"),
        ('[Notation 1]\n[Title]\n[Source "x"]\n[Game "1"]\n[Player 1 1 "A"]\n', "takes one value"),
        ('[Notation 1]\n[Title "18MS"]\n[Source "x"]\n[Game "1"]\n[Seed "x"]\n[Player 1 1 "A"]\n', "takes one value, a whole number"),
        ('[Notation 1]\n[Titel "18MS"]\n', "unknown header [Titel]"),
    ],
)
def test_bad_headers_are_refused(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message.replace("[", r"\[").replace(".", r"\.")):
        notation.read(text, "game.rln")
