"""Titles the engine knows, by the name 18xx.games gives them, and the package of each.

Generic 18xx rules live in :mod:`replay`; each title's data (map, tiles, market, trains, phases,
companies) and its own rules and steps live in ``replay/titles/<package>/``. The list of titles is
:mod:`ingest.titles`, shared with ingest so a title is known (and its player counts checked) in
one place; ``TITLES`` is that registry's name -> package dict itself.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING

from railledger.ingest.titles import SLUGS as TITLES
from railledger.ingest.titles import is_known_title

if TYPE_CHECKING:
    from railledger.replay.titles.base import Title
    from railledger.replay.variant import Variant

__all__ = ["SUPPORTED", "TITLES", "is_known_title", "title_class", "title_named"]

SUPPORTED: frozenset[str] = frozenset({"18MS", "18Texas", "The Old Prince 1871"})
"""Titles whose replay engine is complete: a conformance FAIL on these fails the build."""


@cache
def title_named(name: str, variant: Variant | None = None) -> Title:
    """The title with this 18xx.games name, its data loaded once per process; with a
    ``variant`` (of this title), the title played with the variant's data.

    Raises KeyError for an unknown name and NotImplementedError for a known title whose engine
    is not written yet.
    """
    if variant is not None and variant.title != name:
        raise ValueError(f"the variant {variant.label} is of {variant.title}, not {name}")
    return title_class(name)(variant)


def title_class(name: str) -> type[Title]:
    """The class of the title with this 18xx.games name (see :func:`title_named` for errors)."""
    if name not in TITLES:
        raise KeyError(f"unknown title {name!r}")
    package = f"railledger.replay.titles.{TITLES[name]}"
    try:
        module = importlib.import_module(package)
    except ModuleNotFoundError as missing:
        if missing.name != package:
            raise  # the title's own code is broken: say so, do not call it unwritten
        module = None
    found = getattr(module, "TITLE_CLASS", None)  # a title folder may hold its data before its rules
    if found is None:
        raise NotImplementedError(f"no replay engine for {name} yet (its data is in replay/titles/{TITLES[name]})")
    title: type[Title] = found
    return title
