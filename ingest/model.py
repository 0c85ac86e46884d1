"""The canonical record: what railledger keeps of a game, whatever format it came in.

A :class:`Record` is the header of a game (title, players in seat order, seed, optional rules,
recorded result) plus its canonical action list: the actions still standing after undo/redo,
each followed by the automatic actions the server ran after it. Everything a replay needs is
here; display-only and bookkeeping fields of the source (timestamps, acting user, chat) are not.
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
    """

    type: str
    entity: Entity
    id: int
    auto: int = 0
    fields: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """How flags and errors name the action: ``42`` or ``42.1`` for an automatic one."""
        return f"{self.id}.{self.auto}" if self.auto else str(self.id)

    @property
    def is_program(self) -> bool:
        """True for player automation settings (``program_*``), which change nothing in the game."""
        return self.type.startswith("program_")


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
