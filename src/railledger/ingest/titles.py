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
    short_names: tuple[str, ...] = ()
    """The names people use for it besides its own (matched ignoring case, as the name is)."""


REGISTRY: tuple[Title, ...] = (
    Title("18MS", "g18ms", (2, 3, 4)),
    Title("18Texas", "g18texas", (3, 4, 5), short_names=("texas",)),
    Title("The Old Prince 1871", "g1871", (3, 4), pseudo_players=(-1,),  # -1: the Union Bank
          short_names=("1871", "old prince", "old prince 1871", "the old prince")),
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


class NoSuchTitle(ValueError):
    """A title nobody of :data:`REGISTRY` is known by; the message lists the titles and their short names."""


def _spelling(text: str) -> str:
    """A title as it is matched: case-folded, spaces collapsed, ``_`` and ``-`` as spaces."""
    return " ".join(text.replace("_", " ").replace("-", " ").casefold().split())


_BY_SPELLING: dict[str, str] = {
    _spelling(spelled): title.name for title in REGISTRY for spelled in (title.name, *title.short_names)}


def titles_text() -> str:
    """Every title with the short names it is also known by: ``18MS, 18Texas (texas), ...``."""
    return ", ".join(f"{title.name} ({', '.join(title.short_names)})" if title.short_names else title.name
                     for title in REGISTRY)


def resolve_title(text: str) -> str:
    """The 18xx.games name of the title ``text`` names: its name or a short name, ignoring case,
    spaces and ``_``/``-`` (``18ms``, ``texas``, ``1871``, ``old prince``). Every
    command that takes a title reads it here. Raises :class:`NoSuchTitle` listing the titles."""
    found = _BY_SPELLING.get(_spelling(text))
    if found is None:
        raise NoSuchTitle(f"unknown title {text!r}; the titles are {titles_text()}")
    return found
