"""Rounds: the private draft, stock rounds and operating rounds of the generic 18xx core.

Each round says whether an action belongs to it (``accepts``, ending turns that must be over
for the actor to be on turn), applies it (``apply``), and hands over to the next round with its
end-of-round effects (``next_round``). Turns end implicitly: 18xx.games ends many turns on its
own (a stock turn after a purchase when nothing else is possible, an operating turn after its
last step), so the engine ends a turn when the next actor acts, and checks that actor's turn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ingest.model import Action, PlayerId
from replay.errors import Violation
from replay.network import network_of
from replay.routes import Route, build_route, check_run
from replay.state import IPO, MARKET

if TYPE_CHECKING:
    from replay.game import Game


class Round:
    label = ""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.finished = False

    def accepts(self, action: Action) -> bool:
        raise NotImplementedError

    def apply(self, action: Action) -> None:
        handler = getattr(self, f"do_{action.type}", None)
        if handler is None:
            raise Violation("action-type", f"{action.type} is not an action of the {self.label} round")
        handler(action)

    def next_round(self) -> Round:
        raise NotImplementedError

    def close_at_end(self) -> bool:
        """At the end of the record: finish what is in progress; True if the round is complete."""
        return self.finished

    def player_of(self, action: Action) -> PlayerId:
        if action.entity.kind != "player" or action.entity.id not in self.game.players:
            raise Violation("turn-order", f"{action.entity} does not act in a {self.label} round")
        return action.entity.id


# ------------------------------------------------------------------------------ draft


class DraftRound(Round):
    """Each player in turn buys exactly one private company at face value (e.g. 18MS section 9).

    ``reverse`` starts with the last seat and goes counter-clockwise; the last to buy gets the
    priority deal. Companies left over are removed from the game.
    """

    label = "Draft"

    def __init__(self, game: Game, reverse: bool = True) -> None:
        super().__init__(game)
        self.queue = list(reversed(game.order)) if reverse else list(game.order)
        self.position = 0

    def accepts(self, action: Action) -> bool:
        if self.finished:
            return False
        player = self.player_of(action)
        expected = self.queue[self.position]
        if player != expected:
            raise Violation("draft-order", f"it is {self.game.player_name(expected)}'s turn to draft")
        return True

    def do_bid(self, action: Action) -> None:
        game = self.game
        player = self.player_of(action)
        sym = action.fields.get("company")
        company = game.companies.get(sym)  # type: ignore[arg-type]
        if company is None or company.owner is not None or company.closed:
            raise Violation("draft-company", f"private company {sym} is not available to draft")
        price = action.fields.get("price")
        if price != company.value:
            raise Violation("draft-price", f"{company.name} costs its face value ${company.value}, not ${price}")
        if game.cash(player) < price:
            raise Violation("cash", f"{game.player_name(player)} has ${game.cash(player)}, less than ${price}")
        game.pay(player, None, price)
        company.owner = player
        game.note("private", sym, price, player)  # type: ignore[arg-type]
        self.position += 1
        if self.position == len(self.queue):
            self.finished = True
            game.priority = player
            for other in game.companies.values():
                if other.owner is None:
                    other.closed = True  # never in play: not an event

    def next_round(self) -> Round:
        return self.game.title.stock_round(self.game)


# ------------------------------------------------------------------------------ bid auction


class BidAuction(Round):
    """Players in turn bid on any private company, or overbid the bid on one (e.g. 18Texas 10).

    A bid is at least the face value, an overbid at least ``increment`` more, both multiples of
    ``increment``. A player holding a winning bid has no turn; being overbid gives the turn back.
    When every player holds a winning bid, all pay and take their company; the priority deal goes
    to the player after the last bidder.
    """

    label = "Auction"

    def __init__(self, game: Game, increment: int = 5) -> None:
        super().__init__(game)
        self.increment = increment
        self.bids: dict[str, tuple[PlayerId, int]] = {}
        self.current: PlayerId = game.order[0]
        self.last_bidder: PlayerId | None = None
        self.resolved = False

    def accepts(self, action: Action) -> bool:
        if self.finished:
            return False
        player = self.player_of(action)
        if not self.resolved and player != self.current:
            raise Violation("auction-order", f"it is {self.game.player_name(self.current)}'s turn to bid")
        return True

    def _holders(self) -> set[PlayerId]:
        return {bidder for bidder, _ in self.bids.values()}

    def do_bid(self, action: Action) -> None:
        game = self.game
        player = self.player_of(action)
        if self.resolved:
            raise Violation("auction-over", "the auction is over")
        sym = action.fields.get("company")
        company = game.companies.get(sym)  # type: ignore[arg-type]
        if company is None or company.closed or company.owner is not None:
            raise Violation("auction-company", f"private company {sym} is not in the auction")
        price = action.fields.get("price")
        held = self.bids.get(sym)  # type: ignore[arg-type]
        least = company.value if held is None else held[1] + self.increment
        if not isinstance(price, int) or price < least or price % self.increment:
            what = "face value" if held is None else f"${self.increment} over the ${held[1]} bid"
            raise Violation("auction-bid", f"a bid on {company.name} is a multiple of ${self.increment}, at least {what} (${least}), not ${price}")
        if price > game.cash(player):
            raise Violation("cash", f"{game.player_name(player)} has ${game.cash(player)}, less than ${price}")
        self.bids[sym] = (player, price)  # type: ignore[index]
        self.last_bidder = player
        holders = self._holders()
        if len(holders) == len(game.order):
            self._resolve()
            return
        following = game.order[game.order.index(player) + 1:] + game.order[: game.order.index(player) + 1]
        self.current = next(p for p in following if p not in holders)

    def _resolve(self) -> None:
        game = self.game
        for sym, (player, price) in self.bids.items():
            game.pay(player, None, price)
            game.companies[sym].owner = player
            game.note("private", sym, price, player)
        assert self.last_bidder is not None
        game.priority = game.next_player(self.last_bidder)
        self.resolved = True
        self.finished = self.pending() is None

    def pending(self) -> str | None:
        """What must still happen in this round after the bids (a title may add a step)."""
        return None

    def next_round(self) -> Round:
        return self.game.title.stock_round(self.game)


# ------------------------------------------------------------------------------ stock round


class StockRound(Round):
    """Players in turn from the priority deal sell and buy certificates until all pass in a row."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        game.sr_number += 1
        self.number = game.sr_number
        self.label = f"SR {self.number}"
        self.current: PlayerId = game.priority
        self.turn: list[str] = []  # "sell" / "buy" done this turn, in order
        self.passes = 0
        self.last_actor: PlayerId | None = None
        self.sold: set[tuple[PlayerId, str]] = set()

    # -- turn handling

    def accepts(self, action: Action) -> bool:
        """End the turn in progress and pass over players who can do nothing (18xx.games passes
        them itself) until the actor is on turn; a company acting means the round must be over."""
        if self.finished:
            return False
        actor = action.entity.id if action.entity.kind == "player" else None
        if actor is not None:
            self.player_of(action)
        if actor != self.current and self.turn:
            self._end_turn()
        while not self.finished and actor != self.current and not self._can_act(self.current):
            self._pass_turn()
        if self.finished:
            return False
        if actor != self.current:
            who = self.game.player_name(self.current)
            raise Violation("turn-order", f"it is {who}'s stock turn" + (f", not {self.game.player_name(actor)}'s" if actor is not None else ""))
        return True

    def _pass_turn(self) -> None:
        self.passes += 1
        self.current = self.game.next_player(self.current)
        if self.passes >= len(self.game.order):
            self.finished = True

    def _can_act(self, player: PlayerId) -> bool:
        """Whether the player has any purchase or sale open to them (else their turn is skipped)."""
        return self._can_sell(player) or self._can_buy(player)

    def _can_buy(self, player: PlayerId) -> bool:
        game = self.game
        cash = game.cash(player)
        full = game.certificates(player) >= game.cert_limit()
        for sym, corp in game.corporations.items():
            if (player, sym) in self.sold or game.percent(player, sym) + 10 > game.title.max_ownership:
                continue
            if full and not game.in_yellow_zone(sym):
                continue
            if corp.par_price is None:
                if cash >= 2 * min(game.title.par_values):
                    return True
                continue
            if game.percent(IPO, sym) and cash >= game.title.ipo_price(game, sym):
                return True
            if game.percent(MARKET, sym) and cash >= (game.share_price(sym) or 0):
                return True
        return False

    def _can_sell(self, player: PlayerId) -> bool:
        game = self.game
        if self.number == 1 and game.title.no_sales_in_first_sr:
            return False
        if "buy" in self.turn and not game.title.buy_then_sell:
            return False
        for share in game.shares.values():
            if share.owner != player or share.president:
                continue
            corp = game.corporations[share.corporation]
            if game.title.sell_after_operated and not corp.operated:
                continue
            if game.percent(MARKET, share.corporation) + share.percent <= game.title.market_pool_max:
                return True
        return False

    def _end_turn(self) -> None:
        if self.turn:
            self.passes = 0
        self.turn = []
        self.current = self.game.next_player(self.current)

    def apply(self, action: Action) -> None:
        super().apply(action)
        self._settle()

    def _settle(self) -> None:
        """End the turn and pass over players as soon as nobody could do more, as 18xx.games does:
        the round then ends with the action that ended it, not with the next one."""
        if self.turn and not self._can_continue(self.current):
            self._end_turn()
        while not self.finished and not self.turn and not self._can_act(self.current):
            self._pass_turn()

    def _can_continue(self, player: PlayerId) -> bool:
        """Whether a player who has acted this turn may still do something in it."""
        if "buy" not in self.turn:
            return True  # only sold so far: may sell more or buy
        if self.turn[0] == "sell":
            return False  # sold then bought: never sell, buy, sell
        return self._can_sell(player)

    def do_pass(self, action: Action) -> None:
        game = self.game
        player = self.player_of(action)
        if game.certificates(player) > game.cert_limit():
            raise Violation(
                "cert-limit-excess",
                f"{game.player_name(player)} holds {game.certificates(player)} certificates, over the limit of {game.cert_limit()}, and must sell",
            )
        if not self.turn:
            self._pass_turn()
        else:
            self._end_turn()

    # -- buying

    def do_par(self, action: Action) -> None:
        game = self.game
        player = self.player_of(action)
        sym = action.fields.get("corporation")
        corp = game.corporations.get(sym)  # type: ignore[arg-type]
        if corp is None:
            raise Violation("par", f"there is no company {sym}")
        if corp.par_price is not None:
            raise Violation("par", f"{sym} already has a par value")
        self._check_may_buy(player, sym)
        price, row, column = parse_share_price(action)
        cell = game.market.cell(row, column)
        if cell is None or cell.price != price or not cell.par or price not in game.title.par_values:
            allowed = ", ".join(f"${p}" for p in game.title.par_values)
            raise Violation("par-value", f"${price} is not a par value; choose {allowed}")
        cost = 2 * price
        self._check_cash(player, cost)
        self._check_cert_limit(player, sym, after_yellow=cell.zone == "yellow")
        corp.par_price = price
        game.market.place(sym, cell)
        game.pay(player, game.title.ipo_payee(sym), cost)
        game.move_share(f"{sym}_0", player)
        game.note("par", sym, price, player)
        self._bought(player)

    def do_buy_shares(self, action: Action) -> None:
        game = self.game
        player = self.player_of(action)
        share_ids = action.fields.get("shares") or []
        if len(share_ids) != 1 or share_ids[0] not in game.shares:
            raise Violation("buy-one", "a stock turn buys exactly one certificate")
        share = game.shares[share_ids[0]]
        sym = share.corporation
        corp = game.corporations[sym]
        if corp.par_price is None:
            raise Violation("buy-unparred", f"{sym} has no president yet; its president's certificate must be bought first (par)")
        if share.owner not in (IPO, MARKET):
            raise Violation("buy-source", f"certificate {share.id} is not for sale (held by {share.owner})")
        self._check_may_buy(player, sym)
        price = (game.title.ipo_price(game, sym) if share.owner == IPO else game.share_price(sym)) * share.percent // 10  # type: ignore[operator]
        self._check_cash(player, price)
        if game.percent(player, sym) + share.percent > game.title.max_ownership:
            raise Violation(
                "ownership-limit",
                f"{game.player_name(player)} would hold {game.percent(player, sym) + share.percent}% of {sym}; the limit is {game.title.max_ownership}%",
            )
        self._check_cert_limit(player, sym)
        game.pay(player, game.title.ipo_payee(sym) if share.owner == IPO else None, price)
        game.move_share(share.id, player)
        game.float_if_ready(sym)
        game.check_presidency(sym)
        self._bought(player)

    def _check_may_buy(self, player: PlayerId, sym: str) -> None:
        if "buy" in self.turn:
            raise Violation("buy-one", f"{self.game.player_name(player)} already bought this turn")
        if (player, sym) in self.sold:
            raise Violation("buy-after-sale", f"{self.game.player_name(player)} sold {sym} earlier in this stock round and may not buy it again")

    def _check_cash(self, player: PlayerId, price: int) -> None:
        cash = self.game.cash(player)
        if cash < price:
            raise Violation("cash", f"{self.game.player_name(player)} has ${cash}, less than the ${price} needed")

    def _check_cert_limit(self, player: PlayerId, sym: str, after_yellow: bool | None = None) -> None:
        game = self.game
        yellow = game.in_yellow_zone(sym) if after_yellow is None else after_yellow
        if yellow:
            return
        held, limit = game.certificates(player), game.cert_limit()
        if held + 1 > limit:
            raise Violation(
                "cert-limit",
                f"{game.player_name(player)} holds {held} certificates; the limit with {len(game.order)} players is {limit}",
            )

    def _bought(self, player: PlayerId) -> None:
        self.turn.append("buy")
        self.last_actor = player
        self.passes = 0

    # -- selling

    def do_sell_shares(self, action: Action) -> None:
        game = self.game
        player = self.player_of(action)
        if self.number == 1 and game.title.no_sales_in_first_sr:
            raise Violation("no-sale-first-sr", "no certificate may be sold in the first stock round")
        sell_shares(game, player, action, self.sold)
        self.turn.append("sell")
        self.last_actor = player
        self.passes = 0

    # -- end of round

    def next_round(self) -> Round:
        game = self.game
        for sym in sorted((s for s, c in game.corporations.items() if c.par_price is not None), key=game.market.order_key):
            if game.title.sold_out(game, sym):
                game.market.move_up(sym)
        self._hand_priority()
        game.ors_this_set = game.title.ors_in_set(game)
        return game.title.operating_round(game, 1)

    def _hand_priority(self) -> None:
        """The priority deal goes to the player after the last to act."""
        if self.last_actor is not None:
            self.game.priority = self.game.next_player(self.last_actor)


def parse_share_price(action: Action) -> tuple[int, int, int]:
    """(price, row, column) of a par action's ``share_price`` such as ``"75,1,3"``."""
    text = str(action.fields.get("share_price", ""))
    try:
        price, row, column = (int(x) for x in text.split(","))
    except ValueError:
        raise Violation("par-value", f"bad share price {text!r}: expected price,row,column") from None
    return price, row, column


def sell_shares(game: Game, player: PlayerId, action: Action, sold: set[tuple[PlayerId, str]] | None) -> str:
    """Sell certificates to the open market (stock turn or forced sale); returns the company."""
    share_ids = action.fields.get("shares") or []
    shares = [game.shares.get(i) for i in share_ids]
    if not shares or any(s is None or s.owner != player for s in shares):
        raise Violation("sell-own", f"{game.player_name(player)} does not hold {', '.join(map(str, share_ids))}")
    companies = {s.corporation for s in shares}  # type: ignore[union-attr]
    if len(companies) != 1:
        raise Violation("sell-own", "one sale sells certificates of one company")
    sym = companies.pop()
    if game.title.sell_after_operated and not game.corporations[sym].operated:
        raise Violation("sell-after-operate", f"{sym} has not yet operated, so its shares cannot be sold")
    percent = sum(s.percent for s in shares)  # type: ignore[union-attr]
    in_market = game.percent(MARKET, sym)
    if in_market + percent > game.title.market_pool_max:
        raise Violation(
            "market-limit",
            f"selling {percent}% of {sym} would put {in_market + percent}% in the open market; the limit is {game.title.market_pool_max}%",
        )
    president_share = next((s for s in shares if s.president), None)  # type: ignore[union-attr]
    if president_share is not None:
        others = [pid for pid in game.order if pid != player and game.percent(pid, sym) >= 20]
        if not others:
            raise Violation("president-sale", f"nobody else holds 20% of {sym}, so its president's certificate cannot be sold")
    price = game.share_price(sym)
    assert price is not None
    game.pay(None, player, price * percent // 10)
    plain = [s for s in shares if not s.president]  # type: ignore[union-attr]
    for share in plain:
        game.move_share(share.id, MARKET)  # type: ignore[union-attr]
    if president_share is not None:
        game.hand_over_presidency(sym, game.largest_holder_after(player, sym), to_market=2)
    game.check_presidency(sym, outgoing_first=player)
    for _ in range(percent // 10 if game.title.sale_drop_per_share else 1):
        game.market.move_down(sym)
    if sold is not None:
        sold.add((player, sym))
    return sym


# ------------------------------------------------------------------------------ operating round

TRACK, TOKEN, ROUTE, DIVIDEND, TRAIN, COMPANY, DONE = range(7)


@dataclass
class Turn:
    """What an operating corporation has done so far this turn."""

    first: bool  # its first operating turn of the game
    step: int = TRACK
    lays: int = 0
    laid: list[tuple[str, str, bool]] = field(default_factory=list)  # (hex, colour, was an upgrade)
    tokened: bool = False
    ran: int | None = None  # revenue of the run, once run
    paid: bool = False  # earnings distributed (or the no-run move made)
    acted: bool = False
    shares: str | None = None  # "issued" or "redeemed" this turn


class OperatingRound(Round):
    """Privates pay, then floated corporations operate in descending market value order."""

    def __init__(self, game: Game, number_in_set: int) -> None:
        super().__init__(game)
        game.or_number += 1
        self.number_in_set = number_in_set
        self.label = f"OR {game.sr_number}.{number_in_set}"  # 18xx.games' "OR set.n"
        game.title.before_operating_round(game, self)
        for company in game.companies.values():
            if company.owner is not None and not company.closed and company.revenue:
                game.pay(None, company.owner, company.revenue)
        self.queue: list[str] = game.floated_in_order()
        self.position = -1
        self.corp: str | None = None
        self.turn = Turn(first=False)
        self._next_corporation()

    # -- turn handling

    def _next_corporation(self) -> None:
        game = self.game
        done = self.queue[: self.position + 1]
        rest = [sym for sym in game.floated_in_order() if sym not in done]
        self.queue = done + rest
        self.position += 1
        if self.position >= len(self.queue):
            self.corp = None
            self.finished = True
            return
        self.corp = self.queue[self.position]
        corp = game.corporations[self.corp]
        self.turn = Turn(first=not corp.operated)
        if not corp.operated and not game.title.home_token_at_float:
            game.title.place_home_token(game, self.corp)

    def _end_turn(self) -> None:
        assert self.corp is not None
        self._advance_to(DONE)
        game = self.game
        game.corporations[self.corp].operated = True
        self._next_corporation()

    def accepts(self, action: Action) -> bool:
        """End operating turns until the actor's turn comes, or the round is over.

        A turn ends when someone else acts, but not before the corporation did anything: one
        with trains always has a run to make, one without must buy a train while the bank has one.
        """
        while not self.finished:
            if self._belongs_to_turn(action):
                return True
            if not self.turn.acted and self._had_something_to_do():
                raise Violation("operating-order", f"it is {self.corp}'s operating turn; {action.entity.id} must wait")
            if self._must_buy_train():
                raise Violation("must-buy-train", f"{self.corp} owns no train and must buy one before its turn ends")
            self._end_turn()
        return False

    def _had_something_to_do(self) -> bool:
        game, corp = self.game, self.corp
        assert corp is not None
        return bool(game.corporation_trains(corp)) or bool(game.title.available_from_bank(game))

    def apply(self, action: Action) -> None:
        super().apply(action)
        self.turn.acted = True
        self._settle()

    def _settle(self) -> None:
        """Skip the steps in which the company can do nothing, as 18xx.games does, so that their
        effects (a no-run price move, the end of the turn and of the round) belong to the action
        after which they happened."""
        game, title = self.game, self.game.title
        while not self.finished:
            corp, turn = self.corp, self.turn
            assert corp is not None
            trains = game.corporation_trains(corp)
            if turn.step == TRACK and turn.lays >= title.tile_lay_slots(game, self) and not title.company_lays_open(game, self):
                self._advance_to(TOKEN)
            elif turn.step == TOKEN and (turn.tokened or not self._may_place_token()):
                self._advance_to(ROUTE)
            elif turn.step in (ROUTE, DIVIDEND) and not trains and turn.ran is None:
                self._advance_to(TRAIN)
            elif turn.step == TRAIN and trains and len(trains) >= game.phase.train_limit:
                self._advance_to(COMPANY)
            elif turn.step == COMPANY and not title.last_step_open(game, self):
                self._advance_to(DONE)
            elif turn.step == DONE:
                self._end_turn()
            else:
                return

    def _tokened_hex_cities(self, hex_id: str) -> list[tuple[str, int]]:
        """Every city of ``hex_id`` when the company already has a station in that hex."""
        game, corp = self.game, self.corp
        cities = [(hex_id, i) for i in range(len(game.board.tile(hex_id).cities))]
        return cities if any(corp in game.board.tokens_in(h, i) for h, i in cities) else []

    def _may_place_token(self) -> bool:
        """Whether a station could go down now: one left, affordable, in a reachable free city."""
        game, corp = self.game, self.corp
        assert corp is not None
        spec = next(c for c in game.title.corporations if c.sym == corp)
        placed = len(game.corporations[corp].tokens_placed)
        if placed >= game.title.stations_of(game, corp) or game.cash(corp) < spec.token_costs[placed]:
            return False
        for hex_id, node in network_of(game, corp).nodes:
            if node[0] != "c":
                continue
            slots = game.board.tokens_in(hex_id, int(node[1:]))
            if game.title.one_token_per_hex and self._tokened_hex_cities(hex_id):
                continue
            if corp not in slots and None in slots and not game.title.slot_reserved(game, corp, hex_id, int(node[1:])):
                return True
        return False

    def _belongs_to_turn(self, action: Action) -> bool:
        entity, game = action.entity, self.game
        if entity.kind == "corporation":
            if entity.id not in game.corporations or not game.corporations[entity.id].floated:
                raise Violation("operating-order", f"{entity.id} has not floated and does not operate")
            return entity.id == self.corp
        if entity.kind == "company":
            company = game.companies.get(entity.id)  # type: ignore[arg-type]
            if company is None or company.closed or company.owner is None:
                raise Violation("company-owner", f"{entity.id} is not in play")
            if company.owner in game.corporations:
                return company.owner == self.corp
            # A private a player owns acts for a company that player presides (e.g. 18Texas 5).
            if company.owner in game.players and game.title.player_privates_act:
                return self.corp is not None and company.owner == game.president(self.corp)
            raise Violation("company-owner", f"{entity.id} is not owned by a company that operates")
        if entity.kind == "player" and action.type in ("sell_shares", "bankrupt"):
            return self.corp is not None and entity.id == game.president(self.corp) and self._must_buy_train()
        return False

    def _must_buy_train(self) -> bool:
        """The company owns no train while the bank sells one, and its title says it must own one."""
        game, corp = self.game, self.corp
        assert corp is not None
        return not game.corporation_trains(corp) and bool(game.title.available_from_bank(game)) and game.title.must_own_train(corp)

    def _advance_to(self, step: int) -> None:
        """Move on to ``step``; a corporation that ran no trains earns nothing and its price moves left."""
        if step < self.turn.step:
            return
        if self.turn.step <= DIVIDEND < step and not self.turn.paid:
            self._distribute(0, 0)
        self.turn.step = step

    def close_at_end(self) -> bool:
        """A record that stops in an operating round under way concludes it (its last turn had no
        successor to end it); one that stops as a round has just begun leaves it untouched."""
        if self.position > 0 or self.turn.acted:
            self.conclude()
        return False  # no further round starts

    def _check_step(self, step: int, what: str) -> None:
        if self.turn.step > step:
            raise Violation("step-order", f"{self.corp} cannot {what} after a later step of its turn")

    # -- track

    def do_lay_tile(self, action: Action) -> None:
        game = self.game
        corp = self.corp
        assert corp is not None
        by_company = action.entity.kind == "company"
        counts_as_lay = False
        if by_company:
            counts_as_lay = game.title.check_company_lay(game, self, action)
        else:
            if self.turn.lays >= game.title.tile_lays(game, self):
                raise Violation("tile-count", f"{corp} has no tile lay left this turn")
            self._check_step(TRACK, "lay track")
        hex_id, tile_id, rotation = action.fields["hex"], action.fields["tile"], action.fields["rotation"]
        turned = game.board.check_lay(hex_id, tile_id, rotation, game.phase.tiles, game.title.lay_as_if(game, action))
        game.title.check_lay_rules(game, self, action, turned)
        if game.title.lay_needs_route(game, self, action) and not network_of(game, corp).touches(hex_id, turned.edges):
            raise Violation("tile-connect", f"tile {tile_id} on {hex_id} does not connect to {corp}'s network")
        terrain = game.board.terrain_cost_of(hex_id) if not by_company or counts_as_lay else 0
        if terrain and game.cash(corp) < terrain:
            raise Violation("terrain-cost", f"{corp} has ${game.cash(corp)}, less than the ${terrain} river cost on {hex_id}")
        paid = game.board.lay(hex_id, tile_id, rotation, turned)
        if by_company:
            game.companies[action.entity.id].uses += 1  # type: ignore[index]
        if not by_company or counts_as_lay:
            game.pay(corp, None, paid)
            self.turn.lays += 1
            self.turn.laid.append((hex_id, turned.color, game.board.was_upgrade(hex_id)))
        game.title.after_tile_laid(game, corp, hex_id)

    # -- stations

    def do_place_token(self, action: Action) -> None:
        game = self.game
        corp = self.corp
        assert corp is not None
        by_company = action.entity.kind == "company"
        if not by_company:
            self._check_step(TOKEN, "place a station")
        if self.turn.tokened:
            raise Violation("token-one", f"{corp} already placed a station this turn")
        state = game.corporations[corp]
        spec = next(c for c in game.title.corporations if c.sym == corp)
        placed = len(state.tokens_placed)
        if placed >= game.title.stations_of(game, corp):
            raise Violation("token-none-left", f"{corp} has no station token left")
        hex_id, index = game.board.city(str(action.fields["city"]))
        slots = game.board.tokens_in(hex_id, index)
        if corp in slots or (game.title.one_token_per_hex and (hex_id, index) in self._tokened_hex_cities(hex_id)):
            raise Violation("token-twice", f"{corp} already has a station in {hex_id}")
        needs_route = game.title.token_needs_route(game, self, action)
        if needs_route and (hex_id, f"c{index}") not in network_of(game, corp).nodes:
            raise Violation("token-reach", f"{corp} has no route to {hex_id}")
        if None not in slots:
            raise Violation("token-slot", f"every station in {hex_id} is taken")
        slot = slots.index(None)  # 18xx.games fills the first free circle whatever the record's slot says
        if game.title.slot_reserved(game, corp, hex_id, index):
            raise Violation("token-reserved", f"the last free station in {hex_id} is reserved for a home station")
        cost = spec.token_costs[placed]
        cost = game.title.token_cost(game, corp, action, cost)
        if game.cash(corp) < cost:
            raise Violation("cash", f"{corp} has ${game.cash(corp)}, less than the ${cost} station cost")
        game.pay(corp, None, cost)
        game.board.place_token(hex_id, index, slot, corp)
        state.tokens_placed.append(f"{hex_id}-{index}")
        self.turn.tokened = True
        game.title.after_token_placed(game, corp, hex_id)

    # -- running trains and dividends

    def do_run_routes(self, action: Action) -> None:
        game = self.game
        corp = self.corp
        assert corp is not None
        self._check_step(ROUTE, "run trains")
        if self.turn.ran is not None:
            raise Violation("route-once", f"{corp} already ran its trains this turn")
        routes: list[Route] = [build_route(game, corp, raw) for raw in action.fields.get("routes") or []]
        check_run(game, corp, routes)
        for route, raw in zip(routes, action.fields.get("routes") or []):
            declared = raw.get("revenue")
            if declared is not None and declared != route.revenue:
                stops = "-".join(h for h, _ in route.stops)
                raise Violation("route-revenue", f"train {route.train_id} on {stops} earns ${route.revenue}, not the declared ${declared}")
        for route in routes:
            game.trains[route.train_id].operated = True
        self.turn.ran = sum(r.revenue for r in routes)
        self._advance_to(DIVIDEND)

    def do_dividend(self, action: Action) -> None:
        corp = self.corp
        assert corp is not None
        self._check_step(DIVIDEND, "pay dividends")
        if self.turn.ran is None:
            raise Violation("dividend-no-run", f"{corp} has not run trains this turn")
        kind = action.fields.get("kind")
        title = self.game.title
        kinds = title.dividend_choices(corp)
        if kind not in kinds:
            raise Violation("dividend-kind", f"{kind!r} is not a dividend choice of {corp} ({', '.join(kinds)})")
        revenue = self.turn.ran
        self._distribute(revenue, title.dividend_paid(corp, kind, revenue))
        self.turn.step = TRAIN

    def _distribute(self, revenue: int, paid: int) -> None:
        """Pay ``paid`` as dividends and keep the rest; move the price; the title's after-effects."""
        game, corp = self.game, self.corp
        assert corp is not None
        self.turn.paid = True
        if paid:
            self._pay_shareholders(paid)
        if revenue - paid:
            game.pay(None, corp, revenue - paid)
        move = game.title.dividend_move(game, corp, paid, revenue)
        if move == "right":
            game.market.move_right(corp)
        elif move == "left":
            game.market.move_left(corp)
        game.title.after_dividend(game, corp, self.turn.first)

    def _pay_shareholders(self, paid: int) -> None:
        """Each holder gets its percent of ``paid`` (plus any title bonus), rounded up; the shares
        the title says pay the company (the open market's with full capitalization, the treasury's
        with incremental) pay it."""
        game, corp = self.game, self.corp
        assert corp is not None
        per_share = (paid + game.title.dividend_bonus(game, corp)) / 10
        for holder in [*game.order, *game.title.value_holders(game)]:
            amount = math.ceil(game.percent(holder, corp) / 10 * per_share)
            if amount:
                game.pay(None, holder, amount)
        for own in game.title.shares_paying_company(corp):
            to_company = math.ceil(game.percent(own, corp) / 10 * per_share)
            if to_company:
                game.pay(None, corp, to_company)

    # -- trains

    def do_buy_train(self, action: Action) -> None:
        game = self.game
        corp = self.corp
        assert corp is not None
        self._check_step(TRAIN, "buy trains")
        self._advance_to(TRAIN)
        train_id = action.fields.get("train")
        train = game.trains.get(train_id)  # type: ignore[arg-type]
        if train is None or train.rusted:
            raise Violation("train-unknown", f"there is no train {train_id} in play")
        if len(game.corporation_trains(corp)) >= game.phase.train_limit:
            raise Violation("train-limit", f"{corp} already owns {game.phase.train_limit} trains, the limit")
        price = action.fields.get("price")
        if not isinstance(price, int) or price < 1:
            raise Violation("train-price", f"a train costs at least $1, not {price!r}")
        if train.owner is None:
            game.title.buy_from_bank(game, self, action, train, price)
        else:
            self._buy_from_corporation(train, price)

    def _buy_from_corporation(self, train: Any, price: int) -> None:
        game, corp = self.game, self.corp
        assert corp is not None
        seller = train.owner
        if seller == corp or seller not in game.corporations:
            raise Violation("train-source", f"{corp} cannot buy its own train {train.id}")
        game.title.check_train_transfer(game, self, train)
        if game.cash(corp) < price:
            raise Violation("cash", f"{corp} has ${game.cash(corp)}, less than the ${price} asked for {train.id}")
        game.pay(corp, seller, price)
        game.deliver_train(train, corp, price, seller)

    def do_discard_train(self, action: Action) -> None:
        """A corporation over its train limit (after a phase change) gives a train back."""
        game, corp = self.game, self.corp
        assert corp is not None
        train = game.trains.get(str(action.fields.get("train")))
        if train is None or train.owner != corp or train.rusted:
            raise Violation("train-unknown", f"{corp} owns no train {action.fields.get('train')}")
        if len(game.corporation_trains(corp)) <= game.phase.train_limit:
            raise Violation("train-discard", f"{corp} is within its train limit and keeps its trains")
        game.title.discard(game, train)

    def do_bankrupt(self, action: Action) -> None:
        """The president cannot pay for a train the company must buy: the game ends (18Texas 12.6)."""
        president = self.game.president(self.corp) if self.corp else None
        self.game.note("bankruptcy", str(action.entity.id), detail=president)
        if president is not None:
            self.game.title.on_bankruptcy(self.game, president)
        self.game.end_game("bankruptcy")

    # -- company shares (incremental capitalization)

    def do_sell_shares(self, action: Action) -> None:
        """A corporation issues treasury shares to the open market (or its president sells to raise cash)."""
        game, corp = self.game, self.corp
        assert corp is not None
        if action.entity.kind == "player":
            self._advance_to(TRAIN)  # a forced sale happens in the train step, after a no-run price move
            sell_shares(game, action.entity.id, action, None)
            return
        share_ids = action.fields.get("shares") or []
        shares = [game.shares.get(i) for i in share_ids]
        if not shares or any(s is None or s.corporation != corp or s.owner != IPO for s in shares):
            raise Violation("issue-own", f"{corp} may only issue its own treasury shares")
        game.title.check_issue(game, self, action)
        percent = sum(s.percent for s in shares)  # type: ignore[union-attr]
        if game.percent(MARKET, corp) + percent > game.title.market_pool_max:
            raise Violation("market-limit", f"issuing {percent}% would put more than {game.title.market_pool_max}% of {corp} in the open market")
        price = game.share_price(corp)
        assert price is not None
        game.pay(None, corp, price * percent // 10)
        for share in shares:
            game.move_share(share.id, MARKET)  # type: ignore[union-attr]
        for _ in range(percent // 10):
            game.market.move_down(corp)
        self.turn.shares = "issued"

    def do_buy_shares(self, action: Action) -> None:
        """A corporation redeems its shares from the open market into its treasury."""
        game, corp = self.game, self.corp
        assert corp is not None
        if action.entity.kind != "corporation":
            raise Violation("action-type", "players buy shares in stock rounds")
        shares = [game.shares.get(i) for i in action.fields.get("shares") or []]
        if not shares or any(s is None or s.corporation != corp or s.owner != MARKET for s in shares):
            raise Violation("redeem-own", f"{corp} may only redeem its own shares from the open market")
        game.title.check_redeem(game, self, action)
        percent = sum(s.percent for s in shares)  # type: ignore[union-attr]
        price = game.share_price(corp) * percent // 10  # type: ignore[operator]
        if game.cash(corp) < price:
            raise Violation("cash", f"{corp} has ${game.cash(corp)}, less than ${price}")
        game.pay(corp, None, price)
        for share in shares:
            game.move_share(share.id, IPO)  # type: ignore[union-attr]
        self.turn.shares = "redeemed"

    # -- private companies

    def do_buy_company(self, action: Action) -> None:
        game, corp = self.game, self.corp
        assert corp is not None
        sym = action.fields.get("company")
        company = game.companies.get(sym)  # type: ignore[arg-type]
        if company is None or company.closed:
            raise Violation("company-buy", f"private company {sym} is not in play")
        if not game.title.company_for_sale(game, self, company):
            raise Violation("company-buy", f"{company.name} is not for sale to {corp}")
        price = action.fields.get("price")
        low, high = game.title.company_price_range(game, self, company)
        if not isinstance(price, int) or not low <= price <= high:
            raise Violation("company-price", f"{company.name} may be bought for ${low} to ${high}, not ${price}")
        if game.cash(corp) < price:
            raise Violation("cash", f"{corp} has ${game.cash(corp)}, less than ${price}")
        game.pay(corp, company.owner, price)
        company.owner = corp
        game.title.after_company_bought(game, self, company)

    # -- passing

    def do_pass(self, action: Action) -> None:
        """Skip the current step; auto-skipped steps (nothing possible) are skipped first."""
        game, corp = self.game, self.corp
        assert corp is not None
        step = self.turn.step
        if step in (ROUTE, DIVIDEND) and not game.corporation_trains(corp) and self.turn.ran is None:
            step = TRAIN
        if step == TRAIN and self._must_buy_train():
            raise Violation("must-buy-train", f"{corp} owns no train and must buy one")
        self._advance_to(min(step + 1, DONE))

    # -- end

    def conclude(self) -> None:
        """End the remaining turns and apply the end of the round (obsolescence, game end)."""
        game = self.game
        while not self.finished:
            self._end_turn()
        game.title.after_operating_round(game, self)
        if game.title.game_over_after_or(game, self):
            game.end_game(f"end of {self.label}")

    def next_round(self) -> Round:
        game = self.game
        self.conclude()
        if game.finished:
            return self
        if self.number_in_set < game.ors_this_set:
            return game.title.operating_round(game, self.number_in_set + 1)
        return game.title.stock_round(game)
