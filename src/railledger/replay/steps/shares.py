"""A stock turn: sell certificates, buy one, or start a company, then pass (e.g. 18MS 10).

What a player may do follows 18xx.games' stock step: one purchase a turn (a certificate or a
par), sales before or after it where the title allows (never sell, buy, sell), no buying back a
company sold in the same round, the ownership, certificate and open-market limits, and a
president's certificate sold only when another player could take the presidency. A player over
the certificate limit must sell first. The turn ends by itself when nothing more is possible.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from railledger.ingest.model import Action, Entity, PlayerId
from railledger.replay.errors import Violation
from railledger.replay.flow import Effects, Step, make_action, reads
from railledger.replay.market import Cell
from railledger.replay.names import entity_name, holder_name, shares_phrase
from railledger.replay.shares import bundle_percent, can_dump, sale_bundles, transfer
from railledger.replay.state import IPO, MARKET, GameState, Share

if TYPE_CHECKING:
    from railledger.replay.rounds.stock import StockRound

OfStockRound = TypeVar("OfStockRound", bound="StockRound")
"""The stock round a stock turn belongs to: a title's own (1871's) brings its own fields."""

SOURCES = (IPO, MARKET)


@dataclass
class StockTurn:
    """What the player on turn has done so far."""

    actions: list[tuple[str, str]] = field(default_factory=list)  # ("buy" | "par" | "sell", company)
    sales: list[tuple[str, int]] = field(default_factory=list)  # (company, percent)

    @property
    def bought(self) -> bool:
        """Whether the turn bought a certificate or started a company (a plain loop over a
        turn's few actions: asked of every certificate a turn weighs)."""
        for kind, _ in self.actions:
            if kind == "buy" or kind == "par":
                return True
        return False

    def sold_percent(self, sym: str) -> int:
        return sum(percent for company, percent in self.sales if company == sym)


def parse_share_price(text: object) -> tuple[int, int, int]:
    """(price, row, column) of a par action's ``share_price`` such as ``"75,1,3"``."""
    try:
        price, row, column = (int(x) for x in str(text).split(","))
    except ValueError:
        raise Violation("par-value", f"bad share price {text!r}: expected price,row,column") from None
    return price, row, column


def player_entity(pid: PlayerId) -> Entity:
    return Entity("player", pid)


class BuySellParShares(Step[OfStockRound]):
    """Buy, sell and par in a stock turn."""

    name = "stock"

    def setup(self) -> None:
        self.round.turn = StockTurn()

    # ------------------------------------------------------------------ what is open

    def player(self, entity: Entity) -> PlayerId | None:
        """The player on turn if ``entity`` is that player."""
        current = self.round.current
        return entity.id if current is not None and entity == current else None

    def open_to(self, entity: Entity) -> PlayerId | None:
        """The player the turn is open to, if ``entity`` is that player."""
        return self.player(entity)

    def kind_checks(self, pid: PlayerId) -> dict[str, Callable[[], bool]]:
        """For each kind of action the turn may offer, how to tell whether it does now: asked
        one at a time, so that ``is_legal`` and a pass stop at the first one found."""
        return {
            "buy_shares": lambda: any(True for _ in self.buys(pid)),
            "par": lambda: any(True for _ in self.pars(pid)),
            "sell_shares": lambda: any(True for _ in self.sales(pid)),
        }

    def offers(self, entity: Entity) -> frozenset[str]:
        pid = self.open_to(entity)
        if pid is None:
            return frozenset()
        if self.must_sell(pid):
            return frozenset({"sell_shares"})
        kinds = {kind for kind in self.kind_checks(pid) if self.offers_kind_now(entity, kind)}  # the waiting test asked some already
        return frozenset(kinds | {"pass"}) if kinds else frozenset()

    def offers_any(self, entity: Entity) -> bool:
        pid = self.open_to(entity)
        if pid is None:
            return False
        return self.must_sell(pid) or any(self.offers_kind_now(entity, kind) for kind in self.kind_checks(pid))

    def offers_kind(self, entity: Entity, kind: str) -> bool:
        pid = self.open_to(entity)
        if pid is None:
            return False
        if self.must_sell(pid):
            return kind == "sell_shares"
        if kind == "pass":
            return self.offers_any_now(entity)  # a pass is open while anything else is
        checks = self.kind_checks(pid)
        return kind in checks and checks[kind]()

    def legal(self) -> Iterator[Action]:
        current = self.round.current
        if current is None or not self.offers_any_now(current):  # what the waiting test asked: no kind asked twice
            return
        pid = current.id
        entity = player_entity(pid)
        if self.must_sell(pid):
            for shares, percent in self.sales(pid):
                yield make_action("sell_shares", entity, shares=[s.id for s in shares], percent=percent)
            return
        for share in self.buys(pid):
            yield make_action("buy_shares", entity, shares=[share.id], percent=share.percent)
        for sym, cell in self.pars(pid):
            yield make_action("par", entity, corporation=sym, share_price=f"{cell.price},{cell.row},{cell.column}")
        for shares, percent in self.sales(pid):
            yield make_action("sell_shares", entity, shares=[s.id for s in shares], percent=percent)
        yield make_action("pass", entity)

    # -- buying

    def buys(self, pid: PlayerId, player: PlayerId | None = None) -> Iterator[Share]:
        """One certificate per (company, source, size) ``pid`` may take now (with ``player``
        acting for it, where a title has such a holder: 1871's Union Bank)."""
        game = self.game
        acting = pid if player is None else player
        if self.round.turn.bought:
            return  # one purchase a turn (buy_problem says so of each certificate)
        sold = self.round.sold.get(pid, ())
        for sym, corp in game.corporations.items():
            if corp.par_price is None or sym in sold or not self.trades(sym):
                continue
            for source in SOURCES:
                seen: set[int] = set()
                for share in game.held(source, sym):
                    if share.president or share.percent in seen:
                        continue
                    seen.add(share.percent)
                    if self.buy_problem_for(pid, acting, share) is None:
                        yield share

    def trades(self, sym: str) -> bool:
        """Whether the company's shares are bought in stock turns at all."""
        return True

    def buy_problem_for(self, buyer: PlayerId, player: PlayerId, share: Share) -> Violation | None:
        """Why ``buyer`` may not take the certificate, ``player`` acting (the same but in a title
        with such a holder), or None."""
        return self.buy_problem(buyer, share)

    def buy_problem(self, pid: PlayerId, share: Share) -> Violation | None:
        """Why the player may not buy this certificate now, or None."""
        game = self.game
        sym = share.corporation
        if share.owner not in SOURCES:
            return Violation("buy-source", f"{shares_phrase(game, [share])} is not for sale ({holder_name(game, share.owner)} holds it)")
        if game.corporations[sym].par_price is None or share.president:
            return Violation("buy-unparred", f"{sym} has no president yet; its president's certificate must be bought first (par)")
        if self.round.turn.bought:
            return Violation("buy-one", f"{game.player_name(pid)} already bought this turn")
        if sym in self.round.sold.get(pid, ()):
            return Violation("buy-after-sale", f"{game.player_name(pid)} sold {sym} earlier in this stock round and may not buy it again")
        price = self.price_of(share)
        if game.cash(pid) < price:
            return Violation("cash", f"{game.player_name(pid)} has ${game.cash(pid)}, less than the ${price} needed")
        return self.gain_problem(pid, sym, share.percent)

    def gain_problem(self, pid: PlayerId, sym: str, percent: int, yellow: bool | None = None) -> Violation | None:
        """The ownership and certificate limits on taking ``percent`` more of ``sym``."""
        game = self.game
        if game.percent(pid, sym) + percent > game.title.max_ownership:
            return Violation(
                "ownership-limit",
                f"{game.player_name(pid)} would hold {game.percent(pid, sym) + percent}% of {sym}; the limit is {game.title.max_ownership}%",
            )
        exempt = game.in_yellow_zone(sym) if yellow is None else yellow
        if not exempt and game.certificates(pid) >= game.cert_limit():
            return Violation(
                "cert-limit",
                f"{game.player_name(pid)} holds {game.certificates(pid)} certificates; the limit with {len(game.order)} players is {game.cert_limit()}",
            )
        return None

    def price_of(self, share: Share) -> int:
        game = self.game
        sym = share.corporation
        per_share = game.title.ipo_price(game, sym) if share.owner == IPO else game.share_price(sym)
        assert per_share is not None
        return per_share * share.percent // 10

    @reads("shares", "percent")
    def do_buy_shares(self, action: Action) -> Effects:
        pid = self.acting_player(action)
        shares = self.declared_shares(action)
        if len(shares) != 1:
            raise Violation("buy-one", "a stock turn buys exactly one certificate")
        share = shares[0]
        problem = self.buy_problem(pid, share)
        if problem is not None:
            raise problem
        self.check_percent(action, shares)
        yield
        self.buy(pid, share, self.price_of(share))

    def buy(self, pid: PlayerId, share: Share, price: int) -> None:
        """Pay for one certificate, take it, and float the company if it now floats."""
        game = self.game
        sym = share.corporation
        payee = game.title.ipo_payee(sym) if share.owner == IPO else None
        game.pay(pid, payee, price)
        transfer(game, [share], pid)
        game.float_if_ready(sym)
        self.round.turn.actions.append(("buy", sym))
        self.round.acted(pid)

    # -- starting a company

    def pars(self, pid: PlayerId) -> Iterator[tuple[str, Cell]]:
        """(company, par cell) the player may start now."""
        if self.round.turn.bought:
            return
        for sym in self.game.corporations:
            if self.par_problem(pid, sym) is not None:
                continue
            for cell in self.par_cells(sym):
                if self.game.cash(pid) >= 2 * cell.price and self.gain_problem(pid, sym, 20, cell.zone == "yellow") is None:
                    yield sym, cell

    def par_cells(self, sym: str) -> list[Cell]:
        return [c for c in self.game.market.par_cells() if c.price in self.game.title.par_values]

    def par_problem(self, pid: PlayerId, sym: str) -> Violation | None:
        game = self.game
        corp = game.corporations.get(sym)
        if corp is None:
            return Violation("par", f"there is no company {sym}")
        if corp.par_price is not None:
            return Violation("par", f"{sym} already has a par value")
        if self.round.turn.bought:
            return Violation("buy-one", f"{game.player_name(pid)} already bought this turn")
        if sym in self.round.sold.get(pid, ()):
            return Violation("buy-after-sale", f"{game.player_name(pid)} sold {sym} earlier in this stock round")
        return None

    @reads("corporation", "share_price")
    def do_par(self, action: Action) -> Effects:
        game = self.game
        pid = self.acting_player(action)
        sym = str(action.fields.get("corporation"))
        problem = self.par_problem(pid, sym)
        if problem is not None:
            raise problem
        price, row, column = parse_share_price(action.fields.get("share_price"))
        cell = game.market.cell(row, column)
        if cell is None or cell.price != price or cell not in self.par_cells(sym):
            allowed = ", ".join(f"${c.price}" for c in self.par_cells(sym))
            raise Violation("par-value", f"${price} is not a par value; choose {allowed}")
        cost = 2 * price
        if game.cash(pid) < cost:
            raise Violation("cash", f"{game.player_name(pid)} has ${game.cash(pid)}, less than the ${cost} needed")
        problem = self.gain_problem(pid, sym, 20, cell.zone == "yellow")
        if problem is not None:
            raise problem
        yield
        self.start(pid, sym, cell)

    def start(self, pid: PlayerId, sym: str, cell: Cell) -> None:
        game = self.game
        game.corporations[sym].par_price = cell.price
        game.market.place(sym, cell)
        president = game.shares_of[sym][0]
        game.pay(pid, game.title.ipo_payee(sym), president.percent // 10 * cell.price)
        game.move_share(president.id, pid)
        game.note("par", sym, cell.price, pid)
        game.float_if_ready(sym)
        self.round.turn.actions.append(("par", sym))
        self.round.acted(pid)

    # -- selling

    def sales(self, pid: PlayerId) -> Iterator[tuple[list[Share], int]]:
        """Every bundle the player may sell now."""
        if self.sale_order_problem() is not None:
            return  # no sale at this point of the turn, whatever the bundle (sale_problem says why)
        for sym in self.game.corporations:
            for shares, percent in sale_bundles(self.game, pid, sym):
                if self.sale_problem(pid, shares, percent) is None:
                    yield shares, percent

    def sale_problem(self, pid: PlayerId, shares: Sequence[Share], percent: int) -> Violation | None:
        game, turn = self.game, self.round.turn
        sym = shares[0].corporation
        order = self.sale_order_problem()
        if order is not None:
            return order
        if not game.title.may_sell(game, sym, self.round.number):
            if game.title.sell_after_operated:
                return Violation("sell-after-operate", f"{sym} has not yet operated, so its shares cannot be sold")
            return Violation("no-sale-first-sr", "no certificate may be sold in the first stock round")
        limit = game.title.turn_sell_limit
        if limit is not None and percent + turn.sold_percent(sym) > limit:
            return Violation("sell-limit", f"at most {limit}% of a company may be sold in a turn, not {percent + turn.sold_percent(sym)}%")
        if game.title.one_sale_per_company and any(s == sym for s, _ in turn.sales):
            return Violation("sell-once", f"{sym} was already sold this turn: one sale per company")
        in_market = game.percent(MARKET, sym)
        if in_market + percent > game.title.market_pool_max:
            return Violation(
                "market-limit",
                f"selling {percent}% of {sym} would put {in_market + percent}% in the open market; the limit is {game.title.market_pool_max}%",
            )
        if not can_dump(game, pid, shares):
            return Violation("president-sale", f"nobody else holds 20% of {sym}, so its president's certificate cannot be sold")
        return None

    def sale_order_problem(self) -> Violation | None:
        turn = self.round.turn
        if not turn.bought:
            return None
        if not self.game.title.buy_then_sell:
            return Violation("sell-buy-sell", "a stock turn sells before its purchase, never after")
        kinds = {"buy" if k == "par" else k for k, _ in turn.actions}
        if len(kinds) == 2 and turn.actions[-1][0] in ("buy", "par"):
            return Violation("sell-buy-sell", "a stock turn never sells, buys and sells again")
        return None

    @reads("shares", "percent")
    def do_sell_shares(self, action: Action) -> Effects:
        pid = self.acting_player(action)
        shares = self.declared_shares(action)
        percent = self.declared_sale_percent(action, shares)
        if any(s.owner != pid for s in shares):
            raise Violation("sell-own", f"{self.game.player_name(pid)} does not hold {shares_phrase(self.game, shares)}")
        problem = self.sale_problem(pid, shares, percent)
        if problem is not None:
            raise problem
        yield
        self.sell(pid, shares, percent)
        self.round.sold.setdefault(pid, set()).add(shares[0].corporation)
        self.round.turn.actions.append(("sell", shares[0].corporation))
        self.round.turn.sales.append((shares[0].corporation, percent))
        self.round.acted(pid)

    def sell(self, seller: PlayerId, shares: Sequence[Share], percent: int) -> None:
        """Sell a bundle to the open market and drop the price."""
        sell_to_market(self.game, seller, shares, percent)

    # -- passing

    def do_pass(self, action: Action) -> Effects:
        pid = self.acting_player(action)
        game = self.game
        if self.must_sell(pid):
            raise Violation(
                "cert-limit-excess",
                f"{game.player_name(pid)} holds {game.certificates(pid)} certificates, over the limit of {game.cert_limit()}, and must sell",
            )
        yield
        self.passed = True
        self.round.player_passes(pid, acted=bool(self.round.turn.actions))

    def skip(self) -> None:
        """A player with nothing possible passes (a pass after acting keeps them in the round)."""
        super().skip()
        current = self.round.current
        if current is not None:
            self.round.player_passes(current.id, acted=bool(self.round.turn.actions))

    def must_sell(self, pid: PlayerId) -> bool:
        game = self.game
        if game.certificates(pid) <= game.cert_limit():
            return False
        return any(True for _ in self.sales(pid))

    # ------------------------------------------------------------------ declared fields

    def acting_player(self, action: Action) -> PlayerId:
        pid = self.player(action.entity)
        if pid is None:
            raise Violation("turn-order", f"{entity_name(self.game, action.entity)} is not on turn")
        return pid

    def declared_shares(self, action: Action) -> list[Share]:
        ids = action.fields.get("shares") or []
        shares = [self.game.shares.get(i) for i in ids]
        if not shares or any(s is None for s in shares):
            raise Violation("share-unknown", f"no such certificate: {', '.join(map(str, ids)) or 'none named'}")
        found = [s for s in shares if s is not None]
        if len({s.corporation for s in found}) != 1 or len({s.owner for s in found}) != 1:
            raise Violation("share-bundle", "a bundle holds certificates of one company from one holder")
        if len({s.id for s in found}) != len(found):
            raise Violation("share-bundle", "a bundle names a certificate twice")
        return found

    def check_percent(self, action: Action, shares: Sequence[Share]) -> None:
        declared = action.fields.get("percent")
        if declared is not None and declared != bundle_percent(shares):
            raise Violation("share-percent", f"the certificates make {bundle_percent(shares)}%, not the declared {declared}%")

    def declared_sale_percent(self, action: Action, shares: Sequence[Share]) -> int:
        """A sale's percent: the certificates' sum, or less when part of the president's
        certificate is kept (never less than the plain certificates)."""
        total = bundle_percent(shares)
        declared = action.fields.get("percent")
        if declared is None:
            return total
        president = next((s for s in shares if s.president), None)
        least = total if president is None else total - (president.percent - 10)
        if not least <= declared <= total or declared % 10:
            raise Violation("share-percent", f"the certificates make {total}%; a sale of them stands for {least}% to {total}%, not {declared}%")
        return int(declared)


def sell_to_market(game: GameState, seller: PlayerId | str, shares: Sequence[Share], percent: int) -> None:
    """Pay the seller, move the bundle to the open market (settling the presidency) and drop
    the price: a row per 10% sold, or once per sale where the title says so."""
    sym = shares[0].corporation
    price = game.share_price(sym)
    assert price is not None
    game.pay(None, seller, price * percent // 10)
    transfer(game, shares, MARKET, percent)
    for _ in range(percent // 10 if game.title.sale_drop_per_share else 1):
        game.market.move_down(sym)
