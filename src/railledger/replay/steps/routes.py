"""Running trains: a company with trains and a route declares its run.

The step is open when the company owns a train and some station of it reaches another stop
(18xx.games' "route available"). The engine checks every declared route (track, stops, a
station, blocking, length) and computes its revenue; every declared number of the run (each
route's revenue, stops and nodes, the run's extra revenue and subsidy) must be what the engine
computes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from railledger.ingest.model import Action, Entity
from railledger.replay.errors import Violation
from railledger.replay.flow import Effects, make_action, reads
from railledger.replay.names import entity_name
from railledger.replay.steps.base import OperatingStep
from railledger.replay.network import route_available
from railledger.replay.routes import Route, build_route, check_run
from railledger.replay.state import GameState



class RunRoutes(OperatingStep):
    name = "run"
    can_pass = False
    timing = "route"

    def offers(self, entity: Entity) -> frozenset[str]:
        sym = self.round.corporation
        if entity != self.round.current or sym is None:
            return frozenset()
        if not self.game.corporation_trains(sym) or not route_available(self.game, sym):
            return frozenset()
        return frozenset({"run_routes"})

    def why_not(self, action: Action) -> Violation | None:
        if action.entity == self.round.current and action.type in ("pass", "dividend", "buy_train"):
            return Violation("run-required", f"{self.round.corporation} has trains and a route: it runs them first (a run may be empty)")
        return None

    def legal(self) -> Iterator[Action]:
        """A run is offered as the step (any set of routes may be declared): an empty run."""
        current = self.round.current
        if current is not None and self.offers_now(current):
            yield make_action("run_routes", current, routes=[])

    @reads("routes", "extra_revenue", "subsidy")
    def do_run_routes(self, action: Action) -> Effects:
        game = self.game
        sym = self.round.corporation
        assert sym is not None
        if action.entity != self.round.current:
            raise Violation("operating-order", f"{entity_name(self.game, action.entity)} is not operating")
        if self.round.turn.ran:
            raise Violation("route-once", f"{sym} already ran its trains this turn")
        raw_routes: list[dict[str, Any]] = list(action.fields.get("routes") or [])
        routes = [build_route(game, sym, raw) for raw in raw_routes]
        check_run(game, sym, routes)
        for route, raw in zip(routes, raw_routes):
            check_declared_route(game, sym, route, raw)
        for name in ("extra_revenue", "subsidy"):
            declared = action.fields.get(name)
            if declared not in (None, 0):
                raise Violation("route-revenue", f"{game.title.name} has no {name.replace('_', ' ')}; the run declares ${declared}")
        yield
        self.round.turn.routes = routes
        self.round.turn.ran = True
        self.passed = True
        self.after_run(routes)

    def after_run(self, routes: list[Route]) -> None:
        """Effects of having run (a title may mark trains)."""


def check_declared_route(game: GameState, sym: str, route: Route, raw: dict[str, Any]) -> None:
    """A route's declared revenue, stop hexes, nodes and text must be what the engine computed.

    18xx.games writes ``hexes`` from its connections' end stops, in an order that may name a hex
    with two stops more than twice ("D9-D9-D9-E4"); the hexes must be the route's stops once
    repeats in a row are merged. ``nodes`` names each stop ``<hex>-<index>``, counting a hex's
    cities, towns and off-boards together; ``revenue_str`` is the hexes joined by "-", plus
    the title's bonus text.
    """
    hexes = stop_hexes(route)
    stops = "-".join(hexes)
    declared = raw.get("revenue")
    if declared is not None and declared != route.revenue:
        raise Violation("route-revenue", f"{sym}'s {route.train.name} train on {stops} earns ${route.revenue}, not the declared ${declared}")
    declared_hexes = raw.get("hexes")
    if declared_hexes is not None:
        merged = merge_repeats([str(h) for h in declared_hexes])
        if merged not in (merge_repeats(hexes), merge_repeats(hexes[::-1])):
            raise Violation("route-stops", f"{sym}'s {route.train.name} train stops at {stops}, not the declared {'-'.join(map(str, declared_hexes))}")
    nodes = raw.get("nodes")
    if nodes is not None:
        mine = sorted({f"{h}-{game.board.tile(h).nodes().index(n)}" for h, n in route.stops})
        if sorted(set(map(str, nodes))) != mine:
            raise Violation("route-stops", f"{sym}'s {route.train.name} train stops at nodes {', '.join(mine)}, not the declared {', '.join(map(str, nodes))}")
    text = raw.get("revenue_str")
    if text is not None:
        named = [str(h) for h in declared_hexes] if declared_hexes is not None else hexes
        expected = "-".join(named) + game.title.revenue_suffix(game, sym, route)
        if text != expected:
            raise Violation("route-stops", f"the run of {sym}'s {route.train.name} train reads {expected!r}, not the declared {text!r}")


def merge_repeats(hexes: list[str]) -> list[str]:
    return [h for i, h in enumerate(hexes) if i == 0 or hexes[i - 1] != h]


def stop_hexes(route: Route) -> list[str]:
    """The hex of each of a route's stops, in order (a hex with two stops is named twice)."""
    return [hex_id for hex_id, _ in route.stops]
