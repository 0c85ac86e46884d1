"""The titles railledger knows, by the name 18xx.games gives them: one registry for every room.

Ingest uses it to refuse records of unknown titles and records with a player count the title
is not played with (a one-line error before anything is replayed); the rules engine finds each
title's data in the folder named by its slug (``replay/titles/<slug>/``) and re-exports
:data:`SLUGS` as ``replay.titles.TITLES``, so there is a single list to extend.

The player counts are the titles' published ones (the keys of ``starting_cash`` in
``replay/titles/<slug>/game.json``), written here as data because ingest does not read the
engine's files.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Title:
    """One title: its 18xx.games name, its package (folder), the player counts it is played with,
    and the ids of pseudo-players: entities 18xx.games lets act as players without a seat (its
    records name them as a player entity)."""

    name: str
    slug: str
    player_counts: tuple[int, ...]
    pseudo_players: tuple[int, ...] = ()


REGISTRY: tuple[Title, ...] = (
    Title("18MS", "g18ms", (2, 3, 4)),
    Title("18Texas", "g18texas", (3, 4, 5)),
    Title("The Old Prince 1871", "g1871", (3, 4), pseudo_players=(-1,)),  # -1: the Union Bank
)
"""Every known title. A new title is one line here plus its data folder in replay/titles/."""

SLUGS: dict[str, str] = {title.name: title.slug for title in REGISTRY}
"""18xx.games title name -> folder slug. ``replay.titles.TITLES`` is this same dict."""

PLAYER_COUNTS: dict[str, tuple[int, ...]] = {title.name: title.player_counts for title in REGISTRY}
"""18xx.games title name -> the player counts a record of that title may have."""

PSEUDO_PLAYERS: dict[str, tuple[int, ...]] = {title.name: title.pseudo_players for title in REGISTRY}
"""18xx.games title name -> ids of the unseated entities its actions may name as players."""


def is_known_title(title: object) -> bool:
    """True for the name of a known title."""
    return isinstance(title, str) and title in SLUGS


def counts_text(counts: tuple[int, ...]) -> str:
    """Player counts as a sentence says them: ``2 to 4``, ``3`` or ``3 or 5``."""
    low, high = min(counts), max(counts)
    if sorted(counts) == list(range(low, high + 1)):
        return str(low) if low == high else f"{low} to {high}"
    ordered = sorted(counts)
    return ", ".join(map(str, ordered[:-1])) + f" or {high}"
