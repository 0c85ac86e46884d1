"""The 1871 operating round's own steps (RB 7): two lays (the second yellow, for $20), the
bridge and Schreiber and Burpee rules, the PEIR's dividends per PEIR share, the Hunslet bought
from any player and its train purchase, forced purchases (treasury shares first, the Union Bank
before its owner), and bankruptcy.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from railledger.ingest.model import Action, Entity, PlayerId
from railledger.replay.errors import Violation
from railledger.replay.flow import Effects, make_action, reads
from railledger.replay.geometry import TileGeometry
from railledger.replay.names import a_train, entity_name, money, private_name
from railledger.replay.shares import sale_bundles
from railledger.replay.state import IPO, MARKET, CompanyState, GameState, Share, Train
from railledger.replay.steps.base import OperatingStep
from railledger.replay.steps.companies import BuyCompany, BuyCompanyLast
from railledger.replay.steps.dividends import Dividend
from railledger.replay.steps.shares import sell_to_market
from railledger.replay.steps.track import TileLay, Track
from railledger.replay.steps.trains import Bankrupt, BuyTrain, Purchase

from .peir import PEIR, UNION_BANK, peir_shares
from .title import title_of


SECOND_YELLOW = 20
YELLOW_THEN_YELLOW = (TileLay(), TileLay(lay="unless upgraded", upgrade=False, cost=SECOND_YELLOW, rule="tile-two-yellow"))
"""A tile lay, then a second yellow one for $20 unless the first was an upgrade (7.2)."""


class Track1871(Track):
    """7.2: a yellow lay or an upgrade, then, unless upgraded, a second yellow for $20."""

    def tile_lays(self) -> tuple[TileLay, ...]:
        return YELLOW_THEN_YELLOW

    def check_rules(self, action: Action, hex_id: str, geometry: TileGeometry, upgrade: bool) -> None:
        game = self.game
        title = title_of(game)
        for sym, consent, tile in title.lay_restrictions:
            company = game.companies[sym]
            if consent is not None and hex_id in consent.get("hexes", ()) and not company.closed \
                    and company.owner is not None and company.owner != title.acting_president(game, self.corporation):
                raise Violation("private-block", f"{hex_id} needs the consent of the {company.name} owner (12.2)")
            # the president himself: a Union Bank president owns no private, whoever owns the bank (REF)
            if tile is not None and geometry.name in tile.get("tiles", ()) and (company.closed or company.owner != game.president(self.corporation)):
                raise Violation("private-sbc", f"tile {geometry.name} is laid only by a company whose president owns {company.name} (11.3)")


class Dividend1871(Dividend):
    def per_share(self, paid: int) -> float:
        """The PEIR pays each PEIR share ``paid`` / shares left, rounded up (7.7)."""
        if self.corporation != PEIR:
            return super().per_share(paid)
        return math.ceil(paid / len(peir_shares(self.game)))

    def pay_holders(self, paid: int) -> None:
        if self.corporation != PEIR:
            super().pay_holders(paid)
            return
        game = self.game
        per_share = int(self.per_share(paid))
        for share in peir_shares(game):
            if share.owner in game.players:
                game.pay(None, share.owner, per_share)


class HunsletPurchase(OperatingStep):
    """The Hunslet closes to buy its company the bank's next train at its price, at any moment of
    the company's turn (11.3)."""

    name = "Hunslet"
    can_pass = False
    blocks = False
    answered_kind = "company"

    def next_train(self) -> Train | None:
        offered = self.game.title.bank_trains(self.game)
        return offered[0] if offered else None

    def can_purchase(self) -> bool:
        hunslet = self.game.companies[title_of(self.game).hunslet]
        corp = self.round.corporation
        if hunslet.closed or corp is None or hunslet.owner != corp:
            return False  # the bank's trains are looked at only for the company holding the Hunslet (asked at every listing)
        train = self.next_train()
        return (train is not None and self.game.trains_for_limit(corp) < self.game.phase.train_limit
                and self.game.cash(corp) >= self.game.title.train_price(train, None))

    def offers(self, entity: Entity) -> frozenset[str]:
        return frozenset({"purchase_train"}) if entity == Entity("company", title_of(self.game).hunslet) and self.can_purchase() else frozenset()

    def legal(self) -> Iterator[Action]:
        if self.offers_now(Entity("company", title_of(self.game).hunslet)):
            yield make_action("purchase_train", Entity("company", title_of(self.game).hunslet))

    def say(self, action: Action) -> str | None:
        train = self.next_train()
        if action.type != "purchase_train" or train is None:
            return None
        game = self.game
        price = game.title.train_price(train, None)
        return (f"{self.corporation} buys {a_train(train.card)} from the bank for {money(price)} with "
                f"{private_name(game, action.entity.id)}, which closes")

    def do_purchase_train(self, action: Action) -> Effects:
        if not self.can_purchase():
            raise Violation("private-hunslet", f"{self.round.corporation} cannot buy a train with the Hunslet now")
        yield
        game, corp = self.game, self.corporation
        train = self.next_train()
        assert train is not None
        price = game.title.train_price(train, None)
        game.close_company(title_of(game).hunslet)
        game.pay(corp, None, price)
        train.name = train.card
        game.deliver_train(train, corp, price, "bank")
        game.title.after_train_bought(game, corp, train, from_bank=True)


class HunsletForSale(BuyCompany):
    """Only the Hunslet is sold to companies, by any player, from phase 4H, for $1 to $200,
    never to the PEIR (7.1.1)."""

    def terms(self) -> dict[str, object]:
        ability = title_of(self.game).ability_of(title_of(self.game).hunslet, "sell_to_corporation")
        return ability.params if ability is not None else {}

    def phase_allows(self) -> bool:
        from_phase = str(self.terms().get("from_phase", ""))
        return self.game.phase_index >= self.game.title.phase_index(from_phase) if from_phase else True

    def for_sale(self) -> list[CompanyState]:
        hunslet = self.game.companies[title_of(self.game).hunslet]
        not_to = self.terms().get("not_to", ())
        if hunslet.closed or hunslet.owner not in self.game.order or self.corporation in not_to:  # type: ignore[operator]
            return []
        return [hunslet]

    def price_range(self, company: CompanyState) -> tuple[int, int]:
        bounds = self.terms().get("price_range", (1, company.value))
        assert isinstance(bounds, (list, tuple)) and len(bounds) == 2
        return int(bounds[0]), int(bounds[1])

    def check_for_sale(self, company: CompanyState) -> None:
        if company.sym != title_of(self.game).hunslet:
            raise Violation("company-buy", f"{company.name} cannot be sold to a company; only the Hunslet can")
        if self.corporation == PEIR:
            raise Violation("company-buy", "the PEIR may not buy the Hunslet (7.7)")
        if not self.phase_allows():
            raise Violation("company-buy-phase", f"the Hunslet may be sold to a company from phase {self.terms().get('from_phase')} (7.1.1)")
        super().check_for_sale(company)


class BuyHunslet(HunsletForSale):
    pass


class BuyHunsletLast(HunsletForSale):
    """The turn's last step, holding the turn as :class:`BuyCompanyLast` does."""

    blocks = BuyCompanyLast.blocks
    can_pass = BuyCompanyLast.can_pass


class BuyTrain1871(BuyTrain):
    """The PEIR buys at most one bank train an OR (7.7); a 4+ stays put once the first Diesel is
    bought (13.2); a company that must buy first sells its treasury shares (7.6.4); a Union Bank
    president pays what it can before its owner pays the rest (15)."""

    president_helps_with_others = False  # REF EBUY_FROM_OTHERS :never
    sell_in_blocks = True  # REF MUST_SELL_IN_BLOCKS

    def president(self) -> PlayerId | None:
        return title_of(self.game).acting_president(self.game, self.corporation)

    def sellers(self) -> list[PlayerId]:
        """A Union Bank president sells its own shares too (15: all normal player rules apply
        for the UB; REF: its sales are the Union Bank's actions, player -1)."""
        sellers = super().sellers()
        return [*sellers, UNION_BANK] if self.game.president(self.corporation) == UNION_BANK else sellers

    def depot(self) -> list[Train]:
        if self.corporation == PEIR and title_of(self.game).state(self.game).peir_bank_trains:
            return []
        return super().depot()

    def open_depot(self) -> list[Train]:
        """The bank's trains, even for a PEIR that has had its bank train: 18xx.games asks its
        depot whether a company can still buy, so the step waits for the PEIR's pass after it
        buys from another company."""
        return super().depot()

    def check_bank_purchase(self, action: Action, train: Train, price: int) -> Purchase:
        if self.corporation == PEIR and title_of(self.game).state(self.game).peir_bank_trains:
            raise Violation("peir-train", "the PEIR buys at most one train from the bank each operating round (7.7)")
        return super().check_bank_purchase(action, train, price)

    def transferable(self, train: Train) -> bool:
        return super().transferable(train) and train.id not in title_of(self.game).state(self.game).obsolete

    def check_transfer(self, action: Action, train: Train, price: int) -> Purchase:
        if train.id in title_of(self.game).state(self.game).obsolete:
            raise Violation("train-source", f"{train.owner}'s {train.name} train is obsolete since the first Diesel: it stays with {train.owner} (13.2)")
        return super().check_transfer(action, train, price)

    def offers(self, entity: Entity) -> frozenset[str]:
        offered = super().offers(entity)
        if entity == self.round.current and self.must_buy() and self.treasury_issue():
            offered = offered | {"sell_shares"}
        return offered

    def answers(self, action: Action) -> bool:
        """Also the company selling its treasury shares to buy a train it must have."""
        return super().answers(action) or (action.type == "sell_shares" and action.entity == self.round.current)

    def legal(self) -> Iterator[Action]:
        yield from super().legal()
        current = self.round.current
        issue = self.treasury_issue() if current is not None and self.must_buy() else None
        if current is not None and issue is not None:
            yield make_action("sell_shares", current, shares=[s.id for s in issue[0]], percent=issue[1])

    def treasury_issue(self) -> tuple[list[Share], int] | None:
        """What the company must sell of its treasury now: nothing once its president has sold
        its shares for this purchase (REF MUST_SELL_IN_BLOCKS: one block of each company)."""
        if self.corporation in self.round.turn.emergency_sold:
            return None
        return treasury_issue(self.game, self.corporation, self.cheapest_depot_price())

    def fund(self, purchase: Purchase) -> Purchase:
        game, corp = self.game, self.corporation
        lacking = purchase.price - game.cash(corp)
        if lacking <= 0:
            return purchase
        if game.corporation_trains(corp) or not self.must_buy():
            raise Violation("cash", f"{corp} has ${game.cash(corp)}, less than ${purchase.price}")
        if self.treasury_issue() is not None:
            raise Violation("emr-treasury", f"{corp} must sell its treasury shares before its president helps (7.6.4)")
        payers = self.payers()
        if payers == [UNION_BANK] and game.cash(UNION_BANK) < lacking:
            raise Violation("forced-purchase", f"the Union Bank has ${game.cash(UNION_BANK)}, less than the ${lacking} {corp} "
                                               "lacks, and sells its shares before its owner pays (15)")
        if not payers or sum(max(game.cash(p), 0) for p in payers) < lacking:
            raise Violation("forced-purchase", f"{corp}'s president cannot pay the ${lacking} it lacks")
        if UNION_BANK in payers and game.cash(UNION_BANK) <= 0:
            raise Violation("forced-purchase", f"the Union Bank, {corp}'s president, has no cash to pay toward the "
                                               "purchase, and 18xx.games cannot take $0 from it")
        cheapest = self.cheapest_depot_price()
        if cheapest is not None and purchase.price > cheapest:
            raise Violation("forced-purchase", f"with its president's help {corp} buys the cheapest train (${cheapest})")
        return Purchase(purchase.train, purchase.variant, purchase.price, True, lacking)

    def payers(self) -> list[PlayerId]:
        """Who pays what the company lacks: its president; for a Union Bank president, the bank
        and then its owner, but the owner only once the bank has nothing left it may sell (15:
        the UB must spend all its cash before its president acts for it; REF borrows from the
        owner only while the bank's liquidity is its cash)."""
        game = self.game
        president = game.president(self.corporation)
        if president is None:
            return []
        if president == UNION_BANK:
            owner = title_of(game).union_bank_owner(game)
            if owner not in game.players or next(self.emergency_bundles(UNION_BANK), None) is not None:
                return [UNION_BANK]
            return [UNION_BANK, owner]
        return [president]

    def buy(self, purchase: Purchase) -> None:
        game, corp = self.game, self.corporation
        lacking = purchase.president_pays
        for payer in self.payers() if lacking else []:
            part = min(max(game.cash(payer), 0), lacking)
            game.pay(payer, corp, part)
            lacking -= part
        from_bank = purchase.train.owner is None
        super().buy(Purchase(purchase.train, purchase.variant, purchase.price, purchase.from_bank, 0))
        if corp == PEIR and from_bank:
            title_of(game).state(game).peir_bank_trains += 1
            if not self.can_buy(self.depot()):  # REF: a pass once nothing is buyable after a bank train
                self.passed = True

    def emergency_sale_problem(self, president: PlayerId, shares: list[Share], percent: int,
                               needed_check: bool = True) -> Violation | None:
        limit = self.game.title.turn_sell_limit
        if limit is not None and percent > limit:
            return Violation("sell-limit", f"at most {limit}% of a company may be sold at once, not {percent}%")
        if shares[0].corporation == PEIR:
            return Violation("sell-own", "PEIR shares are not sold")
        return super().emergency_sale_problem(president, shares, percent, needed_check)

    @reads("shares", "percent")
    def do_sell_shares(self, action: Action) -> Effects:
        if action.entity.kind != "corporation":
            yield from super().do_sell_shares(action)
            return
        game, corp = self.game, self.corporation
        if action.entity != self.round.current:
            raise Violation("issue-own", f"{entity_name(self.game, action.entity)} does not operate")
        if corp in self.round.turn.emergency_sold:
            raise Violation("emergency-sale", f"{corp}'s president has sold {corp} shares for this purchase: "
                                              "each company's shares are sold in one block")
        issue = self.treasury_issue()
        if issue is None:
            raise Violation("emr-treasury", f"{corp} sells treasury shares only to buy a train it must have (7.6.4)")
        ids = action.fields.get("shares") or []
        shares = [game.shares.get(i) for i in ids]
        if not shares or any(s is None or s.corporation != corp or s.owner != IPO for s in shares):
            raise Violation("issue-own", f"{corp} may only issue its own treasury shares")
        held = [s for s in shares if s is not None]
        percent = sum(s.percent for s in held)
        if action.fields.get("percent", percent) != percent:
            raise Violation("share-percent", f"the certificates make {percent}%, not {action.fields.get('percent')}%")
        if percent != issue[1]:
            raise Violation("emr-treasury", f"{corp} sells all the treasury shares it can ({issue[1]}%), not {percent}%")
        yield
        sell_to_market(game, corp, held, percent)


class Bankrupt1871(Bankrupt):
    sell_in_blocks = True  # what the president may still raise: not a company he sold for this purchase

    def president(self) -> PlayerId | None:
        return title_of(self.game).acting_president(self.game, self.corporation)

    def buying_power(self, president: PlayerId) -> int:
        """REF: the treasury shares it would have to sell count too, and for a Union Bank
        president what the bank could raise as well (REF adds the two sums, each with the
        company's cash and treasury: so do we)."""
        game, corp = self.game, self.corporation
        issue = treasury_issue(game, corp, self.cheapest_depot_price())
        raised = issue[1] * (game.share_price(corp) or 0) // 10 if issue is not None else 0
        power = super().buying_power(president) + raised
        if game.president(corp) == UNION_BANK and president != UNION_BANK:
            power += super().buying_power(UNION_BANK) + raised
        return power

    def liquidate(self, president: PlayerId) -> None:
        """8.1 / REF: the bankrupt player sells what he may (one sale per company, up to 30%,
        never a president's certificate nobody can take), under the rules of the sales he made
        for this purchase: not a company he sold already, not the presidency of his company."""
        game = self.game
        for sym in sorted({s.corporation for s in game.shares.values() if s.owner == president}):
            corp = game.corporations[sym]
            if sym == PEIR or not corp.operated:
                continue
            limit = game.title.turn_sell_limit or 100
            room = min(limit, game.title.market_pool_max - game.percent(MARKET, sym))
            plain = [s for s in game.held(president, sym) if not s.president][: room // 10]
            allowed = (plain[:n] for n in range(len(plain), 0, -1))
            bundle = next((b for b in allowed if self.emergency_sale_problem(
                president, b, sum(s.percent for s in b), needed_check=False) is None), None)
            if bundle is not None:
                sell_to_market(game, president, bundle, sum(s.percent for s in bundle))


def treasury_issue(game: GameState, corp: str, cheapest: int | None) -> tuple[list[Share], int] | None:
    """The treasury shares a company without a train that cannot pay for the cheapest bank train
    sells first: as many as the market takes (REF emergency_issuable_bundles)."""
    if game.corporation_trains(corp) or cheapest is None or game.cash(corp) >= cheapest:
        return None
    room = game.title.market_pool_max - game.percent(MARKET, corp)
    bundles = [b for b in sale_bundles(game, IPO, corp) if b[1] <= room]
    return max(bundles, key=lambda b: b[1]) if bundles else None
