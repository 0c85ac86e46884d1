"""Buying trains, selling shares to pay for one, discarding over the limit, going bankrupt.

The step follows 18xx.games' train step. A company with room for a train it can afford may buy
(from the bank at face value, from another company for $1 up to its cash) or pass. A company
with no train and a route must buy one and cannot pass: its president then pays what it lacks
for a bank train, and may sell shares for it. After each purchase the step goes on while the
company could buy more. A company over its train limit (a purchase that changed the phase)
discards before anything else happens.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from railledger.ingest.model import Action, Entity, PlayerId
from railledger.replay.abilities import check_acts_for, held_for, in_time, usable_by
from railledger.replay.data import Ability
from railledger.replay.errors import Violation
from railledger.replay.flow import Effects, check_declared_range, make_action, reads
from railledger.replay.steps.base import OperatingStep
from railledger.replay.network import route_available
from railledger.replay.names import entity_name, holder_name, shares_phrase
from railledger.replay.shares import can_dump, sale_bundles
from railledger.replay.state import MARKET, CompanyState, Share, Train
from railledger.replay.steps.shares import sell_to_market



@dataclass(frozen=True)
class Purchase:
    """A checked train purchase: the train, as which variant, at what price, and who pays what."""

    train: Train
    variant: str
    price: int
    from_bank: bool
    president_pays: int = 0  # cash the president gives the company for it
    via: str | None = None  # a private whose ability the purchase used


class BuyTrain(OperatingStep):
    name = "train"
    timing: ClassVar[str | None] = "buy_train"
    buy_from_others = True
    """Whether a company may buy trains from other companies (18xx.games: always, here)."""
    president_helps_with_others = True
    """Whether a president may pay towards a train bought from another company (EBUY_FROM_OTHERS)."""
    sell_more_than_needed = False
    """Whether a president may sell more shares than the purchase needs (EBUY_SELL_MORE_THAN_NEEDED)."""
    sell_in_blocks = False
    """Whether the president sells each company's shares once for a purchase (REF MUST_SELL_IN_BLOCKS)."""
    president_swap_allowed = True
    """Whether an emergency sale may hand over the presidency of another company (EBUY_PRES_SWAP)."""
    cheapest_when_helped = True
    """Whether a president helping to pay must take the cheapest bank train (EBUY_DEPOT_TRAIN_MUST_BE_CHEAPEST)."""

    def answers(self, action: Action) -> bool:
        """The operating company, and its president for emergency sales (a private's step:
        its ``answered_kind``)."""
        if self.answered_kind is not None or action.type != "sell_shares":
            return super().answers(action)
        sellers = self.sellers() if self.round.corporation is not None else []
        return action.entity.kind == "player" and action.entity.id in sellers

    def president(self) -> PlayerId | None:
        return self.game.president(self.corporation)

    def sellers(self) -> list[PlayerId]:
        """Who may sell shares for the company's train: its president (a title may add one)."""
        president = self.president()
        return [] if president is None else [president]

    # ------------------------------------------------------------------ what is open

    def room(self) -> bool:
        return self.game.trains_for_limit(self.corporation) < self.game.phase.train_limit

    def depot(self) -> list[Train]:
        return self.game.title.bank_trains(self.game)

    def open_depot(self) -> list[Train]:
        """The bank trains that keep the step open: those the company may buy, unless a title
        says otherwise."""
        return self.depot()

    def others(self) -> list[Train]:
        """Trains of other companies this company may buy."""
        if not self.buy_from_others:
            return []
        corp = self.corporation
        return [t for t in self.game.trains.values()
                if t.owner is not None and t.owner != corp and not t.rusted and self.transferable(t)]

    def transferable(self, train: Train) -> bool:
        """Whether another company's train may change hands now (not one kept out of trade)."""
        return not train.reserved

    def must_buy(self) -> bool:
        game, corp = self.game, self.corporation
        return (not game.corporation_trains(corp) and bool(self.depot())
                and game.title.must_own_train(corp) and route_available(game, corp))

    def cheapest_depot_price(self) -> int | None:
        """The lowest price of a bank train the company may buy, remembered for the moment of the
        game (the step's memo): emergency sales ask it of every bundle a president could sell, at
        every listing. It reads only the game (the depot, the titles' prices) and the step, none
        of which changes within a moment."""
        return self.memo.recall(self.game, "cheapest depot price", self._cheapest_depot_price)

    def _cheapest_depot_price(self) -> int | None:
        prices = [self.game.title.train_price(t, v) for t in self.depot() for v in self.game.title.variants_of(t)]
        return min(prices) if prices else None

    def can_buy(self, depot: list[Train] | None = None) -> bool:
        """Room and cash for some train: $1 for another company's, the cheapest bank price for
        a new one (of ``depot``, by default :meth:`open_depot`), less a private's discount the
        company could use in this step (18xx.games counts it, so the step stays open even
        though the discount is the private's to give)."""
        if not self.room():
            return False
        cash = self.game.cash(self.corporation)
        if self.others() and cash >= 1:
            return True
        prices = [self.game.title.train_price(t, v) - self.discount_on(t)
                  for t in (self.open_depot() if depot is None else depot) for v in self.game.title.variants_of(t)]
        return bool(prices) and cash >= min(prices)

    def discount_on(self, train: Train) -> int:
        game, corp = self.game, self.corporation
        return max((int(ability.get("discount", 0)) for company, ability in held_for(game, corp, "train_discount")
                    if train.card in ability.get("trains", ()) and in_time(game, corp, company, ability, "buy_train")),
                   default=0)

    def offers(self, entity: Entity) -> frozenset[str]:
        if entity.kind == "player" and entity.id in self.sellers() and self.round.current is not None:
            return frozenset({"sell_shares"})
        if entity != self.round.current:
            return frozenset()
        if self.must_buy():
            return frozenset({"buy_train"})
        if self.can_buy():
            return frozenset({"buy_train", "pass"})
        return frozenset()

    def why_not(self, action: Action) -> Violation | None:
        if action.entity == self.round.current and action.type == "pass" and self.must_buy():
            return Violation("must-buy-train", f"{self.corporation} owns no train, has a route, and must buy one")
        return None

    def legal(self) -> Iterator[Action]:
        current = self.round.current
        if current is None or not self.offers_now(current):
            return
        for train in self.depot():
            for variant in self.game.title.variants_of(train):
                action = make_action("buy_train", current, train=train.id, price=self.game.title.train_price(train, variant), variant=variant)
                if self.allows(action):
                    yield action
        for train in self.others():
            low, high = self.price_range(train)
            if low <= high:
                yield make_action("buy_train", current, train=train.id, price=low, variant=train.name, price_range=[low, high])
        for seller in self.sellers():
            for shares, percent in self.emergency_bundles(seller):
                yield make_action("sell_shares", Entity("player", seller), shares=[s.id for s in shares], percent=percent)
        if "pass" in self.offers_now(current):
            yield make_action("pass", current)

    # ------------------------------------------------------------------ buying

    def price_range(self, train: Train) -> tuple[int, int]:
        """What may be paid for another company's train: $1 up to the company's cash (with the
        president's cash where the title lets him help and the company must buy, up to the
        train's face value). Where the title lets him help, the most is never above what both
        hold (a president in debt lowers it), and once he has sold shares this turn he must not
        have sold more than the price needed: the price is at least what both hold less the last
        share's price, plus $1, so a cheaper train is refused (REF spend_minmax and
        last_share_sold_price: 18MS, bots' games 18xx.games refused)."""
        cash = self.game.cash(self.corporation)
        president = self.president()
        if not self.president_helps_with_others or president is None or cash >= self.face(train):
            return 1, cash
        possible = cash + self.game.cash(president)  # a president in debt (18MS's loan) lowers it (REF)
        sold = self.round.turn.emergency_sale_price
        return (1 if sold is None else max(possible - sold + 1, 1)), min(self.face(train) if self.must_buy() else cash, possible)

    def face(self, train: Train) -> int:
        return self.game.title.train_price(train, train.name if train.name != train.card else None)

    @reads("train", "price", "variant", "price_range")
    def do_buy_train(self, action: Action) -> Effects:
        if action.entity != self.round.current:
            raise Violation("operating-order", f"{entity_name(self.game, action.entity)} is not operating")
        purchase = self.check_purchase(action)
        yield
        self.buy(purchase)

    def check_purchase(self, action: Action) -> Purchase:
        game, corp = self.game, self.corporation
        train = game.trains.get(str(action.fields.get("train")))
        if train is None or train.rusted or (train.reserved and train.owner is None):
            raise Violation("train-unknown", f"there is no train {action.fields.get('train')} in play")
        if train.owner == corp:
            raise Violation("train-source", f"{corp} cannot buy its own {train.name} train")
        if not self.room():
            raise Violation("train-limit", f"{corp} already owns {game.phase.train_limit} trains, the limit")
        price = action.fields.get("price")
        if not isinstance(price, int) or price < 1:
            raise Violation("train-price", f"a train costs at least $1, not {price!r}")
        if train.owner is None:
            return self.check_bank_purchase(action, train, price)
        return self.check_transfer(action, train, price)

    def check_bank_purchase(self, action: Action, train: Train, price: int) -> Purchase:
        game = self.game
        depot = self.depot()
        if train not in depot and not any(t.card == train.card and t.owner is None for t in depot):
            names = ", ".join(sorted({t.card for t in depot}))
            raise Violation("train-order", f"{train.card} trains are not for sale yet; the bank sells {names}")
        variant = str(action.fields.get("variant") or train.card)
        if variant not in game.title.variants_of(train):
            raise Violation("train-price", f"a {train.card} train cannot be bought as a {variant!r}")
        due = game.title.train_price(train, variant)
        if price != due:
            raise Violation("train-price", f"a new {variant} train costs ${due}, not ${price}")
        return self.fund(Purchase(train, variant, price, from_bank=True))

    def check_transfer(self, action: Action, train: Train, price: int) -> Purchase:
        game, corp = self.game, self.corporation
        if train.owner not in game.corporations or not self.buy_from_others:
            raise Violation("train-source", f"{corp} cannot buy a {train.name} train from {holder_name(game, train.owner)}")
        if not self.transferable(train):
            raise Violation("train-obsolete", f"{train.owner}'s {train.name} train cannot change companies now")
        variant = str(action.fields.get("variant") or train.name)
        if variant not in game.title.variants_of(train):
            raise Violation("train-price", f"{train.owner}'s {train.name} train cannot run as a {variant} train")
        low, high = self.price_range(train)
        check_declared_range(action, "price_range", low, high, "train-price", f"the price of {train.owner}'s {train.name} train")
        if low > high:
            raise Violation("cash", f"{corp} may not buy {train.owner}'s {train.name} train now: the least it may pay (${low}) is more than the most "
                                    f"(${high}, with its president's cash and after his sales)")
        if not low <= price <= high:
            raise Violation("cash", f"{corp} may pay ${low} to ${high} for {train.owner}'s {train.name} train, not ${price}")
        helped = max(price - game.cash(corp), 0)
        return Purchase(train, variant, price, from_bank=False, president_pays=helped)

    def fund(self, purchase: Purchase) -> Purchase:
        """Who pays for a bank train: the company, and where it must buy, its president what it
        lacks (the cheapest train only, where the title says so)."""
        game, corp = self.game, self.corporation
        lacking = purchase.price - game.cash(corp)
        if lacking <= 0:
            return purchase
        president = self.president()
        if not self.must_buy() or president is None:
            raise Violation("cash", f"{corp} has ${game.cash(corp)}, less than ${purchase.price}")
        cheapest = self.cheapest_depot_price()
        if self.cheapest_when_helped and cheapest is not None and purchase.price > cheapest:
            raise Violation("forced-purchase", f"with its president's help {corp} buys the cheapest train (${cheapest})")
        if game.cash(president) < lacking:
            raise Violation("forced-purchase", f"{game.player_name(president)} cannot pay the ${lacking} {corp} lacks")
        return Purchase(purchase.train, purchase.variant, purchase.price, True, lacking)

    def buy(self, purchase: Purchase) -> None:
        game, corp = self.game, self.corporation
        train = purchase.train
        president = self.president()
        if purchase.president_pays and president is not None:
            game.pay(president, corp, purchase.president_pays)
        seller = train.owner
        game.pay(corp, seller, purchase.price)
        train.name = purchase.variant
        train.discarded = False
        source = "bank" if seller is None else seller
        game.deliver_train(train, corp, purchase.price, source if purchase.via is None else f"{source} with {purchase.via}")
        self.round.turn.trains_bought += 1
        game.title.after_train_bought(game, corp, train, purchase.from_bank)
        if not self.can_buy():
            self.passed = True

    # ------------------------------------------------------------------ emergency sales

    def emergency_bundles(self, president: PlayerId) -> Iterator[tuple[list[Share], int]]:
        """The bundles ``president`` may sell for the company's train now: those
        :meth:`emergency_sale_problem` allows. Most bundles of most listings raise more than the
        purchase needs (every listing of a train step asks, whether the company lacks money or
        not), so that test, its last, is asked first and the rest only of the bundles it lets by."""
        for sym in self.game.corporations:
            for shares, percent in sale_bundles(self.game, president, sym):
                if (not self.more_than_needed(president, shares, percent)
                        and self.emergency_sale_problem(president, shares, percent, needed_check=False) is None):
                    yield shares, percent

    def emergency_sale_problem(self, president: PlayerId, shares: list[Share], percent: int,
                               needed_check: bool = True) -> Violation | None:
        game = self.game
        sym = shares[0].corporation
        if not game.title.may_sell(game, sym, 0):
            return Violation("sell-after-operate", f"{sym} has not yet operated, so its shares cannot be sold")
        if not can_dump(game, president, shares):
            return Violation("president-sale", f"nobody else holds 20% of {sym}, so its president's certificate cannot be sold")
        if self.sell_in_blocks and sym in self.round.turn.emergency_sold:
            return Violation("emergency-sale", f"{game.player_name(president)} has sold {sym} for this purchase already: "
                                               "each company's shares are sold in one block")
        if game.percent(MARKET, sym) + percent > game.title.market_pool_max:
            return Violation("market-limit", f"selling {percent}% of {sym} would put more than {game.title.market_pool_max}% in the open market")
        if game.president(sym) == president and (not self.president_swap_allowed or sym == self.corporation):
            others = max((game.percent(p, sym) for p in game.presidency_holders() if p != president), default=0)
            if game.percent(president, sym) - percent < others:
                return Violation("emergency-sale", f"the sale would hand over the presidency of {sym}")
        if needed_check and self.more_than_needed(president, shares, percent):
            return Violation("emergency-sale", f"{game.player_name(president)} may sell only what the purchase needs")
        return None

    def more_than_needed(self, president: PlayerId, shares: list[Share], percent: int) -> bool:
        """Whether the title forbids the sale as more than the purchase needs: the bundle without
        its smallest certificate would already raise what the company and its president lack
        for the cheapest bank train (EBUY_SELL_MORE_THAN_NEEDED)."""
        if self.sell_more_than_needed:
            return False
        game = self.game
        needed = (self.cheapest_depot_price() or 0) - game.cash(president) - game.cash(self.corporation)
        smaller = percent - min(s.percent for s in shares)
        return smaller * (game.share_price(shares[0].corporation) or 0) // 10 >= needed

    @reads("shares", "percent")
    def do_sell_shares(self, action: Action) -> Effects:
        game = self.game
        seller = action.entity.id
        if action.entity.kind != "player" or seller not in self.sellers():
            raise Violation("turn-order", f"only {self.corporation}'s president may sell shares now")
        ids = action.fields.get("shares") or []
        shares = [game.shares.get(i) for i in ids]
        if not shares or any(s is None or s.owner != seller for s in shares):
            held = [s for s in shares if s is not None]
            what = shares_phrase(game, held) if held and len({s.corporation for s in held}) == 1 else ", ".join(map(str, ids))
            raise Violation("sell-own", f"{game.player_name(seller)} does not hold {what}")
        held = [s for s in shares if s is not None]
        if len({s.corporation for s in held}) != 1:
            raise Violation("share-bundle", "a bundle holds certificates of one company")
        total = sum(s.percent for s in held)
        percent = action.fields.get("percent", total)
        pres = next((s for s in held if s.president), None)
        least = total if pres is None else total - (pres.percent - 10)
        if not isinstance(percent, int) or not least <= percent <= total:
            raise Violation("share-percent", f"the certificates make {total}%, not {percent}%")
        problem = self.emergency_sale_problem(seller, held, percent)
        if problem is not None:
            raise problem
        yield
        self.round.turn.emergency_sale_price = game.share_price(held[0].corporation)
        self.round.turn.emergency_sold.append(held[0].corporation)
        sell_to_market(game, seller, held, percent)
        self.round.reorder()


class DiscardTrain(OperatingStep):
    """A company over its train limit gives a train back, before anything else happens."""

    name = "discard"
    can_pass = False
    answered_kind = "corporation"

    def crowded(self) -> tuple[str, ...]:
        return self.game.over_train_limit()

    def actor(self) -> Entity | None:
        crowded = self.crowded()
        return Entity("corporation", crowded[0]) if crowded else None

    def offers(self, entity: Entity) -> frozenset[str]:
        return frozenset({"discard_train"}) if entity == self.actor() else frozenset()

    def skip(self) -> None:
        """Not passed: it wakes whenever a company is over its limit."""

    def legal(self) -> Iterator[Action]:
        actor = self.actor()
        if actor is not None:
            for train in self.game.corporation_trains(str(actor.id)):
                yield make_action("discard_train", actor, train=train.id)

    @reads("train")
    def do_discard_train(self, action: Action) -> Effects:
        game = self.game
        if action.entity != self.actor():
            raise Violation("train-discard", f"{entity_name(self.game, action.entity)} is within its train limit and keeps its trains")
        sym = str(action.entity.id)
        train = game.trains.get(str(action.fields.get("train")))
        if train is None or train.owner != sym or train.rusted:
            raise Violation("train-unknown", f"{sym} owns no train {action.fields.get('train')}")
        yield
        game.title.discard(game, train)


class CompanyTrain(BuyTrain):
    """A private's ``train_discount``: the operating company buys a bank train of the listed
    types for less, in its train step; the private may close once used."""

    name = "private train"
    timing = None
    can_pass = False
    blocks = False
    answered_kind = "company"

    def ability(self, entity: Entity) -> tuple[CompanyState, Ability] | None:
        return usable_by(self.game, self.round.corporation, entity, "train_discount", "buy_train", self.round.step_kind())

    def discounted(self, ability: Ability) -> list[Train]:
        return [t for t in self.depot() if t.card in ability.get("trains", ())]

    def offers(self, entity: Entity) -> frozenset[str]:
        found = self.ability(entity)
        if found is None or not self.room():
            return frozenset()
        return frozenset({"buy_train"}) if self.discounted(found[1]) else frozenset()

    def legal(self) -> Iterator[Action]:
        for entity, ability in self.offering_privates("train_discount"):
            for train in self.discounted(ability):
                price = self.game.title.train_price(train, None) - int(ability.get("discount", 0))
                action = make_action("buy_train", entity, train=train.id, price=price, variant=train.card)
                if self.allows(action):
                    yield action

    @reads("train", "price", "variant")
    def do_buy_train(self, action: Action) -> Effects:
        check_acts_for(self.game, self.round.corporation, action.entity)
        found = self.ability(action.entity)
        if found is None:
            raise Violation("company-ability", f"{entity_name(self.game, action.entity)} gives no train discount now")
        company, ability = found
        game, corp = self.game, self.corporation
        train = game.trains.get(str(action.fields.get("train")))
        if train is None or train not in self.discounted(ability):
            names = " or ".join(ability.get("trains", ()))
            raise Violation("company-ability", f"{company.name} gives a discount only on a new {names} train")
        if not self.room():
            raise Violation("train-limit", f"{corp} already owns {game.phase.train_limit} trains, the limit")
        due = game.title.train_price(train, None) - int(ability.get("discount", 0))
        if action.fields.get("price") != due:
            raise Violation("train-price", f"a {train.card} train with the {company.name} discount costs ${due}, not ${action.fields.get('price')}")
        if action.fields.get("variant") not in (None, train.card):
            raise Violation("train-price", f"{train.card} trains have no {action.fields.get('variant')} variant")
        if game.cash(corp) < due:
            raise Violation("cash", f"{corp} has ${game.cash(corp)}, less than ${due}")
        yield
        company.uses += 1
        self.buy(Purchase(train, train.card, due, from_bank=True, via=company.sym))
        if ability.get("closes_company"):
            game.close_company(company.sym)


class Bankrupt(BuyTrain):
    """A company whose cash, with its president's cash and all he may sell, is less than the
    cheapest train in the bank goes bankrupt: the president sells what he can, his cash goes to
    the bank, the game ends (e.g. 18Texas 12.6). It does not hold the turn up.

    The rulebooks speak of a company that must buy a train; 18xx.games lets the company on turn
    declare it whenever the money falls short, needed train or not, and its records do so (a
    company without a route to run declaring it in its first turn), so that is the rule here."""

    name = "bankruptcy"
    timing = None
    can_pass = False
    blocks = False

    def selling_now(self) -> bool:
        """Whether the step under way lets the president sell shares for a train: 18xx.games
        counts shares as money for a bankruptcy, and sells them on it, only then (a company that
        declares it before its train step goes bankrupt with its president's cash alone)."""
        return isinstance(self.round.active_step(), BuyTrain)

    def buying_power(self, president: PlayerId) -> int:
        game = self.game
        raised = 0
        for sym in game.corporations if self.selling_now() else ():
            best = [percent for shares, percent in sale_bundles(game, president, sym)
                    if self.emergency_sale_problem(president, shares, percent, needed_check=False) is None]
            if best:
                raised += max(best) * (game.share_price(sym) or 0) // 10
        return game.cash(self.corporation) + max(game.cash(president), 0) + raised

    def can_go_bankrupt(self) -> bool:
        """Whether the buying power falls short of the cheapest bank train. Every part of the
        buying power (the president's cash, what he or a title's treasury could raise) adds to
        the company's cash, none is negative, so a company that pays the train alone, or with
        its president's cash, is not bankrupt: no bundle is weighed then (it was at every
        listing of an 18Texas or 1871 operating turn)."""
        president = self.president()
        if president is None:
            return False
        cash = self.game.cash(self.corporation)
        own = cash + max(self.game.cash(president), 0)
        if cash >= 0 and own >= self.game.title.dearest_train_price():
            return False  # pays for any bank train: the depot need not be looked at (asked at every listing)
        cheapest = self.cheapest_depot_price()
        if cheapest is None:
            return False
        if cash >= 0 and own >= cheapest:
            return False
        return self.buying_power(president) < cheapest

    def offers(self, entity: Entity) -> frozenset[str]:
        return frozenset({"bankrupt"}) if entity == self.round.current and self.can_go_bankrupt() else frozenset()

    def offers_kind(self, entity: Entity, kind: str) -> bool:
        """Only a bankruptcy: the purchases and sales it inherits are the train step's (the round
        asks every step about each, and whether the company is bankrupt costs a look at every
        bundle its president could sell)."""
        return kind == "bankrupt" and super().offers_kind(entity, kind)

    def legal(self) -> Iterator[Action]:
        current = self.round.current
        if current is not None and self.offers_now(current):
            yield make_action("bankrupt", current)

    def do_bankrupt(self, action: Action) -> Effects:
        game = self.game
        if action.entity != self.round.current or not self.can_go_bankrupt():
            raise Violation("bankruptcy", f"{entity_name(self.game, action.entity)} and its president can still pay for the cheapest bank train: it is not bankrupt")
        president = self.president()
        assert president is not None
        yield
        game.note("bankruptcy", self.corporation, detail=president)
        if self.selling_now():
            self.liquidate(president)
        game.title.on_bankruptcy(game, president)
        game.pay(president, None, game.cash(president))
        game.end_game("bankruptcy")

    def liquidate(self, president: PlayerId) -> None:
        """The bankrupt president sells every bundle he may, the largest first (18xx.games)."""
        game = self.game
        for sym in sorted(game.corporations):
            while True:
                bundles = [(shares, percent) for shares, percent in sale_bundles(game, president, sym)
                           if self.emergency_sale_problem(president, shares, percent, needed_check=False) is None]
                if not bundles:
                    break
                shares, percent = max(bundles, key=lambda b: b[1])
                sell_to_market(game, president, shares, percent)
