"""A stock round: players in turn from the priority deal until all have passed.

A player who passes without having done anything in the turn is marked passed; one who passes
after acting is not. A turn that ends by itself (nothing more is possible) leaves the mark as it
was, as in 18xx.games: so a round can end while a player who bought last had passed before.
A player with nothing possible at the start of a turn passes at once. When all are marked, the
round ends: sold-out companies rise and the priority deal goes to the player after the last to
act.
"""

from __future__ import annotations

from collections.abc import Callable

from railledger.ingest.model import Entity, PlayerId
from railledger.replay.errors import Violation
from railledger.replay.flow import Round, Step
from railledger.replay.state import GameState
from railledger.replay.steps.shares import StockTurn


class StockRound(Round):
    kind = "stock"

    def __init__(self, game: GameState, steps: tuple[Callable[[Round], Step], ...]) -> None:
        game.sr_number += 1
        super().__init__(game, f"SR {game.sr_number}")
        self.number = game.sr_number
        start = game.order.index(game.priority)
        self.players: list[PlayerId] = game.order[start:] + game.order[:start]
        self.entities = {pid: Entity("player", pid) for pid in self.players}  # ``current``, asked all the time
        self.position = 0
        self.marked: set[PlayerId] = set()  # passed without acting since they last acted
        self.sold: dict[PlayerId, set[str]] = {}  # companies each player sold this round
        self.turn = StockTurn()
        self.last_to_act: PlayerId | None = None
        self.done = False
        self.add_steps(*steps)
        self.begin_turn()
        self.advance()

    @property
    def current(self) -> Entity | None:
        if self.done:
            return None
        return self.entities[self.players[self.position]]

    @property
    def finished(self) -> bool:
        return self.done or self.game.finished

    def acted(self, pid: PlayerId) -> None:
        """A purchase or sale: the player is the last to have acted."""
        self.last_to_act = pid

    def player_passes(self, pid: PlayerId, acted: bool) -> None:
        if acted:
            self.marked.discard(pid)
        else:
            self.marked.add(pid)

    def begin_turn(self) -> None:
        with self.game.changing():
            for step in self.steps:
                step.passed = False
                step.acted = False
                step.setup()
        self.skip_steps()

    def after_action(self) -> None:
        self.skip_steps()
        self.advance()

    def advance(self) -> None:
        """Hand the turn on until a player has something to do, or all have passed."""
        while self.active_step() is None:
            if self.marked >= set(self.players):
                with self.game.changing():
                    self.finish()
                return
            with self.game.changing():
                self.position = (self.position + 1) % len(self.players)
            self.begin_turn()

    def finish(self) -> None:
        """The round is over: sold-out companies rise; the priority deal moves on."""
        self.done = True
        game = self.game
        floated = [sym for sym, c in game.corporations.items()
                   if c.floated and not c.closed and sym in game.market.position]
        for sym in sorted(floated, key=game.market.order_key):
            if game.title.sold_out(game, sym):
                game.market.move_up(sym)
        self.hand_priority()

    def hand_priority(self) -> None:
        """The priority deal goes to the player after the last to act."""
        if self.last_to_act is not None:
            self.game.priority = self.game.next_player(self.last_to_act)

    def not_on_turn(self, action: object, blocking: Step) -> Violation:
        current = self.current
        entity = getattr(action, "entity")
        who = self.game.player_name(current.id) if current is not None else "nobody"
        return Violation("turn-order", f"it is {who}'s stock turn, not {self.game.player_name(entity.id)}'s")
