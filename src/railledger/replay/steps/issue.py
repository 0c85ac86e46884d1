"""A company issuing shares from its treasury or redeeming them from the open market (e.g. 18Texas
12.7), the last step of its operating turn: one of either, after its first turn for an issue.

An issue sells treasury certificates to the open market at the share price (the price then drops
as for any sale); a redemption buys certificates back from the market into the treasury, up to
the treasury limit.
"""

from __future__ import annotations

from collections.abc import Iterator

from railledger.ingest.model import Action, Entity
from railledger.replay.errors import Violation
from railledger.replay.flow import Effects, make_action, reads
from railledger.replay.names import entity_name
from railledger.replay.shares import sale_bundles, transfer
from railledger.replay.state import IPO, MARKET, Share
from railledger.replay.steps.base import OperatingStep
from railledger.replay.steps.shares import sell_to_market


class IssueRedeem(OperatingStep):
    name = "issue or redeem"
    treasury_limit = 50

    def issuable(self) -> list[tuple[list[Share], int]]:
        if self.round.turn.first:
            return []
        game, corp = self.game, self.corporation
        room = game.title.market_pool_max - game.percent(MARKET, corp)
        return [(shares, percent) for shares, percent in sale_bundles(game, IPO, corp) if percent <= room]

    def redeemable(self) -> list[tuple[list[Share], int]]:
        game, corp = self.game, self.corporation
        room = self.treasury_limit - game.percent(IPO, corp)
        price = game.share_price(corp) or 0
        return [(shares, percent) for shares, percent in sale_bundles(game, MARKET, corp)
                if percent <= room and price * percent // 10 <= game.cash(corp)]

    def offers(self, entity: Entity) -> frozenset[str]:
        if entity != self.round.current:
            return frozenset()
        kinds = set()
        if self.redeemable():
            kinds.add("buy_shares")
        if self.issuable():
            kinds.add("sell_shares")
        return frozenset(kinds | {"pass"}) if kinds else frozenset()

    def legal(self) -> Iterator[Action]:
        current = self.round.current
        if current is None or not self.offers_now(current):
            return
        for shares, percent in self.redeemable():
            yield make_action("buy_shares", current, shares=[s.id for s in shares], percent=percent)
        for shares, percent in self.issuable():
            yield make_action("sell_shares", current, shares=[s.id for s in shares], percent=percent)
        yield make_action("pass", current)

    def declared(self, action: Action, owner: str) -> tuple[list[Share], int]:
        ids = action.fields.get("shares") or []
        shares = [self.game.shares.get(i) for i in ids]
        if not shares or any(s is None or s.corporation != self.corporation or s.owner != owner for s in shares):
            where = "treasury" if owner == IPO else "open market"
            raise Violation("issue-own" if owner == IPO else "redeem-own", f"{self.corporation} may only move its own {where} shares")
        found = [s for s in shares if s is not None]
        total = sum(s.percent for s in found)
        if action.fields.get("percent", total) != total:
            raise Violation("share-percent", f"the certificates make {total}%, not {action.fields.get('percent')}%")
        return found, total

    @reads("shares", "percent")
    def do_sell_shares(self, action: Action) -> Effects:
        """An issue: treasury certificates to the open market."""
        game, corp = self.game, self.corporation
        if action.entity != self.round.current:
            raise Violation("issue-own", f"{entity_name(self.game, action.entity)} does not operate")
        shares, percent = self.declared(action, IPO)
        if self.round.turn.first:
            raise Violation("issue-first-turn", "a company may not issue shares in its first operating turn")
        if game.percent(MARKET, corp) + percent > game.title.market_pool_max:
            raise Violation("market-limit", f"issuing {percent}% would put more than {game.title.market_pool_max}% of {corp} in the open market")
        yield
        sell_to_market(game, corp, shares, percent)
        self.round.turn.shares = "issued"
        self.passed = True

    @reads("shares", "percent")
    def do_buy_shares(self, action: Action) -> Effects:
        """A redemption: open-market certificates into the treasury at the share price."""
        game, corp = self.game, self.corporation
        if action.entity != self.round.current:
            raise Violation("redeem-own", f"{entity_name(self.game, action.entity)} does not operate")
        shares, percent = self.declared(action, MARKET)
        if game.percent(IPO, corp) + percent > self.treasury_limit:
            raise Violation("redeem-treasury-limit", f"no more than {self.treasury_limit}% of a company may be in its treasury")
        price = (game.share_price(corp) or 0) * percent // 10
        if game.cash(corp) < price:
            raise Violation("cash", f"{corp} has ${game.cash(corp)}, less than ${price}")
        yield
        game.pay(corp, None, price)
        transfer(game, shares, IPO)
        self.round.turn.shares = "redeemed"
        self.passed = True
