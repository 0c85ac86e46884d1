"""An illegal action changes nothing: not the game, not its round, not a step's state. With
--keep-going, one illegal action inserted anywhere gives exactly one flag, and the rest of the
record replays as before, to its recorded result."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from railledger.ingest.model import Action, Entity, Record
from railledger.replay import Game, IllegalAction, replay_record
from tests.conftest import fixture_files
from tests.perft import TEST_GAMES, positions, record_of

RECORDS: list[Record] = [record_of(p) for p in (*TEST_GAMES, *fixture_files())]
ODD_VALUES = [None, 0, -5, 1, 7, 10, 999999, "zz", "A1", "57-0", "GMO_9", "2+-0", "payout", "half", True, [], ["X_1"],
              "70,1,2", {"a": 1}]


RESULTS = {record.key: replay_record(record).result for record in RECORDS}


def game_at(record: Record, index: int) -> Game:
    return next(game for i, game in positions(record) if i == index)


@st.composite
def illegal_insertion(draw: st.DrawFn) -> tuple[Record, int, Action]:
    """A record, a position in it, and an action a player could type there by mistake."""
    record = draw(st.sampled_from(RECORDS))
    index = draw(st.integers(0, len(record.actions) - 1))
    base = draw(st.sampled_from(record.actions))
    how = draw(st.sampled_from(["field", "entity", "elsewhere"]))
    if how == "field" and base.fields:
        name = draw(st.sampled_from(sorted(base.fields)))
        action = replace(base, fields={**base.fields, name: draw(st.sampled_from(ODD_VALUES))})
    elif how == "entity":
        others = [Entity("player", p.id) for p in record.players] + [Entity("corporation", "XX")]
        action = replace(base, entity=draw(st.sampled_from(others)))
    else:
        action = base  # an action of another moment of the game
    return record, index, replace(action, id=record.actions[index].id, auto=0)


@pytest.mark.skipif(not RECORDS, reason="no records")
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(case=illegal_insertion())
def test_an_illegal_action_changes_nothing_and_the_record_goes_on(case: tuple[Record, int, Action]) -> None:
    record, index, action = case
    game = game_at(record, index)
    assume(not action.is_program and not game.is_legal(action))
    before = game.fingerprint()
    with pytest.raises(IllegalAction) as caught:
        game.process(action)
    assert caught.value.index == index
    assert game.fingerprint() == before
    assert game.is_legal(record.actions[index])  # the record's own action is still the one to come

    inserted = replace(record, actions=(*record.actions[:index], action, *record.actions[index:]))
    outcome = replay_record(inserted, keep_going=True)
    assert [flag.index for flag in outcome.flags] == [index]
    assert outcome.result == RESULTS[record.key]
