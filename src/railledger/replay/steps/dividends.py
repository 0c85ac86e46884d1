"""Paying or withholding: the revenue of the run goes to the holders or the company.

The step is open only when the run earned something. Otherwise (no train, no route, a run of $0)
it is passed at once with a withhold of nothing, and the price moves left, as in 18xx.games. A
payout pays each holder its percent of the revenue (rounded up per holder); shares in the open
market (full capitalization) or the treasury (incremental) pay the company.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from railledger.ingest.model import Action, Entity
from railledger.replay.errors import Violation
from railledger.replay.flow import Effects, make_action, reads
from railledger.replay.names import entity_name
from railledger.replay.steps.base import OperatingStep



class Dividend(OperatingStep):
    name = "dividend"
    can_pass = False
    timing = "dividend"


    def offers(self, entity: Entity) -> frozenset[str]:
        if entity != self.round.current or self.round.turn.revenue <= 0:
            return frozenset()
        return frozenset({"dividend"})

    def why_not(self, action: Action) -> Violation | None:
        if action.entity == self.round.current and action.type != "dividend":
            return Violation("step-order", f"{self.corporation} first pays or withholds its ${self.round.turn.revenue}")
        return None

    def kinds(self) -> tuple[str, ...]:
        return self.game.title.dividend_choices(self.corporation)

    def legal(self) -> Iterator[Action]:
        current = self.round.current
        if current is not None and self.offers_now(current):
            for kind in self.kinds():
                yield make_action("dividend", current, kind=kind)

    @reads("kind", "amount")
    def do_dividend(self, action: Action) -> Effects:
        if action.entity != self.round.current:
            raise Violation("operating-order", f"{entity_name(self.game, action.entity)} is not operating")
        if self.round.turn.revenue <= 0:
            raise Violation("dividend-no-run", f"{self.corporation} earned nothing this turn: there is no dividend to pay")
        kind = action.fields.get("kind")
        if kind not in self.kinds():
            raise Violation("dividend-kind", f"{kind!r} is not a dividend choice of {self.corporation} ({', '.join(self.kinds())})")
        revenue = self.round.turn.revenue
        paid = self.game.title.dividend_paid(self.corporation, str(kind), revenue)
        amount = action.fields.get("amount")
        if amount is not None and amount != paid:
            raise Violation("dividend-amount", f"a {kind} of ${revenue} pays out ${paid}, not the declared ${amount}")
        yield
        self.distribute(revenue, paid)
        self.passed = True

    def skip(self) -> None:
        """Nothing was earned: withhold nothing, and the price moves left."""
        self.distribute(0, 0)
        super().skip()

    def distribute(self, revenue: int, paid: int) -> None:
        """Pay ``paid`` to the holders and keep the rest; move the price; the title's after-effects."""
        game, corp = self.game, self.corporation
        turn = self.round.turn
        first = not game.corporations[corp].operated
        game.corporations[corp].operated = True
        for train in game.corporation_trains(corp):
            train.operated = train.ever_operated = True
        if paid:
            self.pay_holders(paid)
        if revenue - paid:
            game.pay(None, corp, revenue - paid)
        move = game.title.dividend_move(game, corp, paid, revenue)
        if move == "right":
            game.market.move_right(corp)
        elif move == "left":
            game.market.move_left(corp)
        game.title.after_dividend(game, corp, first or turn.first)

    def per_share(self, paid: int) -> float:
        """What a payout of ``paid`` gives a 10% share (plus any title bonus), before each
        holder's amount is rounded up."""
        return (paid + self.game.title.dividend_bonus(self.game, self.corporation)) / 10

    def pay_holders(self, paid: int) -> None:
        """Each holder gets its percent of ``paid`` (plus any title bonus), rounded up; the shares
        the title says pay the company pay it."""
        game, corp = self.game, self.corporation
        per_share = self.per_share(paid)
        for holder in [*game.order, *game.title.value_holders(game)]:
            amount = math.ceil(game.percent(holder, corp) / 10 * per_share)
            if amount:
                game.pay(None, holder, amount)
        for own in game.title.shares_paying_company(corp):
            to_company = math.ceil(game.percent(own, corp) / 10 * per_share)
            if to_company:
                game.pay(None, corp, to_company)
