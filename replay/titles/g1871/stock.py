"""The 1871 stock round (RB 6): sell, then one action; exchanges; the Union Bank; splits.

A turn is: sales (at most 30% of a company, one sale per company, its price dropping once a
sale), then one action: buy a share, start a company, split one, or act for the Union Bank
(once a round). Exchanging a private for a share is extra. The first to pass leads the next
round, then the others in the order they passed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ingest.model import Action, PlayerId
from replay.errors import Violation
from replay.rounds import StockRound, parse_share_price, sell_shares
from replay.state import IPO, MARKET

from .peir import PEIR, RESERVED, UNION_BANK

if TYPE_CHECKING:
    from replay.game import Game

    from . import Title1871

SALE_LIMIT = 30  # percent of one company a player may sell in a turn (6.4)
SHORTLINE_EXCHANGES = ("MC", "VR", "SB")


@dataclass
class Split:
    """A split in progress (6.7.4): the steps are answered by ``choose`` actions."""

    parent: str
    stage: str = "branch"  # branch, tokens, par, trains, cash, hunslet
    branch: str | None = None
    swapped: list[str] = field(default_factory=list)


class StockRound1871(StockRound):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.current = game.order[0]
        self.pass_order: list[PlayerId] = []
        self.union_bank_acted = False
        self.sold_in_turn: dict[str, int] = {}
        self.split: Split | None = None
        self._settle()

    @property
    def title(self) -> Title1871:
        return self.game.title  # type: ignore[return-value]

    # -- turn handling

    def accepts(self, action: Action) -> bool:
        if action.entity.kind == "company":
            company = self.game.companies.get(str(action.entity.id))
            if company is None or company.closed or company.owner not in self.game.order:
                raise Violation("private-exchange", f"{action.entity.id} is not a private a player owns")
            if self.finished:
                return False
            if company.owner != self.current and self.turn:
                self._end_turn()
            return self._is_turn_of(company.owner)
        if self.split is not None:
            if action.type != "choose" or action.entity.id != self.current:
                raise Violation("split-order", f"{self.game.player_name(self.current)} must finish splitting {self.split.parent} first")
            return True
        return super().accepts(action)

    def _is_turn_of(self, player: PlayerId) -> bool:
        while not self.finished and player != self.current and not self._can_act(self.current):
            self._pass_turn()
        if self.finished:
            return False
        if player != self.current:
            raise Violation("turn-order", f"it is {self.game.player_name(self.current)}'s stock turn")
        return True

    def _pass_turn(self) -> None:
        if self.current not in self.pass_order:
            self.pass_order.append(self.current)
        super()._pass_turn()

    def _end_turn(self) -> None:
        if self.turn and self.current in self.pass_order:
            self.pass_order.remove(self.current)
        self.sold_in_turn = {}
        super()._end_turn()

    def _settle(self) -> None:
        if self.split is None:
            super()._settle()

    def _can_continue(self, player: PlayerId) -> bool:
        if "buy" in self.turn:
            return self._can_exchange(player)
        return self._can_act(player)

    def _can_act(self, player: PlayerId) -> bool:
        return self._can_sell(player) or self._can_buy(player) or self._can_exchange(player)

    def _can_exchange(self, player: PlayerId) -> bool:
        game = self.game
        for company in game.companies.values():
            if company.owner != player or company.closed:
                continue
            if company.sym in SHORTLINE_EXCHANGES:
                return True
            if company.sym == "IB" and any(self._ice_boat_shares()):
                return True
        return False

    def _ice_boat_shares(self) -> list[str]:
        game, flags = self.game, self.game.flags
        excluded = (flags["mainline"], flags["shortline"], PEIR)
        return [
            s.id for sym, corp in game.corporations.items() if corp.par_price is not None and sym not in excluded
            for s in game.shares_of[sym] if s.owner == MARKET
        ]

    def _can_sell(self, player: PlayerId) -> bool:
        game = self.game
        if "buy" in self.turn:
            return False
        for share in game.shares.values():
            if share.owner != player or share.corporation == PEIR or share.corporation in self.sold_in_turn:
                continue
            if not game.corporations[share.corporation].operated or share.percent > SALE_LIMIT:
                continue
            if game.percent(MARKET, share.corporation) + share.percent > game.title.market_pool_max:
                continue
            if share.president and not any(
                game.percent(p, share.corporation) >= 20 for p in game.order if p != player
            ):
                continue
            return True
        return False

    def _can_buy(self, player: PlayerId) -> bool:
        if "buy" in self.turn:
            return False
        game = self.game
        cash = game.cash(player)
        bank_cash = cash + game.cash(UNION_BANK) if self._may_act_for_bank(player) else 0
        for sym, corp in game.corporations.items():
            if sym == PEIR:
                continue
            if corp.par_price is None:
                if self.title.may_start(game, sym) and max(cash, bank_cash) >= 2 * min(self.title.start_prices(game)):
                    return True
                continue
            if (player, sym) in self.sold:
                continue
            price = game.share_price(sym) or 0
            if not any(s.owner in (IPO, MARKET) for s in game.shares_of[sym]):
                continue
            if cash >= price and game.percent(player, sym) + 10 <= game.title.max_ownership:
                return True
            if bank_cash >= price and game.percent(UNION_BANK, sym) + 10 <= game.title.max_ownership:
                return True
        return self._can_split(player)

    def _may_act_for_bank(self, player: PlayerId) -> bool:
        company = self.game.companies["UB"]
        return company.owner == player and not self.union_bank_acted

    # -- buying

    def _buyer(self, action: Action, player: PlayerId) -> PlayerId:
        """Who takes the certificate: the player, or the Union Bank when its owner acts for it."""
        target = action.fields.get("purchase_for")
        if target is None:
            return player
        if target != UNION_BANK or not self._may_act_for_bank(player):
            raise Violation("union-bank", f"{self.game.player_name(player)} cannot act for the Union Bank now (once a round, by its owner)")
        return UNION_BANK

    def _charge(self, buyer: PlayerId, player: PlayerId, payee: str | None, price: int) -> None:
        """The Union Bank pays what it can and its owner the rest (6.8)."""
        game = self.game
        if buyer != UNION_BANK:
            self._check_cash(player, price)
            game.pay(player, payee, price)
            return
        own = min(game.cash(UNION_BANK), price)
        if game.cash(player) < price - own:
            raise Violation("cash", f"the Union Bank and {game.player_name(player)} have ${own + game.cash(player)}, less than ${price}")
        game.pay(UNION_BANK, payee, own)
        game.pay(player, payee, price - own)
        self.union_bank_acted = True

    def do_buy_shares(self, action: Action) -> None:
        if action.entity.kind == "company":
            self._exchange(action)
            return
        game = self.game
        player = self.player_of(action)
        buyer = self._buyer(action, player)
        share_ids = action.fields.get("shares") or []
        if len(share_ids) != 1 or share_ids[0] not in game.shares:
            raise Violation("buy-one", "a stock turn buys exactly one certificate")
        share = game.shares[share_ids[0]]
        sym = share.corporation
        if game.corporations[sym].par_price is None or sym == PEIR:
            raise Violation("buy-unparred", f"{sym} has not been started; its shares are not for sale")
        if share.owner not in (IPO, MARKET):
            raise Violation("buy-source", f"certificate {share.id} is not for sale (held by {share.owner})")
        self._check_may_buy(buyer, sym)  # the Union Bank may buy what its owner sold
        price = game.share_price(sym) * share.percent // 10  # type: ignore[operator]
        if game.percent(buyer, sym) + share.percent > game.title.max_ownership:
            raise Violation("ownership-limit", f"{sym}: {game.percent(buyer, sym) + share.percent}% would be over the {game.title.max_ownership}% limit")
        if buyer != UNION_BANK:
            self._check_cert_limit(player, sym)
        self._charge(buyer, player, sym if share.owner == IPO else None, price)
        game.move_share(share.id, buyer)
        game.float_if_ready(sym)
        game.check_presidency(sym)
        self._bought(player)

    def _exchange(self, action: Action) -> None:
        """A private exchanged for a share (6.2, 11.3): extra to the turn's action, counts as acting."""
        game = self.game
        company = game.companies[str(action.entity.id)]
        player = company.owner
        share_ids = action.fields.get("shares") or []
        share = game.shares.get(share_ids[0]) if len(share_ids) == 1 else None
        if company.sym in SHORTLINE_EXCHANGES:
            if share is None or share.owner != RESERVED:
                raise Violation("private-exchange", f"{company.name} exchanges for one of the Shortline's reserved shares")
        elif company.sym == "IB":
            if share is None or share.id not in self._ice_boat_shares():
                raise Violation("private-exchange", "Ice Boat Shipping exchanges for a pool share of a started company other than the Mainline, Shortline and PEIR")
        else:
            raise Violation("private-exchange", f"{company.name} cannot be exchanged for a share")
        game.move_share(share.id, player)  # type: ignore[arg-type]
        game.close_company(company.sym)
        game.float_if_ready(share.corporation)
        game.check_presidency(share.corporation)
        self.turn.append("exchange")
        self.last_actor = player  # type: ignore[assignment]
        self.passes = 0

    def do_par(self, action: Action) -> None:
        game = self.game
        player = self.player_of(action)
        buyer = self._buyer(action, player)
        sym = str(action.fields.get("corporation"))
        if sym not in game.flags["peir_companies"] or game.corporations[sym].par_price is not None:
            raise Violation("start-peir", f"{sym} is not a PEIR company still to be started")
        if not self.title.tranche_available(game):
            raise Violation("tranche", "no tranche place is open: every company of the last tranche must first operate or sell out")
        self._check_may_buy(buyer, sym)
        price, row, column = parse_share_price(action)
        cell = game.market.cell(row, column)
        if cell is None or cell.price != price or price not in self.title.start_prices(game):
            allowed = ", ".join(f"${p}" for p in self.title.start_prices(game))
            raise Violation("par-value", f"${price} is not an available start price ({allowed})")
        if buyer != UNION_BANK:
            self._check_cert_limit(player, sym)
        self._charge(buyer, player, None, 2 * price)
        self.title.start_company(game, sym, cell)
        game.move_share(f"{sym}_0", buyer)
        game.note("par", sym, price, buyer)
        game.float_if_ready(sym)
        self._bought(player)

    def _check_may_buy(self, buyer: PlayerId, sym: str) -> None:
        if "buy" in self.turn:
            raise Violation("buy-one", f"{self.game.player_name(self.current)} already acted this turn")
        super()._check_may_buy(buyer, sym)

    # -- selling

    def do_sell_shares(self, action: Action) -> None:
        game = self.game
        player = self.player_of(action)
        shares = [game.shares.get(i) for i in action.fields.get("shares") or []]
        sym = shares[0].corporation if shares and shares[0] is not None else None
        if "buy" in self.turn:
            raise Violation("sell-buy-sell", "a stock turn sells before its action, never after (6.2)")
        if sym in self.sold_in_turn:
            raise Violation("sell-once", f"{sym} was already sold this turn: one sale per company (6.4)")
        percent = sum(s.percent for s in shares if s is not None)
        if percent > SALE_LIMIT:
            raise Violation("sell-limit", f"at most {SALE_LIMIT}% of a company may be sold in a turn, not {percent}% (6.4)")
        sold = sell_shares(game, player, action, self.sold)
        self.sold_in_turn[sold] = percent
        self.turn.append("sell")
        self.last_actor = player
        self.passes = 0

    # -- splitting (6.7.4)

    def _can_split(self, player: PlayerId) -> bool:
        return any(self.title.may_split(self.game, sym, player) for sym in self.game.corporations)

    def do_split(self, action: Action) -> None:
        game = self.game
        player = self.player_of(action)
        sym = str(action.fields.get("corporation"))
        if "buy" in self.turn:
            raise Violation("buy-one", f"{game.player_name(player)} already acted this turn")
        if sym not in game.corporations or not self.title.may_split(game, sym, player):
            raise Violation("split", f"{sym} cannot be split by {game.player_name(player)} (president with 40%, two stations, an open tranche place)")
        if player in self.pass_order:
            self.pass_order.remove(player)
        self.split = Split(sym)
        self._bought(player)

    def do_choose(self, action: Action) -> None:
        split = self.split
        if split is None:
            raise Violation("split-order", "there is no split in progress to choose for")
        choice = action.fields.get("choice")
        getattr(self, f"_split_{split.stage}")(split, choice)
        if self.split is None:
            self._settle()

    def _split_branch(self, split: Split, choice: Any) -> None:
        if choice not in self.title.free_branches(self.game):
            raise Violation("split-branch", f"{choice} is not a branch company still to be started")
        split.branch = str(choice)
        split.stage = "tokens"
        choices = self.title.split_token_choices(self.game, split.parent)
        if len(choices) == 1:
            self._split_tokens(split, choices[0])

    def _split_tokens(self, split: Split, choice: Any) -> None:
        game = self.game
        choices = self.title.split_token_choices(game, split.parent)
        if choice == "done":
            if not split.swapped:
                raise Violation("split-assets", f"{split.branch} must take at least one station")
        else:
            if not isinstance(choice, int) and not (isinstance(choice, str) and choice.isdigit()):
                raise Violation("split-assets", f"{choice!r} is not a station of {split.parent}")
            if int(choice) not in choices:
                raise Violation("split-assets", f"{choice!r} is not a station of {split.parent} the branch may take")
            split.swapped.append(self.title.swap_station(game, split.parent, split.branch, int(choice)))  # type: ignore[arg-type]
            if self.title.split_token_choices(game, split.parent):
                return
        split.stage = "par"
        prices = self.title.start_prices(game)
        if len(prices) == 1:
            cell = self.title.start_cell(game, prices[0])
            self._split_par(split, f"{cell.price},{cell.row},{cell.column}")

    def _split_par(self, split: Split, choice: Any) -> None:
        game = self.game
        try:
            price, row, column = (int(x) for x in str(choice).split(","))
        except ValueError:
            raise Violation("par-value", f"{choice!r} is not a start price") from None
        cell = game.market.cell(row, column)
        if cell is None or cell.price != price or price not in self.title.start_prices(game):
            raise Violation("par-value", f"${price} is not an available start price")
        assert split.branch is not None
        self.title.start_company(game, split.branch, cell)
        self.title.exchange_split_shares(game, split.parent, split.branch)
        split.stage = "trains"

    def _split_trains(self, split: Split, choice: Any) -> None:
        game = self.game
        if choice != "done":
            train = game.trains.get(str(choice))
            if train is None or train.owner != split.parent or train.rusted:
                raise Violation("split-assets", f"{split.parent} owns no train {choice}")
            train.owner = split.branch
            if game.corporation_trains(split.parent):
                return
        split.stage = "cash"

    def _split_cash(self, split: Split, choice: Any) -> None:
        game = self.game
        amount = int(choice) if isinstance(choice, int) or (isinstance(choice, str) and choice.isdigit()) else -1
        if not 0 <= amount <= game.cash(split.parent):
            raise Violation("split-assets", f"{split.parent} has ${game.cash(split.parent)}; it cannot give {choice!r}")
        game.pay(split.parent, split.branch, amount)
        if game.companies["HSE"].owner == split.parent and not game.companies["HSE"].closed:
            split.stage = "hunslet"
        else:
            self._split_done()

    def _split_hunslet(self, split: Split, choice: Any) -> None:
        if choice not in ("yes", "no"):
            raise Violation("split-assets", f"answer yes or no to moving the Hunslet, not {choice!r}")
        if choice == "yes":
            self.game.companies["HSE"].owner = split.branch
        self._split_done()

    def _split_done(self) -> None:
        self.split = None
        self._end_turn()

    # -- end of round

    def _hand_priority(self) -> None:
        """The next round goes in passing order: the first to pass leads (6.2)."""
        game = self.game
        if self.pass_order:
            game.order = self.pass_order + [p for p in game.order if p not in self.pass_order]
        game.priority = game.order[0]
