"""railledger beside 18xx.games' own engine: games played in each, replayed in the other, and
compared state by state (``railledger crosscheck``, ``make crosscheck``).

18xx.games' engine runs from the ref18xx tools (ruby and a mirror of tobymao/18xx, neither part of
this project); without them the check says it was skipped. These constants load with the command's
declaration; the work is :mod:`railledger.crosscheck.reference`'s.
"""

from pathlib import Path

PLAYER_COUNTS: dict[str, tuple[int, ...]] = {"18MS": (2, 3, 4), "18Texas": (3, 4, 5), "The Old Prince 1871": (3, 4)}
"""The titles 18xx.games' engine plays here, and the player counts each is played with."""
REFERENCE_GAMES: dict[str, int] = {"18MS": 200, "18Texas": 200, "The Old Prince 1871": 50}
"""How many games of each title ``make crosscheck`` has 18xx.games' engine play when not told: fewer
of 1871, whose games the reference's random players take minutes each to finish."""

TOOLS_ENV = "RAILLEDGER_REF18XX"
"""The environment variable naming the ref18xx tools' folder."""
DEFAULT_TOOLS = Path("../shared/tools/ref18xx")
"""Where the ref18xx tools are looked for without it: beside the project's checkout."""
