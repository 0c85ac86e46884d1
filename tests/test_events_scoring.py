"""Event scoring and standings, against values worked out by hand: each scoring system, what ties
get, abandoned seats, substitutes, decisions, stages and every tie-break."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from railledger.events.model import Scoring
from railledger.events.scoring import score_table
from tests.events_helpers import NAMES, by_name, counted, event_text, facts

FOUR = [5000, 4000, 4000, 3000]
SIX = {user: NAMES[user] for user in range(1001, 1007)}


@pytest.mark.parametrize("system, ties, expected", [
    ("rank points", "share", [10, Fraction(9, 2), Fraction(9, 2), 1]),
    ("rank points", "higher", [10, 6, 6, 1]),
    ("rank points", "lower", [10, 3, 3, 1]),
    ("winner share", "share", [100, 80, 80, 60]),
    ("margin", "share", [1000, -1000, -1000, -2000]),
    ("value", "share", FOUR),
])
def test_a_table_of_four_with_a_tie_for_second(system: str, ties: str, expected: list) -> None:
    scoring = Scoring(system, {4: tuple(map(Fraction, (10, 6, 3, 1)))}, ties)
    scored = score_table(FOUR, [False] * 4, scoring)
    assert [s.place for s in scored] == [1, 2, 2, 4]
    assert [s.score for s in scored] == expected


@pytest.mark.parametrize("system, expected", [
    ("rank points", [1, 8, 8, 3]),  # the others share places 1 and 2 (10 and 6), the third is 3rd; the abandoned last
    ("winner share", [0, 100, 100, 75]),
    ("margin", [-4000, 0, 0, -1000]),
    ("value", [0, 4000, 4000, 3000]),
])
def test_an_abandoned_winner_is_placed_last_with_nothing(system: str, expected: list) -> None:
    scoring = Scoring(system, {4: tuple(map(Fraction, (10, 6, 3, 1)))})
    scored = score_table(FOUR, [True, False, False, False], scoring)
    assert [s.place for s in scored] == [4, 1, 1, 3]
    assert [s.score for s in scored] == expected


def test_a_share_when_the_winner_has_nothing_or_a_seat_is_in_debt() -> None:
    scoring = Scoring("winner share")
    assert [s.score for s in score_table([0, -50, 0], [False] * 3, scoring)] == [0, 0, 0]
    assert [s.score for s in score_table([300, -50, 100], [False] * 3, scoring)] == [100, 0, Fraction(100, 3)]


RANK = 'system = "rank points"\npoints = { 3 = [6, 3, 1], 4 = [8, 5, 2, 0] }\ntie_breaks = ["head-to-head", "wins", "best finishes", "total value", "lot"]'


def test_standings_sum_the_rounds_and_break_ties_by_head_to_head(tmp_path: Path) -> None:
    """Round 1: Ann 6, Bob 3, Cy 1 | Di 6, Ed 3, Flo 1. Round 2: Bob 6, Di 3, Ann 1 | Cy 6, Flo 3,
    Ed 1. Totals: Ann 7, Bob 9, Cy 7, Di 9, Ed 4, Flo 4. Bob and Di met in round 2 (Bob ahead):
    Bob. Ann and Cy met in round 1 (Ann ahead): Ann. Ed and Flo met in
    round 1 (Ed ahead) and round 2 (Flo ahead): 1 each; wins 0; finishes 2nd, 3rd each; total
    value Ed 400 + 100 = 500, Flo 300 + 350 = 650: Flo."""
    text = event_text(RANK, [["game = 1\nplayers = [1001, 1002, 1003]", "game = 2\nplayers = [1004, 1005, 1006]"],
                             ["game = 3\nplayers = [1002, 1004, 1001]", "game = 4\nplayers = [1003, 1006, 1005]"]],
                      players=SIX)
    games = [facts(1, {1001: 700, 1002: 500, 1003: 200}), facts(2, {1004: 650, 1005: 400, 1006: 300}),
             facts(3, {1002: 600, 1004: 300, 1001: 100}), facts(4, {1003: 900, 1006: 350, 1005: 100})]
    _, lines = counted(tmp_path, text, games)
    assert [(line.player.name, line.place, line.total) for line in lines] == [
        ("Bob", 1, 9), ("Di", 2, 9), ("Ann", 3, 7), ("Cy", 4, 7), ("Flo", 5, 4), ("Ed", 6, 4)]
    table = by_name(lines)
    assert (table["Bob"].tie_breaks, table["Di"].tie_breaks) == ("head-to-head 1", "head-to-head 0")
    assert table["Ann"].tie_breaks == "head-to-head 1"
    assert table["Flo"].tie_breaks == "head-to-head 1; wins 0; best finishes 2nd, 3rd; total value 650"
    assert table["Bob"].rounds == ("3", "6")


def test_players_tied_after_every_tie_break_share_their_place(tmp_path: Path) -> None:
    text = event_text('system = "value"\ntie_breaks = ["wins"]', [["game = 1\nplayers = [1001, 1002]"]],
                      players={1001: "Ann", 1002: "Bob"})
    _, lines = counted(tmp_path, text, [facts(1, {1001: 400, 1002: 400})])
    assert [(line.place, line.tied) for line in lines] == [(1, True), (1, True)]


def test_winner_share_and_margin_totals(tmp_path: Path) -> None:
    """Two rounds of three: share 100/75/50 then 100/40/20 (Cy 40 of 1000, Ann 20): Ann 120, Bob
    175, Cy 90. Margin: Ann +200, Bob -200, Cy -400; then Bob +600, Cy -600, Ann -800."""
    rounds = [["game = 1\nplayers = [1001, 1002, 1003]"], ["game = 2\nplayers = [1001, 1002, 1003]"]]
    games = [facts(1, {1001: 800, 1002: 600, 1003: 400}), facts(2, {1001: 200, 1002: 1000, 1003: 400})]
    players = {1001: "Ann", 1002: "Bob", 1003: "Cy"}
    _, share = counted(tmp_path, event_text('system = "winner share"', rounds, players), games)
    assert {line.player.name: line.total for line in share} == {"Ann": 120, "Bob": 175, "Cy": 90}
    _, margin = counted(tmp_path, event_text('system = "margin"', rounds, players), games)
    assert [(line.player.name, line.total) for line in margin] == [("Bob", 400), ("Ann", -600), ("Cy", -1000)]


def test_games_not_valid_are_set_apart_until_decided(tmp_path: Path) -> None:
    decided = 'game = 2\nplayers = [1004, 1005, 1006]\ndecision = { ruling = "void", reason = "played with a wrong rule" }'
    text = event_text(RANK, [["game = 1\nplayers = [1001, 1002, 1003]", decided],
                             ["game = 3\nplayers = [1001, 1004, 1005]\ndecision = { ruling = \"adjust\", reason = \"the "
                              "engine crashed\", values = { 1001 = 10, 1004 = 30, 1005 = 20 } }",
                              "game = 4\nplayers = [1002, 1003, 1006]\n"
                              "decision = { ruling = \"accept\", reason = \"ended by hand by agreement\" }"]],
                      players=SIX)
    games = [facts(1, {1001: 5, 1002: 4, 1003: 3}, "illegal", "action 12 (#11) by Ann: rule: message"),
             facts(2, {1004: 5, 1005: 4, 1006: 3}), facts(3, {1001: 5, 1004: 4, 1005: 3}),
             facts(4, {1002: 7, 1003: 9, 1006: 8}, "unfinished", "ended by hand by Bob at action 99")]
    results, lines = counted(tmp_path, text, games)
    assert [r.state for r in results] == ["not counted", "void", "counted", "counted"]
    assert results[0].why == "illegal: action 12 (#11) by Ann: rule: message"
    assert results[1].why == "played with a wrong rule"
    table = by_name(lines)
    assert table["Ann"].rounds == ("not counted", "1") and table["Di"].rounds == ("void", "6")
    assert table["Cy"].rounds == ("not counted", "6") and table["Bob"].total == 1


def test_a_substitute_scores_for_the_player_they_replaced_or_for_nobody(tmp_path: Path) -> None:
    table = 'game = 1\nplayers = [1001, 1002, 1003]\nsubstitutes = [{ id = 2001, name = "Sam", replaces = 1003 }]'
    players = {1001: "Ann", 1002: "Bob", 1003: "Cy"}
    game = facts(1, {1001: 100, 1002: 200, 2001: 300})
    _, lines = counted(tmp_path, event_text(RANK, [[table]], players), [game])
    assert by_name(lines)["Cy"].total == 6 and "played by Sam (2001), a substitute" in by_name(lines)["Cy"].notes[0]
    _, lines = counted(tmp_path, event_text(RANK + '\nsubstitute_scores = "none"', [[table]], players), [game])
    assert by_name(lines)["Cy"].total == 0 and by_name(lines)["Bob"].total == 3


def test_a_seat_others_played_for_counts_as_abandoned_when_the_event_says_so(tmp_path: Path) -> None:
    players = {1001: "Ann", 1002: "Bob", 1003: "Cy"}
    game = facts(1, {1001: 900, 1002: 800, 1003: 100}, sent_by_others={1001: 12, 1002: 3})
    rounds = [["game = 1\nplayers = [1001, 1002, 1003]"]]
    _, lines = counted(tmp_path, event_text(RANK + "\nabandoned_after = 10", rounds, players), [game])
    assert [(line.player.name, line.total) for line in lines] == [("Bob", 6), ("Cy", 3), ("Ann", 1)]
    assert "seat counted as abandoned" in by_name(lines)["Ann"].notes[0]
    _, lines = counted(tmp_path, event_text(RANK + '\nabandoned_after = 10\nabandoned = "as played"', rounds, players), [game])
    assert by_name(lines)["Ann"].total == 6


def test_a_later_stage_ranks_above_an_earlier_one(tmp_path: Path) -> None:
    """Heats, then a final of two: the final's loser, with fewer points over the event, is second."""
    players = {1001: "Ann", 1002: "Bob", 1003: "Cy"}
    text = event_text('system = "rank points"\npoints = { 2 = [3, 0], 3 = [6, 3, 1] }',
                      [["game = 1\nplayers = [1001, 1002, 1003]"], ["game = 2\nplayers = [1001, 1003]"]], players)
    text = text.replace('name = "Round 2"', 'name = "Final"\nstage = 2')
    _, lines = counted(tmp_path, text, [facts(1, {1001: 1, 1002: 9, 1003: 5}), facts(2, {1001: 9, 1003: 5})])
    assert [(line.player.name, line.stage, line.stage_score, line.total) for line in lines] == [
        ("Ann", 2, 3, 4), ("Cy", 2, 0, 3), ("Bob", 1, 6, 6)]
