"""The optimizer against a brute-force enumerator on random small positions of the three titles.

The brute force shares no code with the optimizer and decides nothing itself: it tries every walk
of neighbouring hexes that follows track as a connection (the engine's ``connection_stops``
names its stops or refuses it), every sequence of such connections joined at stops as a route
(the engine's ``build_route`` accepts it and values it, or refuses it; a sequence is grown further
only while the engine's refusal is one a longer route could cure), and every choice of one route
or none per train whose routes share no track (which the engine's ``check_run`` must then
accept). Its best total must be the optimizer's. The branch and bound alone is also checked
against trying every choice on random route lists.
"""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from railledger.replay import Game
from railledger.replay.errors import Violation
from railledger.replay.hexgrid import neighbour, opposite
from railledger.replay.optimizer import best_run
from railledger.replay.optimizer.combine import best_choice
from railledger.replay.routes import Route, build_route, check_run, connection_stops, track_of
from tests.optimizer_boards import Canvas

CENTRES = {"18MS": ("E7", "H2"), "18Texas": ("E8", "D9"), "The Old Prince 1871": ("K15", "O15")}
CORPORATION = {"18MS": "GMO", "18Texas": "T&P", "The Old Prince 1871": "So"}
OTHER = {"18MS": "IC", "18Texas": "MP", "The Old Prince 1871": "MS"}
TRAINS = {
    "18MS": ("2+", "3+", "4+", "5", "2D", "4D"),
    "18Texas": ("2", "3", "4", "5"),
    "The Old Prince 1871": ("2H", "3H", "4H", "6H", "2+", "3+", "7", "D"),
}
REVENUES = st.sampled_from((0, 10, 20, 30, 40, 60))
NODES = (("c0",), ("c0",), ("t0",), ("o0",), ("c0", "t0"), ("c0", "c1"), ("t0", "t1"), ())


@st.composite
def positions(draw: st.DrawFn) -> tuple[Game, str]:
    """A centre hex and one or two rings of neighbours, with random stops, and track laid along random pairs of
    neighbouring hexes so that it mostly joins up: each side used ends at a stop of its hex or at
    plain track paired with other sides (junctions and crossings included)."""
    title = draw(st.sampled_from(sorted(CENTRES)))
    canvas = Canvas(title)
    game = canvas.game
    layout = game.title.layout
    centre = draw(st.sampled_from(CENTRES[title]))
    region = [centre]
    for _ in range(draw(st.integers(1, 2))):  # one or two rings around the centre
        region += [h for r in list(region) for e in range(6)
                   if (h := neighbour(r, e, layout)) in game.board.hexes and h not in region]
    region = list(dict.fromkeys(region))
    nodes = {h: draw(st.sampled_from(NODES)) for h in region}
    if not any(n.startswith("c") for h in region for n in nodes[h]):
        nodes[centre] = ("c0",)
    sides: dict[str, set[int]] = {h: set() for h in region}
    for a in region:
        for edge in range(6):
            b = neighbour(a, edge, layout)
            if b in sides and a < b and draw(st.integers(0, 9)) < 7:
                sides[a].add(edge)
                sides[b].add(opposite(edge))
    cities: list[tuple[str, int, int]] = []
    for hex_id in region:
        here = nodes[hex_id]
        paths: list[str] = []
        plain: list[int] = []
        for edge in sorted(sides[hex_id]):
            if here and draw(st.integers(0, 3)) > 0:
                paths.append(f"{draw(st.sampled_from(here))}-e{edge}")
                if len(here) == 2 and draw(st.integers(0, 9)) == 0:
                    paths.append(f"{here[0] if paths[-1].startswith(here[1]) else here[1]}-e{edge}")  # two stops on one side
            else:
                plain.append(edge)
        for a, b in itertools.combinations(plain, 2):
            if draw(st.integers(0, 2)) > 0:
                paths.append(f"e{a}-e{b}")
        if len(here) == 2 and draw(st.booleans()):
            paths.append(f"{here[0]}-{here[1]}")
        revenues = {n: draw(REVENUES) for n in here}
        cities_here = tuple((revenues[n], draw(st.integers(1, 2))) for n in here if n.startswith("c"))
        canvas.put(hex_id, *paths, cities=cities_here, towns=tuple(revenues[n] for n in here if n.startswith("t")),
                   offboards=tuple(revenues[n] for n in here if n.startswith("o")))
        cities += [(hex_id, i, slots) for i, (_, slots) in enumerate(cities_here)]
    corporation = CORPORATION[title]
    stations = draw(st.lists(st.sampled_from(cities), min_size=1, max_size=2, unique=True))
    for hex_id, index, _ in stations:
        canvas.station(corporation, hex_id, index)
    for hex_id, index, slots in cities:
        if draw(st.integers(0, 3)) == 0:  # another company's stations, perhaps filling the city
            for _ in range(slots - (1 if (hex_id, index, slots) in stations else 0)):
                canvas.station(OTHER[title], hex_id, index)
    canvas.phase(draw(st.sampled_from([p.name for p in game.title.phases])))
    for name in draw(st.lists(st.sampled_from(TRAINS[title]), min_size=1, max_size=3)):
        try:
            canvas.train(corporation, name)
        except LookupError:  # all cards of that type given already (18MS has two 5-trains)
            pass
    if title == "18MS" and draw(st.booleans()):
        game.corporations[corporation].abilities.add("new_orleans_bonus")
    return game, corporation


def brute_force(game: Game, corporation: str, longest_chain: int = 9) -> int:
    """The best total of any run the engine accepts, found by trying everything."""
    board = game.board
    track_hexes = [h for h, p in board.hexes.items() if p.geometry.paths]
    chains: dict[frozenset[Any], tuple[tuple[str, str], tuple[str, str], list[str]]] = {}

    def walks(chain: list[str], entry: int | None) -> Any:
        yield chain
        if len(chain) >= longest_chain:
            return
        here = board.tile(chain[-1])
        for edge in here.edges:
            if entry is not None and frozenset((entry, edge)) not in here.edge_links:
                continue
            there = neighbour(chain[-1], edge, game.title.layout)
            if there in board.hexes and opposite(edge) in board.tile(there).edges:
                yield from walks(chain + [there], opposite(edge))

    for hex_id in track_hexes:
        for chain in walks([hex_id], None):
            try:
                first, last, used = connection_stops(game, chain)
            except Violation:
                continue
            chains.setdefault(frozenset(used), (first, last, chain))
    connections = list(chains.values())

    routes: dict[str, dict[frozenset[Any], Route]] = {t.id: {} for t in game.corporation_trains(corporation)}

    def extend(sequence: list[list[str]], end: tuple[str, str], seen: set[tuple[str, str]], taken: set[int]) -> None:
        growing = False
        for train_id, best in routes.items():
            try:
                route = build_route(game, corporation, {"train": train_id, "connections": sequence})
            except Violation as violation:
                # Only these refusals can be cured by a longer route: no station of the company
                # yet (the engine checks it before the rest), or the connections not yet joined.
                growing |= violation.key in ("route-token", "route-track")
                continue
            growing = True
            if route.segments not in best or best[route.segments].revenue < route.revenue:
                best[route.segments] = route
        if not growing:
            return  # through an off-board or a blocked city, or too long, for every train
        for number, (first, last, chain) in enumerate(connections):
            if number in taken or end not in (first, last):
                continue
            other, oriented = (last, chain) if end == first else (first, list(reversed(chain)))
            if other in seen:
                continue
            extend(sequence + [oriented], other, seen | {other}, taken | {number})

    for number, (first, last, chain) in enumerate(connections):
        if first != last:
            extend([chain], last, {first, last}, {number})
            extend([list(reversed(chain))], first, {first, last}, {number})

    best_total = 0
    per_train = [list(found.values()) for found in routes.values()]

    def choose(train: int, picked: list[Route], track: frozenset[Any]) -> None:
        nonlocal best_total
        if train == len(per_train):
            total = sum(route.revenue for route in picked)
            if total > best_total:
                check_run(game, corporation, picked)  # the engine must accept what we count
                best_total = total
            return
        choose(train + 1, picked, track)  # this train stays idle
        for route in per_train[train]:
            used = frozenset(track_of(route.segments))
            if not used & track:  # every choice whose trains share no track (the engine's reading of it)
                choose(train + 1, picked + [route], track | used)

    choose(0, [], frozenset())
    return best_total


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(positions())
def test_the_optimizer_equals_brute_force(position: tuple[Game, str]) -> None:
    game, corporation = position
    optimum = best_run(game, corporation)
    assert optimum.proven
    assert optimum.revenue == brute_force(game, corporation)
    built = [build_route(game, corporation, raw) for raw in optimum.run_routes()]
    check_run(game, corporation, built)
    assert sum(r.revenue for r in built) == optimum.revenue


@st.composite
def train_options(draw: st.DrawFn) -> list[list[tuple[int, int]]]:
    """One to four trains' routes as (revenue, track bits) over eight pieces of track; some trains
    share one list, as two trains of one type do."""
    route = st.tuples(st.integers(0, 100), st.integers(1, 255))
    lists = draw(st.lists(st.lists(route, max_size=7), min_size=1, max_size=3))
    return [draw(st.sampled_from(lists)) for _ in range(draw(st.integers(1, 4)))]


@settings(max_examples=300, deadline=None)
@given(train_options())
def test_the_branch_and_bound_equals_trying_every_choice(options: list[list[tuple[int, int]]]) -> None:
    choice = best_choice(options)
    best = 0
    for picks in itertools.product(*[[None, *range(len(o))] for o in options]):
        chosen = [options[t][p] for t, p in enumerate(picks) if p is not None]
        track = [bits for _, bits in chosen]
        if all(not a & b for a, b in itertools.combinations(track, 2)):
            best = max(best, sum(revenue for revenue, _ in chosen))
    assert choice.proven and choice.revenue == best
    chosen = [options[t][p] for t, p in enumerate(choice.picks) if p is not None]
    assert sum(revenue for revenue, _ in chosen) == best
    assert all(not a & b for (_, a), (_, b) in itertools.combinations(chosen, 2))
