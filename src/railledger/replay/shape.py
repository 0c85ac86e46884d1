"""Field types of an action, checked before the rules.

Readers keep any field a record carries (ingest/action_types.py), so a record may hold, say, a
rotation written as text. The engine refuses such an action with a flag naming the field rather
than failing inside a rule. Fields no rule reads are refused by the step that would take the
action (``replay.flow.reads``; docs/engine.md lists them).
"""

from __future__ import annotations

from typing import Any

from railledger.ingest.action_types import Kind, action_type
from railledger.ingest.model import Action
from railledger.replay.errors import Violation


ROUTE_FIELDS = frozenset({"train", "connections", "hexes", "revenue", "revenue_str", "nodes"})
"""The fields of one route the run step uses or compares."""


def check_shape(action: Action) -> None:
    """Raise a Violation when a field of the action has the wrong type."""
    spec = action_type(action.type)
    if spec is None:
        raise Violation("action-type", f"{action.type} is not an action railledger knows")
    if action.is_program:
        return  # the server's automation settings: their effects are the auto actions that follow
    for name, value in action.fields.items():
        kind = spec.kinds.get(name)
        if kind is None or kind is Kind.ENTITY:
            continue
        if value is None and name not in spec.required:
            continue
        if not _fits(kind, value):
            raise Violation("action-malformed", f"field {name} of {action.type} is {value!r}, not {_describe(kind)}")


def _fits(kind: Kind, value: Any) -> bool:
    if kind is Kind.INT:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is Kind.STR:
        return isinstance(value, str)
    if kind is Kind.BOOL:
        return isinstance(value, bool)
    if kind is Kind.STRS:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return isinstance(value, list) and all(_route_fits(route) for route in value)  # Kind.ROUTES


def _route_fits(route: Any) -> bool:
    if not isinstance(route, dict) or not isinstance(route.get("train"), str):
        return False
    if any(k not in ROUTE_FIELDS and v not in (None, [], {}, 0) for k, v in route.items()):
        return False  # halts, a route's own subsidy or abilities: no title here has them
    connections = route.get("connections", [])  # none at all: the rules flag a route without stops
    if not isinstance(connections, list) or not all(
        isinstance(chain, list) and all(isinstance(h, str) for h in chain) for chain in connections
    ):
        return False
    revenue = route.get("revenue")
    return revenue is None or (isinstance(revenue, int) and not isinstance(revenue, bool))


def _describe(kind: Kind) -> str:
    return {
        Kind.INT: "a whole number",
        Kind.STR: "text",
        Kind.BOOL: "true or false",
        Kind.STRS: "a list of text",
        Kind.ROUTES: "a list of routes (train, connections of hexes, revenue)",
    }[kind]
