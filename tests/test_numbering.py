"""One number per action: the record's own id, with the round the action came in beside it.

A refused action belongs to the round it came in, even when the action before it ended another
round: the first tile lay of an operating round, refused, is labelled with that operating round,
not with the stock round whose last pass opened it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest

from railledger.analytics.validation import flags_in_words
from railledger.ingest import notation
from railledger.ingest.sources import DEFAULT_MAX_SIZE, read_record
from railledger.replay import replay_record
from railledger.replay.verdict import judge
from tests.conftest import REPO, fixture_params
from tests.mutations import edited

SHORT_18MS = (REPO / "tests" / "games" / "18ms-short.rln").read_text()


def test_a_refused_first_action_of_an_operating_round_is_labelled_with_that_round() -> None:
    # 210 is SR 1's last pass, which opens OR 1.1; IC's first lay, moved far from its network, is refused
    record = notation.read(edited(SHORT_18MS, 220, "220 IC lay_tile H10 58-0 2"))
    replay = replay_record(record, keep_going=True, snapshots=True)
    root = replay.flags[0]
    assert (root.action_id, root.round) == ("220", "OR 1.1")
    assert replay.snapshots[root.index].round == "OR 1.1"  # the stored state's label, as the review shows it
    assert replay.snapshots[root.index - 1].round == "SR 1"
    assert root.sentence == "IC lays tile 58 on H10 (Tallahassee), rotation 2, for $0"


def test_flags_and_verdicts_name_the_action_by_its_record_id_and_round() -> None:
    record = notation.read(edited(SHORT_18MS, 220, "220 IC lay_tile H10 58-0 2"))
    replay = replay_record(record, keep_going=True)
    verdict = judge(record, replay)
    assert verdict.detail.startswith("action 220 (OR 1.1): IC lays tile 58 on H10 (Tallahassee)")
    assert "#" not in verdict.detail  # no canonical index beside the record's id
    assert replay.as_dict()["flags"][0]["round"] == "OR 1.1"


PLAYER_ID = re.compile(r"(?<![\w$.-])(\d{3,})(?![\w%])")


@pytest.mark.parametrize("path", fixture_params())
def test_no_message_names_a_player_by_an_id(path: Path) -> None:
    """Every flag of a shared record with an action taken out every 25 (the record then meets
    turns it did not expect, as after a moved tile lay) names players by name: no 18xx.games
    user id (680, 4861...) in any message or sentence."""
    record = read_record(str(path), DEFAULT_MAX_SIZE)
    ids = {str(p.id) for p in record.players}
    cut = record.actions[:5] + tuple(a for i, a in enumerate(record.actions[5:]) if i % 25)
    replay = replay_record(replace(record, actions=cut), keep_going=True)
    assert len(replay.flags) > 10, f"{path.name}: too few refusals to say anything"
    for flag in replay.flags:
        for text in (flag.message, flag.sentence):
            named = set(PLAYER_ID.findall(text)) & ids
            assert not named, f"{path.name} action {flag.action_id}: {text!r} names player id {named}"


def test_the_flag_listing_names_each_follower_by_the_root_cause_it_follows() -> None:
    swapped = SHORT_18MS.replace("220 IC lay_tile B2 58-0 2", "220 IC lay_tile B4 9-0 1", 1)
    record = notation.read(swapped.replace("230 IC lay_tile B4 9-0 1", "230 IC lay_tile B2 58-0 2", 1))
    flags = replay_record(record, keep_going=True).flags
    frame = pl.DataFrame([{"game_key": record.key, "title": record.title, "seq": f.index, "action_id": f.action_id,
                           "round": f.round, "sentence": f.sentence, "rule": f.rule, "section": f.section,
                           "message": f.message, "follows": f.follows} for f in flags])
    worded = flags_in_words(frame)
    assert worded.row(0, named=True)["action"] == "220 (OR 1.1)"
    assert worded.row(0, named=True)["what was done"] == "IC lays tile 9 on B4, rotation 1, for $0"
    assert list(worded["cause"]) == ["root cause"] + ["follows from action 220 (OR 1.1)"] * (len(flags) - 1)
    assert len(flags) > 2
