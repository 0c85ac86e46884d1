"""18MS's own steps: first-turn lays, the Chattanooga and New Orleans bonuses, buying privates
by the round of play, trains that become unsellable once run before they rust, presidential help
and loans for trains (RB 11, 16)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from railledger.replay.errors import Violation
from railledger.replay.hexgrid import shared_edge
from railledger.replay.network import network_of
from railledger.replay.routes import Route
from railledger.replay.state import CompanyState
from railledger.replay.steps import companies
from railledger.replay.steps.routes import RunRoutes
from railledger.replay.steps.tokens import CompanyToken, Placement, Token, Tokening
from railledger.replay.steps.track import ONE_LAY, CompanyTrack, Lay, TileLay, Track, TrackLaying
from railledger.replay.steps.trains import BuyTrain, Purchase

if TYPE_CHECKING:
    from . import EighteenMS

FIRST_TURN_LAYS = (TileLay(), TileLay(lay=True, upgrade="unless upgraded", rule="tile-first-turn"))
"""11.4: a company's first turn has two lays; the second is no upgrade after an upgrade."""


def title_of(step: TrackLaying | Tokening | RunRoutes | BuyTrain | companies.BuyCompany) -> EighteenMS:
    return step.game.title  # type: ignore[return-value]


def chattanooga_bonus(step: TrackLaying, lay: Lay) -> None:
    """11.4.5: the first company whose lay on the approach hex reaches Chattanooga gets $50 (a
    function both track steps call, the company's own lays and its privates', as a step class
    has one base)."""
    title = title_of(step)
    state = title.state(step.game)
    if state.chattanooga is not None or lay.hex_id != title.chattanooga_approach:
        return
    edge = shared_edge(title.chattanooga_approach, title.chattanooga_hex, title.layout)
    if edge is None or edge not in step.game.board.tile(lay.hex_id).edges:
        return
    if not any(h == title.chattanooga_hex for h, _ in network_of(step.game, step.corporation).nodes):
        return
    state.chattanooga = step.corporation
    step.game.pay(None, step.corporation, title.chattanooga_bonus)


class MsTrack(Track):
    def tile_lays(self) -> tuple[TileLay, ...]:
        return FIRST_TURN_LAYS if self.round.turn.first else ONE_LAY

    def after_lay(self, lay: Lay) -> None:
        chattanooga_bonus(self, lay)


class MsCompanyTrack(CompanyTrack):
    def after_lay(self, lay: Lay) -> None:
        chattanooga_bonus(self, lay)


class MsToken(Token):
    """11.5.1: the first station in New Orleans earns $100 and, until the first 6-train, $10
    more for each of that company's runs there (recorded games decide: notes.md)."""

    def after_placement(self, placement: Placement) -> None:
        title = title_of(self)
        state = title.state(self.game)
        if placement.hex_id != title.new_orleans_hex or state.new_orleans is not None:
            return
        state.new_orleans = self.corporation
        self.game.pay(None, self.corporation, title.new_orleans_bonus)
        corp = self.game.corporations[self.corporation]
        corp.abilities = corp.abilities | {"new_orleans_bonus"}


class MsCompanyToken(CompanyToken):
    """The M&M's half-price station earns no New Orleans bonus: 18xx.games places it through
    its generic special-token step, which pays neither the $100 nor the $10 (a bots' game it
    accepted only so; notes.md, item 10)."""


class MsRunRoutes(RunRoutes):
    def after_run(self, routes: list[Route]) -> None:
        """18xx.games: a company's trains of the type rusting at the end of this set cannot be
        sold once it has run them in the set's second OR."""
        if not routes or self.round.number_in_set != 2:
            return
        rusting = f"{self.game.sr_number}+"
        for train in self.game.corporation_trains(self.corporation):
            if train.name == rusting:
                train.reserved = True


class PrivatesByRoundOfPlay(companies.BuyCompany):
    """Which privates a company may buy (16): only its president's; in OR 1 only those the
    data opens from OR 1, at face value; the Mississippi Central until its last OR and only
    with room for its train."""

    def for_sale(self) -> list[CompanyState]:
        game = self.game
        offered = []
        for company in super().for_sale():
            terms = game.title.company_spec(company.sym).raw.get("buyable_by_corporation") or {}
            if game.or_number < terms.get("from_or", 1):
                continue
            if "until_or" in terms and game.or_number > terms["until_or"]:
                continue
            if company.sym == title_of(self).train_private and len(game.corporation_trains(self.corporation)) >= game.phase.train_limit:
                continue
            offered.append(company)
        return offered

    def check_for_sale(self, company: CompanyState) -> None:
        president = self.game.president(self.corporation)
        if company.owner == president and company not in self.for_sale():
            raise Violation("company-buy-phase", f"{company.name} may not be bought by a company now (16)")
        super().check_for_sale(company)

    def price_range(self, company: CompanyState) -> tuple[int, int]:
        if self.game.or_number == 1:
            return company.value, company.value  # OR 1: exactly face value
        return math.ceil(company.value / 2), company.value * 3 // 2

    def after_purchase(self, company: CompanyState) -> None:
        """The Mississippi Central is exchanged at once for its special 2+ (16)."""
        if company.sym != title_of(self).train_private:
            return
        game = self.game
        train = game.trains[title_of(self).exchange_train]
        train.reserved = False
        game.deliver_train(train, self.corporation, 0, f"exchange for {company.sym}")
        train.reserved = True  # it may never be sold
        game.close_company(company.sym)


class BuyCompanyFirst(PrivatesByRoundOfPlay):
    """At any moment of the turn (18xx.games' own 18MS step: no phase condition)."""


class BuyCompanyLast(PrivatesByRoundOfPlay):
    """The last step, holding the turn as :class:`companies.BuyCompanyLast` does: only while the
    phase lets companies buy privates (phase 3)."""

    blocks = companies.BuyCompanyLast.blocks
    can_pass = companies.BuyCompanyLast.can_pass

    def phase_allows(self) -> bool:
        return self.game.phase.name == "3"


class MsBuyTrain(BuyTrain):
    sell_more_than_needed = True
    president_swap_allowed = False
    cheapest_when_helped = False

    def fund(self, purchase: Purchase) -> Purchase:
        """11.8.2 presidential help for a permanent train (company with a train, at least half
        the price in its treasury; the president pays the rest and a fee), else the forced
        purchase of 11.8.3-4 with a loan when the president has nothing left to sell."""
        game, corp = self.game, self.corporation
        cash = game.cash(corp)
        if purchase.price <= cash and not self.borrows(purchase.price):
            return purchase
        president = self.president()
        assert president is not None
        if purchase.price > cash and game.corporation_trains(corp):
            title = title_of(self)
            help_rule = title.trains_file["presidential_contribution"]
            permanent = title.train_type(purchase.train.card).permanent and "+" not in purchase.variant
            if permanent and cash >= purchase.price * help_rule["min_treasury_fraction"]:
                assist = purchase.price - cash
                if game.cash(president) < assist + help_rule["fee"]:
                    raise Violation("president-assist", f"{game.player_name(president)} cannot pay ${assist} plus the ${help_rule['fee']} fee")
                return Purchase(purchase.train, purchase.variant, purchase.price, True, assist)
            raise Violation("cash", f"{corp} has ${cash}, less than ${purchase.price}")
        if not self.must_buy():
            raise Violation("cash", f"{corp} has ${cash}, less than ${purchase.price}")
        lacking = purchase.price - cash
        if not self.borrows(purchase.price):
            return Purchase(purchase.train, purchase.variant, purchase.price, True, lacking)
        if any(True for _ in self.emergency_bundles(president)):
            raise Violation("forced-purchase", f"{game.player_name(president)} must sell shares before borrowing from the bank")
        cheapest = self.cheapest_depot_price()
        if cheapest is not None and cheapest <= cash + game.cash(president):
            raise Violation("forced-purchase", f"a ${cheapest} train is affordable, so no loan for a ${purchase.price} one")
        if cash == 0:  # notes.md item 15: 18xx.games cannot record this purchase
            raise Violation("forced-purchase", f"{corp} holds no cash, and 18xx.games makes no loan for a company holding none")
        charge = self.loan_charge(purchase.price)
        if charge <= 0:  # notes.md item 16: nor this one
            raise Violation("forced-purchase", f"{game.player_name(president)} is in debt, so 18xx.games takes this purchase as a "
                                               f"loan, which would charge him {'-' if charge else ''}${abs(charge)}; it records none")
        return Purchase(purchase.train, purchase.variant, purchase.price, True, max(lacking, 0))

    def borrows(self, price: int) -> bool:
        """Whether a bank train at ``price`` is bought with a loan: the company must buy and the
        price is more than the company's cash and its president's together, a president's debt
        counted (notes.md item 16: a company whose president is in debt borrows even for a train
        its own cash pays, as 18xx.games has it)."""
        president = self.president()  # the purses first: must_buy asks for a route
        return (president is not None and price > self.game.cash(self.corporation) + self.game.cash(president)
                and self.must_buy())

    def loan_charge(self, price: int) -> int:
        """What a loan for a train at ``price`` takes from the president: what the company's cash
        does not cover, and the fee (his own cash first, the rest as debt)."""
        return price - self.game.cash(self.corporation) + title_of(self).game_file["loans"]["fee"]

    def buy(self, purchase: Purchase) -> None:
        game, corp = self.game, self.corporation
        president = self.president()
        assert president is not None
        lacking = purchase.price - game.cash(corp)
        if lacking > 0 and game.corporation_trains(corp):
            fee = title_of(self).trains_file["presidential_contribution"]["fee"]
            game.pay(president, None, lacking + fee)  # the help goes through the bank, with the fee
            game.pay(None, corp, lacking)
            purchase = Purchase(purchase.train, purchase.variant, purchase.price, True, 0)
        elif self.borrows(purchase.price):
            charge = self.loan_charge(purchase.price)  # 11.8.4: the president's cash goes below zero
            game.pay(None, corp, max(lacking, 0))
            super().buy(Purchase(purchase.train, purchase.variant, purchase.price, True, 0))
            game.pay(corp, None, game.cash(corp))  # the company keeps none of its cash (item 16)
            game.pay(president, None, charge)
            self.passed = True
            return
        super().buy(purchase)
