"""The 1871 operating round (RB 7): the PEIR last, its dividends, hex trains, the Hunslet.

Generic steps come from the core; 1871 changes what a dividend pays (each holder's share
rounded up, the treasury's and the pool's shares paying the company, $40 a share more at 400,
the PEIR paying per PEIR share and able to pay half), which price moves follow (only a full
payout moves right), and adds the Hunslet's train purchase at any moment of its company's turn.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ingest.model import Action
from replay.errors import Violation
from replay.rounds import DIVIDEND, TRAIN, OperatingRound
from replay.state import IPO, MARKET

from .peir import PEIR, peir_shares

if TYPE_CHECKING:
    from replay.game import Game

TOP_BONUS = 40  # 10.2: a company at 400 pays $40 a share more


class OperatingRound1871(OperatingRound):
    def __init__(self, game: Game, number_in_set: int) -> None:
        game.flags["peir_bank_trains"] = 0
        super().__init__(game, number_in_set)

    def _belongs_to_turn(self, action: Action) -> bool:
        if action.entity.kind == "company" and action.type == "purchase_train":
            company = self.game.companies.get(str(action.entity.id))
            return company is not None and company.owner == self.corp
        if action.entity.kind == "player" and action.type == "sell_shares" and self.corp is not None:
            acting = self.game.title.acting_president(self.game, self.corp)
            return action.entity.id == acting and self._must_buy_train()
        return super()._belongs_to_turn(action)

    def do_dividend(self, action: Action) -> None:
        corp = self.corp
        assert corp is not None
        self._check_step(DIVIDEND, "pay dividends")
        if self.turn.ran is None:
            raise Violation("dividend-no-run", f"{corp} has not run trains this turn")
        kind = action.fields.get("kind")
        kinds = ("payout", "half", "withhold") if corp == PEIR else ("payout", "withhold")
        if kind not in kinds:
            raise Violation("dividend-kind", f"{kind!r} is not a dividend choice of {corp} ({', '.join(kinds)})")
        revenue = self.turn.ran
        kept = {"payout": 0, "withhold": revenue, "half": math.ceil(revenue / 2)}[kind]
        self._pay_out(revenue, kept, kind)
        self.turn.step = TRAIN

    def _distribute(self, revenue: int, paid: int) -> None:
        """The no-run case of the core (a company without a run withholds nothing and moves left)."""
        self._pay_out(revenue, revenue - paid, "payout" if paid else "withhold")

    def _pay_out(self, revenue: int, kept: int, kind: str) -> None:
        game, corp = self.game, self.corp
        assert corp is not None
        self.turn.paid = True
        if kept:
            game.pay(None, corp, kept)
        paid = revenue - kept
        if paid:
            self._pay_holders(corp, paid)
        if corp != PEIR:
            if paid == 0:
                game.market.move_left(corp)
            elif paid == revenue:
                game.market.move_right(corp)
        game.title.after_dividend(game, corp, self.turn.first)

    def _pay_holders(self, corp: str, paid: int) -> None:
        game = self.game
        if corp == PEIR:
            shares = peir_shares(game)
            per_share = math.ceil(paid / len(shares))
            for share in shares:
                if share.owner in game.players:
                    game.pay(None, share.owner, per_share)
            return
        if game.share_price(corp) == game.title.top_price:
            paid += TOP_BONUS * 10
        per_share = paid / 10
        for holder in [*game.order, *game.title.value_holders(game)]:
            amount = math.ceil(game.percent(holder, corp) / 10 * per_share)
            if amount:
                game.pay(None, holder, amount)
        own = math.ceil(game.percent(IPO, corp) / 10 * per_share) + math.ceil(game.percent(MARKET, corp) / 10 * per_share)
        if own:
            game.pay(None, corp, own)

    def do_purchase_train(self, action: Action) -> None:
        """The Hunslet closes to buy the bank's next train at its price (11.3)."""
        self.game.title.hunslet_purchase(self.game, self)
