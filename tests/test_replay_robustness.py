"""A damaged record never crashes the engine: every problem becomes a flag naming a rule."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from railledger.ingest import notation
from railledger.replay import replay_record

GAMES = [notation.read(p.read_text()) for p in sorted((Path(__file__).resolve().parent / "games").glob("*.rln"))]
ODD_VALUES = st.sampled_from([
    None, 0, -5, "zz", [], 999999, "A1", "ZZ99", "57-0", "GMO_9", ["X_1"], 7, "I1-0-5", "99-99", "payout", True,
    [{"train": "zz", "connections": [["A1", "ZZ9"]]}], [{"train": "2+-0", "connections": []}], {"a": 1},
])


@settings(max_examples=150, deadline=None)
@given(game=st.sampled_from(GAMES), data=st.data())
def test_a_damaged_record_is_flagged_not_crashed(game, data) -> None:  # type: ignore[no-untyped-def]
    actions = list(game.actions)
    i = data.draw(st.integers(0, len(actions) - 1))
    change = data.draw(st.sampled_from(["drop", "repeat", "swap", "field"]))
    if change == "drop":
        del actions[i]
    elif change == "repeat":
        actions.insert(i, actions[i])
    elif change == "swap" and i + 1 < len(actions):
        actions[i], actions[i + 1] = actions[i + 1], actions[i]
    elif change == "field" and actions[i].fields:
        name = data.draw(st.sampled_from(sorted(actions[i].fields)))
        actions[i] = replace(actions[i], fields={**actions[i].fields, name: data.draw(ODD_VALUES)})
    outcome = replay_record(replace(game, actions=tuple(actions)), keep_going=True, snapshots=True)
    assert all(flag.rule.startswith(game.title + "/") and flag.message for flag in outcome.flags)
    assert len(outcome.snapshots) == len(actions)
