"""Titles the engine knows, by the name 18xx.games gives them, and where each one's data lives.

Generic 18xx rules live in :mod:`replay`; each title's data (map, tiles, market, trains,
phases, companies) and rule overrides live in ``replay/titles/<slug>/``. The list of titles is
:mod:`ingest.titles`, shared with ingest so a title is known (and its player counts checked)
in one place; ``TITLES`` is that registry's name -> slug dict itself.
"""

from __future__ import annotations

from ingest.titles import SLUGS as TITLES
from ingest.titles import is_known_title

SUPPORTED: frozenset[str] = frozenset({"18MS", "18Texas", "The Old Prince 1871"})
"""Titles whose replay engine is complete: a conformance FAIL on these fails the build."""

__all__ = ["SUPPORTED", "TITLES", "is_known_title"]
