"""Every legal route of a company, each once (what each train earns on it: ``solve``).

A route is a sequence of connections joined at stops. It is legal for the engine when it has two
stops or more, visits no stop twice, uses no piece of track twice, passes through no off-board
and no blocked city (only its two end stops may be those), includes a station of the company,
and fits the train: counted stops (towns free for + trains) within the train's number, or hex
sides crossed within a hex train's length.

Every such route holds a station ``s``; it is enumerated from the *lowest-numbered* station it
holds, as two arms grown from ``s`` by depth-first search: a forward arm, then, for every forward
arm, a backward arm that shares none of its stops or track. The pair (forward, backward) and its
mirror describe the same route, so only pairs whose forward arm starts with the higher-numbered
connection are kept (an empty arm counts as -1), and neither arm may step onto a lower-numbered
station. Thus each route is produced exactly once, and the search is complete because every
legal route has such a decomposition at that station. The length rules only grow as an arm
grows, so an arm no train could still run is abandoned at once; nothing else is cut.

Both arms of a pair come from one tree: the arms that can be grown from ``s`` on their own (no
stop or track twice, no lower station, within some train's reach). A backward arm is such an arm
that also shares nothing with the forward arm and fits a train together with it; each of those
conditions, once broken, stays broken as the arm grows, so the backward search is the tree's
depth-first walk cut at the first arm that breaks one. Each arm of the tree is therefore grown
once (when a walk first reaches it, and kept), not once per forward arm as a plain search would:
the order in which routes are produced is the plain search's, and only as much of the tree as
the search reaches is ever built (a route budget bounds it).
"""

from __future__ import annotations

import sys
from collections.abc import Hashable
from typing import Final

from railledger.replay.optimizer.model import Connection, Node, Position, Segment


class Arm:
    """An arm grown from a station: its last step, and what it holds without the station.

    An arm knows its parent but not its extensions: :func:`enumerate_routes` keeps those (each
    arm is grown at most once, however many forward arms its backward walks pass it for) in a
    dictionary of its own, so that no arm is in a reference cycle and a search's arms are freed
    as soon as its routes are, not when the garbage collector next looks for cycles (which, with
    thousands of arms per run audited, cost more than a tenth of the search).
    """

    __slots__ = ("parent", "at", "node", "connection", "ahead", "first", "stops", "track", "count", "non_towns",
                 "crossed", "money", "_trail", "_pieces")

    def __init__(self, parent: Arm | None, at: int, node: Node, connection: Connection | None, ahead: bool,
                 first: int, stops: int, track: int, count: int, non_towns: int, crossed: int, money: int) -> None:
        self.parent = parent
        self.at, self.node = at, node  # the stop it ends at: index, and name
        self.connection = connection  # the connection it took last (None: the empty arm, at its station)
        self.ahead = ahead  # it took the connection from ``a`` to ``b``
        self.first = first  # number of its first connection (-1: the empty arm)
        self.stops = stops  # bits of the stops it reached
        self.track = track  # bits of the track pieces it used
        self.count, self.non_towns, self.crossed, self.money = count, non_towns, crossed, money
        self._trail: tuple[Node, ...] | None = None
        self._pieces: frozenset[Segment] | None = None

    def trail(self) -> tuple[Node, ...]:
        """Its stops from the station (included) outward; kept, as arms share their beginnings."""
        if self._trail is None:
            self._trail = (self.node,) if self.parent is None else self.parent.trail() + (self.node,)
        return self._trail

    def pieces(self) -> frozenset[Segment]:
        """The track it uses; kept, as :meth:`trail`."""
        if self._pieces is None:
            self._pieces = frozenset() if self.parent is None or self.connection is None else \
                self.parent.pieces() | self.connection.segments
        return self._pieces

    def steps(self) -> list[Arm]:
        """The arm and the arms it grew from, from the station outward (the empty arm left out)."""
        arms = []
        arm: Arm | None = self
        while arm is not None and arm.connection is not None:
            arms.append(arm)
            arm = arm.parent
        arms.reverse()
        return arms


Candidate = tuple[tuple[int, int, int], int, int, Arm, Arm]
"""One legal route: its size (stops, stops that are not towns, hex sides crossed; ``Train.reach``
says which one a train counts), its track as bits (bit i: track piece i of the position), its
revenue (stops only: no multiplier, no bonus), and the backward and forward arms it was grown as.

A plain tuple, because most routes are never chosen: their stops and connections in route order
are read off the arms (:func:`stops_of`, :func:`connections_of`) only for those that are.
"""

SIZE: Final = 0
TRACK: Final = 1
REVENUE: Final = 2


def stops_of(candidate: Candidate) -> tuple[Node, ...]:
    """From the far end of the backward arm, through the station, to the end of the forward arm."""
    _, _, _, backward, forward = candidate
    return backward.trail()[::-1] + forward.trail()[1:]


def segments_of(candidate: Candidate) -> frozenset[Segment]:
    """The track the route uses."""
    _, _, _, backward, forward = candidate
    return backward.pieces() | forward.pieces()


def connections_of(candidate: Candidate) -> tuple[Connection, ...]:
    """Each oriented along the route: a backward arm's steps are read back."""
    _, _, _, backward, forward = candidate
    back = tuple(_oriented(arm, not arm.ahead) for arm in reversed(backward.steps()))
    return back + tuple(_oriented(arm, arm.ahead) for arm in forward.steps())


def _oriented(arm: Arm, ahead: bool) -> Connection:
    connection = arm.connection
    assert connection is not None
    if ahead:
        return connection
    return Connection(connection.b, connection.a, tuple(reversed(connection.chain)), connection.segments, connection.track)


class TooManyPaths(Exception):
    """The enumeration reached its budget; the routes found so far are all there is."""


def enumerate_routes(position: Position, limit: int | None = None) -> tuple[list[Candidate], bool]:
    """Every legal route some train of the company could run, and whether the list is complete
    (False when ``limit`` routes were found before the search ended)."""
    trains = position.trains
    if not trains:
        return [], True
    nodes = sorted(position.stops)
    index = {node: i for i, node in enumerate(nodes)}
    stops = [position.stops[n] for n in nodes]
    stations = [i for i, s in enumerate(stops) if s.station]
    bit: dict[Hashable, int] = {}
    non_town = [0 if s.kind == "t" else 1 for s in stops]
    revenue = [s.revenue for s in stops]
    # (connection number, stop reached: index, bit and name, track bits, hex sides, 1 if the stop
    # is not a town, its revenue, the connection, whether it is taken from a to b) out of each stop
    adjacency: list[list[tuple[int, int, int, Node, int, int, int, int, Connection, bool]]] = [[] for _ in nodes]
    for number, connection in enumerate(position.connections):
        a, b = index.get(connection.a), index.get(connection.b)
        if a is None or b is None or a == b:
            continue
        mask = 0
        for track in connection.track:
            piece = bit.get(track)
            if piece is None:
                piece = bit[track] = len(bit)
            mask |= 1 << piece
        sides = connection.crossed
        adjacency[a].append((number, b, 1 << b, connection.b, mask, sides, non_town[b], revenue[b], connection, True))
        adjacency[b].append((number, a, 1 << a, connection.a, mask, sides, non_town[a], revenue[a], connection, False))
    passable = [s.passable for s in stops]
    # The longest any train reaches: a route or arm of (stops, non-towns, sides) is alive while it
    # is within one of them (each only grows as the route grows).
    reach = [-1, -1, -1]
    for train in trains:
        measure, most = train.reach
        reach[measure] = max(reach[measure], most)
    most_stops, most_non_towns, most_crossed = reach  # indexed by STOPS, NON_TOWNS, CROSSED

    found: list[Candidate] = []
    budget = limit if limit is not None else sys.maxsize

    for rank, start in enumerate(stations):
        # An arm may not step onto its station or a lower-ranked one.
        barred = sum(1 << s for s in stations[:rank + 1])
        station_non_town, station_revenue = non_town[start], revenue[start]

        def grow(arm: Arm) -> list[Arm]:
            """The arm's one-step extensions that break no rule on their own (grown once)."""
            grown: list[Arm] = []
            grown_of[arm] = grown
            if arm.connection is not None and not passable[arm.at]:
                return grown
            seen, used = barred | arm.stops, arm.track
            count, non_towns, crossed = arm.count + 1, arm.non_towns + station_non_town, arm.crossed
            first = arm.first
            for number, other, other_bit, node, mask, sides, other_non_town, money, connection, ahead in adjacency[arm.at]:
                if mask & used or other_bit & seen:
                    continue
                n, x = non_towns + other_non_town, crossed + sides
                if x <= most_crossed or count + 1 <= most_stops or n <= most_non_towns:
                    grown.append(Arm(arm, other, node, connection, ahead, number if first < 0 else first,
                                     arm.stops | other_bit, used | mask, count, n - station_non_town, x, arm.money + money))
            return grown

        root = Arm(None, start, nodes[start], None, False, -1, 0, 0, 0, 0, 0, 0)
        below: dict[int, list[Arm]] = {}  # the first arms that start on a lower connection than a given one

        def backward(arms: list[Arm], forward_arm: Arm, count: int, non_towns: int, crossed: int, money: int) -> None:
            """Emit the routes of ``forward_arm`` with each backward arm below ``arms`` that fits it."""
            f_stops, f_track = forward_arm.stops, forward_arm.track
            for arm in arms:
                if arm.stops & f_stops or arm.track & f_track:
                    continue
                c, n, x = count + arm.count, non_towns + arm.non_towns, crossed + arm.crossed
                if not (x <= most_crossed or c <= most_stops or n <= most_non_towns):
                    continue
                found.append(((c, n, x), f_track | arm.track, money + arm.money, arm, forward_arm))
                if len(found) >= budget:
                    raise TooManyPaths
                further = grown_of.get(arm)
                if further is None:
                    further = grow(arm)  # noqa: F821 (see the del)
                if further:
                    backward(further, forward_arm, count, non_towns, crossed, money)  # noqa: F821 (see the del)

        def forward(arm: Arm) -> None:
            count, non_towns = 1 + arm.count, station_non_town + arm.non_towns
            crossed, money = arm.crossed, station_revenue + arm.money
            if arm.connection is not None:  # an empty forward arm's pairs are all mirrors of others
                found.append(((count, non_towns, crossed), arm.track, money, root, arm))
                if len(found) >= budget:
                    raise TooManyPaths
                # a backward arm starting on a higher-numbered connection: the mirror pair's forward
                starts = below.get(arm.first)
                if starts is None:
                    first = arm.first
                    starts = below[first] = [b for b in grown_of.get(root) or () if b.first < first]
                if starts:
                    backward(starts, arm, count, non_towns, crossed, money)  # noqa: F821 (see the del)
            extensions = grown_of.get(arm)
            for extension in extensions if extensions is not None else grow(arm):  # noqa: F821 (see the del)
                forward(extension)  # noqa: F821 (see the del)

        grown_of: dict[Arm, list[Arm]] = {}  # each arm's one-step extensions, once grown
        try:
            forward(root)
        except TooManyPaths:
            return found, False
        finally:
            del grow, backward, forward  # they call themselves: a cycle holding ``grown_of``, so every arm
    return found, True
