"""Undo/redo normalization follows 18xx.games exactly (rules in docs/notation.md)."""

from __future__ import annotations

import pytest

from railledger.ingest.errors import RecordError
from railledger.ingest.undo import standing_actions, undo_history
from tests.conftest import act


def ids(actions: list[dict]) -> list[int]:
    return [a["id"] for a in standing_actions(actions)]


def test_undo_without_target_takes_back_the_last_action() -> None:
    assert ids([act(1), act(2), act(3, "undo")]) == [1]


def test_undo_skips_messages_and_never_removes_them() -> None:
    actions = [act(1), act(2), act(3, "message", message="hi"), act(4, "undo")]
    assert ids(actions) == [1, 3]


def test_undo_to_an_id_takes_back_everything_after_it() -> None:
    actions = [act(1), act(2), act(3), act(4), act(5, "undo", action_id=2)]
    assert ids(actions) == [1, 2]


def test_undo_to_zero_takes_back_everything() -> None:
    actions = [act(1), act(2), act(3, "message", message="gg"), act(4, "undo", action_id=0)]
    assert ids(actions) == [3]


def test_redo_restores_the_most_recent_batch() -> None:
    actions = [act(1), act(2), act(3), act(4, "undo", action_id=1), act(5, "undo"), act(6, "redo")]
    assert ids(actions) == [1]
    actions.append(act(7, "redo"))
    assert ids(actions) == [1, 2, 3]


def test_a_new_action_clears_the_redo_stack() -> None:
    actions = [act(1), act(2), act(3, "undo"), act(4), act(5, "redo")]
    with pytest.raises(RecordError, match="nothing to redo"):
        standing_actions(actions)


def test_a_message_does_not_clear_the_redo_stack() -> None:
    actions = [act(1), act(2), act(3, "undo"), act(4, "message", message="oops"), act(5, "redo")]
    assert ids(actions) == [1, 2, 4]


def test_undo_of_an_undone_range_is_consecutive() -> None:
    # Two plain undos take back the last two standing actions, one each.
    assert ids([act(1), act(2), act(3), act(4, "undo"), act(5, "undo")]) == [1]


def test_undo_to_a_missing_id_is_an_error_naming_the_undo() -> None:
    with pytest.raises(RecordError) as caught:
        standing_actions([act(1), act(2, "undo", action_id=99)])
    assert (caught.value.action, caught.value.field) == ("2 (#1)", "action_id")
    assert "99" in caught.value.message


def test_runs_of_undos_and_redos_take_back_and_restore_in_stack_order() -> None:
    actions = [act(i) for i in range(1, 2_001)] + [act(2_000 + i, "undo") for i in range(1, 2_001)]
    actions += [act(4_000 + i, "redo") for i in range(1, 1_001)] + [act(5_001, "undo", action_id=500)]
    actions += [act(5_002, "redo"), act(5_003, "undo"), act(5_004)]
    assert ids(actions) == [*range(1, 1_000), 5_004]


def test_the_undo_history_says_what_each_undo_took_back_and_where() -> None:
    actions = [act(1), act(2), act(3), act(4, "undo", action_id=1), act(5, "message", message="sorry"),
               act(6, "redo"), act(7, "undo"), act(8)]
    history = [([a["id"] for a in u.batch], u.action["id"], u.is_redo, u.after) for u in undo_history(actions)]
    assert history == [([2, 3], 4, False, 3), ([2, 3], 6, True, 1), ([3], 7, False, 3)]
    assert undo_history([act(1), act(2)]) == []
