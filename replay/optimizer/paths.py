"""Every legal route of a company, each once, with what each of its trains would earn on it.

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
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from replay.optimizer.model import Connection, Node, Position, Train


Step = tuple[Connection, Connection]
"""A connection as an arm takes it (from the stop it is at to the next) and read back."""

Arm = tuple[tuple[int, int, Step], ...]
"""An arm's steps from the station outward: (connection number, stop index reached, step)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One legal route: its track as bits, revenue and size, and the two arms it was grown as.

    Its stops and connections in route order are read off the arms only when asked for (most
    routes are never chosen, and building them for every route was most of the search's time).
    """

    track: int  # bit i set: the route uses track piece i of the position
    revenue: int  # sum of its stops' revenues (no multiplier, no bonus)
    size: tuple[int, int, int]  # (stops, stops that are not towns, hex sides crossed)
    station: Node
    backward: Arm
    forward: Arm
    nodes: list[Node] = field(compare=False, repr=False)  # the position's stops by index, shared

    @property
    def stops(self) -> tuple[Node, ...]:
        """From the far end of the backward arm, through the station, to the end of the forward arm."""
        back = tuple(self.nodes[other] for _, other, _ in reversed(self.backward))
        return back + (self.station,) + tuple(self.nodes[other] for _, other, _ in self.forward)

    @property
    def connections(self) -> tuple[Connection, ...]:
        """Each oriented along the route: a backward arm's steps are read back."""
        return tuple(step[1] for _, _, step in reversed(self.backward)) + tuple(step[0] for _, _, step in self.forward)


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
    station_rank = {index[n]: r for r, n in enumerate(n for n in nodes if position.stops[n].station)}
    bit: dict[object, int] = {}
    # (connection number, stop reached, track bits, hex sides, the connection read both ways)
    adjacency: list[list[tuple[int, int, int, int, Step]]] = [[] for _ in nodes]
    for number, connection in enumerate(position.connections):
        if connection.a not in index or connection.b not in index or connection.a == connection.b:
            continue
        mask = 0
        for segment in connection.segments:
            mask |= 1 << bit.setdefault(segment, len(bit))
        a, b = index[connection.a], index[connection.b]
        backwards = _reversed(connection)
        adjacency[a].append((number, b, mask, connection.crossed, (connection, backwards)))
        adjacency[b].append((number, a, mask, connection.crossed, (backwards, connection)))
    is_town = [s.kind == "t" for s in stops]
    passable = [s.passable for s in stops]
    revenue = [s.revenue for s in stops]
    hex_trains = [t.hex_edges for t in trains if t.hex_edges is not None]
    max_edges = max(hex_trains, default=-1)
    max_all = max((t.distance for t in trains if t.hex_edges is None and t.counts_towns), default=-1)
    max_non_towns = max((t.distance for t in trains if t.hex_edges is None and not t.counts_towns), default=-1)

    def alive(count: int, non_towns: int, crossed: int) -> bool:
        return crossed <= max_edges or count <= max_all or non_towns <= max_non_towns

    found: list[Candidate] = []

    for start, rank in sorted(station_rank.items(), key=lambda item: item[1]):
        lower = {i for i, r in station_rank.items() if r < rank}
        start_town = 1 if is_town[start] else 0

        def extensions(node: int, used: int, visited: set[int], count: int, non_towns: int,
                       crossed: int) -> Iterator[tuple[int, int, int, Step, int, int, int]]:
            """The connections out of ``node`` an arm may take next (no track used twice, no stop
            visited, no lower-ranked station, still within some train's reach), with the arm's
            stop, non-town and edge counts after it."""
            for number, other, mask, sides, connection in adjacency[node]:
                if mask & used or other in visited or other in lower:
                    continue
                c, n, x = count + 1, non_towns + (0 if is_town[other] else 1), crossed + sides
                if alive(c, n, x):
                    yield number, other, mask, connection, c, n, x

        def backward(node: int, used: int, visited: set[int], arm: list[tuple[int, int, Step]],
                     forward_arm: list[tuple[int, int, Step]], first_forward: int,
                     count: int, non_towns: int, crossed: int, money: int) -> None:
            if count >= 2:
                _emit(found, nodes, start, forward_arm, arm, used, money, (count, non_towns, crossed))
                if limit is not None and len(found) >= limit:
                    raise TooManyPaths
            if arm and not passable[node]:
                return
            for number, other, mask, connection, c, n, x in extensions(node, used, visited, count, non_towns, crossed):
                if not arm and number >= first_forward:
                    continue  # the mirror pair has this arm forward
                visited.add(other)
                arm.append((number, other, connection))
                backward(other, used | mask, visited, arm, forward_arm, first_forward, c, n, x, money + revenue[other])
                arm.pop()
                visited.discard(other)

        def forward(node: int, used: int, visited: set[int], arm: list[tuple[int, int, Step]],
                    count: int, non_towns: int, crossed: int, money: int) -> None:
            first = arm[0][0] if arm else -1
            backward(start, used, visited, [], arm, first, count, non_towns, crossed, money)
            if arm and not passable[node]:
                return
            for number, other, mask, connection, c, n, x in extensions(node, used, visited, count, non_towns, crossed):
                visited.add(other)
                arm.append((number, other, connection))
                forward(other, used | mask, visited, arm, c, n, x, money + revenue[other])
                arm.pop()
                visited.discard(other)

        try:
            forward(start, 0, {start}, [], 1, 1 - start_town, 0, revenue[start])
        except TooManyPaths:
            return found, False
    return found, True


def _reversed(connection: Connection) -> Connection:
    return Connection(connection.b, connection.a, tuple(reversed(connection.chain)), connection.segments)


def _emit(found: list[Candidate], nodes: list[Node], start: int, forward_arm: list[tuple[int, int, Step]],
          backward_arm: list[tuple[int, int, Step]], used: int, money: int, size: tuple[int, int, int]) -> None:
    found.append(Candidate(used, money, size, nodes[start], tuple(backward_arm), tuple(forward_arm), nodes))


def revenue_for(candidate: Candidate, train: Train, position: Position) -> int | None:
    """What ``train`` earns on the route, or None when the route is too long for it."""
    if not train.allows(*candidate.size):
        return None
    earned = candidate.revenue * train.multiplier
    if position.bonus is not None:
        segments = frozenset(s for c in candidate.connections for s in c.segments)
        earned += position.bonus(train, candidate.stops, segments)
    return earned
