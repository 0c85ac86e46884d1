"""The initial auction of 1871 (RB 5): dealt piles, offers, two bidders, forced purchases.

Each player was dealt a pile of privates and PEIR shares. In turn the auctioneer offers one
item of his pile; only the next two players bid (at least face value + $5, in $5 steps). One
bid and a pass: the bidder wins. Two passes: the third player (with three players, the
auctioneer) must buy at face value, else the richest player does, the privates paying out
until someone can. 18xx.games passes a bidder who cannot afford the minimum and offers a
player's last item by itself; records hold neither, so the engine does both too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ingest.model import Action, PlayerId
from replay.errors import Violation
from replay.rounds import Round

if TYPE_CHECKING:
    from replay.game import Game

INCREMENT = 5


class InitialAuction(Round):
    label = "Auction"

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.piles: dict[PlayerId, list[str]] = {
            pid: list(pile) for pid, pile in zip(game.order, game.flags["piles"])
        }
        self.auctioneer: PlayerId = game.order[0]
        self.item: str | None = None
        self.bidders: tuple[PlayerId, PlayerId] = (game.order[0], game.order[0])
        self.receiver: PlayerId = game.order[0]
        self.current: PlayerId = game.order[0]
        self.bid: tuple[PlayerId, int] | None = None
        self.passed: set[PlayerId] = set()
        self._offer_last_item()

    # -- turn

    def accepts(self, action: Action) -> bool:
        if self.finished:
            return False
        player = self.player_of(action)
        if player != self.current:
            role = "bid on" if self.item else "offer"
            raise Violation("draft-order", f"it is {self.game.player_name(self.current)}'s turn to {role} an item")
        return True

    def _seat(self, player: PlayerId, step: int) -> PlayerId:
        order = self.game.order
        return order[(order.index(player) + step) % len(order)]

    def _least_bid(self) -> int:
        assert self.item is not None
        if self.bid is None:
            return self.game.companies[self.item].value + INCREMENT
        return self.bid[1] + INCREMENT

    # -- actions

    def do_offer(self, action: Action) -> None:
        player = self.player_of(action)
        sym = str(action.fields.get("company"))
        if self.item is not None:
            raise Violation("draft-company", f"{self.item} is being auctioned; bid or pass")
        if sym not in self.piles[player]:
            raise Violation("draft-company", f"{sym} is not in {self.game.player_name(player)}'s pile ({', '.join(self.piles[player])})")
        self._offer(player, sym)

    def _offer(self, player: PlayerId, sym: str) -> None:
        self.auctioneer = player
        self.item = sym
        self.bidders = (self._seat(player, 1), self._seat(player, 2))
        self.receiver = self._seat(player, 3)
        self.bid = None
        self.passed = set()
        self.current = self.bidders[0]
        self._pass_if_broke()

    def do_bid(self, action: Action) -> None:
        game = self.game
        player = self.player_of(action)
        if self.item is None:
            raise Violation("draft-company", "nothing is on offer: the auctioneer offers an item first")
        if action.fields.get("company") != self.item:
            raise Violation("draft-price", f"{self.item} is on offer, not {action.fields.get('company')}")
        price = action.fields.get("price")
        least = self._least_bid()
        if not isinstance(price, int) or price < least or price % INCREMENT:
            raise Violation("draft-price", f"a bid on {self.item} is a multiple of ${INCREMENT}, at least ${least}, not ${price}")
        if price > game.cash(player):
            raise Violation("cash", f"{game.player_name(player)} has ${game.cash(player)}, less than ${price}")
        self.bid = (player, price)
        self._next_bidder()

    def do_pass(self, action: Action) -> None:
        if self.item is None:
            raise Violation("draft-company", "the auctioneer must offer an item")
        self._pass(self.player_of(action))

    def _pass(self, player: PlayerId) -> None:
        self.passed.add(player)
        if self.bid is not None:
            winner, price = self.bid
            self._assign(winner, price)
        elif set(self.bidders) <= self.passed:
            self._force()
        else:
            self._next_bidder()

    def _next_bidder(self) -> None:
        first, second = self.bidders
        self.current = second if self.current == first else first
        self._pass_if_broke()

    def _pass_if_broke(self) -> None:
        """18xx.games passes a bidder who cannot afford the least bid for him."""
        if self.item is not None and self.game.cash(self.current) < self._least_bid():
            self._pass(self.current)

    def _force(self) -> None:
        """Nobody bid: the receiver buys at face value, else the richest player (RB 5.2.3-5.2.4)."""
        game = self.game
        assert self.item is not None
        value = game.companies[self.item].value
        if game.cash(self.receiver) >= value:
            self._assign(self.receiver, value)
            return
        while max(game.cash(p) for p in game.order) < value:
            for company in game.companies.values():
                if company.owner in game.order and not company.closed and company.revenue:
                    game.pay(None, company.owner, company.revenue)
        richest = max(game.order, key=game.cash)
        self._assign(richest, value)

    def _assign(self, player: PlayerId, price: int) -> None:
        game = self.game
        assert self.item is not None
        sym = self.item
        game.pay(player, None, price)
        self.piles[self.auctioneer].remove(sym)
        game.title.after_private_bought(game, player, sym, price)
        next_auctioneer = self.bidders[0]
        self.item = None
        self.bid = None
        self.current = next_auctioneer
        if not any(self.piles.values()):
            self.finished = True
            game.title.after_auction(game)
            return
        self._offer_last_item()

    def _offer_last_item(self) -> None:
        """A player with a single item left offers it at once (18xx.games does it unrecorded)."""
        pile = self.piles[self.current]
        if len(pile) == 1:
            self._offer(self.current, pile[0])

    def next_round(self) -> Round:
        return self.game.title.stock_round(self.game)
