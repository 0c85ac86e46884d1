"""Speed of self-play for ``railledger bench``: whole games per second per core, per title and bot.

A game is timed from setup to its own end with every seat played by one bot: the bots' choices
(the optimizer's runs included) and the engine's legal actions and processing, not the replay
that ``simulate`` adds. Time is the process's CPU time, so the figure is per core whatever else
the machine runs.
"""

from __future__ import annotations

import statistics
import time

from railledger.bench.sections import Section
from railledger.selfplay.bots import bot_named, bot_names
from railledger.selfplay.play import play

TABLES = {"18MS": 3, "18Texas": 4, "The Old Prince 1871": 4}
"""The player count each title is timed with (a common table of it)."""



def selfplay_section(games: int, first_seed: int = 1) -> Section:
    """Per title and bot: games per CPU second, CPU seconds a game (median and max), and actions."""
    section = Section(f"self-play: whole games per second per core ({games} seeds each, every seat one bot)",
                      ("title", "players", "bot", "games/s/core", "median s", "max s", "actions", "actions/s"),
                      left=frozenset({0, 2}))
    for title, players in TABLES.items():
        for name in bot_names():
            seconds, actions = [], []
            for seed in range(first_seed, first_seed + games):
                started = time.process_time()
                played = play(title, seed, [bot_named(name) for _ in range(players)])
                seconds.append(time.process_time() - started)
                actions.append(len(played.record.actions))
            total = sum(seconds)
            section.rows.append((title.removeprefix("The Old Prince "), str(players), name, f"{games / total:.2f}",
                                 f"{statistics.median(seconds):.2f}", f"{max(seconds):.2f}",
                                 f"{statistics.mean(actions):.0f}", f"{sum(actions) / total:,.0f}"))
    return section
