"""What an event file says, as values: players, rounds of tables, scoring, seating, decisions.

Nothing here is inferred: a value the file does not give takes the default docs/events.md names,
and :mod:`events.file` refuses anything it cannot read as one of these.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from railledger.ingest.identity import USER, labels

RANK_POINTS = "rank points"
WINNER_SHARE = "winner share"
MARGIN = "margin"
VALUE = "value"
SYSTEMS = (RANK_POINTS, WINNER_SHARE, MARGIN, VALUE)
"""How a table is scored (:mod:`events.scoring`)."""

TIES = ("share", "higher", "lower")
"""What tied players get under rank points: the mean of the places they cover, the best, the worst."""

HEAD_TO_HEAD = "head-to-head"
WINS = "wins"
BEST_FINISHES = "best finishes"
TOTAL_VALUE = "total value"
LOT = "lot"
TIE_BREAKS = (HEAD_TO_HEAD, WINS, BEST_FINISHES, TOTAL_VALUE, LOT)
"""The tie-breaks an event may list, applied in its order (:mod:`events.standings`)."""

ACCEPT = "accept"
ADJUST = "adjust"
VOID = "void"
RULINGS = (ACCEPT, ADJUST, VOID)
"""An organizer's decision on a game: counted as played, counted with the values given, or not counted."""

ABANDONED_LAST = "last"
ABANDONED_AS_PLAYED = "as played"
ABANDONED = (ABANDONED_LAST, ABANDONED_AS_PLAYED)

SUBSTITUTE_FOR_PLAYER = "player"
SUBSTITUTE_NONE = "none"
SUBSTITUTE_SCORES = (SUBSTITUTE_FOR_PLAYER, SUBSTITUTE_NONE)
"""Whom a substitute's seat scores for: the player they replaced, or nobody."""


@dataclass(frozen=True)
class EventPlayer:
    """A player of the event: an 18xx.games user id, the name shown, and the last round they play
    when they left the event (None: still in it)."""

    id: int
    name: str
    dropped_after: int | None = None


@dataclass(frozen=True)
class Substitute:
    """Someone who took a player's seat at one table: their user id and name, and whom they replaced."""

    id: int
    name: str
    replaces: int


@dataclass(frozen=True)
class Decision:
    """The organizer's ruling on one game, with the reason shown beside it; ``values`` (user id:
    final value) for ``adjust``."""

    ruling: str
    reason: str
    values: Mapping[int, int] | None = None


@dataclass(frozen=True)
class EventTable:
    """One table of a round: its game on 18xx.games (None: not made yet), the players seated (may
    be left to the game), substitutes, the decision on it, and where the file says it."""

    where: str
    """Its place in the file, as errors name it: ``rounds[1].tables[0]``."""
    game: int | None = None
    players: tuple[int, ...] = ()
    substitutes: tuple[Substitute, ...] = ()
    decision: Decision | None = None


@dataclass(frozen=True)
class Round:
    """A round: its name, its stage (a later stage ranks above an earlier one), its tables."""

    number: int
    name: str
    stage: int = 1
    tables: tuple[EventTable, ...] = ()


@dataclass(frozen=True)
class Scoring:
    """How tables are scored and players ordered.

    ``points``: rank points by table size (place 1 first); ``abandoned_after``: a seat whose last
    so many actions as a player were all sent by someone else is abandoned (None: no seat is)."""

    system: str
    points: Mapping[int, tuple[Fraction, ...]] = field(default_factory=dict)
    ties: str = "share"
    tie_breaks: tuple[str, ...] = ()
    abandoned_after: int | None = None
    abandoned: str = ABANDONED_LAST
    substitute_scores: str = SUBSTITUTE_FOR_PLAYER


@dataclass(frozen=True)
class Seating:
    """The table sizes the next round may use, and the one preferred (None: the largest)."""

    sizes: tuple[int, ...]
    prefer: int | None = None


@dataclass(frozen=True)
class Event:
    """A whole event file, read."""

    name: str
    titles: tuple[str, ...]
    scoring: Scoring
    seating: Seating
    players: tuple[EventPlayer, ...]
    rounds: tuple[Round, ...]
    seed: int = 0

    def player(self, user: int) -> EventPlayer | None:
        return next((player for player in self.players if player.id == user), None)

    def name_of(self, user: int) -> str:
        """The name shown for a user: the event's (with ``#id`` where another player's name
        compares equal: docs/identity.md), else a substitute's, else the id."""
        found = self.player(user)
        if found is not None:
            return labels((f"{USER}{p.id}", p.name) for p in self.players)[f"{USER}{user}"]
        for round_ in self.rounds:
            for table in round_.tables:
                for sub in table.substitutes:
                    if sub.id == user:
                        return sub.name
        return f"user {user}"

    def games(self) -> list[tuple[Round, EventTable]]:
        """Every table that has a game, in round order."""
        return [(round_, table) for round_ in self.rounds for table in round_.tables if table.game is not None]
