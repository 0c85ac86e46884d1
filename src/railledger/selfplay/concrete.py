"""Offered actions made concrete, in the shapes 18xx.games writes.

``legal_actions()`` offers a few actions as a family rather than one by one: a run as the empty
run (any routes may be declared), a purchase from another company, a bid or a private's purchase
with the lowest price and its ``price_range``, and 1871's cash answer of a split with its
``choice_range``. A bot picks one member of the family with these helpers; :func:`as_recorded`
then drops the ranges, which 18xx.games' own actions do not carry.
"""

from __future__ import annotations

import dataclasses
from random import Random
from typing import Any

from railledger.ingest.model import Action
from railledger.replay import Game
from railledger.replay.optimizer import Optimum, best_run
from railledger.replay.routes import build_route
from railledger.replay.steps.routes import stop_hexes

RANGES = {"price": "price_range", "choice": "choice_range"}
"""An amount a family of actions leaves free -> the field giving its bounds."""


def bounds(action: Action, amount: str = "price") -> tuple[int, int] | None:
    """The (low, high) an action's ``amount`` may take, or None when it is fixed."""
    declared = action.fields.get(RANGES[amount])
    if not declared:
        return None
    low, high = declared
    return int(low), int(high)


GRIDS = (1, 5, 10, 25, 50, 100)
"""Steps an amount may move by (bids go in $5)."""


def grid(game: Game, action: Action, amount: str = "price") -> int:
    """The step between legal amounts of a family, found by asking the engine: a range may hold
    only multiples of the title's increment (bids), which the range itself does not say."""
    found = bounds(action, amount)
    if found is None or found[0] == found[1]:
        return 1
    low, high = found
    for step in GRIDS:
        if low + step <= high and game.is_legal(with_amount(action, low + step, amount)):
            return step
    return high - low


def uniform_amount(game: Game, action: Action, rng: Random, amount: str = "price") -> Action:
    """A member of the family drawn uniformly among its legal amounts."""
    found = bounds(action, amount)
    assert found is not None
    step = grid(game, action, amount)
    return with_amount(action, found[0] + step * rng.randint(0, (found[1] - found[0]) // step), amount)


def with_amount(action: Action, value: int, amount: str = "price") -> Action:
    """The member of the family paying (or answering) ``value``, which must be in its range."""
    found = bounds(action, amount)
    if found is None or not found[0] <= value <= found[1]:
        raise ValueError(f"{action.type} of {action.entity.id}: {amount} {value} is outside {found}")
    return dataclasses.replace(action, fields={**action.fields, amount: value})


def declared_run(game: Game, action: Action, optimum: Optimum | None = None) -> Action:
    """The offered (empty) run with the best routes declared, each route with every field 18xx.games
    writes and our engine checks: train, connections, hexes, revenue, revenue_str and nodes."""
    sym = str(action.entity.id)
    found = optimum if optimum is not None else best_run(game, sym)
    routes = [route_fields(game, sym, route.as_record()) for route in found.routes]
    return dataclasses.replace(action, fields={**action.fields, "routes": routes, "extra_revenue": 0, "subsidy": 0})


def route_fields(game: Game, sym: str, raw: dict[str, Any]) -> dict[str, Any]:
    """One route as 18xx.games records it, its numbers and names computed by the engine."""
    route = build_route(game, sym, raw)
    hexes = stop_hexes(route)
    nodes = [f"{hex_id}-{game.board.tile(hex_id).nodes().index(node)}" for hex_id, node in route.stops]
    return {
        "train": route.train_id,
        "connections": [list(chain) for chain in raw["connections"]],
        "hexes": hexes,
        "revenue": route.revenue,
        "revenue_str": "-".join(hexes) + game.title.revenue_suffix(game, sym, route),
        "nodes": nodes,
    }


def choice_key(action: Action) -> tuple[object, ...]:
    """An action's type, entity and fields, whatever its number: two actions with equal keys are
    the same choice."""
    return action.type, action.entity, tuple(sorted((k, repr(v)) for k, v in action.fields.items()))


def as_recorded(action: Action) -> Action:
    """The action as a record holds it: without the ranges ``legal_actions()`` adds."""
    if not any(name in action.fields for name in RANGES.values()):
        return action
    return dataclasses.replace(action, fields={k: v for k, v in action.fields.items() if k not in RANGES.values()})
