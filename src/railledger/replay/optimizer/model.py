"""What the optimizer searches over: a company's reachable track as plain data.

The search never looks at the engine's board. The adapter (``engine.py``) turns a game position
into a :class:`Position` once: every stop the company's trains can reach, every *connection*
(a chain of hexes from one stop to the next, exactly as a record's ``run_routes`` writes it) with
the pieces of track it uses, and the company's trains. Keeping this boundary small means the
engine can be rewritten underneath with one module to re-point, and hand-made positions need no
game at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Hashable
from typing import Callable, NamedTuple

Node = tuple[str, str]
"""(hex, node id): ``("E5", "c0")``, ``("I1", "t0")``, ``("B12", "o0")``, as the engine names stops."""

Segment = tuple[str, frozenset[str]]
"""(hex, path ends): one piece of track inside one hex, as the engine's routes record it."""


class Stop(NamedTuple):
    """A city, town or off-board the company can reach, with what the engine says about it now.

    A named tuple rather than a frozen dataclass: a position is read for every run, and making a
    frozen dataclass costs four times as much."""

    node: Node
    kind: str  # "c" city, "t" town, "o" off-board
    revenue: int  # at the phase's colour, before any train multiplier
    passable: bool  # may be a stop in the middle of a route (not an off-board, not a blocked city)
    station: bool  # holds one of the company's stations


@dataclass(frozen=True, slots=True)
class Connection:
    """Track from one stop to the next with no stop between: one entry of a route's connections.

    ``chain`` runs from ``a`` to ``b`` (a single hex when both stops share it); ``crossed`` is the
    number of hex sides it crosses, which is what a hex train's length counts. ``track`` is the
    track it uses as the engine counts sharing (``replay.routes.Track``: the sides of hexes its
    pieces leave by): no other connection of a route, nor of any route of the run, may use any of it.
    """

    a: Node
    b: Node
    chain: tuple[str, ...]
    segments: frozenset[Segment]
    track: frozenset[Hashable]

    @property
    def crossed(self) -> int:
        return len(self.chain) - 1


STOPS, NON_TOWNS, CROSSED = 0, 1, 2
"""Positions in a route's size (stops, stops that are not towns, hex sides crossed)."""


@dataclass(frozen=True, slots=True)
class Train:
    """One train of the company with the rules of its type that decide which routes it may run."""

    id: str
    name: str
    distance: int  # counted stops allowed (ignored for hex trains)
    counts_towns: bool  # False for 2+/3+/4+ trains: towns are free stops
    multiplier: int  # 2 for 18MS's D trains: every stop pays double
    hex_edges: int | None = None  # a hex train: hex sides its route may cross, stops unlimited

    @property
    def reach(self) -> tuple[int, int]:
        """The engine's length rule as (which size counts, its limit): a route's size is (stops,
        stops that are not towns, hex sides crossed), and the train may run it when the counted
        one is at most the limit."""
        if self.hex_edges is not None:
            return CROSSED, self.hex_edges
        return (STOPS if self.counts_towns else NON_TOWNS), self.distance


Bonus = Callable[[Train, tuple[Node, ...], frozenset[Segment]], int]
"""A title's extra revenue for one route run by one train (the engine's ``route_bonus`` hook)."""


@dataclass(frozen=True)
class Position:
    """Everything the search needs about one company at one moment."""

    corporation: str
    stops: dict[Node, Stop]
    connections: tuple[Connection, ...]
    trains: tuple[Train, ...]
    bonus: Bonus | None = None  # None: the title pays nothing beyond the stops
