"""The initial auction of 1871 (RB 5): dealt piles, offers, two bidders, forced purchases.

Each player was dealt a pile of privates and PEIR shares. In turn the auctioneer offers one item
of his pile; only the next two players bid (at least face value + $5, in $5 steps). One bid and a
pass: the bidder wins. Two passes: the third player (with three players, the auctioneer) must buy
at face value, else the richest player does, the privates paying out until someone can.
18xx.games passes a bidder who cannot afford the least bid and offers a player's last item by
itself; records hold neither, so the step does both too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from railledger.ingest.model import Action, Entity, PlayerId
from railledger.replay.errors import Violation
from railledger.replay.flow import Effects, Round, Step, check_declared_range, make_action, reads
from railledger.replay.names import listed, player_name, private_name

if TYPE_CHECKING:
    from . import Title1871

INCREMENT = 5


class InitialAuction(Step):
    name = "auction"
    answered_kind = "player"

    def __init__(self, round_: Round) -> None:
        super().__init__(round_)
        game = self.game
        piles = self.title.state(game).piles
        self.piles: dict[PlayerId, list[str]] = {pid: list(pile) for pid, pile in zip(game.order, piles)}
        self.auctioneer: PlayerId = game.order[0]
        self.item: str | None = None
        self.bidders: tuple[PlayerId, PlayerId] = (game.order[0], game.order[0])
        self.receiver: PlayerId = game.order[0]
        self.current: PlayerId = game.order[0]
        self.bid: tuple[PlayerId, int] | None = None
        self.passed_bidders: set[PlayerId] = set()
        self.offer_last_item()

    @property
    def title(self) -> Title1871:
        return self.game.title  # type: ignore[return-value]

    def actor(self) -> Entity | None:
        return None if self.passed else Entity("player", self.current)

    def offers(self, entity: Entity) -> frozenset[str]:
        if entity != self.actor():
            return frozenset()
        return frozenset({"bid", "pass"}) if self.item is not None else frozenset({"offer"})

    def skip(self) -> None:
        """Never skipped: it ends when the last item is sold."""

    def legal(self) -> Iterator[Action]:
        actor = self.actor()
        if actor is None:
            return
        if self.item is None:
            for sym in self.piles[self.current]:
                yield make_action("offer", actor, company=sym)
            return
        least = self.least_bid()
        cash = self.game.cash(self.current)
        if cash >= least:
            yield make_action("bid", actor, company=self.item, price=least, price_range=[least, cash - cash % INCREMENT])
        yield make_action("pass", actor)

    def why_not(self, action: Action) -> Violation | None:
        if action.entity.kind == "player" and action.entity != self.actor():
            role = "bid on" if self.item else "offer"
            return Violation("draft-order", f"it is {self.game.player_name(self.current)}'s turn to {role} an item")
        return None

    def seat(self, player: PlayerId, step: int) -> PlayerId:
        order = self.game.order
        return order[(order.index(player) + step) % len(order)]

    def least_bid(self) -> int:
        assert self.item is not None
        if self.bid is None:
            return self.game.companies[self.item].value + INCREMENT
        return self.bid[1] + INCREMENT

    # -- actions

    @reads("company")
    def do_offer(self, action: Action) -> Effects:
        player = action.entity.id
        sym = str(action.fields.get("company"))
        if self.item is not None:
            raise Violation("draft-company", f"{private_name(self.game, self.item)} is being auctioned; bid or pass")
        if sym not in self.piles[player]:
            raise Violation("draft-company", f"{private_name(self.game, sym)} is not in {self.game.player_name(player)}'s pile "
                                              f"({listed(private_name(self.game, item) for item in self.piles[player])})")
        yield
        self.offer(player, sym)

    def offer(self, player: PlayerId, sym: str) -> None:
        self.auctioneer = player
        self.item = sym
        self.bidders = (self.seat(player, 1), self.seat(player, 2))
        self.receiver = self.seat(player, 3)
        self.bid = None
        self.passed_bidders = set()
        self.current = self.bidders[0]
        self.pass_if_broke()

    @reads("company", "price", "price_range")
    def do_bid(self, action: Action) -> Effects:
        game = self.game
        player = action.entity.id
        if self.item is None:
            raise Violation("draft-company", "nothing is on offer: the auctioneer offers an item first")
        if action.fields.get("company") != self.item:
            raise Violation("draft-price", f"{private_name(game, self.item)} is on offer, not {private_name(game, action.fields.get('company'))}")
        price = action.fields.get("price")
        least = self.least_bid()
        if not isinstance(price, int) or price < least or price % INCREMENT:
            raise Violation("draft-price", f"a bid on {private_name(game, self.item)} is a multiple of ${INCREMENT}, at least ${least}, not ${price}")
        if price > game.cash(player):
            raise Violation("cash", f"{game.player_name(player)} has ${game.cash(player)}, less than ${price}")
        cash = game.cash(player)
        check_declared_range(action, "price_range", least, cash - cash % INCREMENT, "draft-price", f"a bid on {private_name(game, self.item)}")
        yield
        self.bid = (player, price)
        self.next_bidder()

    def say(self, action: Action) -> str | None:
        if action.type != "pass" or self.item is None:
            return None
        return f"{player_name(self.game, action.entity.id)} passes on {private_name(self.game, self.item)}"

    def do_pass(self, action: Action) -> Effects:
        if self.item is None:
            raise Violation("draft-company", "the auctioneer must offer an item")
        yield
        self.pass_bid(action.entity.id)

    def pass_bid(self, player: PlayerId) -> None:
        self.passed_bidders.add(player)
        if self.bid is not None:
            winner, price = self.bid
            self.assign(winner, price)
        elif set(self.bidders) <= self.passed_bidders:
            self.force()
        else:
            self.next_bidder()

    def next_bidder(self) -> None:
        first, second = self.bidders
        self.current = second if self.current == first else first
        self.pass_if_broke()

    def pass_if_broke(self) -> None:
        """18xx.games passes a bidder who cannot afford the least bid for him."""
        if self.item is not None and self.game.cash(self.current) < self.least_bid():
            self.pass_bid(self.current)

    def force(self) -> None:
        """Nobody bid: the receiver buys at face value, else the richest player (RB 5.2.3-5.2.4)."""
        game = self.game
        assert self.item is not None
        value = game.companies[self.item].value
        if game.cash(self.receiver) >= value:
            self.assign(self.receiver, value)
            return
        while max(game.cash(p) for p in game.order) < value:
            for company in game.companies.values():
                if company.owner in game.order and not company.closed and company.revenue:
                    game.pay(None, company.owner, company.revenue)
        richest = max(game.order, key=game.cash)
        self.assign(richest, value)

    def assign(self, player: PlayerId, price: int) -> None:
        game = self.game
        assert self.item is not None
        sym = self.item
        game.pay(player, None, price)
        self.piles[self.auctioneer].remove(sym)
        self.title.after_private_bought(game, player, sym, price)
        next_auctioneer = self.bidders[0]
        self.item = None
        self.bid = None
        self.current = next_auctioneer
        if not any(self.piles.values()):
            self.passed = True
            self.title.after_auction(game)
            return
        self.offer_last_item()

    def offer_last_item(self) -> None:
        """A player with a single item left offers it at once (18xx.games does it unrecorded)."""
        pile = self.piles[self.current]
        if len(pile) == 1:
            self.offer(self.current, pile[0])
