"""The optimizer's shortcuts against the plain computations they stand for.

Kept answers: a connection's stops and track are kept on the board until a tile goes on one of
its hexes, a route's reading for the moment of the game (``replay.routes``); before every action
of the test games and records, replayed with the revenue audit, each kept answer that a question
would be given equals a fresh one.

The route enumeration grows each arm of its search tree once and keeps it; the plain search it
replaces searches the backward arms afresh for every forward arm. The order in which routes come
out decides between equally rich runs (the branch and bound keeps the first it finds), so the
enumeration must give the plain search's routes in the plain search's order, not just the same
set: it is compared with the plain search, written here from the rules as docs/optimizer.md
states them, on random positions and on the position of every run of the test games and records.

A search leaves nothing for the garbage collector; a :class:`TileMemo` keeps the boards it is asked
about apart although it remembers the last one; a hex's track joining two stops inside it is read
off each path's edges, as the plain reading of every end of every path says.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import HealthCheck, given, settings

from railledger.ingest.model import Action
from railledger.replay import Game
from railledger.replay.errors import Violation
from railledger.replay.optimizer import Budget, engine, position_of, solve
from railledger.replay.optimizer.model import Connection, Node, Position
from railledger.replay.optimizer.paths import REVENUE, SIZE, connections_of, enumerate_routes, segments_of, stops_of
from railledger.replay import routes
from railledger.replay.board import Board
from railledger.replay.geometry import TileGeometry
from railledger.replay.routes import TileMemo
from railledger.replay.optimizer.audit import RunAuditor
from railledger.replay.replayer import replay_record
from tests.conftest import fixture_files
from tests.perft import TEST_GAMES, record_of
from tests.test_optimizer_random import positions

RECORDS = [*TEST_GAMES, *fixture_files()]

Described = tuple[tuple[Node, ...], tuple[tuple[str, ...], ...], frozenset[Any], tuple[int, int, int], int]
"""A route as both searches can say it: stops, connections' hexes, track, size, revenue."""


def plain_routes(position: Position) -> list[Described]:
    """Every legal route by the plain search: from each station (lowest first), each forward arm
    in depth-first order, and for each the backward arms that fit it, searched afresh."""
    stops = position.stops
    nodes = sorted(stops)
    stations = [n for n in nodes if stops[n].station]
    out: dict[Node, list[tuple[int, Node, Connection]]] = {n: [] for n in nodes}
    for number, c in enumerate(position.connections):
        if c.a in stops and c.b in stops and c.a != c.b:
            out[c.a].append((number, c.b, c))
            out[c.b].append((number, c.a, Connection(c.b, c.a, tuple(reversed(c.chain)), c.segments, c.track)))

    def size(route: list[Node], connections: list[Connection]) -> tuple[int, int, int]:
        return len(route), sum(stops[n].kind != "t" for n in route), sum(c.crossed for c in connections)

    def fits(route: list[Node], connections: list[Connection]) -> bool:
        counted = size(route, connections)
        return any(counted[measure] <= most for measure, most in (train.reach for train in position.trains))

    found: list[Described] = []
    for rank, station in enumerate(stations):
        barred = set(stations[:rank + 1])

        def arms(arm: list[tuple[int, Node, Connection]], taken: set[Node], used: frozenset[Any],
                 other_stops: list[Node], other_connections: list[Connection], below: int | None
                 ) -> Iterator[list[tuple[int, Node, Connection]]]:
            """``arm`` and every arm extending it (depth first) that fits with the other arm."""
            yield arm
            end = arm[-1][1] if arm else station
            if arm and not stops[end].passable:
                return
            for number, other, connection in out[end]:
                if other in barred or other in taken or connection.track & used:
                    continue
                if not arm and below is not None and number >= below:
                    continue  # the mirror pair, with this arm forward, is the one kept
                longer = arm + [(number, other, connection)]
                if fits([station, *other_stops, *(n for _, n, _ in longer)], [*other_connections, *(c for _, _, c in longer)]):
                    yield from arms(longer, taken | {other}, used | connection.track, other_stops,
                                    other_connections, below)

        for forward in arms([], set(), frozenset(), [], [], None):
            f_stops, f_connections = [n for _, n, _ in forward], [c for _, _, c in forward]
            f_used = frozenset(t for c in f_connections for t in c.track)
            first = forward[0][0] if forward else -1
            for backward in arms([], set(f_stops), f_used, f_stops, f_connections, first):
                route = [n for _, n, _ in reversed(backward)] + [station] + f_stops
                if len(route) < 2:
                    continue
                back = [Connection(c.b, c.a, tuple(reversed(c.chain)), c.segments, c.track) for _, _, c in reversed(backward)]
                connections = back + f_connections
                found.append((tuple(route), tuple(c.chain for c in connections),
                              frozenset(s for c in connections for s in c.segments), size(route, connections),
                              sum(stops[n].revenue for n in route)))
    return found


def described(position: Position) -> list[Described]:
    candidates, complete = enumerate_routes(position)
    assert complete
    return [(stops_of(c), tuple(x.chain for x in connections_of(c)), segments_of(c), c[SIZE], c[REVENUE]) for c in candidates]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(positions())
def test_the_enumeration_is_the_plain_search_on_random_positions(position: tuple[Game, str]) -> None:
    game, corporation = position
    found = position_of(game, corporation)
    assert described(found) == plain_routes(found)


class _RunPositions:
    """The position of the acting company before every run of a replay."""

    def __init__(self) -> None:
        self.positions: list[tuple[int, Position]] = []

    def before(self, game: Game, index: int, action: Action) -> None:
        if action.type == "run_routes":
            self.positions.append((index, position_of(game, str(action.entity.id))))

    def after(self, game: Game, index: int, action: Action) -> None:
        pass


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in RECORDS])
def test_the_enumeration_is_the_plain_search_at_every_recorded_run(path: Path) -> None:
    watch = _RunPositions()
    replay_record(record_of(path), keep_going=True, watch=watch)
    assert watch.positions
    for index, position in watch.positions:
        assert described(position) == plain_routes(position), f"#{index} {position.corporation}"


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in RECORDS])
def test_a_search_leaves_no_reference_cycles(path: Path) -> None:
    """A search's arms, routes and branch-and-bound lists are freed with its answer by reference
    counting: none of them is left for the garbage collector (with thousands per run audited,
    collecting them cost more than a tenth of the search). Also when a budget stops a search."""
    watch = _RunPositions()
    replay_record(record_of(path), keep_going=True, watch=watch)
    gc.collect()
    gc.disable()
    try:
        for _, position in watch.positions:
            solve(position)
            solve(position, Budget(paths=3, combinations=2))
        assert gc.collect() == 0
    finally:
        gc.enable()


def _outcome(answer: Callable[[], object]) -> object:
    """The answer, or the refusal's message."""
    try:
        return answer()
    except Violation as violation:
        return violation.message


class _KeptAnswers:
    """Around every action of a replay (the revenue audit building the runs' routes before each
    run), the kept answers of the board and of the moment, each beside a fresh one."""

    def __init__(self) -> None:
        self.auditor = RunAuditor()
        self.compared = {"chains": 0, "routes": 0}

    def before(self, game: Game, index: int, action: Action) -> None:
        self.auditor.before(game, index, action)
        self.compare(game, f"before #{index}")

    def after(self, game: Game, index: int, action: Action) -> None:
        self.auditor.after(game, index, action)
        self.compare(game, f"after #{index}")

    def compare(self, game: Game, when: str) -> None:
        kept = routes._CONNECTIONS._boards.get(game.board)
        for chain in list(kept.answers) if kept is not None else []:
            fresh = _outcome(lambda: routes._connection_stops(game, list(chain))[0])
            assert _outcome(lambda: routes.connection_stops(game, list(chain))) == fresh, f"{when} {chain}"
            self.compared["chains"] += 1
        if game.memo.moment == game.moment:
            for key in list(game.memo.answers):
                if isinstance(key, tuple) and key[0] == "route":
                    _, corporation, train, chains = key
                    raw = {"train": train, "connections": [list(c) for c in chains]}
                    fresh = _outcome(lambda: routes._build_route(game, corporation, raw))
                    assert _outcome(lambda: routes.build_route(game, corporation, raw)) == fresh, f"{when} {key}"
                    self.compared["routes"] += 1


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in RECORDS])
def test_kept_connections_and_routes_are_those_found_afresh(path: Path) -> None:
    """A chain's stops and track are kept on the board until a tile goes on one of its hexes, a
    route's reading for the moment of the game: before every action, each equals a fresh one."""
    watch = _KeptAnswers()
    replay_record(record_of(path), keep_going=True, watch=watch)
    assert watch.compared["chains"] and watch.compared["routes"]


class _Board:
    """As much of a board as a :class:`TileMemo` reads: the hexes tiles went on."""

    def __init__(self) -> None:
        self.laid: list[str] = []


def _never() -> tuple[str, list[str]]:
    raise AssertionError("asked again although kept")


def test_a_tile_memo_keeps_each_boards_answers_apart() -> None:
    """The last board asked about is remembered by a weak reference: asking of two boards in
    turn gives each its own answers, a tile on one forgets only that board's, and a new board
    (perhaps at a dead one's address) starts afresh."""
    memo: TileMemo[str, str] = TileMemo()
    one, two = _Board(), _Board()
    ask = lambda board, answer: memo.recall(cast(Board, board), "key", answer)  # noqa: E731
    assert ask(one, lambda: ("one", ["A1"])) == "one"
    assert ask(two, lambda: ("two", ["A1"])) == "two"
    assert (ask(one, _never), ask(two, _never), ask(two, _never), ask(one, _never)) == ("one", "two", "two", "one")
    one.laid.append("A1")
    assert ask(two, _never) == "two"
    assert ask(one, lambda: ("one again", ["A1"])) == "one again"
    del one, two
    gc.collect()
    for _ in range(3):
        assert ask(_Board(), lambda: ("new", ["A1"])) == "new"


def _tiles_of_the_test_games() -> list[TileGeometry]:
    tiles: list[TileGeometry] = []
    for path in TEST_GAMES:
        record = record_of(path)
        game = Game.from_record(record)
        for tile in [*game.title.tiles.tiles.values(), *(game.board.tile(h) for h in game.board.hexes)]:
            tiles += [tile.rotated(rotation) for rotation in range(6)]
    return tiles


def test_track_joining_two_stops_inside_a_hex_is_read_off_each_paths_edges() -> None:
    """Every tile and printed hex of the three titles, at every rotation: a path of it joins two
    stops exactly when every end of that path is a stop."""
    tiles = _tiles_of_the_test_games()
    plain = [any(all(not end.startswith("e") for end in path) for path in tile.paths) for tile in tiles]
    assert [engine._joins_stops_inside(tile) for tile in tiles] == plain
    assert any(plain) and not all(plain)
