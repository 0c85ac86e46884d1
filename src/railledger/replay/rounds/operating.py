"""An operating round: privates pay, then floated companies operate in market order.

The order is fixed when the round starts (descending share price). Each company's turn runs the
title's steps in order; a step that offers nothing is passed at once, and the turn ends with the
action after which nothing is left, as in 18xx.games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from railledger.ingest.model import Action, Entity
from railledger.replay.errors import Violation
from railledger.replay.flow import Round, Step
from railledger.replay.names import entity_name
from railledger.replay.state import GameState

if TYPE_CHECKING:
    from railledger.replay.routes import Route


@dataclass
class OperatingTurn:
    """What the operating company has done so far this turn."""

    corporation: str
    first: bool  # its first operating turn (floated since the last operating round)
    lays: int = 0  # tile lays used
    upgraded: bool = False
    laid: list[tuple[str, str, bool]] = field(default_factory=list)  # (hex, colour, was an upgrade)
    tokened: bool = False
    routes: list[Route] = field(default_factory=list)
    ran: bool = False  # a run was declared
    trains_bought: int = 0
    emergency_sale_price: int | None = None  # per share, of the president's last sale to buy a train
    emergency_sold: list[str] = field(default_factory=list)  # companies he sold shares of for it
    shares: str | None = None  # "issued" or "redeemed" this turn

    @property
    def revenue(self) -> int:
        return sum(r.revenue for r in self.routes)


class OperatingRound(Round):
    kind = "operating"

    def __init__(self, game: GameState, number_in_set: int, steps: tuple[Callable[[Round], Step], ...]) -> None:
        game.or_number += 1
        super().__init__(game, f"OR {game.sr_number}.{number_in_set}")
        self.number_in_set = number_in_set
        game.title.on_or_start(game, number_in_set)
        for company in game.companies.values():
            if company.owner is not None and not company.closed and company.revenue:
                game.pay(None, company.owner, company.revenue)
        for train in game.trains.values():
            train.operated = False
        self.queue: list[str] = game.floated_in_order()
        self.entities = {sym: Entity("corporation", sym) for sym in game.corporations}  # ``current``, asked all the time
        self.position = 0
        self.done = False
        self.turn = OperatingTurn(self.queue[0], False) if self.queue else OperatingTurn("", False)
        self.add_steps(*steps)
        self.start_turn()

    @property
    def corporation(self) -> str | None:
        return None if self.done else self.queue[self.position]

    @property
    def current(self) -> Entity | None:
        sym = self.corporation
        return None if sym is None else self.entities[sym]

    @property
    def finished(self) -> bool:
        return self.done or self.game.finished

    def start_turn(self) -> None:
        """Begin the turn of the company at ``position`` (or further, if it has nothing to do)."""
        game = self.game
        while self.position < len(self.queue):
            sym = self.queue[self.position]
            closed = game.corporations[sym].closed
            with game.changing():  # no continue out of it: a compiled build cannot take one (docs/fast.md)
                if closed:
                    self.position += 1
                else:
                    self.turn = OperatingTurn(sym, game.title.first_turn(game, sym))
                    if not game.title.home_token_at_float:
                        game.title.place_home_token(game, sym)
                    for step in self.steps:
                        step.passed = False
                        step.acted = False
                        step.setup()
            if closed:
                continue
            self.skip_steps()
            if self.active_step() is not None:
                return
            with game.changing():
                self.end_turn()
                self.position += 1
        with game.changing():
            self.done = True

    def end_turn(self) -> None:
        """The company's turn is over (18xx.games: after its last step)."""
        self.game.title.after_operating_turn(self.game, self.turn.corporation)

    def after_action(self) -> None:
        self.skip_steps()
        if self.game.finished:
            with self.game.changing():
                self.done = True
            return
        if self.active_step() is None:
            with self.game.changing():
                self.end_turn()
                self.position += 1
            self.start_turn()

    def reorder(self) -> None:
        """The companies still to operate go again in market order (18xx.games does so after a
        president's emergency sale moved prices)."""
        done = self.queue[: self.position + 1]
        rest = [sym for sym in self.game.floated_in_order() if sym in self.queue[self.position + 1:]]
        self.queue = done + rest

    def step_kind(self) -> str | None:
        """The kind of the turn's step under way, as ability timings name it (None: none)."""
        for step in self.steps:
            if not step.passed and step.blocks and step.timing is not None:
                return step.timing
        return None

    def not_on_turn(self, action: Action, blocking: Step) -> Violation:
        actor = blocking.actor()
        who = entity_name(self.game, actor) if actor is not None else "nobody"
        return Violation("operating-order", f"it is {who}'s operating turn; {entity_name(self.game, action.entity)} must wait")

    def close_at_end(self) -> bool:
        """A record may stop in an operating round under way; it stays as the record left it."""
        return False
