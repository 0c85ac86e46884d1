"""The canonical record: what railledger keeps of a game, whatever format it came in.

A :class:`Record` is the header of a game (title, players in seat order, seed, optional rules,
recorded result) plus its canonical action list: the actions still standing after undo/redo,
each followed by the automatic actions the server ran after it. Everything a replay needs is
here, and so is every other field the source gave an action: when it was sent, who sent it for
whom, its id before a renumbering (:class:`Action`'s envelope). Chat and the undo history are
not: the archive keeps the record's raw text for those (docs/schema.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

PlayerId = int | str
"""18xx.games user id for online games; the player's name for hotseat games."""


@dataclass(frozen=True, slots=True)
class Entity:
    """Who acts: a player, a corporation, a private company or a minor."""

    kind: str
    id: PlayerId

    def __str__(self) -> str:
        return f"{self.kind}:{self.id}"


@dataclass(frozen=True, slots=True)
class Action:
    """One canonical game action.

    ``id`` is the source record's action id. An automatic action (one the server ran on its own
    after a player's action, such as a programmed pass) keeps its parent's ``id`` and numbers
    itself with ``auto`` = 1, 2, ... in the order it ran; a player's own action has ``auto`` = 0.
    ``fields`` holds the type's arguments exactly as 18xx.games names them (``hex``, ``tile``,
    ``rotation``, ``shares``, ``routes``...), so a field means what it means there.

    The envelope is what the server wrote about the action rather than in it; no rule reads it,
    and it is kept so that nothing of a record is lost (18xx.games deletes the actions of the
    games it archives, so a railledger copy may be the last one):
    """

    type: str
    entity: Entity
    id: int
    auto: int = 0
    fields: Mapping[str, Any] = field(default_factory=dict)
    created_at: int | None = None
    """When the server received it, as a Unix time (``created_at``)."""
    user: PlayerId | None = None
    """Who sent it when that was not the acting entity's player: 18xx.games' master mode writes
    the id (on older games the name) of the user who acted for another (``user``)."""
    original_id: int | None = None
    """The action's id before 18xx.games renumbered the game's actions (``original_id``)."""
    skip: bool | None = None
    """18xx.games' ``skip`` mark, kept as written."""
    revenue_str: tuple[Any, ...] | None = None
    """Each route's display text (``routes[i].revenue_str``, None where a route has none), kept
    beside ``fields`` rather than in its routes: the server derives it for display, its wording
    changed over the years, and no rule reads it."""

    @property
    def label(self) -> str:
        """How flags and errors name the action: ``42`` or ``42.1`` for an automatic one."""
        return f"{self.id}.{self.auto}" if self.auto else str(self.id)

    def envelope(self) -> dict[str, Any]:
        """The envelope fields that are set, by their 18xx.games names (see :data:`ENVELOPE`)."""
        values = {"created_at": self.created_at, "user": self.user, "original_id": self.original_id, "skip": self.skip}
        return {name: value for name, value in values.items() if value is not None}

    @property
    def is_program(self) -> bool:
        """True for player automation settings (``program_*``), which change nothing in the game."""
        return self.type.startswith("program_")


ENVELOPE = ("created_at", "user", "original_id", "skip")
"""The envelope fields of an action, by their 18xx.games names (the attributes of :class:`Action`)."""


@dataclass(frozen=True, slots=True)
class SourceText:
    """The text a record was read from: an 18xx.games export (``json``, one line of JSON Lines)
    or railledger notation (``notation``). The archive keeps it beside the canonical record, since
    an export also holds what the canonical list does not (undos, redos, chat, the server's own
    keys) and 18xx.games deletes the actions of the games it archives."""

    format: str
    text: str

    FORMATS = ("json", "notation")


@dataclass(frozen=True, slots=True)
class Player:
    """A seat at the table: seat 1 is the first player in the record's player list.

    ``bot`` names the bot that played the seat in a generated game (``railledger play``), None
    for a person."""

    id: PlayerId
    name: str
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class Record:
    """A whole game in canonical form.

    ``actions`` are the game actions in order. ``programs`` are the standing top-level player
    automation settings (``program_*``): metadata, not game actions; the automatic actions they
    triggered are game actions and live in ``actions`` under the program's id.
    """

    title: str
    game_id: str
    players: tuple[Player, ...]
    actions: tuple[Action, ...]
    source: str = "18xx.games"
    seed: int | None = None
    optional_rules: tuple[str, ...] = ()
    status: str | None = None
    result: Mapping[PlayerId, int] | None = None
    programs: tuple[Action, ...] = ()
    created: str | None = None
    """The day the game was created (ISO ``YYYY-MM-DD``): titles whose published data changed over
    time replay a record with the version of its day."""
    duration: int | None = None
    """Seconds from the game's creation to its last action, when the source timed both (an online
    18xx.games export does; a hotseat game or a notation file may not): how long a game took."""
    variant: str | None = None
    """The TOML text of the variant the game was played with (``replay/variant.py``): its replay
    plays the title with that variant's data, never the base title's."""

    @property
    def key(self) -> str:
        """The archive key: source and source id, e.g. ``18xx.games/14375``."""
        return f"{self.source}/{self.game_id}"

    def seat_of(self, player_id: PlayerId) -> int | None:
        """Seat number (from 1) of a player id, or None when the id is not at this table."""
        for seat, player in enumerate(self.players, start=1):
            if player.id == player_id:
                return seat
        return None


def split_route_texts(fields: dict[str, Any]) -> tuple[dict[str, Any], tuple[Any, ...] | None]:
    """Fields with each route's ``revenue_str`` taken out, and those texts (None: no route has one)."""
    routes = fields.get("routes")
    if not isinstance(routes, list) or not any(isinstance(r, dict) and "revenue_str" in r for r in routes):
        return fields, None
    texts = tuple(r.get("revenue_str") if isinstance(r, dict) else None for r in routes)
    kept = [{k: v for k, v in r.items() if k != "revenue_str"} if isinstance(r, dict) else r for r in routes]
    return {**fields, "routes": kept}, texts


def joined_route_texts(action: Action) -> dict[str, Any]:
    """The action's fields with each route's ``revenue_str`` back in it, as the export had them."""
    routes = action.fields.get("routes")
    if action.revenue_str is None or not isinstance(routes, list):
        return dict(action.fields)
    joined = [
        {**route, "revenue_str": text} if isinstance(route, dict) and text is not None else route
        for route, text in zip(routes, action.revenue_str)
    ]
    return {**action.fields, "routes": joined + routes[len(joined):]}

