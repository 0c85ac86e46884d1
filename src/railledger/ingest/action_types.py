"""The action types railledger understands, with the fields each carries.

Field names and meanings are those of 18xx.games exports. Each type lists its *positional*
fields (written bare, in order, in our notation) and the kind of every field it knows, which
decides how a value is written. Fields not listed here are still kept: the notation writes them
as raw JSON (``name:=value``), so nothing a record carries is lost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Kind(Enum):
    """How a field's value is spelled in the notation."""

    INT = "int"
    STR = "str"
    STRS = "strs"  # list of strings, comma separated
    BOOL = "bool"
    ENTITY = "entity"  # the pair (name, name_type), e.g. purchase_for / purchase_for_type
    ROUTES = "routes"  # the routes of a run_routes action


@dataclass(frozen=True)
class ActionType:
    """A known action type: its positional fields in order and the kinds of its known fields."""

    name: str
    positional: tuple[str, ...] = ()
    kinds: dict[str, Kind] = field(default_factory=dict)
    required: tuple[str, ...] = ()

    def kind(self, name: str) -> Kind | None:
        return self.kinds.get(name)


def _type(
    name: str,
    positional: tuple[str, ...] = (),
    required: tuple[str, ...] | None = None,
    **kinds: Kind,
) -> ActionType:
    """A spec whose required fields are its positional ones unless said otherwise."""
    return ActionType(name, positional, kinds, positional if required is None else required)


_I, _S, _L, _B, _E = Kind.INT, Kind.STR, Kind.STRS, Kind.BOOL, Kind.ENTITY

GAME_ACTION_TYPES: dict[str, ActionType] = {
    t.name: t
    for t in (
        _type("pass"),
        _type("bid", ("company", "price"), ("price",), company=_S, price=_I, corporation=_S, minor=_S),
        _type("offer", ("company",), (), company=_S, corporation=_S, price=_I),
        _type(
            "par",
            ("corporation", "share_price"),
            corporation=_S,
            share_price=_S,
            slot=_I,
            purchase_for=_E,
            borrow_from=_E,
        ),
        _type(
            "buy_shares",
            ("shares", "percent"),
            shares=_L,
            percent=_I,
            share_price=_I,
            swap=_S,
            purchase_for=_E,
            borrow_from=_E,
            total_price=_I,
            discounter=_S,
        ),
        _type("sell_shares", ("shares", "percent"), shares=_L, percent=_I, share_price=_I, swap=_S),
        _type("buy_company", ("company", "price"), company=_S, price=_I),
        _type("purchase_train"),  # a private buys its company the next bank train (1871 Hunslet)
        _type("lay_tile", ("hex", "tile", "rotation"), hex=_S, tile=_S, rotation=_I, combo_entities=_L),
        _type("place_token", ("city", "slot"), city=_S, slot=_I, cost=_I, tokener=_S, token_type=_S),
        _type("run_routes", ("routes",), routes=Kind.ROUTES, extra_revenue=_I, subsidy=_I),
        _type("dividend", ("kind",), kind=_S, amount=_I),
        _type(
            "buy_train",
            ("train", "price"),
            train=_S,
            price=_I,
            variant=_S,
            exchange=_S,
            shell=_S,
            extra_due=_B,
        ),
        _type("discard_train", ("train",), train=_S),
        _type("choose"),  # choice: a text or a number (an amount of cash), kept as JSON
        _type("split", ("corporation",), corporation=_S),
        _type("bankrupt"),
        _type("end_game"),
    )
}
"""Game actions: each changes (or, for pass, advances) the state of the game."""

PROGRAM_PREFIX = "program_"
"""Player automation settings; any ``program_*`` type is accepted and kept as metadata."""

PROGRAM_KINDS: dict[str, Kind] = {
    "corporation": _S,
    "until_condition": _S,
    "from_market": _B,
    "auto_pass_after": _B,
    "unconditional": _B,
    "indefinite": _B,
    "original_type": _S,
}

ROUTE_KINDS: dict[str, Kind] = {"train": _S, "hexes": _L, "nodes": _L, "revenue": _I}
"""Known fields of one route inside run_routes (``connections`` has its own spelling)."""


def action_type(name: str) -> ActionType | None:
    """The spec of a known type; program types share one spec with no positional fields."""
    if name in GAME_ACTION_TYPES:
        return GAME_ACTION_TYPES[name]
    if name.startswith(PROGRAM_PREFIX):
        return ActionType(name, (), PROGRAM_KINDS)
    return None
