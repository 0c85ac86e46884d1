"""Event files: every fault one line naming the file's line and field; games that do not fit their
tables named the same way; a file written back keeps the organizer's comments."""

from __future__ import annotations

from pathlib import Path

import pytest

from railledger.events.file import EventError, read_event, set_round_tables
from railledger.events.games import check_games
from tests.events_helpers import event_text, facts

RANK = 'system = "rank points"\npoints = { 3 = [6, 3, 1] }'
THREE = {1001: "Ann", 1002: "Bob", 1003: "Cy"}


def faults_of(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "event.toml"
    path.write_text(text)
    with pytest.raises(EventError) as raised:
        read_event(path)
    return raised.value.lines


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if needle in line)


@pytest.mark.parametrize("change, field, said", [
    (("tie_breaks = [", "tiebreaks = ["), "scoring.tiebreaks", "unknown key 'tiebreaks'"),
    (('system = "rank points"', 'system = "elo"'), "scoring.system", "must be one of 'rank points'"),
    (("points = { 3 = [6, 3, 1] }", "points = { 3 = [6, 3] }"), "scoring.points.3", "a table of 3 has 3 places, but 2"),
    (("players = [1001, 1002, 1003]", "players = [1001, 1002, 1009]"), "rounds[0].tables[0].players[2]",
     "1009 is not a player of the event"),
    (('name = "Bob"', 'name = 7'), "players[1].name", "must be the name to show, not 7"),
    (("game = 11", "game = -4"), "rounds[0].tables[0].game", "must be an 18xx.games game id"),
    (("game = 12", "game = 11"), "rounds[1].tables[0].game", "game 11 is also at rounds[0].tables[0]"),
])
def test_a_bad_value_is_one_line_naming_its_line_and_field(tmp_path: Path, change: tuple[str, str], field: str,
                                                          said: str) -> None:
    text = event_text(RANK + '\ntie_breaks = ["wins"]', [["game = 11\nplayers = [1001, 1002, 1003]"],
                                                          ["game = 12\nplayers = [1001, 1002, 1003]"]], THREE)
    bad = text.replace(*change, 1) if change[0] != "game = 12" else text.replace(*change)
    lines = faults_of(tmp_path, bad)
    assert len(lines) == 1, lines
    number = line_of(bad, change[1]) if change[1] != "game = 11" else [
        n for n, line in enumerate(bad.splitlines(), start=1) if "game = 11" in line][1]
    assert lines[0].startswith(f"{tmp_path / 'event.toml'}:{number}: {field}: {said}"), lines


def test_a_player_at_two_tables_of_a_round(tmp_path: Path) -> None:
    text = event_text(RANK, [["players = [1001, 1002, 1003]", "players = [1004, 1005, 1001]"]],
                      {**THREE, 1004: "Di", 1005: "Ed"})
    lines = faults_of(tmp_path, text)
    second = [n for n, line in enumerate(text.splitlines(), start=1) if line == "[[rounds.tables]]"][1]
    assert lines == [f"{tmp_path / 'event.toml'}:{second}: rounds[0].tables[1]: 1001 is also at rounds[0].tables[0]: "
                     "a player plays one table a round"]


def test_a_scoring_table_that_does_not_cover_a_table_size(tmp_path: Path) -> None:
    text = event_text(RANK + "\n\n[seating]\nsizes = [3, 4]", [["players = [1001, 1002, 1003]"]], THREE)
    assert faults_of(tmp_path, text) == [
        f"{tmp_path / 'event.toml'}:{line_of(text, 'points = ')}: scoring.points: no points for a table of 4 (seating.sizes)"]


def test_sizes_the_title_is_not_played_with(tmp_path: Path) -> None:
    text = event_text('system = "value"\n\n[seating]\nsizes = [4, 6]', [], THREE)
    assert faults_of(tmp_path, text) == [
        f"{tmp_path / 'event.toml'}:{line_of(text, 'sizes = ')}: seating.sizes: 18MS is played by 2 to 4 players, not 6"]


def test_not_toml_and_not_there(tmp_path: Path) -> None:
    assert faults_of(tmp_path, 'name = "x"\n[scoring\n')[0].startswith(f"{tmp_path / 'event.toml'}: not TOML: ")
    with pytest.raises(EventError) as raised:
        read_event(tmp_path / "missing.toml")
    assert raised.value.lines == [f"{tmp_path / 'missing.toml'}: not an event file: no such file"]


def test_an_adjust_decision_needs_its_values_and_a_reason(tmp_path: Path) -> None:
    text = event_text(RANK, [['game = 11\ndecision = { ruling = "adjust", reason = "" }']], THREE)
    where = f"{tmp_path / 'event.toml'}:{line_of(text, 'decision = ')}: rounds[0].tables[0].decision"
    assert faults_of(tmp_path, text) == [
        f"{where}.reason: must be the reason, shown with it, not ''",
        f"{where}: an adjust ruling gives the final values: values = {{ 1234 = 5000, ... }}"]


def test_games_that_do_not_fit_their_tables(tmp_path: Path) -> None:
    text = event_text(RANK, [["game = 11\nplayers = [1001, 1002, 1003]", "game = 12"], ["game = 13", "game = 14"]],
                      {**THREE, 1004: "Di", 1005: "Ed", 1006: "Flo"})
    path = tmp_path / "event.toml"
    path.write_text(text)
    event_file = read_event(path)
    games = {11: facts(11, {1001: 3, 1002: 2, 1004: 1}), 12: facts(12, {1004: 3, 1005: 2, 1006: 1}, title="18Texas"),
             13: facts(13, {1001: 1, 1002: 2, 1003: 3, 1004: 4})}
    lines = check_games(event_file, games, {14: "game 14: http://127.0.0.1/api/game/14: not found (HTTP 404)"}).found
    table_line = [n for n, line in enumerate(text.splitlines(), start=1) if line.startswith("game = ")]
    assert lines == [
        f"{path}:{table_line[0]}: rounds[0].tables[0].game: game 11 seats Di (1004), who is not at this table: list them, or "
        "declare them a substitute",
        f"{path}:{table_line[0]}: rounds[0].tables[0].game: game 11 does not seat Cy (1003), whom this table lists",
        f"{path}:{table_line[1]}: rounds[0].tables[1].game: game 12 is a 18Texas game; the event's titles are 18MS",
        f"{path}:{table_line[1] - 1}: rounds[0].tables[1]: Di (1004) is also at rounds[0].tables[0]: a player plays one "
        "table a round",
        f"{path}:{table_line[2]}: rounds[1].tables[0].game: game 13 has 4 players, and scoring.points has no points for a "
        "table of 4",
        f"{path}:{table_line[3]}: rounds[1].tables[1].game: game 14: http://127.0.0.1/api/game/14: not found (HTTP 404)",
    ]


def test_a_seating_written_back_keeps_the_comments_and_reads_again(tmp_path: Path) -> None:
    text = event_text(RANK, [["game = 11  # the opening game\nplayers = [1001, 1002, 1003]"]], THREE)
    text = text.replace("[scoring]", "# how tables score\n[scoring]")
    path = tmp_path / "event.toml"
    path.write_text(text)
    written = set_round_tables(read_event(path), 2, [(1003, 1001, 1002)], "proposed")
    assert written.startswith(text.rstrip("\n"))
    assert "# how tables score" in written and "game = 11  # the opening game" in written
    assert "players = [1003, 1001, 1002] # Cy, Ann, Bob" in written
    path.write_text(written)
    again = read_event(path).event
    assert [(r.name, [t.players for t in r.tables]) for r in again.rounds] == [
        ("Round 1", [(1001, 1002, 1003)]), ("Round 2", [(1003, 1001, 1002)])]
    with pytest.raises(EventError) as raised:
        set_round_tables(read_event(path), 1, [(1001, 1002, 1003)], "proposed")
    assert "round 1 already has its games" in raised.value.lines[0]
