"""Routes of a run: which stops a route visits, whether it may, and what it earns.

A route in a record is a list of connections, each a chain of neighbouring hexes from one stop
to the next (a single hex when two stops share it, as New Orleans' city and town). The engine
finds the stops on the board itself and computes the revenue; the record's declared revenue is
only checked against it.

Both answers are asked again and again of one board, so both are kept. A connection's stops and
track depend only on the tiles of its hexes: :func:`connection_stops` keeps each chain's answer
until a tile goes on one of them (:class:`TileMemo`); a company runs the same connections turn
after turn, and the optimizer confirms every connection it finds. A route's reading depends on
the whole state: :func:`build_route` keeps it for the moment of the game (``game.memo``), in
which the revenue audit, the optimizer's check of its answer or a bot declaring it, and then the
step that runs it, all build the same routes.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from railledger.replay.data import TrainType  # at run time: the compiled Route's field types are looked up then
from railledger.replay.errors import Violation
from railledger.replay.hexgrid import opposite, shared_edge

if TYPE_CHECKING:
    from railledger.replay.board import Board
    from railledger.replay.state import GameState

Node = tuple[str, str]  # (hex, node id such as "c0", "t0", "o0")

Segment = tuple[str, frozenset[str]]  # (hex, path ends): one piece of track inside one hex

Track = tuple[str, "str | frozenset[str]"]
"""What no two parts of a run may share, as 18xx.games counts it (its ``check_overlap``): each side
of a hex a piece of track leaves by, ``(hex, "e3")``, and each piece joining two stops inside one
hex, ``(hex, {"c0", "t0"})``. Two pieces of track that leave a hex by the same side (a junction's
branches) are the same track there: a run may use one of them, once."""


def track_of(segments: Iterable[Segment]) -> list[Track]:
    """The track the pieces use, a side once for every piece that leaves by it (so that a side
    used twice is listed twice)."""
    track: list[Track] = []
    for segment in segments:
        used = _PIECE_TRACK.get(segment)
        if used is None:
            used = _PIECE_TRACK[segment] = _piece_track(segment)
        track.extend(used)
    return track


def _piece_track(segment: Segment) -> tuple[Track, ...]:
    hex_id, ends = segment
    sides = sorted(end for end in ends if end.startswith("e"))
    return tuple((hex_id, side) for side in sides) if sides else ((hex_id, ends),)


_PIECE_TRACK: dict[Segment, tuple[Track, ...]] = {}
"""Each piece of track's :data:`Track`, read once: every run checked, every connection the revenue
audit confirms and every route the engine builds asks it of the same pieces again. A piece is
named by its hex and its path's ends, a fact of the map that no game changes, so the table only
grows to the pieces the titles' tiles can make (a few thousand)."""

Key = TypeVar("Key", bound=Hashable)
Answer = TypeVar("Answer")


@dataclass(frozen=True)
class Route:
    train_id: str
    train: TrainType
    stops: tuple[Node, ...]
    segments: frozenset[Segment]  # (hex, path) pieces of track used
    revenue: int


class TileMemo(Generic[Key, Answer]):
    """Answers read off the tiles of a board, each kept until a tile goes on a hex it read.

    A board lists the hexes tiles went on, in order (``Board.laid``), so catching up with it costs
    a step per tile laid since the last question. Kept per board object (weakly), so a copied or
    rebuilt game starts afresh.
    """

    def __init__(self) -> None:
        self._boards: weakref.WeakKeyDictionary[Board, _Kept[Key, Answer]] = weakref.WeakKeyDictionary()
        self._last: tuple[weakref.ref[Board], _Kept[Key, Answer]] | None = None

    def recall(self, board: Board, key: Key, find: Callable[..., tuple[Answer, Iterable[str]]], *arguments: Any) -> Answer:
        """The kept answer to ``key``, or ``find(*arguments)``'s, which also names the hexes it
        read. Nothing is kept when ``find`` raises."""
        kept = self._kept_on(board)
        laid = board.laid
        if kept.seen < len(laid):
            for hex_id in laid[kept.seen:]:
                for stale in kept.readers.pop(hex_id, ()):
                    kept.answers.pop(stale, None)
            kept.seen = len(laid)
        if key in kept.answers:
            return kept.answers[key]
        answer, read = find(*arguments)
        kept.answers[key] = answer
        for hex_id in read:
            kept.readers.setdefault(hex_id, []).append(key)
        return answer

    def _kept_on(self, board: Board) -> _Kept[Key, Answer]:
        """The board's kept answers. The last board asked about is remembered by a weak
        reference: a replay asks of one board thousands of times, and looking it up in the weak
        dictionary makes a new weak reference each time. (Its answers stay until another board is
        asked about, the board itself does not.)"""
        last = self._last
        if last is not None and last[0]() is board:
            return last[1]
        kept = self._boards.get(board)
        if kept is None:
            kept = self._boards[board] = _Kept()
        self._last = (weakref.ref(board), kept)
        return kept


class _Kept(Generic[Key, Answer]):
    """One board's kept answers, and which of them read each hex."""

    __slots__ = ("answers", "readers", "seen")

    def __init__(self) -> None:
        self.answers: dict[Key, Answer] = {}
        self.readers: dict[str, list[Key]] = {}
        self.seen = 0  # tiles laid when last asked


def _node_at_edge(game: GameState, hex_id: str, edge: int) -> str:
    """The stop node in a hex that track from ``edge`` runs into."""
    tile = game.board.tile(hex_id)
    for node, edges in tile.node_edges.items():
        if edge in edges:
            return node
    raise Violation("route-track", f"no station, town or off-board on {hex_id} is reached from that side")


def _nodes_within(game: GameState, hex_id: str) -> tuple[str, str]:
    tile = game.board.tile(hex_id)
    for path in tile.paths:
        ends = sorted(path)
        if all(not e.startswith("e") for e in ends):
            return ends[0], ends[1]
    raise Violation("route-track", f"{hex_id} has no track joining two stops inside it")


Stops = tuple[Node, Node, tuple[Segment, ...]]


def connection_stops(game: GameState, chain: list[str]) -> Stops:
    """The two stops a connection joins and the track pieces it uses."""
    if not chain:
        raise Violation("route-track", "a connection names no hex")
    return _CONNECTIONS.recall(game.board, tuple(chain), _connection_stops, game, chain)


def _connection_stops(game: GameState, chain: list[str]) -> tuple[Stops, list[str]]:
    board = game.board
    for hex_id in chain:
        if hex_id not in board.hexes:
            raise Violation("route-track", f"{hex_id} is not on the map")
    if len(chain) == 1:
        first, last = _nodes_within(game, chain[0])
        return ((chain[0], first), (chain[0], last), ((chain[0], frozenset((first, last))),)), chain
    segments: list[Segment] = []
    edges = []
    layout = game.title.layout
    for a, b in zip(chain, chain[1:]):
        edge = shared_edge(a, b, layout)
        if edge is None:
            raise Violation("route-track", f"{a} and {b} are not neighbours")
        if edge not in board.tile(a).edges or opposite(edge) not in board.tile(b).edges:
            raise Violation("route-track", f"no track joins {a} and {b}")
        edges.append(edge)
    start = _node_at_edge(game, chain[0], edges[0])
    end = _node_at_edge(game, chain[-1], opposite(edges[-1]))
    segments.append((chain[0], frozenset((start, f"e{edges[0]}"))))
    segments.append((chain[-1], frozenset((end, f"e{opposite(edges[-1])}"))))
    for position in range(1, len(chain) - 1):
        hex_id = chain[position]
        entry, exit_ = opposite(edges[position - 1]), edges[position]
        if frozenset((entry, exit_)) not in board.tile(hex_id).edge_links:
            raise Violation("route-track", f"no track through {hex_id} joins the sides the route uses")
        segments.append((hex_id, frozenset((f"e{entry}", f"e{exit_}"))))
    return ((chain[0], start), (chain[-1], end), tuple(segments)), chain


_CONNECTIONS: TileMemo[tuple[str, ...], Stops] = TileMemo()
"""Each chain's :func:`connection_stops`, by board."""


def build_route(game: GameState, corporation: str, raw: dict[str, Any]) -> Route:
    """Check one route of a run and compute its revenue (kept for the moment of the game)."""
    connections = raw.get("connections") or []
    try:
        key = ("route", corporation, str(raw.get("train")), tuple(tuple(chain) for chain in connections))
        hash(key)
    except TypeError:  # not a list of hex lists: the checks below say what is wrong
        return _build_route(game, corporation, raw)
    return game.memo.recall(game, key, _build_route, game, corporation, raw)


def _build_route(game: GameState, corporation: str, raw: dict[str, Any]) -> Route:
    train_id = str(raw.get("train"))
    train = game.trains.get(train_id)
    if train is None or train.owner != corporation or train.rusted:
        owned = f"the {train.name} train ({train_id}) it names" if train is not None else f"a train {train_id}"
        raise Violation("route-train", f"{corporation} does not own {owned}")
    train_type = game.title.train_type(train.name)
    named = f"{corporation}'s {train.name} train"  # how messages name it: its owner and type
    connections = raw.get("connections") or []
    stops: list[Node] = []
    segments: list[Segment] = []
    for chain in connections:
        first, last, used = connection_stops(game, list(chain))
        if stops and stops[-1] != first:
            if stops[-1] == last:
                first, last = last, first
            elif len(stops) == 2 and stops[0] in (first, last):
                stops.reverse()
                if stops[-1] != first:
                    first, last = last, first
            else:
                raise Violation("route-track", f"the connections of {named} do not join up")
        if not stops:
            stops.append(first)
        stops.append(last)
        segments.extend(used)
    if len(stops) < 2:
        raise Violation("route-stops", f"{named} must visit at least two stops")
    if train_type.hex_edges is not None:
        crossed = sum(len(chain) - 1 for chain in connections)
        if crossed > train_type.hex_edges:
            raise Violation("route-length", f"{named} crosses {crossed} hex sides, more than {train_type.hex_edges}")
    if len(set(stops)) != len(stops):
        raise Violation("route-revisit", f"{named} visits a stop twice")
    track = track_of(segments)
    if len(set(track)) != len(track):
        raise Violation("route-reuse", f"{named} uses a piece of track twice")
    _check_stop_kinds(game, corporation, named, train_type, stops)
    colour = game.phase.colour
    revenue = sum(_stop_revenue(game, node, colour) for node in stops) * train_type.multiplier
    route = Route(train_id, train_type, tuple(stops), frozenset(segments), revenue)
    return Route(train_id, train_type, route.stops, route.segments, revenue + game.title.route_bonus(game, corporation, route))


KINDS = {"c": "cities", "t": "towns", "o": "offboards"}
"""A node id's first letter -> the tile's stops of that kind."""


def _stop_revenue(game: GameState, node: Node, colour: str) -> int:
    hex_id, node_id = node
    return getattr(game.board.tile(hex_id), KINDS[node_id[0]])[int(node_id[1:])].revenue_in(colour)


def _check_stop_kinds(game: GameState, corporation: str, named: str, train: TrainType, stops: list[Node]) -> None:
    board = game.board
    if not any(n[1][0] == "c" and corporation in board.tokens_in(n[0], int(n[1][1:])) for n in stops):
        raise Violation("route-token", f"the route of {named} includes no station of {corporation}")
    for node in stops[1:-1]:
        hex_id, node_id = node
        if node_id[0] == "o":
            raise Violation("route-offboard", f"{named} runs through the off-board area {hex_id}")
        if node_id[0] == "c":
            slots = board.tokens_in(hex_id, int(node_id[1:]))
            if all(s is not None and s != corporation for s in slots):
                raise Violation("route-blocked", f"{named} runs through {hex_id}, blocked by other stations")
    counted = [n for n in stops if train.counts_towns or n[1][0] != "t"]
    if train.hex_edges is None and len(counted) > train.distance:
        kinds = "stops" if train.counts_towns else "cities and off-boards"
        raise Violation("route-length", f"{named} reaches {len(counted)} {kinds}, more than {train.distance}")


def check_run(game: GameState, corporation: str, routes: list[Route]) -> None:
    """Checks across the routes of one run: each train once, no track shared between trains (a
    hex side counts as shared when two trains' pieces of track leave by it: :data:`Track`)."""
    trains = [r.train_id for r in routes]
    if len(set(trains)) != len(trains):
        raise Violation("route-train", "a train runs twice")
    used: set[Track] = set()
    for route in routes:
        track = set(track_of(route.segments))
        if used & track:
            raise Violation("route-reuse", f"{corporation}'s {route.train.name} train shares track with another train")
        used |= track
