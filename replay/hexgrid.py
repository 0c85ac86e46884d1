"""Hex coordinates and neighbours for pointy-topped maps with the reference engine's edge numbering.

Hex ids are a row letter plus a column number ("B12"). In doubled coordinates ``x = number - 1`` and
``y = row index`` (A = 0); on a pointy map neighbours in the same row are two columns apart, so every
real hex has ``x + y`` even. Edges are numbered clockwise from south-west, as in tobymao/18xx
``hex.rb`` and ``replay/titles/18ms/map.json``:

    0 SW, 1 W, 2 NW, 3 NE, 4 E, 5 SE

The numbering is fixed by the records (tile rotations and map geometry are written in it), so it is
a constant here rather than something a title may choose.
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
"""Edge -> (dx, dy) in doubled coordinates."""

_EDGE_OF_OFFSET = {offset: edge for edge, offset in POINTY_OFFSETS.items()}
_HEX_ID = re.compile(r"([A-Z]+)([1-9][0-9]*)")


def opposite(edge: int) -> int:
    """The edge a neighbour sees this edge as: track leaving on edge e enters the next hex on e + 3."""
    return (edge + 3) % 6


@cache
def coordinates(hex_id: str) -> tuple[int, int]:
    """Doubled (x, y) of a hex id. Rows past Z continue AA, AB, ... as on large 18xx maps."""
    match = _HEX_ID.fullmatch(hex_id)
    if match is None:
        raise ValueError(f"not a hex id: {hex_id!r}")
    letters, number = match.groups()
    y = 0
    for letter in letters:
        y = y * 26 + ord(letter) - ord("A") + 1
    return int(number) - 1, y - 1  # a title's hexes share one parity (18MS even, 18Texas odd)


def hex_id(x: int, y: int) -> str:
    """The id of doubled coordinates (x, y); the inverse of :func:`coordinates`."""
    if x < 0 or y < 0:
        raise ValueError(f"no hex at ({x}, {y})")
    letters = ""
    row = y + 1
    while row:
        row, rest = divmod(row - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"{letters}{x + 1}"


@cache  # pure and called in every graph walk: the map is small, the cache stays small
def neighbour(hex_id_: str, edge: int) -> str | None:
    """The hex across ``edge``, or None when that would be off the coordinate system (row before A,
    column before 1). Whether the title's map has a hex there is the caller's question."""
    x, y = coordinates(hex_id_)
    dx, dy = POINTY_OFFSETS[edge % 6]
    if x + dx < 0 or y + dy < 0:
        return None
    return hex_id(x + dx, y + dy)


@cache
def shared_edge(a: str, b: str) -> int | None:
    """The edge of ``a`` that touches ``b``, or None when they are not neighbours."""
    (ax, ay), (bx, by) = coordinates(a), coordinates(b)
    return _EDGE_OF_OFFSET.get((bx - ax, by - ay))
