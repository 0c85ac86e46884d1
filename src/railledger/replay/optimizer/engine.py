"""The one module that reads the rules engine: a game position in, a :class:`Position` out, and
the engine's own verdict on routes the optimizer proposes.

Everything the optimizer knows about legality comes from the engine's own functions where it can:
each connection is confirmed by ``replay.routes.connection_stops`` (so its end stops and track
pieces are the engine's, not a copy of its reading of a tile), stop revenues come from the tiles'
``revenue_in`` at the phase colour, the "may a route pass through a stop" test is the engine's
(``replay.routes`` refuses off-boards and cities full of other companies' stations in the middle
of a route), and title bonuses are the title's ``route_bonus`` hook. Finally every route of an
answer goes back through ``build_route`` and ``check_run``; an answer the engine would refuse, or
value differently, raises instead of being returned.

When the engine is rewritten, this is the module to re-point.
"""

from __future__ import annotations

from typing import Any

from railledger.ingest.model import Action, PlayerId, Record
from railledger.replay.board import Board
from railledger.replay.errors import IllegalAction, Violation
from railledger.replay.game import Game
from railledger.replay.geometry import TileGeometry
from railledger.replay.replayer import Watcher, replay_record
from railledger.replay.hexgrid import neighbour, opposite
from railledger.replay.optimizer.model import Bonus, Connection, Node, Position, Segment, Stop, Train
from railledger.replay.routes import KINDS, Route, TileMemo, build_route, check_run, connection_stops, track_of
from railledger.replay.rules import Rules

class EngineDisagrees(AssertionError):
    """The engine refused or valued differently a route the optimizer built: a bug to report."""


def position_of(game: Game, corporation: str) -> Position:
    """The company's stops, connections and trains as they stand in ``game``.

    Stops are found outward from the company's stations: a stop a route may pass through leads
    on along its connections; an off-board or a blocked city only ends routes, so its other
    connections are never needed (a route reaching them would have to pass through it).
    """
    board = game.board
    colour = game.phase.colour
    stations = set(board.tokened(corporation))
    stops: dict[Node, Stop] = {}
    connections: dict[frozenset[Segment], Connection] = {}
    frontier: list[Node] = [(h, f"c{i}") for h, i in sorted(stations)]
    while frontier:
        node = frontier.pop()
        if node in stops:
            continue
        stop = stops[node] = _stop(board, corporation, node, stations, colour)
        if not stop.passable:
            continue
        for connection in _KNOWN.recall(board, node[0], _hex_connections, game, node[0]).get(node, ()):
            connections.setdefault(connection.segments, connection)
            for end in (connection.a, connection.b):
                if end not in stops:
                    frontier.append(end)
    trains = tuple(train_of(game, t.id, t.name) for t in sorted(game.corporation_trains(corporation), key=lambda t: t.id))
    return Position(corporation, stops, tuple(connections.values()), trains, _bonus(game, corporation))


def _stop(board: Board, corporation: str, node: Node, stations: set[tuple[str, int]], colour: str) -> Stop:
    hex_id, node_id = node
    kind, index = node_id[0], int(node_id[1:])
    revenue = getattr(board.tile(hex_id), KINDS[kind])[index].revenue_in(colour)
    if kind == "o":
        passable = False
    elif kind == "c":  # replay.routes' blocked test: every slot holds another company's station
        slots = board.tokens_in(hex_id, index)
        passable = None in slots or corporation in slots
    else:
        passable = True
    return Stop(node, kind, revenue, passable, kind == "c" and (hex_id, index) in stations)


def _hex_connections(game: Game, hex_id: str) -> tuple[dict[Node, list[Connection]], set[str]]:
    """Every connection with an end stop in ``hex_id``, listed under each of its ends there, and
    the hexes whose tiles finding them read: track joining two stops inside the hex, then track
    walked out of each side a stop there touches (:func:`_side_connections`)."""
    board = game.board
    tile = board.tile(hex_id)
    looked: set[str] = {hex_id}
    found = [c for c in [_confirmed(game, [hex_id])] if c is not None] if _joins_stops_inside(tile) else []
    for edge in sorted({edge for edges in tile.node_edges.values() for edge in edges}):
        side, read = _SIDES.recall(board, (hex_id, edge), _side_connections, game, hex_id, edge)
        found += side
        looked |= read
    at: dict[Node, list[Connection]] = {}
    for connection in found:
        for end in dict.fromkeys((connection.a, connection.b)):
            if end[0] == hex_id:
                at.setdefault(end, []).append(connection)
    return at, looked


def _joins_stops_inside(tile: TileGeometry) -> bool:
    """Whether a path of the tile joins two of its stops (New Orleans' city and town): a path
    with no edge. Read off the tile's own list of each path's edges, which is cheaper than
    looking at every end of every path, and asked whenever a hex's connections are found."""
    return any(not edges for edges, _ in tile.ends_of.values())


def _side_connections(game: Game, hex_id: str, edge: int) -> tuple[tuple[list[Connection], frozenset[str]], set[str]]:
    """The connections leaving ``hex_id`` over ``edge``: its track walked, through plain track, to
    each first hex where it runs into a stop; the engine confirms each chain and names its ends.
    The hexes whose tiles the walk read come with them (for ``_KNOWN``) and as what they read."""
    looked: set[str] = {hex_id}
    chains: list[list[str]] = []
    _walk(game.board, game.title.layout, [hex_id], edge, frozenset(), looked, chains)
    return ([c for c in (_confirmed(game, chain) for chain in chains) if c is not None], frozenset(looked)), looked


_KNOWN: TileMemo[str, dict[Node, list[Connection]]] = TileMemo()
"""Each hex's connections as last found on a board, kept until a tile goes on a hex that finding
looked at: a position is built for every run a replay audits and every run a bot weighs, and
between two of them most of the map has not changed."""

_SIDES: TileMemo[tuple[str, int], tuple[list[Connection], frozenset[str]]] = TileMemo()
"""The connections out of each side of a hex, kept as ``_KNOWN`` is: a tile on one branch of a
hex's track (about half the time, in the shared records) leaves the walks of its other sides
kept when the hex's connections are found again."""


def _walk(board: Board, layout: str, chain: list[str], edge: int, used: frozenset[tuple[str, frozenset[int]]],
          looked: set[str], chains: list[list[str]]) -> None:
    """Add to ``chains`` those continuing ``chain`` over ``edge`` of its last hex (plain track may
    branch), depth first."""
    if edge not in board.tile(chain[-1]).edges:
        return
    there = neighbour(chain[-1], edge, layout)
    if there is None or there not in board.hexes:
        return
    looked.add(there)
    entry = opposite(edge)
    tile = board.tile(there)
    if entry not in tile.edges:
        return
    longer = chain + [there]
    for edges in tile.node_edges.values():
        if entry in edges:
            chains.append(longer)
            break
    onward = [link for link in tile.edge_links if entry in link]
    if len(onward) > 1:  # a set's order follows PYTHONHASHSEED; routes tied on revenue must not
        onward.sort(key=sorted)
    for link in onward:
        if (there, link) not in used:
            (exit_,) = link - {entry}
            _walk(board, layout, longer, exit_, used | {(there, link)}, looked, chains)


def _confirmed(game: Game, chain: list[str]) -> Connection | None:
    """The connection the engine reads off the chain; None when it leaves some hex twice by the
    same side (a walk back through a junction), which no route may."""
    first, last, used = connection_stops(game, chain)
    track = track_of(used)
    if len(set(track)) != len(track):
        return None
    return Connection(first, last, tuple(chain), frozenset(used), frozenset(track))


def train_of(game: Game, train_id: str, name: str) -> Train:
    """The optimizer's model of a train of type ``name`` (one the company may not hold yet: a bot
    weighs a run with a train it would buy)."""
    kind = game.title.train_type(name)
    return Train(train_id, name, kind.distance, kind.counts_towns, kind.multiplier, kind.hex_edges)


def _bonus(game: Game, corporation: str) -> Bonus | None:
    """The title's route bonus as a function of one route, or None when the title has none."""
    if type(game.title).route_bonus is Rules.route_bonus:
        return None
    title = game.title

    def bonus(train: Train, stops: tuple[Node, ...], segments: frozenset[Segment]) -> int:
        kind = title.train_type(train.name)
        return title.route_bonus(game, corporation, Route(train.id, kind, stops, segments, 0))

    return bonus


def engine_routes(game: Game, corporation: str, routes: list[dict[str, Any]]) -> list[Route]:
    """The engine's reading of each route of a run (stops, revenue), after its own legality checks.

    Raises ``replay.errors.Violation`` when the engine refuses the run.
    """
    built = [build_route(game, corporation, raw) for raw in routes]
    check_run(game, corporation, built)
    return built


def engine_revenues(game: Game, corporation: str, routes: list[dict[str, Any]]) -> list[int]:
    """The engine's revenue of each route of a run (see :func:`engine_routes`)."""
    return [route.revenue for route in engine_routes(game, corporation, routes)]


def confirm(game: Game, corporation: str, routes: list[dict[str, Any]]) -> None:
    """Raise :class:`EngineDisagrees` unless the engine accepts the run and values each route as
    the optimizer did."""
    try:
        revenues = engine_revenues(game, corporation, routes)
    except Violation as violation:
        raise EngineDisagrees(f"{corporation}: the engine refuses the optimizer's run {routes}: {violation}") from None
    for raw, revenue in zip(routes, revenues):
        if raw["revenue"] != revenue:
            raise EngineDisagrees(f"{corporation}: train {raw['train']} earns {revenue} by the engine, not {raw['revenue']}")


# -- replaying a record ----------------------------------------------------------------------------


def president_of(game: Game, corporation: str) -> PlayerId | None:
    """Who decides the company's run: its president (None for a company without one)."""
    return game.president(corporation)


def replay(record: Record, watch: Watcher) -> None:
    """Replay the record as ``--keep-going`` does, ``watch`` seeing the game around each action."""
    replay_record(record, keep_going=True, watch=watch)


def process(game: Game, action: Action) -> str | None:
    """Apply one action; an illegal one is left out (as a keep-going replay does) and its
    message returned."""
    try:
        game.process(action)
    except IllegalAction as illegal:
        return str(illegal)
    return None


def round_label(game: Game) -> str:
    """The round the last action was taken in, as the engine names it ("OR 2.1")."""
    return game.acted_in


def trains_of(game: Game, corporation: str) -> tuple[tuple[str, str], ...]:
    """(train id, type) of the company's trains in play."""
    return tuple((t.id, t.name) for t in sorted(game.corporation_trains(corporation), key=lambda t: t.id))
