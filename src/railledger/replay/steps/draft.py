"""Selling the private companies before the first stock round: a draft or an open auction.

* A draft (e.g. 18MS 9): each player in turn, from the last seat back, buys exactly one private
  at face value; the rest leave the game; the last to buy gets the priority deal.
* An open auction (e.g. 18Texas 10): players in turn bid on any private, or overbid the bid on
  one; a bid is at least face value, an overbid at least ``increment`` more, both multiples of
  ``increment``. A player holding a winning bid has no turn; being overbid gives it back. When
  every player holds one, all pay and take their company; the priority deal goes to the player
  after the last bidder.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from railledger.ingest.model import Action, Entity, PlayerId
from railledger.replay.errors import Violation
from railledger.replay.flow import Effects, Round, Step, check_declared_range, make_action, reads
from railledger.replay.rounds.privates import PrivatesRound

if TYPE_CHECKING:
    from railledger.replay.state import GameState


def unsold(game: GameState) -> list[str]:
    """The privates still for sale in the opening round."""
    return [sym for sym, c in game.companies.items() if c.owner is None and not c.closed]


class Draft(Step[PrivatesRound]):
    name = "draft"
    can_pass = False
    answered_kind = "player"

    def __init__(self, round_: Round) -> None:
        super().__init__(round_)
        self.queue = list(reversed(self.game.order))
        self.position = 0

    def actor(self) -> Entity | None:
        return Entity("player", self.queue[self.position]) if self.position < len(self.queue) else None

    def offers(self, entity: Entity) -> frozenset[str]:
        return frozenset({"bid"}) if entity == self.actor() else frozenset()

    def legal(self) -> Iterator[Action]:
        actor = self.actor()
        if actor is None:
            return
        for sym in unsold(self.game):
            value = self.game.companies[sym].value
            if self.game.cash(actor.id) >= value:
                yield make_action("bid", actor, company=sym, price=value)

    @reads("company", "price")
    def do_bid(self, action: Action) -> Effects:
        game = self.game
        if action.entity != self.actor():
            who = self.actor()
            raise Violation("draft-order", f"it is {game.player_name(who.id) if who else 'nobody'}'s turn to draft")
        player = action.entity.id
        sym = action.fields.get("company")
        company = game.companies.get(str(sym))
        if company is None or company.owner is not None or company.closed:
            raise Violation("draft-company", f"private company {sym} is not available to draft")
        price = action.fields.get("price")
        if price != company.value:
            raise Violation("draft-price", f"{company.name} costs its face value ${company.value}, not ${price}")
        if game.cash(player) < company.value:
            raise Violation("cash", f"{game.player_name(player)} has ${game.cash(player)}, less than ${price}")
        yield
        game.pay(player, None, company.value)
        company.owner = player
        game.note("private", company.sym, company.value, player)
        self.position += 1
        if self.position == len(self.queue):
            self.passed = True
            game.priority = player
            for other in game.companies.values():
                if other.owner is None:
                    other.closed = True  # never in play: not an event


class BidAuction(Step[PrivatesRound]):
    name = "auction"
    can_pass = False
    answered_kind = "player"
    increment = 5

    def __init__(self, round_: Round) -> None:
        super().__init__(round_)
        self.bids: dict[str, tuple[PlayerId, int]] = {}
        self.current: PlayerId = self.game.order[0]
        self.last_bidder: PlayerId | None = None

    def actor(self) -> Entity | None:
        return None if self.passed else Entity("player", self.current)

    def offers(self, entity: Entity) -> frozenset[str]:
        return frozenset({"bid"}) if entity == self.actor() else frozenset()

    def least_bid(self, sym: str) -> int:
        held = self.bids.get(sym)
        return self.game.companies[sym].value if held is None else held[1] + self.increment

    def legal(self) -> Iterator[Action]:
        actor = self.actor()
        if actor is None:
            return
        for sym in unsold(self.game):
            least = self.least_bid(sym)
            if least <= self.game.cash(actor.id):
                yield make_action("bid", actor, company=sym, price=least, price_range=[least, self.top_bid(actor.id)])

    def top_bid(self, player: PlayerId) -> int:
        cash = self.game.cash(player)
        return cash - cash % self.increment

    @reads("company", "price", "price_range")
    def do_bid(self, action: Action) -> Effects:
        game = self.game
        if action.entity != self.actor():
            raise Violation("auction-order", f"it is {game.player_name(self.current)}'s turn to bid")
        player = action.entity.id
        sym = str(action.fields.get("company"))
        company = game.companies.get(sym)
        if company is None or company.closed or company.owner is not None:
            raise Violation("auction-company", f"private company {sym} is not in the auction")
        price = action.fields.get("price")
        held = self.bids.get(sym)
        least = self.least_bid(sym)
        if not isinstance(price, int) or price < least or price % self.increment:
            what = "face value" if held is None else f"${self.increment} over the ${held[1]} bid"
            raise Violation("auction-bid", f"a bid on {company.name} is a multiple of ${self.increment}, at least {what} (${least}), not ${price}")
        if price > game.cash(player):
            raise Violation("cash", f"{game.player_name(player)} has ${game.cash(player)}, less than ${price}")
        check_declared_range(action, "price_range", least, self.top_bid(player), "auction-bid", f"a bid on {company.name}")
        yield
        self.bids[sym] = (player, price)
        self.last_bidder = player
        holders = {bidder for bidder, _ in self.bids.values()}
        if len(holders) == len(game.order):
            self.resolve()
            return
        order = game.order
        start = order.index(player) + 1
        following = order[start:] + order[:start]
        self.current = next(p for p in following if p not in holders)

    def resolve(self) -> None:
        """Every player holds a winning bid: all pay and take their company."""
        game = self.game
        for sym, (player, price) in self.bids.items():
            game.pay(player, None, price)
            game.companies[sym].owner = player
            game.note("private", sym, price, player)
        assert self.last_bidder is not None
        game.priority = game.next_player(self.last_bidder)
        self.passed = True
        self.after_auction()

    def after_auction(self) -> None:
        """What a title does once the privates are sold (e.g. the shares some bring)."""
