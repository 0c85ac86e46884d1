"""Hex coordinates and neighbours with the reference engine's edge numbering, for both layouts.

Pointy-topped maps (18MS, 18Texas) name a hex by row letter and column number ("B12"): in doubled
coordinates ``x = number - 1``, ``y = letter index``, and neighbours in one row are two columns
apart. Flat-topped maps (1871) name it by column letter and row number: ``x = letter index``,
``y = number - 1``, and neighbours in one column are two rows apart. A title's hexes all share one
parity of ``x + y``. Edges are numbered clockwise as in tobymao/18xx ``hex.rb`` (and each title's
``map.json``):

    pointy: 0 SW, 1 W, 2 NW, 3 NE, 4 E, 5 SE
    flat:   0 S,  1 SW, 2 NW, 3 N,  4 NE, 5 SE

The numbering is fixed by the records (tile rotations and map geometry are written in it), so it is
a constant here rather than something a title may choose; a title only says its layout.
"""

from __future__ import annotations

import re
from functools import cache

POINTY_OFFSETS: dict[int, tuple[int, int]] = {
    0: (-1, 1),
    1: (-2, 0),
    2: (-1, -1),
    3: (1, -1),
    4: (2, 0),
    5: (1, 1),
}
"""Edge -> (dx, dy) in doubled coordinates, pointy layout."""

FLAT_OFFSETS: dict[int, tuple[int, int]] = {
    0: (0, 2),
    1: (-1, 1),
    2: (-1, -1),
    3: (0, -2),
    4: (1, -1),
    5: (1, 1),
}
"""Edge -> (dx, dy) in doubled coordinates, flat layout."""

OFFSETS = {"pointy": POINTY_OFFSETS, "flat": FLAT_OFFSETS}
_EDGE_OF_OFFSET = {layout: {o: e for e, o in offsets.items()} for layout, offsets in OFFSETS.items()}
_HEX_ID = re.compile(r"([A-Z]+)([1-9][0-9]*)")


def opposite(edge: int) -> int:
    """The edge a neighbour sees this edge as: track leaving on edge e enters the next hex on e + 3."""
    return (edge + 3) % 6


@cache
def coordinates(hex_id: str, layout: str = "pointy") -> tuple[int, int]:
    """Doubled (x, y) of a hex id. Letters past Z continue AA, AB, ... as on large 18xx maps."""
    match = _HEX_ID.fullmatch(hex_id)
    if match is None:
        raise ValueError(f"not a hex id: {hex_id!r}")
    letters, number = match.groups()
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - ord("A") + 1
    if layout == "flat":
        return index - 1, int(number) - 1
    return int(number) - 1, index - 1


def hex_id(x: int, y: int, layout: str = "pointy") -> str:
    """The id of doubled coordinates (x, y); the inverse of :func:`coordinates`."""
    if x < 0 or y < 0:
        raise ValueError(f"no hex at ({x}, {y})")
    letter_index, number = (x, y) if layout == "flat" else (y, x)
    letters = ""
    rest_index = letter_index + 1
    while rest_index:
        rest_index, rest = divmod(rest_index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"{letters}{number + 1}"


@cache  # pure and called in every graph walk: the map is small, the cache stays small
def neighbour(hex_id_: str, edge: int, layout: str = "pointy") -> str | None:
    """The hex across ``edge``, or None when that would be off the coordinate system (before letter
    A or number 1). Whether the title's map has a hex there is the caller's question."""
    x, y = coordinates(hex_id_, layout)
    dx, dy = OFFSETS[layout][edge % 6]
    if x + dx < 0 or y + dy < 0:
        return None
    return hex_id(x + dx, y + dy, layout)


@cache
def shared_edge(a: str, b: str, layout: str = "pointy") -> int | None:
    """The edge of ``a`` that touches ``b``, or None when they are not neighbours."""
    (ax, ay), (bx, by) = coordinates(a, layout), coordinates(b, layout)
    return _EDGE_OF_OFFSET[layout].get((bx - ax, by - ay))


def distance(a: str, b: str, layout: str = "pointy") -> int:
    """How many hex sides a walk from ``a`` to ``b`` crosses at the least (0 for the same hex)."""
    (ax, ay), (bx, by) = coordinates(a, layout), coordinates(b, layout)
    across, along = (abs(ax - bx), abs(ay - by)) if layout == "flat" else (abs(ay - by), abs(ax - bx))
    return across + max(0, (along - across) // 2)
