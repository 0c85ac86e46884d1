"""The 1871 operating round (RB 7): the PEIR's dividends and the Hunslet's train purchase.

Generic steps come from the core, and the title's hooks say how company dividends differ (both
treasury and pool shares pay the company, $40 a share more at 400, only a full payout moves
right). What is left here: the PEIR pays per PEIR share (the payout per share rounded up), the
Hunslet buys a train at any moment of its company's turn, and a Union Bank president's owner
raises cash for it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ingest.model import Action
from replay.rounds import OperatingRound

from .peir import PEIR, peir_shares

if TYPE_CHECKING:
    from replay.game import Game


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

    def _pay_shareholders(self, paid: int) -> None:
        """The PEIR pays each PEIR share ``paid`` / shares left, rounded up (7.7)."""
        if self.corp != PEIR:
            super()._pay_shareholders(paid)
            return
        game = self.game
        shares = peir_shares(game)
        per_share = math.ceil(paid / len(shares))
        for share in shares:
            if share.owner in game.players:
                game.pay(None, share.owner, per_share)

    def do_purchase_train(self, action: Action) -> None:
        """The Hunslet closes to buy the bank's next train at its price (11.3)."""
        self.game.title.hunslet_purchase(self.game, self)
