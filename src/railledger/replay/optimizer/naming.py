"""How a run is named to people: each route as ``train hexes revenue`` (``2D-2 E1-I1 280``).

The hexes are those of the route's stops in order, each stop named by its hex as 18xx.games' own
log names a run (a route from New Orleans' city to its town is ``I1-I1``), so that a player can
find the route on the map and beside the game's log, and an organizer can send it as it is.
"""

from collections.abc import Iterable, Sequence

RouteParts = tuple[str, Iterable[Sequence[str]], int | None]
"""A route's train, its stops (each ``(hex, node)``) and its revenue (None when not valued)."""


def route_name(train: str, stops: Iterable[Sequence[str]], revenue: int | None) -> str:
    """``4+-2 I1-E1-B2-A1-C7 240``: the train, its stops' hexes, and the revenue when known."""
    hexes = "-".join(str(stop[0]) for stop in stops) or "no stop"
    return f"{train} {hexes}" if revenue is None else f"{train} {hexes} {revenue}"


def run_name(routes: Iterable[RouteParts]) -> str:
    """Every route of a run, ``; ``-separated; ``no route`` for a run of none."""
    return "; ".join(route_name(*route) for route in routes) or "no route"
