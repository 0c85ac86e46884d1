"""The 1871 stock round (RB 6): sell, then one action; exchanges; the Union Bank; splits.

A turn is: sales (at most 30% of a company, one sale per company, its price dropping once a
sale), then one action: buy a share, start a company, split one, or act for the Union Bank (once
a round). Exchanging a private for a share is extra. The first to pass leads the next round,
then the others in the order they passed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from railledger.ingest.model import Action, Entity, PlayerId
from railledger.replay.errors import Violation
from railledger.replay.flow import Effects, Step, check_declared_range, make_action, reads
from railledger.replay.market import Cell
from railledger.replay.names import entity_name, hex_name, holder_name, money, player_name, private_name, shares_phrase, source_name, train_name
from railledger.replay.rounds.stock import StockRound
from railledger.replay.shares import transfer
from railledger.replay.state import IPO, MARKET, GameState, Share
from railledger.replay.steps.shares import BuySellParShares, parse_share_price

from .peir import PEIR, RESERVED, UNION_BANK
from .title import title_of

if TYPE_CHECKING:
    from . import Title1871




@dataclass
class Split:
    """A split in progress (6.7.4): the steps are answered by ``choose`` actions."""

    parent: str
    stage: str = "branch"  # branch, tokens, par, trains, cash, hunslet
    branch: str | None = None
    swapped: list[str] = field(default_factory=list)


class StockRound1871(StockRound):
    def __init__(self, game: GameState) -> None:
        self.pass_order: list[PlayerId] = []
        self.union_bank_acted = False
        self.split: Split | None = None
        super().__init__(game, (Exchange1871, SplitChoices, BuySellParSplit))

    def player_passes(self, pid: PlayerId, acted: bool) -> None:
        super().player_passes(pid, acted)
        if acted:
            if pid in self.pass_order:
                self.pass_order.remove(pid)
        elif pid not in self.pass_order:
            self.pass_order.append(pid)

    def hand_priority(self) -> None:
        """The next round goes in passing order: the first to pass leads (6.2)."""
        game = self.game
        if self.pass_order:
            game.order = self.pass_order + [p for p in game.order if p not in self.pass_order]
        game.priority = game.order[0]


class Exchange1871(Step[StockRound1871]):
    """A private exchanged for a share in its owner's stock turn (6.2, 11.3): the Merchants, the
    Bridge and the Shipbuilding for a reserved Shortline share, the Ice Boats for a pool share of
    a started company but the Mainline, Shortline and PEIR. Extra to the turn's action; it may
    exceed the limits; it counts as acting."""

    name = "exchange"
    can_pass = False
    blocks = False
    answered_kind = "company"

    def shares_for(self, company: str) -> list[Share]:
        """The certificates a private's ``exchange`` ability (companies.json) may take now: one
        kept apart for it (``from: reserved``), or a pool share of the companies it names."""
        game, title = self.game, title_of(self.game)
        ability = title.ability_of(company, "exchange")
        if ability is None:
            return []
        if ability.get("from") == "reserved":
            return [s for role in ability.get("corporations", ()) for s in game.held(RESERVED, title.role(game, role))]
        excluded = {title.role(game, role) for role in ability.get("except", ())}
        return [s for sym, corp in game.corporations.items() if corp.par_price is not None and sym not in excluded
                for s in game.held(MARKET, sym)]

    def exchanger(self, entity: Entity) -> str | None:
        current = self.round.current
        company = self.game.companies.get(str(entity.id)) if entity.kind == "company" else None
        if company is None or company.closed or current is None or company.owner != current.id:
            return None
        return company.sym if self.shares_for(company.sym) else None

    def offers(self, entity: Entity) -> frozenset[str]:
        return frozenset({"buy_shares"}) if self.exchanger(entity) else frozenset()

    def legal(self) -> Iterator[Action]:
        current = self.round.current
        if current is None:
            return
        for company in self.game.companies.values():
            if company.owner != current.id:
                continue  # only a private of the player on turn exchanges (exchanger), so no entity is made for the others
            entity = Entity("company", company.sym)
            if self.exchanger(entity):
                seen = set()
                for share in self.shares_for(company.sym):
                    if (share.corporation, share.percent) not in seen:
                        seen.add((share.corporation, share.percent))
                        yield make_action("buy_shares", entity, shares=[share.id], percent=share.percent)

    def say(self, action: Action) -> str | None:
        game = self.game
        company = game.companies.get(str(action.entity.id))
        ids = action.fields.get("shares")
        share = game.shares.get(str(ids[0])) if isinstance(ids, list) and len(ids) == 1 else None
        if action.type != "buy_shares" or company is None or company.owner is None or share is None:
            return None
        source = "the shares kept for exchanges" if share.owner == RESERVED else source_name(game, share.owner, share.corporation)
        return f"{holder_name(game, company.owner)} exchanges {company.name} for {shares_phrase(game, [share])} from {source}"

    @reads("shares", "percent")
    def do_buy_shares(self, action: Action) -> Effects:
        game = self.game
        sym = self.exchanger(action.entity)
        company = game.companies.get(str(action.entity.id))
        if sym is None or company is None:
            raise Violation("private-exchange", f"{entity_name(self.game, action.entity)} is not a private the player on turn can exchange now")
        ids = action.fields.get("shares") or []
        share = game.shares.get(ids[0]) if len(ids) == 1 else None
        if share is None or share not in self.shares_for(sym):
            ability = title_of(game).ability_of(sym, "exchange")
            raise Violation("private-exchange", f"{company.name} exchanges for {ability.get('for') if ability else 'nothing'}, not {shares_phrase(game, [share]) if share is not None else ids}")
        if action.fields.get("percent", share.percent) != share.percent:
            raise Violation("share-percent", f"{shares_phrase(game, [share])} is {share.percent}%, not {action.fields.get('percent')}%")
        player = company.owner
        assert player is not None
        yield
        transfer(game, [share], player)
        game.close_company(company.sym)
        game.float_if_ready(share.corporation)
        self.round.turn.actions.append(("exchange", share.corporation))
        self.round.acted(player)


class SplitChoices(Step[StockRound1871]):
    """The answers of a split in progress (6.7.4), in 18xx.games' order: the branch, the
    station(s) it takes (asked only when there is a choice), its start price (likewise), the
    trains, the cash, the Hunslet."""

    name = "split"
    can_pass = False

    @property
    def title(self) -> Title1871:
        return title_of(self.game)

    def offers(self, entity: Entity) -> frozenset[str]:
        return frozenset({"choose"}) if self.round.split is not None and entity == self.round.current else frozenset()

    def skip(self) -> None:
        """Not passed: it wakes when a split starts."""

    def why_not(self, action: Action) -> Violation | None:
        split = self.round.split
        if split is not None:
            return Violation("split-order", f"{self.game.player_name(self.round.current.id) if self.round.current else ''} must finish splitting {split.parent} first")
        return None

    def choices(self) -> list[Any]:
        split = self.round.split
        game, title = self.game, self.title
        if split is None:
            return []
        if split.stage == "branch":
            return title.free_branches(game)
        if split.stage == "tokens":
            return [*title.split_token_choices(game, split.parent), *(["done"] if split.swapped else [])]
        if split.stage == "par":
            return [self.cell_id(title.start_cell(game, p)) for p in title.start_prices(game)]
        if split.stage == "trains":
            return [t.id for t in game.corporation_trains(split.parent)] + ["done"]
        if split.stage == "cash":
            return [0, game.cash(split.parent)]
        return ["yes", "no"]

    def say(self, action: Action) -> str | None:
        """A split's answer as the question it answers (the stage the split is at)."""
        split = self.round.split
        if split is None or action.type != "choose":
            return None
        game = self.game
        who = player_name(game, action.entity.id)
        choice = action.fields.get("choice")
        branch, parent = split.branch or "the branch", split.parent
        if split.stage == "branch":
            return f"{who} makes {choice} the branch of {parent}"
        if split.stage == "tokens" and choice == "done":
            return f"{who} gives {branch} no more of {parent}'s tokens"
        if split.stage == "tokens":
            placed = game.corporations[parent].tokens_placed
            index = int(str(choice)) if str(choice).isdigit() else -1
            where = hex_name(game, placed[index].rsplit("-", 1)[0]) if 0 <= index < len(placed) else f"station {choice}"
            return f"{who} gives {parent}'s token on {where} to {branch}"
        if split.stage == "par":
            return f"{who} starts {branch} at {money(int(str(choice).split(',')[0]))}" if str(choice).split(",")[0].isdigit() \
                else f"{who} starts {branch}"
        if split.stage == "trains":
            if choice == "done":
                return f"{who} gives {branch} no more of {parent}'s trains"
            return f"{who} gives {parent}'s {train_name(game, choice)} train to {branch}"
        if split.stage == "cash":
            return f"{who} gives {branch} {money(choice) if isinstance(choice, int) else 'part'} of {parent}'s cash"
        hunslet = private_name(game, "HSE")
        return f"{who} moves {hunslet} to {branch}" if choice == "yes" else f"{who} leaves {hunslet} with {parent}"

    @staticmethod
    def cell_id(cell: Cell) -> str:
        return f"{cell.price},{cell.row},{cell.column}"

    def legal(self) -> Iterator[Action]:
        current = self.round.current
        split = self.round.split
        if current is None or split is None:
            return
        if split.stage == "cash":
            yield make_action("choose", current, choice=0, choice_range=[0, self.game.cash(split.parent)])
            return
        for choice in self.choices():
            yield make_action("choose", current, choice=choice)

    @reads("choice", "choice_range")
    def do_choose(self, action: Action) -> Effects:
        split = self.round.split
        if split is None or action.entity != self.round.current:
            raise Violation("split-order", "there is no split in progress to choose for")
        if split.stage == "cash":
            check_declared_range(action, "choice_range", 0, self.game.cash(split.parent), "split-assets", f"the cash {split.parent} gives")
        elif action.fields.get("choice_range") not in (None, []):
            raise Violation("split-assets", f"only the cash a split gives is chosen from a range, not the {split.stage}")
        choice = self.checked_choice(split, action.fields.get("choice"))
        yield
        self.answer(split, choice)

    def checked_choice(self, split: Split, choice: Any) -> Any:
        game = self.game
        if split.stage == "branch":
            if choice not in self.title.free_branches(game):
                raise Violation("split-branch", f"{choice} is not a branch company still to be started")
            return str(choice)
        if split.stage == "tokens":
            if choice == "done":
                if not split.swapped:
                    raise Violation("split-assets", f"{split.branch} must take at least one station")
                return choice
            if not isinstance(choice, int) and not (isinstance(choice, str) and choice.isdigit()):
                raise Violation("split-assets", f"{choice!r} is not a station of {split.parent}")
            if int(choice) not in self.title.split_token_choices(game, split.parent):
                raise Violation("split-assets", f"{choice!r} is not a station of {split.parent} the branch may take")
            return int(choice)
        if split.stage == "par":
            try:
                price, row, column = parse_share_price(choice)
            except Violation:
                raise Violation("par-value", f"{choice!r} is not a start price") from None
            cell = game.market.cell(row, column)
            if cell is None or cell.price != price or price not in self.title.start_prices(game):
                raise Violation("par-value", f"${price} is not an available start price")
            return cell
        if split.stage == "trains":
            if choice == "done":
                return choice
            train = game.trains.get(str(choice))
            if train is None or train.owner != split.parent or train.rusted:
                raise Violation("split-assets", f"{split.parent} owns no train {choice}")
            return train.id
        if split.stage == "cash":
            amount = int(choice) if isinstance(choice, int) or (isinstance(choice, str) and choice.isdigit()) else -1
            if not 0 <= amount <= game.cash(split.parent):
                raise Violation("split-assets", f"{split.parent} has ${game.cash(split.parent)}; it cannot give {choice!r}")
            return amount
        if choice not in ("yes", "no"):
            raise Violation("split-assets", f"answer yes or no to moving the Hunslet, not {choice!r}")
        return choice

    def answer(self, split: Split, choice: Any) -> None:
        """Apply a checked answer, and those that follow by themselves (a single station or
        start price is taken without asking)."""
        game, title = self.game, self.title
        if split.stage == "branch":
            split.branch = choice
            split.stage = "tokens"
            stations = title.split_token_choices(game, split.parent)
            if len(stations) == 1:
                self.answer(split, stations[0])
        elif split.stage == "tokens":
            split.stage = "par"
            if choice == "done":
                return  # REF asks for the start price after "done", even when there is one
            assert split.branch is not None
            split.swapped.append(title.swap_station(game, split.parent, split.branch, choice))
            if title.split_token_choices(game, split.parent):
                split.stage = "tokens"
                return
            prices = title.start_prices(game)
            if len(prices) == 1:
                self.answer(split, title.start_cell(game, prices[0]))
        elif split.stage == "par":
            assert split.branch is not None
            title.start_company(game, split.branch, choice)
            title.exchange_split_shares(game, split.parent, split.branch)
            split.stage = "trains"
        elif split.stage == "trains":
            if choice != "done":
                game.trains[choice].owner = split.branch
                if game.corporation_trains(split.parent):
                    return
            split.stage = "cash"
        elif split.stage == "cash":
            game.pay(split.parent, split.branch, choice)
            hunslet = game.companies["HSE"]
            if hunslet.owner == split.parent and not hunslet.closed:
                split.stage = "hunslet"
            else:
                self.finish()
        else:
            if choice == "yes":
                game.companies["HSE"].owner = split.branch
            self.finish()

    def finish(self) -> None:
        """The split is done, and with it the player's turn."""
        self.round.split = None
        for step in self.round.steps:
            step.passed = True


class BuySellParSplit(BuySellParShares[StockRound1871]):
    """1871's stock turn: sell first (the title's limits), then one of: buy a share (or the
    Union Bank does, once a round, its owner paying what it lacks), start a PEIR company at a
    start price in an open tranche place, or split a company."""

    @property
    def title(self) -> Title1871:
        return title_of(self.game)

    def open_to(self, entity: Entity) -> PlayerId | None:
        return None if self.round.split is not None else super().open_to(entity)

    def kind_checks(self, pid: PlayerId) -> dict[str, Callable[[], bool]]:
        """The generic turn's, the Union Bank's purchases and starts when its owner may act for
        it, an exchange still open (18xx.games keeps the turn waiting for it), and splits."""
        checks = super().kind_checks(pid)
        buys, pars = checks["buy_shares"], checks["par"]
        # 18xx.games counts the Union Bank's cash in its owner's purchases even after the bank has
        # bought this round (the turn then waits for the owner, who may only pass), but not in a
        # company the owner himself sold this round (it asks of the owner's sales, not the bank's)
        owner = title_of(self.game).union_bank_owner(self.game) == pid
        sold = self.round.sold.get(pid, ())
        checks["buy_shares"] = lambda: (buys() or (owner and any(s.corporation not in sold for s in self.buys(UNION_BANK, pid)))
                                        or self.can_exchange(pid))
        checks["par"] = pars  # the Union Bank starts a company only when its owner could (see do_par)
        checks["split"] = lambda: bool(self.splits(pid))
        return checks

    def can_exchange(self, pid: PlayerId) -> bool:
        exchange = next(s for s in self.round.steps if isinstance(s, Exchange1871))
        return any(c.owner == pid and exchange.exchanger(Entity("company", c.sym))
                   for c in self.game.companies.values())

    def splits(self, pid: PlayerId) -> list[str]:
        if self.round.turn.bought:
            return []
        return [sym for sym in self.game.corporations if self.title.may_split(self.game, sym, pid)]

    def legal(self) -> Iterator[Action]:
        current = self.round.current
        if current is None or not self.offers_any_now(current):  # what the waiting test asked: no kind asked twice
            return
        pid = current.id
        if self.must_sell(pid):  # over the certificate limit: sales only, as the generic turn offers
            yield from super().legal()
            return
        yield from (a for a in super().legal() if a.type != "pass")
        if self.may_act_for_bank(pid):
            lending = {"borrow_from": pid, "borrow_from_type": "player"}  # as 18xx.games writes them: the owner pays what the bank lacks
            # the bank buys only in a turn that offers purchases at all (see kind_checks)
            for share in self.buys(UNION_BANK, pid) if self.offers_kind_now(current, "buy_shares") else ():
                yield make_action("buy_shares", current, shares=[share.id], percent=share.percent,
                                  purchase_for=UNION_BANK, purchase_for_type="player", **lending)
            for sym, cell in self.pars(UNION_BANK, pid) if self.may_start_any(pid) else ():
                yield make_action("par", current, corporation=sym, share_price=f"{cell.price},{cell.row},{cell.column}",
                                  purchase_for=UNION_BANK, purchase_for_type="player", **lending)
        for sym in self.splits(pid):
            yield make_action("split", current, corporation=sym)
        yield make_action("pass", current)

    # -- who pays

    def may_act_for_bank(self, pid: PlayerId) -> bool:
        return title_of(self.game).union_bank_owner(self.game) == pid and not self.round.union_bank_acted

    def buyer_of(self, action: Action, pid: PlayerId) -> PlayerId:
        """Who takes the certificate: the player, or the Union Bank when its owner acts for it."""
        fields = action.fields
        target, lender = fields.get("purchase_for"), fields.get("borrow_from")
        if target is None:
            if lender is not None:
                raise Violation("union-bank", f"only the Union Bank borrows from its owner; {self.game.player_name(pid)} buys for himself")
            return pid
        if target != UNION_BANK or not self.may_act_for_bank(pid):
            raise Violation("union-bank", f"{self.game.player_name(pid)} cannot act for the Union Bank now (once a round, by its owner)")
        if lender is not None and lender != pid:
            raise Violation("union-bank", f"the Union Bank borrows only from its owner, not {holder_name(self.game, lender)}")
        for name in ("purchase_for_type", "borrow_from_type"):
            if fields.get(name) not in (None, "player"):
                raise Violation("union-bank", f"the Union Bank and its owner act as players, not as {name}={fields[name]!r}")
        return UNION_BANK

    def funds(self, buyer: PlayerId, pid: PlayerId) -> int:
        return self.game.cash(pid) + (self.game.cash(UNION_BANK) if buyer == UNION_BANK else 0)

    def charge(self, buyer: PlayerId, pid: PlayerId, payee: str | None, price: int) -> None:
        """The Union Bank pays what it can and its owner the rest (6.8)."""
        game = self.game
        if buyer != UNION_BANK:
            game.pay(pid, payee, price)
            return
        own = min(game.cash(UNION_BANK), price)
        game.pay(UNION_BANK, payee, own)
        game.pay(pid, payee, price - own)
        self.round.union_bank_acted = True

    # -- buying

    def trades(self, sym: str) -> bool:
        return sym != PEIR  # PEIR shares come with the PEIR privates only

    def buy_problem(self, pid: PlayerId, share: Share) -> Violation | None:
        return self.buy_problem_for(pid, pid, share)

    def buy_problem_for(self, buyer: PlayerId, player: PlayerId, share: Share) -> Violation | None:
        game = self.game
        sym = share.corporation
        if game.corporations[sym].par_price is None or sym == PEIR:
            return Violation("buy-unparred", f"{sym} has not been started; its shares are not for sale")
        if share.owner not in (IPO, MARKET):
            return Violation("buy-source", f"{shares_phrase(game, [share])} is not for sale ({holder_name(game, share.owner)} holds it)")
        if self.round.turn.bought:
            return Violation("buy-one", f"{game.player_name(player)} already acted this turn")
        if sym in self.round.sold.get(buyer, ()):
            return Violation("buy-after-sale", f"{game.player_name(buyer)} sold {sym} earlier in this stock round and may not buy it again")
        price = self.price_of(share)
        if self.funds(buyer, player) < price:
            return Violation("cash", f"{game.player_name(player)} has ${self.funds(buyer, player)}, less than the ${price} needed")
        if game.percent(buyer, sym) + share.percent > game.title.max_ownership:
            return Violation("ownership-limit", f"{sym}: {game.percent(buyer, sym) + share.percent}% would be over the {game.title.max_ownership}% limit")
        if buyer != UNION_BANK:
            return self.gain_problem(player, sym, share.percent)
        return None

    @reads("shares", "percent", "purchase_for", "purchase_for_type", "borrow_from", "borrow_from_type")
    def do_buy_shares(self, action: Action) -> Effects:
        pid = self.acting_player(action)
        buyer = self.buyer_of(action, pid)
        shares = self.declared_shares(action)
        if len(shares) != 1:
            raise Violation("buy-one", "a stock turn buys exactly one certificate")
        share = shares[0]
        problem = self.buy_problem_for(buyer, pid, share)
        if problem is not None:
            raise problem
        self.check_percent(action, shares)
        yield
        price = self.price_of(share)
        self.charge(buyer, pid, share.corporation if share.owner == IPO else None, price)
        transfer(self.game, [share], buyer)
        self.game.float_if_ready(share.corporation)
        self.round.turn.actions.append(("buy", share.corporation))
        self.round.acted(pid)

    # -- starting a company

    def pars(self, pid: PlayerId, player: PlayerId | None = None) -> Iterator[tuple[str, Cell]]:
        acting = pid if player is None else player
        if self.round.turn.bought:
            return
        for sym in self.game.corporations:
            if not self.still_to_start(sym) or self.start_problem(pid, acting, sym) is not None:
                continue
            for price in self.title.start_prices(self.game):
                if self.funds(pid, acting) >= 2 * price:
                    yield sym, self.title.start_cell(self.game, price)

    def may_start_any(self, pid: PlayerId) -> bool:
        """Whether the player could start a company himself. 18xx.games offers a start only then,
        also one for the Union Bank (its par is a choice of the player's own turn)."""
        return any(True for _ in self.pars(pid))

    def still_to_start(self, sym: str) -> bool:
        """A PEIR company not started yet: listing starts asks it first, so that the companies
        that never can be started make no Violation each (most of a stock turn's listing)."""
        return sym in self.title.state(self.game).peir_companies and self.game.corporations[sym].par_price is None

    def start_problem(self, buyer: PlayerId, player: PlayerId, sym: str) -> Violation | None:
        game = self.game
        if not self.still_to_start(sym):
            return Violation("start-peir", f"{sym} is not a PEIR company still to be started")
        if not self.title.tranche_available(game):
            return Violation("tranche", "no tranche place is open: every company of the last tranche must first operate or sell out")
        if self.round.turn.bought:
            return Violation("buy-one", f"{game.player_name(player)} already acted this turn")
        if sym in self.round.sold.get(buyer, ()):
            return Violation("buy-after-sale", f"{game.player_name(buyer)} sold {sym} earlier in this stock round")
        if buyer != UNION_BANK:
            return self.gain_problem(player, sym, 20)
        return None

    @reads("corporation", "share_price", "purchase_for", "purchase_for_type", "borrow_from", "borrow_from_type")
    def do_par(self, action: Action) -> Effects:
        game = self.game
        pid = self.acting_player(action)
        buyer = self.buyer_of(action, pid)
        sym = str(action.fields.get("corporation"))
        problem = self.start_problem(buyer, pid, sym)
        if problem is not None:
            raise problem
        if buyer == UNION_BANK and not self.may_start_any(pid):
            raise Violation("union-bank", f"{game.player_name(pid)} could not start a company himself, so he cannot start one for the Union Bank (18xx.games)")
        price, row, column = parse_share_price(action.fields.get("share_price"))
        cell = game.market.cell(row, column)
        if cell is None or cell.price != price or price not in self.title.start_prices(game):
            allowed = ", ".join(f"${p}" for p in self.title.start_prices(game))
            raise Violation("par-value", f"${price} is not an available start price ({allowed})")
        if self.funds(buyer, pid) < 2 * price:
            raise Violation("cash", f"{game.player_name(pid)} has ${self.funds(buyer, pid)}, less than the ${2 * price} needed")
        yield
        self.charge(buyer, pid, None, 2 * price)
        self.title.start_company(game, sym, cell)
        game.move_share(f"{sym}_0", buyer)
        game.note("par", sym, price, buyer)
        game.float_if_ready(sym)
        self.round.turn.actions.append(("par", sym))
        self.round.acted(pid)

    # -- selling

    def sale_problem(self, pid: PlayerId, shares: Sequence[Share], percent: int) -> Violation | None:
        if shares[0].corporation == PEIR:
            return Violation("sell-own", "PEIR shares are not sold")
        return super().sale_problem(pid, shares, percent)

    # -- splitting (6.7.4)

    @reads("corporation")
    def do_split(self, action: Action) -> Effects:
        game = self.game
        pid = self.acting_player(action)
        sym = str(action.fields.get("corporation"))
        if self.round.turn.bought:
            raise Violation("buy-one", f"{game.player_name(pid)} already acted this turn")
        if sym not in game.corporations or not self.title.may_split(game, sym, pid):
            raise Violation("split", f"{sym} cannot be split by {game.player_name(pid)} (president with 40%, two stations, an open tranche place)")
        yield
        if pid in self.round.pass_order:
            self.round.pass_order.remove(pid)
        self.round.marked.discard(pid)
        self.round.split = Split(sym)
        self.round.turn.actions.append(("split", sym))
        self.round.acted(pid)

