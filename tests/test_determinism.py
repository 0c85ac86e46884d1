"""Self-play is deterministic for its arguments: the same seed plays the same game whatever
PYTHONHASHSEED orders sets and dicts of strings by (each game in a process of its own)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLAY = "from tests.regression_gate import selfplay_actions, digest; print(digest(selfplay_actions({title!r}, {seed}, {bots!r})))"


def actions_under(hash_seed: str, title: str, seed: int, bots: tuple[str, ...]) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-c", PLAY.format(title=title, seed=seed, bots=bots)], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.mark.parametrize("title, seed, bots", [
    ("18MS", 2, ("greedy", "greedy", "random", "random")),
    ("18Texas", 111, ("random", "greedy", "random")),
    ("The Old Prince 1871", 102, ("random", "greedy", "random", "greedy")),
])
def test_a_game_plays_the_same_actions_under_two_hash_seeds(title: str, seed: int, bots: tuple[str, ...]) -> None:
    """The 18Texas and 1871 games each reach two routes of equal revenue over different track
    (found in the order a tile's set of track links iterates in): the tie is broken in a fixed order."""
    first, second = actions_under("3", title, seed, bots), actions_under("11", title, seed, bots)
    assert first and first == second
