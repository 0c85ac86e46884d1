"""Titles the engine knows, by the name 18xx.games gives them, and where each one's data lives.

Generic 18xx rules live in :mod:`replay`; each title's data (map, tiles, market, trains,
phases, companies) and rule overrides live in ``replay/titles/<slug>/``.
"""

from __future__ import annotations

TITLES: dict[str, str] = {
    "18MS": "18ms",
    "18Texas": "18texas",
    "The Old Prince 1871": "1871",
}
"""18xx.games title name -> folder slug."""


SUPPORTED: frozenset[str] = frozenset({"18MS", "18Texas", "The Old Prince 1871"})
"""Titles whose replay engine is complete: a conformance FAIL on these fails the build."""


def is_known_title(title: object) -> bool:
    return isinstance(title, str) and title in TITLES
