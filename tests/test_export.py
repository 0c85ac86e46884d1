"""Reading 18xx.games exports into canonical records, and writing them back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from railledger.ingest.errors import RecordError
from railledger.ingest.export import read_export, write_export
from railledger.ingest.model import Entity
from tests.conftest import act, export, fixture_params

EXPECTED_GAME_ACTIONS = {
    "18MS/14375": 328,
    "18MS/67889": 318,
    "18Texas/65394": 482,
    "18Texas/hs_hqrmcntr_1641188459": 72,
    "1871/1871_game_end_bankrupt": 402,
    "1871/1871_game_end_final_phase": 658,
}


@pytest.mark.parametrize("path", fixture_params())
def test_fixture_game_action_counts(path: Path) -> None:
    record = read_export(json.loads(path.read_text()))
    assert len(record.actions) == EXPECTED_GAME_ACTIONS[f"{path.parent.name}/{path.stem}"]


@pytest.mark.parametrize("path", fixture_params())
def test_fixture_round_trips_through_written_json(path: Path) -> None:
    record = read_export(json.loads(path.read_text()))
    assert read_export(json.loads(json.dumps(write_export(record)))) == record


def test_auto_actions_follow_their_parent_in_order() -> None:
    parent = act(5, "buy_shares", shares=["GMO_1"], percent=10)
    parent["auto_actions"] = [
        {"type": "pass", "entity": 20, "entity_type": "player"},
        {"type": "buy_shares", "entity": 20, "entity_type": "player", "shares": ["IC_2"], "percent": 10},
    ]
    record = read_export(export([act(4), parent, act(6)]))
    assert [(a.id, a.auto, a.type) for a in record.actions] == [
        (4, 0, "pass"),
        (5, 0, "buy_shares"),
        (5, 1, "pass"),
        (5, 2, "buy_shares"),
        (6, 0, "pass"),
    ]
    assert record.actions[3].entity == Entity("player", 20)


def test_program_settings_are_metadata_but_their_auto_actions_are_game_actions() -> None:
    program = act(2, "program_share_pass", unconditional=False, indefinite=False)
    program["auto_actions"] = [{"type": "pass", "entity": 10, "entity_type": "player"}]
    record = read_export(export([act(1), program]))
    assert [a.type for a in record.programs] == ["program_share_pass"]
    assert [(a.id, a.auto, a.type) for a in record.actions] == [(1, 0, "pass"), (2, 1, "pass")]


def test_undone_actions_and_messages_are_not_game_actions() -> None:
    actions = [act(1), act(2, "message", message="hello"), act(3), act(4, "undo")]
    assert [a.id for a in read_export(export(actions)).actions] == [1]


def test_the_envelope_is_kept_apart_from_the_game_fields() -> None:
    lay = act(3, "lay_tile", "GMO", "corporation", hex="E11", tile="57-0", rotation=2, created_at=1, user=20, skip=False,
              original_id=7)
    (action,) = read_export(export([lay])).actions
    assert dict(action.fields) == {"hex": "E11", "tile": "57-0", "rotation": 2}
    assert (action.created_at, action.user, action.skip, action.original_id) == (1, 20, False, 7)
    assert write_export(read_export(export([lay])))["actions"] == [lay]


def test_route_display_texts_are_kept_beside_the_routes() -> None:
    route = {"train": "2+-0", "connections": [["E11", "E13"]], "revenue": 40, "revenue_str": "E11-E13"}
    run = act(4, "run_routes", "GMO", "corporation", routes=[route, {"train": "2+-1", "connections": [["E11"]]}])
    (action,) = read_export(export([run])).actions
    assert all("revenue_str" not in r for r in action.fields["routes"])  # no rule reads display text
    assert action.revenue_str == ("E11-E13", None)
    assert write_export(read_export(export([run])))["actions"] == [run]


def test_result_is_keyed_by_player_id_and_hotseat_ids_are_names() -> None:
    record = read_export(export([act(1, entity="Ann")], players=[{"name": "Ann"}, {"name": "Bob"}], result={"Ann": 5}))
    assert [p.id for p in record.players] == ["Ann", "Bob"]
    assert record.result == {"Ann": 5}
    numeric = read_export(export([act(1)], result={"10": 700, "20": 650}))
    assert numeric.result == {10: 700, 20: 650}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"hello": "world"}, "not an 18xx.games game record"),
        ([1, 2, 3], "not an 18xx.games game record"),
        (export([act(1)], title="18Nowhere"), "unknown title '18Nowhere'"),
        (export([act(1, "teleport")]), "unknown action type 'teleport'"),
        (export([act(1, "lay_tile", "GMO", "corporation", hex="E11")]), "lay_tile action lacks tile, rotation"),
        (export([act(2), act(1)]), "action ids must increase"),
        (export([act(1), {"type": "pass"}]), "truncated record"),
        (export([act(1)], players=[]), "no players"),
        (export([act(1)], settings=[1]), "'settings' is not an object"),
        (export([act(1)], result=[700]), "'result' is not an object of player values"),
        (export([{**act(1), "auto_actions": 5}]), "auto_actions is not a list"),
        (export([act(1), act(2, "undo", action_id=[1])]), "undo points at action"),
    ],
)
def test_bad_records_are_refused_with_a_reason(data: object, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        read_export(data)


def test_unknown_auto_action_type_names_the_parent_and_position() -> None:
    parent = act(7)
    parent["auto_actions"] = [{"type": "pass", "entity": 10, "entity_type": "player"}, {"type": "warp", "entity": 10, "entity_type": "player"}]
    with pytest.raises(RecordError) as caught:
        read_export(export([parent]))
    assert caught.value.action == "7.2 (#0)"


def test_duration_runs_from_creation_to_the_last_action_in_the_list() -> None:
    # a fix-up pass the server inserted years later in the middle does not make the game longer
    actions = [act(1, created_at=1_000_100), act(2, created_at=1_900_000_000), act(3, created_at=1_007_200)]
    record = read_export(export(actions, created_at=1_000_000))
    assert record.duration == 7_200
    assert read_export(write_export(record)).duration == 7_200  # kept through a written export
    assert read_export(export(actions, created_at="2024-01-05")).duration is None  # a hotseat date has no time
    assert read_export(export([act(1)], created_at=1_000_000)).duration is None  # an action without a time

