"""Speed of self-play for ``railledger bench``: whole games per second per core, per title and bot.

A game is timed from setup to its own end with every seat played by one bot: the bots' choices
(the optimizer's runs included) and the engine's legal actions and processing, not the replay
that ``simulate`` adds. Time is the process's CPU time, so the figure is per core whatever else
the machine runs; the issue's target is :data:`TARGET` greedy games per second.
"""

from __future__ import annotations

import statistics
import time

from rich.table import Table

from railledger.selfplay.bots import bot_named, bot_names
from railledger.selfplay.play import play

TABLES = {"18MS": 3, "18Texas": 4, "The Old Prince 1871": 4}
"""The player count each title is timed with (a common table of it)."""

TARGET = 20.0
"""Greedy games per second per core asked for (issue 14)."""


def selfplay_table(games: int, machine: str, first_seed: int = 1) -> Table:
    """Per title and bot: games per CPU second, CPU seconds a game (median and max), and actions."""
    table = Table(title=f"self-play: whole games per second per core ({games} seeds each, every seat one bot; "
                        f"target {TARGET:g} greedy games/s) on {machine}")
    for column in ("title", "players", "bot", "games/s/core", "median s", "max s", "actions", "actions/s"):
        table.add_column(column, justify="left" if column in ("title", "bot") else "right")
    for title, players in TABLES.items():
        for name in bot_names():
            seconds, actions = [], []
            for seed in range(first_seed, first_seed + games):
                started = time.process_time()
                played = play(title, seed, [bot_named(name) for _ in range(players)])
                seconds.append(time.process_time() - started)
                actions.append(len(played.record.actions))
            total = sum(seconds)
            table.add_row(title.removeprefix("The Old Prince "), str(players), name, f"{games / total:.2f}",
                          f"{statistics.median(seconds):.2f}", f"{max(seconds):.2f}",
                          f"{statistics.mean(actions):.0f}", f"{sum(actions) / total:,.0f}")
    return table
