"""``railledger ladder``: bots' seat win rates with intervals and their ratings, from games with the
seats turned."""

from __future__ import annotations

import json
import subprocess
import sys

from railledger.pipeline.ladder import Ladder, Table, rate_bots, run_ladder


def test_a_ladder_turns_the_table_and_counts_every_seat_once() -> None:
    ladder = run_ladder("18MS", 3, "greedy,random,random", 3, first_seed=11)
    assert [table.bots for table in ladder.tables] == [
        ("greedy", "random", "random"), ("random", "random", "greedy"), ("random", "greedy", "random")]
    assert [table.seed for table in ladder.tables] == [11, 12, 13]
    assert len(ladder.finished) == 3 and all(table.end_reason for table in ladder.finished)
    standings = {standing.bot: standing for standing in ladder.standings()}
    assert standings["greedy"].seats == 3 and standings["random"].seats == 6
    wins = sum(len(table.winners) for table in ladder.tables)
    assert standings["greedy"].wins + standings["random"].wins == wins
    for standing in standings.values():
        low, high = standing.win_interval
        assert low <= standing.win_rate <= high


def test_the_bot_that_always_finishes_first_rates_above_the_one_always_last() -> None:
    tables = [Table(seed, ("a", "b", "c"), (300, 200, 100)) for seed in range(20)]
    ratings = rate_bots(tables)
    assert ratings["a"].mu > ratings["b"].mu > ratings["c"].mu
    ladder = Ladder("18MS", 3, tables)
    first = ladder.standings()[0]
    assert (first.bot, first.wins, first.seats) == ("a", 20, 20)
    assert first.win_interval[0] > ladder.chance


def test_a_bot_in_two_seats_takes_the_mean_of_its_seats_and_a_tie_at_the_top_wins_both() -> None:
    tie = Table(1, ("a", "b", "a"), (500, 100, 500))
    assert tie.winners == frozenset({0, 2})
    ratings = rate_bots([tie])
    assert ratings["a"].mu > 25 > ratings["b"].mu
    ladder = Ladder("18MS", 3, [tie, Table(2, ("b", "a", "a"), None, "no end")])
    standings = {standing.bot: standing for standing in ladder.standings()}
    assert (standings["a"].seats, standings["a"].wins) == (2, 2)  # the unfinished game is not counted


def test_the_command_prints_its_standings_as_json_and_refuses_an_unknown_bot() -> None:
    command = [sys.executable, "-m", "railledger", "ladder", "--title", "18ms", "--players", "3",
               "--bots", "greedy,random,random", "--games", "2", "--workers", "1"]
    printed = subprocess.run([*command, "--json"], capture_output=True, text=True, check=True)
    found = json.loads(printed.stdout)
    assert found["title"] == "18MS" and found["games"] == found["finished"] == 2
    assert {bot["bot"] for bot in found["bots"]} == {"greedy", "random"}
    assert sum(bot["seats"] for bot in found["bots"]) == 6
    refused = subprocess.run([*command[:-4], "--bots", "greedy,nobody,random"], capture_output=True, text=True)
    shown = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert "games: median " in shown and "ended by: " in shown
    assert refused.returncode != 0
    assert "no bot 'nobody'" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
