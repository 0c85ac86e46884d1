"""A company buying a private company from a player during its operating turn.

18xx.games runs this step twice in a turn: once before the track step, without blocking, so a
company may buy a private at any moment of its turn, and once last, blocking, so the turn waits
while a purchase is possible (or while the company holds an ability it could still use).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from railledger.ingest.model import Action, Entity
from railledger.replay.abilities import active_at_turn_end
from railledger.replay.errors import Violation
from railledger.replay.flow import Effects, check_declared_range, make_action, reads
from railledger.replay.names import entity_name
from railledger.replay.steps.base import OperatingStep
from railledger.replay.state import CompanyState



class BuyCompany(OperatingStep):
    """Buying a private at any moment of the turn (does not hold the turn up)."""

    name = "private purchase"
    can_pass = False
    blocks = False


    def phase_allows(self) -> bool:
        """Whether the phase lets companies buy privates (18xx.games' ``can_buy_companies``)."""
        return True

    def for_sale(self) -> list[CompanyState]:
        """Privates the operating company may buy now: by default those its president owns."""
        president = self.game.president(self.corporation)
        return [c for c in self.game.companies.values()
                if not c.closed and president is not None and c.owner == president and self.sellable(c)]

    def sellable(self, company: CompanyState) -> bool:
        spec = self.game.title.company_spec(company.sym)
        return spec.raw.get("buyable_by_corporation", True) is not False

    def price_range(self, company: CompanyState) -> tuple[int, int]:
        return math.ceil(company.value / 2), company.value * 3 // 2

    def can_buy(self) -> bool:
        if not self.phase_allows():
            return False
        cash = self.game.cash(self.corporation)
        return any(self.price_range(c)[0] <= cash for c in self.for_sale())

    def offers(self, entity: Entity) -> frozenset[str]:
        if entity != self.round.current:
            return frozenset()
        if self.can_buy():
            return frozenset({"buy_company", "pass"}) if self.blocks else frozenset({"buy_company"})
        if self.blocks and active_at_turn_end(self.game, self.corporation):
            return frozenset({"pass"})
        return frozenset()

    def legal(self) -> Iterator[Action]:
        current = self.round.current
        if current is None or not self.offers_now(current):
            return
        if self.can_buy():
            cash = self.game.cash(self.corporation)
            for company in self.for_sale():
                low, high = self.price_range(company)
                if low <= cash:
                    yield make_action("buy_company", current, company=company.sym, price=low, price_range=[low, min(high, cash)])
        if "pass" in self.offers_now(current):
            yield make_action("pass", current)

    @reads("company", "price", "price_range")
    def do_buy_company(self, action: Action) -> Effects:
        game, corp = self.game, self.corporation
        if action.entity != self.round.current:
            raise Violation("operating-order", f"{entity_name(self.game, action.entity)} is not operating")
        sym = action.fields.get("company")
        company = game.companies.get(str(sym))
        if company is None or company.closed:
            raise Violation("company-buy", f"private company {sym} is not in play")
        self.check_for_sale(company)
        price = action.fields.get("price")
        low, high = self.price_range(company)
        if not isinstance(price, int) or not low <= price <= high:
            raise Violation("company-price", f"{company.name} may be bought for ${low} to ${high}, not ${price}")
        check_declared_range(action, "price_range", low, min(high, game.cash(corp)), "company-price", f"the price of {company.name}")
        if game.cash(corp) < price:
            raise Violation("cash", f"{corp} has ${game.cash(corp)}, less than ${price}")
        yield
        seller = company.owner
        game.pay(corp, seller, price)
        company.owner = corp
        self.after_purchase(company)

    def check_for_sale(self, company: CompanyState) -> None:
        """Why this private may not be bought now (a title gives its own reasons)."""
        if not self.phase_allows():
            raise Violation("company-buy-phase", "companies may not buy privates in this phase")
        if company not in self.for_sale():
            raise Violation("company-buy", f"{company.name} is not for sale to {self.corporation}")

    def after_purchase(self, company: CompanyState) -> None:
        """Effects of the purchase (an exchange for a train, an ability that starts)."""


class BuyCompanyLast(BuyCompany):
    """The turn's last step: it waits while a private could be bought or an ability used."""

    blocks = True
    can_pass = True
