"""A corporation's network: the track, stops and hex sides it reaches from its stations.

Reach is what a train could follow: from each station, walk track path by path, never over a
path or out of a hex side twice on the way, never through a city filled by other companies'
stations nor through an off-board area (both are reached, not passed). Where several paths of
a tile share a side (a converging exit), every way through it is tried. This is the walk
18xx.games' graph makes, so what it lets a company build on, place stations in and run to is
what this lets it. Tile lays must join a hex side the network uses (a station's hex counts all
its sides), stations go in cities on it (11.4.1, 11.5), and a company has a route when some
station reaches another stop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from railledger.replay.geometry import PathEnds, TileGeometry
from railledger.replay.hexgrid import opposite

if TYPE_CHECKING:
    from railledger.replay.state import GameState

Node = tuple[str, str]  # (hex, node id such as "c0")
Side = tuple[str, int]  # (hex, edge 0..5)

OFFBOARD, TOWN = -2, -1
"""What a walk may not pass (an off-board) or always passes (a town); a city is its index."""

Exit = tuple[int, str, int, Side, Side, bool]
"""A path's way out of its hex: (edge, the hex across, its edge back, this side, the side
across, whether another path of the tile shares the edge)."""

PathHere = tuple[tuple[Side, ...], tuple[tuple[Node, int], ...], tuple[Exit, ...]]
"""A path of the tile on one hex as the walk reads it: its sides, its stops (each with its city
index, TOWN or OFFBOARD), its exits to board hexes."""


@dataclass(frozen=True)
class Network:
    nodes: frozenset[Node]  # stops on walked track (passable or not), and the stations
    sides: frozenset[tuple[str, int]]  # (hex, edge) the network uses or may build out of
    route: bool  # some station reaches another stop

    def touches(self, hex_id: str, edges: frozenset[int]) -> bool:
        """Whether a tile with track out of these sides of ``hex_id`` would join the network."""
        return any((hex_id, edge) in self.sides for edge in edges)


class GraphCache:
    """18xx.games' memory of what companies reach, kept as it keeps it.

    18xx.games computes a company's reach when a step first asks for it and keeps the answer
    until the next tile lay or station placed by a step (a station check that finds no city
    walks the whole network and keeps it as well); a home station, a PEIR station swapped
    for a company's or a split's stations do not clear it, and a route once found is kept even
    then. What it accepted was decided on those kept answers, so the engine keeps the same ones:
    an answer is kept when first asked while an action is applied (``game.applying``) and read
    back until the same events clear it. A check only reads (and computes afresh what is not
    kept), so asking never changes a game.
    """

    def __init__(self) -> None:
        self.networks: dict[str, Network] = {}
        self.tokens: dict[str, bool] = {}
        self.routes: dict[str, bool] = {}
        self.fresh: dict[str, tuple[int, Network, frozenset[str]]] = {}
        """Corporation -> (board version, its reach then, the hexes the walk read): a pure memo,
        not state; it holds while no later change touched those hexes (:func:`fresh_network`)."""
        self.tracks: dict[str, tuple[TileGeometry, dict[PathEnds, PathHere]]] = {}
        """Hex -> (the tile on it, its paths as the walk reads them): a pure memo, found again
        when another tile goes there (the tile keeps what it found: ``TileGeometry.walks``)."""

    def clear(self) -> None:
        """A tile lay or a step's station: forget reach, but keep every route found."""
        self.networks.clear()
        self.tokens.clear()
        self.routes = {sym: True for sym, found in self.routes.items() if found}

    def kept(self) -> dict[str, Any]:
        """What the undo journal keeps before an action: the answers 18xx.games keeps (the
        memos ``fresh`` and ``tracks`` hold whatever the board is)."""
        return {"networks": dict(self.networks), "tokens": dict(self.tokens), "routes": dict(self.routes)}

    def restore(self, saved: dict[str, Any]) -> None:
        self.networks, self.tokens, self.routes = saved["networks"], saved["tokens"], saved["routes"]

    def state(self) -> tuple[object, ...]:
        return (tuple(sorted(self.networks)), tuple(sorted(self.tokens.items())), tuple(sorted(self.routes.items())))

    def __deepcopy__(self, memo: dict[int, object]) -> GraphCache:
        twin = GraphCache()
        twin.networks, twin.tokens, twin.routes = dict(self.networks), dict(self.tokens), dict(self.routes)
        return twin


def fresh_network(game: GameState, corporation: str) -> Network:
    """What the company reaches on the board as it is now.

    A walk reads only the tiles and stations of the hexes its network's stops and sides lie in
    (and the company's own stations), so its answer holds until a tile or station changes one
    of those hexes or the company places a station: a lay far away, by another company, leaves
    it as it was, and most walks of a replay are saved."""
    board = game.board
    memo = game.graph.fresh.get(corporation)
    if memo is not None:
        version, network, read = memo
        if version == board.version:
            return network
        if board.unchanged_since(version, read, corporation):
            game.graph.fresh[corporation] = (board.version, network, read)
            return network
    network = _Walk(game, corporation).network()
    read = frozenset(hex_id for hex_id, _ in network.nodes) | frozenset(hex_id for hex_id, _ in network.sides)
    game.graph.fresh[corporation] = (board.version, network, read)
    return network


def network_seen(game: GameState, corporation: str) -> Network:
    """What :func:`network_of` answers now, without keeping it: a look ahead at what a check
    will see (listing tile lays) must not keep an answer the check itself might never ask."""
    kept = game.graph.networks.get(corporation)
    return kept if kept is not None else fresh_network(game, corporation)


def network_of(game: GameState, corporation: str) -> Network:
    """What the company reaches, as 18xx.games would answer now (see :class:`GraphCache`)."""
    network = network_seen(game, corporation)
    if game.applying and corporation not in game.graph.networks:
        game.graph.networks[corporation] = network
        game.graph.routes.setdefault(corporation, network.route)
    return network


def route_available(game: GameState, corporation: str) -> bool:
    """Whether some station of the corporation reaches another stop along track (18xx.games:
    a train could run; a company without trains must then buy one)."""
    kept = game.graph.routes.get(corporation)
    if kept is not None:
        return kept
    found = fresh_network(game, corporation).route
    if game.applying:
        game.graph.routes[corporation] = found
    return found


def can_token(game: GameState, corporation: str, tokenable: Callable[[Node], bool]) -> bool:
    """Whether the company reaches a city ``tokenable`` accepts, as 18xx.games would answer now.

    18xx.games answers by walking the company's whole network and stops at the first city it may
    take; a walk that found none went to its end and keeps the reach it found too, as if that had
    been asked (18Texas seed 408101: a company's lay four turns later was checked against the reach
    its station check kept, before another company's home station closed the way)."""
    kept = game.graph.tokens.get(corporation)
    if kept is not None:
        return kept
    network = fresh_network(game, corporation)
    found = any(tokenable(node) for node in sorted(node for node in network.nodes if node[1][0] == "c"))
    if game.applying:
        game.graph.tokens[corporation] = found
        if not found:
            game.graph.networks[corporation] = network
            game.graph.routes[corporation] = game.graph.routes.get(corporation, False) or network.route
    return found


class _Walk:
    """One walk of a corporation's track from each of its stations in turn.

    The walk runs after tile lays and stations all through a replay, so it reads each hex's
    paths as prepared tuples (:func:`paths_here`) rather than through the tile's geometry."""

    def __init__(self, game: GameState, corporation: str) -> None:
        self.board = game.board
        self.placed = game.board.hexes
        self.tracks = game.graph.tracks
        self.neighbours = game.board.title.neighbours
        self.corporation = corporation
        self.stations: list[Node] = [(h, f"c{i}") for h, i in self.board.tokened(corporation)]
        self.nodes: set[Node] = set(self.stations)
        self.sides: set[Side] = set()
        for hex_id, _ in self.stations:
            self.sides.update((hex_id, e) for e, other in enumerate(self.neighbours[hex_id]) if other is not None)
        self.route = False

    def network(self) -> Network:
        for start in self.stations:
            self.local: set[Node] = set()
            self.visited_nodes = set(self.stations) - {start}
            self.visited_paths: set[tuple[str, PathEnds]] = set()
            self.used_sides: dict[Side, int] = {}
            self.walk_node(start, start, converging=False)
            if len(self.local) > 1:
                self.route = True
        return Network(frozenset(self.nodes), frozenset(self.sides), self.route)

    def paths(self, hex_id: str) -> dict[PathEnds, PathHere]:
        tile = self.placed[hex_id].geometry
        known = self.tracks.get(hex_id)
        if known is None or known[0] is not tile:
            across = self.neighbours[hex_id]
            found = tile.walks.get((hex_id, across))
            if found is None:
                found = tile.walks[(hex_id, across)] = paths_here(hex_id, tile, across)
            known = self.tracks[hex_id] = (tile, found)
        return known[1]

    def walk_node(self, node: Node, origin: Node, converging: bool) -> None:
        if node in self.visited_nodes:
            return
        self.visited_nodes.add(node)
        hex_id, end = node
        for path in self.placed[hex_id].geometry.paths_at.get(end, ()):
            self.walk_path(hex_id, path, None, origin, converging)
        if converging:
            self.visited_nodes.discard(node)

    def walk_path(self, hex_id: str, path: PathEnds, entered: int | None, origin: Node, converging: bool) -> None:
        key = (hex_id, path)
        if key in self.visited_paths:
            return
        own_sides, stops, exits = self.paths(hex_id)[path]
        used = self.used_sides
        for side in own_sides:
            if used.get(side):
                return
        self.visited_paths.add(key)
        for node, _ in stops:
            self.nodes.add(node)
            self.local.add(node)
        self.sides.update(own_sides)
        for node, city in stops:
            if node != origin and city != OFFBOARD and (city == TOWN or self.city_open(hex_id, city)):
                self.walk_node(node, origin, converging)
        for edge, neighbour, back, side, across, shared in exits:
            if edge == entered:
                continue
            self.sides.add(across)
            beyond = self.placed[neighbour].geometry.edge_paths[back]
            if not beyond:
                continue
            used[side] = used.get(side, 0) + 1
            joins = converging or shared
            for other in beyond:
                self.walk_path(neighbour, other, back, origin, joins)
            used[side] -= 1
        if converging:
            self.visited_paths.discard(key)

    def city_open(self, hex_id: str, city: int) -> bool:
        """Whether a walk may go on through this city: a slot free or the company's own."""
        slots = self.board.tokens_in(hex_id, city)
        return None in slots or self.corporation in slots


def paths_here(hex_id: str, tile: TileGeometry, across: tuple[str | None, ...]) -> dict[PathEnds, PathHere]:
    """Each path of ``tile`` on ``hex_id`` as the walk reads it (see :data:`PathHere`): its
    sides and stops in the tile's sorted order, and its exits to hexes of the board."""
    found: dict[PathEnds, PathHere] = {}
    for path, (edges, ends) in tile.ends_of.items():
        stops = tuple(((hex_id, end), OFFBOARD if end[0] == "o" else int(end[1:]) if end[0] == "c" else TOWN)
                      for end in ends)
        exits = tuple((edge, neighbour, opposite(edge), (hex_id, edge), (neighbour, opposite(edge)),
                       len(tile.edge_paths[edge]) > 1)
                      for edge in edges if (neighbour := across[edge]) is not None)
        found[path] = (tuple((hex_id, edge) for edge in edges), stops, exits)
    return found
