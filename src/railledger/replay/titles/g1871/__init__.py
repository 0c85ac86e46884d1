"""The Old Prince 1871 on the generic 18xx core.

The PEIR and its shares, the Union Bank, the Mainline and Shortline drawn at setup, an initial
auction of dealt piles, tranches that pace company starts, splits into branch companies, hex
trains and + trains, and the game's end after the Diesel. Data lives in the JSON files beside
this module; its own rounds and steps in auction.py, stock.py and operating.py; where the
prototype rulebook and the recorded games disagree, notes.md says which the engine follows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from railledger.ingest.model import PlayerId
from railledger.replay.data import Ability, Phase, corporation_from
from railledger.replay.flow import Round
from railledger.replay.market import Cell
from railledger.replay.rounds.privates import PrivatesRound
from railledger.replay.shares import settle_presidency, transfer
from railledger.replay.state import IPO, MARKET, CompanyState, GameState, Holder, PlayerState, TitleState, Train
from railledger.replay.steps.routes import RunRoutes
from railledger.replay.steps.tokens import Token
from railledger.replay.steps.trains import DiscardTrain
from railledger.replay.variant import Variant
from railledger.replay.titles.base import StepKind, Title

from .auction import InitialAuction
from .draws import draw, peir_private
from .operating import (
    Bankrupt1871,
    BuyHunslet,
    BuyHunsletLast,
    BuyTrain1871,
    Dividend1871,
    HunsletPurchase,
    Track1871,
)
from .peir import PEIR, RESERVED, RETIRED, UNION_BANK, first_pool_share, readjust
from .stock import StockRound1871

"""Privates that come with a share (11.3): the Mainline's president's and 10% shares, the Shortline's."""
NEUTRAL_CITY = "G11"  # Malpeque Shipyard: no station may be placed (9.1)
TOP_BONUS = 40  # 10.2: a company at 400 pays $40 a share more
UNLIMITED_DIESELS = 20
MIN_SPLIT_PERCENT, MIN_SPLIT_STATIONS = 40, 2


@dataclass
class State1871(TitleState):
    """What 1871 keeps per game beyond the generic state."""

    mainline: str = ""
    shortline: str = ""
    union_bank_company: str = ""  # the company whose 10% comes with the Union Bank
    piles: tuple[tuple[str, ...], ...] = ()
    peir_companies: tuple[str, ...] = ()
    peir_share_of: dict[str, str] = field(default_factory=dict)  # company -> its PEIR share
    tranches: list[list[str | None]] = field(default_factory=list)
    obsolete: set[str] = field(default_factory=set)  # 4+ trains kept past the Diesel for one more run
    lost_stations: dict[str, int] = field(default_factory=dict)  # a split parent's stations gone
    last_set_after_sr: int | None = None  # the Diesel was bought: the final set follows this SR
    peir_bank_trains: int = 0  # trains the PEIR bought from the bank this operating round


class Title1871(Title):
    name = "The Old Prince 1871"
    package = "g1871"
    revision = 7  # 2: bankruptcy by the sales made for the purchase; 3: the Union Bank's turn; 4: its train sales; 5: the pool's branch shares after a split; 6: an obsolete 4+ rusts at its company's dividend; 7: no purchase helped by a Union Bank holding $0
    home_token_at_float = True
    ipo_at_market_price = True  # treasury shares of a split company sell at the market price
    buy_then_sell = False
    sale_drop_per_share = False
    turn_sell_limit: int | None = 30  # 6.4
    one_sale_per_company = True
    discard_removes = True  # REF DISCARDED_TRAINS :remove
    top_price = 400

    def __init__(self, variant: Variant | None = None) -> None:
        super().__init__(variant)
        self.hunslet = self.private_with("purchase_train")
        self.union_bank_private = self.private_with("act_for_bank")
        self.lay_restrictions: tuple[tuple[str, Ability | None, Ability | None], ...] = tuple(
            (c.sym, c.ability("blocks_hexes_consent"), c.ability("tile")) for c in self.companies
            if c.ability("blocks_hexes_consent") is not None or c.ability("tile") is not None
        )
        """Privates restricting tile lays: (private, its hex block needing consent, its special
        tiles), found once, since every tile lay listed is checked against them."""
        companies = self.companies_file
        self.branches = tuple(b["sym"] for b in companies["branches"])
        peir = companies["peir"]
        self.corporations = self.corporations + tuple(corporation_from(b) for b in (*companies["branches"], peir))
        self.trains = tuple(replace(t, count=UNLIMITED_DIESELS) if t.count == 0 else t for t in self.trains)
        self.market_pool_max = 80  # REF MARKET_SHARE_LIMIT; RB 15 says no limit (notes.md)
        self.start_cells: dict[int, tuple[int, int, str | None]] = {
            cell["price"]: (r, c, cell.get("par_until_first"))
            for r, row in enumerate(self.market_rows) for c, cell in enumerate(row) if cell and cell.get("par")
        }

    def new_state(self) -> State1871:
        return State1871()

    def state(self, game: GameState) -> State1871:
        return State1871.of(game)

    def certificates_of(self, sym: str) -> tuple[tuple[int, bool], ...]:
        if sym == PEIR:
            return ((20, False),) * 5
        return super().certificates_of(sym)

    def presidency_holders(self, game: GameState) -> list[PlayerId]:
        """The Union Bank holds shares and may be president; it loses every tie (REF)."""
        return [*game.order, UNION_BANK]

    def private_with(self, kind: str) -> str:
        """The one private companies.json gives this ability."""
        (sym,) = [c.sym for c in self.companies if c.ability(kind) is not None]
        return sym

    def loses_presidency_ties(self, holder: PlayerId) -> bool:
        return holder == UNION_BANK

    # ---------------------------------------------------------------- setup (3)

    def setup(self, game: GameState) -> None:
        drawn = draw(game.seed, game.game_id, len(game.order))
        state = self.state(game)
        state.mainline, state.shortline = drawn.mainline, drawn.shortline
        state.union_bank_company = drawn.union_bank_company
        state.piles, state.peir_companies = drawn.piles, drawn.peir_companies
        state.tranches = [[drawn.mainline, drawn.shortline], [None], [None, None], [None, None, None]]
        game.players[UNION_BANK] = PlayerState(UNION_BANK, "Union Bank", 0)
        for sym in game.corporations:
            if sym == PEIR:
                continue
            for share in game.shares_of[sym]:
                game.move_share(share.id, MARKET)
        for role, numbers in self.companies_file["reserved_for_exchange"].items():
            if not role.startswith("_"):
                for number in numbers:
                    game.move_share(f"{self.role(game, role)}_{number}", RESERVED)
        for company in self.companies:
            shares = company.ability("shares")
            if shares is not None and shares.get("held_by") == "union_bank":
                for ref in shares.get("shares", ()):
                    game.move_share(self.share_named(game, ref), UNION_BANK)
        for sym, row in ((drawn.mainline, 1), (drawn.shortline, 2)):
            cell = game.market.cell(row, 1)
            assert cell is not None
            game.corporations[sym].par_price = cell.price
            game.market.place(sym, cell)
            self.place_home(game, sym)
        for number, sym in enumerate(drawn.peir_companies):
            spec = self.corporation_spec(sym)
            game.board.place_token(spec.home_hex, spec.home_city, 0, PEIR)
            peir = game.corporations[PEIR]
            peir.tokens_placed = [*peir.tokens_placed, f"{spec.home_hex}-{spec.home_city}"]
            private = peir_private(sym)
            game.companies[private] = CompanyState(private, f"PEIR - {spec.name}", 80, 0)
            state.peir_share_of[sym] = f"{PEIR}_{number}"
        for company in self.companies:
            if company.min_players > len(game.order):
                game.companies[company.sym].closed = True  # the Ice Boats, in a 4-player game only (3)
        game.companies["KM"].owner = PEIR
        game.corporations[PEIR].floated = True  # it operates from the first round (7.7)
        game.pay(None, PEIR, 200)

    def place_home(self, game: GameState, sym: str) -> None:
        """A company's home station, replacing the PEIR's station there if any (REF destroys it)."""
        spec = self.corporation_spec(sym)
        slots = game.board.tokens_in(spec.home_hex, spec.home_city)
        if PEIR in slots:  # the PEIR's station leaves the game
            game.board.remove_token(spec.home_hex, spec.home_city, PEIR)
            peir = game.corporations[PEIR]
            peir.tokens_placed = [c for c in peir.tokens_placed if c != f"{spec.home_hex}-{spec.home_city}"]
            lost = self.state(game).lost_stations
            lost[PEIR] = lost.get(PEIR, 0) + 1
        game.board.place_token(spec.home_hex, spec.home_city, game.board.tokens_in(spec.home_hex, spec.home_city).index(None), sym)
        home = game.corporations[sym]
        home.tokens_placed = [*home.tokens_placed, f"{spec.home_hex}-{spec.home_city}"]

    def first_round(self, game: GameState) -> Round:
        return PrivatesRound(game, "Auction", (InitialAuction,))

    def stock_round(self, game: GameState) -> Round:
        return StockRound1871(game)

    def operating_steps(self) -> tuple[StepKind, ...]:
        return (HunsletPurchase, Bankrupt1871, BuyHunslet, Track1871, Token, RunRoutes, Dividend1871, DiscardTrain,
                BuyTrain1871, BuyHunsletLast)

    def on_or_start(self, game: GameState, number_in_set: int) -> None:
        self.state(game).peir_bank_trains = 0

    # ---------------------------------------------------------------- auction (5)

    def after_private_bought(self, game: GameState, player: PlayerId, sym: str, price: int) -> None:
        state = self.state(game)
        company = game.companies[sym]
        company.owner = player
        game.note("private", sym, price, player)
        shares = self.ability_of(sym, "shares")
        if shares is not None and shares.get("held_by") is None:
            for ref in shares.get("shares", ()):
                share_id = self.share_named(game, ref)
                game.move_share(share_id, player)
                game.float_if_ready(game.shares[share_id].corporation)
        if sym == self.union_bank_private:
            company.value = 0  # its worth is the Union Bank's, counted for its owner
        if sym.startswith("P"):
            company_sym = next(c for c in state.peir_companies if peir_private(c) == sym)
            game.move_share(state.peir_share_of[company_sym], player)
            readjust(game)

    def role(self, game: GameState, role: str) -> str:
        """The company companies.json means by a role: the Mainline and Shortline drawn at
        setup, the company whose share comes with the Union Bank (``<random>``), the PEIR."""
        state = self.state(game)
        drawn = {"mainline": state.mainline, "shortline": state.shortline, "<random>": state.union_bank_company, PEIR: PEIR}
        return drawn[role]

    def share_named(self, game: GameState, ref: str) -> str:
        """A certificate companies.json names as ``<role>_<number>`` ("mainline_1")."""
        role, number = ref.rsplit("_", 1)
        return f"{self.role(game, role)}_{number}"

    def after_auction(self, game: GameState) -> None:
        """The first stock round goes in ascending cash, ties in seat order (5.2.6)."""
        seats = list(game.order)
        game.order = sorted(seats, key=lambda p: (game.cash(p), seats.index(p)))  # a new list: see replay.journal
        game.priority = game.order[0]

    # ---------------------------------------------------------------- companies

    def tranche_available(self, game: GameState) -> bool:
        tranches = self.state(game).tranches
        current = next((i for i, t in enumerate(tranches) if None in t), None)
        if current is None:
            return False
        return current == 0 or all(
            sym is not None and (game.corporations[sym].operated
                                 or not any(s.owner in (IPO, MARKET, RESERVED) for s in game.shares_of[sym]))
            for sym in tranches[current - 1]  # sold out: the Shortline's exchange shares still count as unsold
        )

    def may_start(self, game: GameState, sym: str) -> bool:
        return (
            sym in self.state(game).peir_companies and game.corporations[sym].par_price is None
            and self.tranche_available(game)
        )

    def start_prices(self, game: GameState) -> list[int]:
        reached = {p.on for p in self.phases[: game.phase_index + 1] if p.on}
        return [price for price, (_, _, until) in self.start_cells.items() if until not in reached]

    def start_cell(self, game: GameState, price: int) -> Cell:
        row, column, _ = self.start_cells[price]
        cell = game.market.cell(row, column)
        assert cell is not None
        return cell

    def start_company(self, game: GameState, sym: str, cell: Cell) -> None:
        game.corporations[sym].par_price = cell.price
        game.market.place(sym, cell)
        tranche = next(t for t in self.state(game).tranches if None in t)
        tranche[tranche.index(None)] = sym

    def floats(self, game: GameState, sym: str) -> bool:
        """60% (the Mainline 50%) out of the bank pool and any treasury (6.7.5)."""
        held = 100 - game.percent(MARKET, sym) - game.percent(IPO, sym)
        return held >= (50 if sym == self.state(game).mainline else self.float_percent)

    def on_float(self, game: GameState, sym: str) -> None:
        """Full capitalization for PEIR companies; a PEIR company's PEIR station and PEIR share are
        exchanged for its own station and a share from the pool (6.7.5)."""
        if sym in self.branches:
            return  # capitalized at the split
        par = game.corporations[sym].par_price
        assert par is not None
        game.pay(None, sym, 10 * par)
        state = self.state(game)
        if sym not in state.peir_companies:
            return
        self.place_home(game, sym)
        private = game.companies[peir_private(sym)]
        owner = private.owner
        game.close_company(private.sym)
        game.shares[state.peir_share_of[sym]].owner = RETIRED
        share = first_pool_share(game, sym)
        if owner is not None and share is not None:
            game.move_share(share, owner)
            settle_presidency(game, sym)
        readjust(game)

    def sold_out(self, game: GameState, sym: str) -> bool:
        """Players (and the Shortline's reserved exchange shares) hold all of it."""
        held = sum(s.percent for s in game.shares_of[sym] if s.owner in game.players or s.owner == RESERVED)
        return held == 100

    def may_split(self, game: GameState, sym: str, player: PlayerId) -> bool:
        corp = game.corporations[sym]
        return (
            sym != PEIR and corp.par_price is not None and game.president(sym) == player
            and game.percent(player, sym) >= MIN_SPLIT_PERCENT and len(corp.tokens_placed) >= MIN_SPLIT_STATIONS
            and self.tranche_available(game) and bool(self.free_branches(game))
        )

    def free_branches(self, game: GameState) -> list[str]:
        return [b for b in self.branches if game.corporations[b].par_price is None]

    def split_token_choices(self, game: GameState, parent: str) -> list[int]:
        placed = game.corporations[parent].tokens_placed
        if len(placed) < MIN_SPLIT_STATIONS:
            return []
        home = self.corporation_spec(parent).home_hex
        return [i for i, city in enumerate(placed) if city.rsplit("-", 1)[0] != home]

    def swap_station(self, game: GameState, parent: str, branch: str, index: int) -> str:
        """The branch's station replaces one of the parent's, which leaves the game (6.7.4)."""
        losing = game.corporations[parent]
        city = losing.tokens_placed[index]
        losing.tokens_placed = [c for i, c in enumerate(losing.tokens_placed) if i != index]
        hex_id, number = city.rsplit("-", 1)
        slots = game.board.tokens_in(hex_id, int(number))
        game.board.place_token(hex_id, int(number), slots.index(parent), branch)
        gaining = game.corporations[branch]
        gaining.tokens_placed = [*gaining.tokens_placed, city]
        lost = self.state(game).lost_stations
        lost[parent] = lost.get(parent, 0) + 1
        return city

    def exchange_split_shares(self, game: GameState, parent: str, branch: str) -> None:
        """Holders give two parent shares for each branch share; exchanged shares go to the parent's
        treasury; the branch gets its start price for each of its shares left in the pool (6.7.4)."""
        president = game.president(parent)
        assert president is not None

        def plain(owner: Holder, sym: str) -> list[Any]:
            return [s for s in game.held(owner, sym) if not s.president]

        for share in plain(president, parent)[:2]:
            game.move_share(share.id, IPO)
        game.move_share(f"{branch}_0", president)
        for holder in [*game.order, UNION_BANK, MARKET]:
            given = plain(holder, parent)
            count = sum(s.percent for s in given) // 20
            for share in given[:count]:
                game.move_share(share.id, IPO)
            for share in plain(MARKET, branch)[:count]:
                game.move_share(share.id, holder)  # the pool's own go to the end of its order (notes.md 8)
        pool = len(plain(MARKET, branch))
        par = game.corporations[branch].par_price
        assert par is not None
        game.pay(None, branch, par * pool)
        issuing = game.corporations[parent]
        issuing.abilities = issuing.abilities | {"treasury"}
        game.note("par", branch, par, president)
        game.float_if_ready(branch)

    def ipo_payee(self, sym: str) -> str | None:
        return sym

    def operating_order(self, game: GameState, floated: list[str]) -> list[str]:
        order = sorted((s for s in floated if s != PEIR), key=game.market.order_key)
        return order + [PEIR] if PEIR in floated else order

    def private_counts(self, sym: str) -> bool:
        """A PEIR share's private (P<n>) is not counted: the PEIR share itself is (REF num_certs)."""
        return not sym.startswith("P")

    def union_bank_owner(self, game: GameState) -> Holder | None:
        """Who holds the Union Bank's private: the player who acts and pays for the bank."""
        return game.companies[self.union_bank_private].owner

    def value_holders(self, game: GameState) -> dict[Holder, Holder]:
        owner = self.union_bank_owner(game)
        return {UNION_BANK: owner} if owner is not None else {}

    def acting_president(self, game: GameState, sym: str) -> PlayerId | None:
        president = game.president(sym)
        owner = self.union_bank_owner(game)
        return owner if president == UNION_BANK and owner in game.players else president

    # ---------------------------------------------------------------- operating rounds (7)

    def dividend_choices(self, corporation: str) -> tuple[str, ...]:
        return ("payout", "half", "withhold") if corporation == PEIR else ("payout", "withhold")

    def dividend_paid(self, corporation: str, kind: str, revenue: int) -> int:
        """The PEIR's half pay keeps the larger half (REF rounds the kept half up)."""
        return revenue - math.ceil(revenue / 2) if kind == "half" else super().dividend_paid(corporation, kind, revenue)

    def dividend_bonus(self, game: GameState, sym: str) -> int:
        return TOP_BONUS * 10 if game.share_price(sym) == self.top_price else 0  # 10.2

    def shares_paying_company(self, sym: str) -> tuple[str, ...]:
        return (IPO, MARKET)  # 7.5: treasury and bank pool shares pay the company

    def dividend_move(self, game: GameState, sym: str, paid: int, revenue: int) -> str:
        """No dividend: left; a full payout: right; the PEIR's half pay (it has no price): none."""
        if sym == PEIR:
            return "none"
        return "left" if paid == 0 else "right" if paid == revenue else "none"

    def after_dividend(self, game: GameState, sym: str, first: bool) -> None:
        """The Mainline and Shortline concessions close once their company has operated; an
        obsolete 4+ (:meth:`rusts_later`) rusts at its company's dividend, run or not (REF: the
        dividend marks every train of the company operated, then rusts its obsolete ones)."""
        state = self.state(game)
        if first and sym == state.mainline:
            game.close_company("ML")
        if first and sym == state.shortline:
            game.close_company("SL")
        for train in game.corporation_trains(sym):
            if train.id in state.obsolete:
                game.rust_train(train)

    def game_over_after_or(self, game: GameState, number_in_set: int) -> bool:
        last_set = self.state(game).last_set_after_sr
        return last_set is not None and game.sr_number >= last_set and number_in_set >= game.ors_this_set

    def rusts_later(self, game: GameState, train: Train) -> bool:
        """A 4+ that has never run is only made obsolete by the Diesel (13.2): it may still run,
        no longer counts against the limit nor changes hands, and rusts at its company's next
        dividend (:meth:`after_dividend`, REF)."""
        if train.name == "4+" and not train.ever_operated:
            self.state(game).obsolete.add(train.id)
            return True
        return False

    def counts_for_limit(self, game: GameState, train: Train) -> bool:
        return train.id not in self.state(game).obsolete

    def on_phase(self, game: GameState, phase: Phase) -> None:
        super().on_phase(game, phase)
        if phase.name == "4+":
            self.close_privates(game)
        if phase.name == "D":
            self.state(game).last_set_after_sr = game.sr_number + 1

    def close_privates(self, game: GameState) -> None:
        """At the first 4+ every private closes but the Union Bank; the Shortline exchange privates
        first take their reserved share (REF event close_companies)."""
        for company in self.companies:
            exchange = company.ability("exchange")
            held = game.companies[company.sym]
            if exchange is None or exchange.get("from") != "reserved" or held.closed or held.owner is None:
                continue
            reserved = [s for role in exchange.get("corporations", ()) for s in game.held(RESERVED, self.role(game, role))]
            if reserved:
                transfer(game, reserved[:1], held.owner)  # each exchange may change the presidency
        for company in self.companies:
            if company.raw.get("closes") != "never":
                game.close_company(company.sym)

    def stations_of(self, game: GameState, corporation: str) -> int:
        """A split parent's station taken by its branch leaves the game (6.7.4)."""
        return super().stations_of(game, corporation) - self.state(game).lost_stations.get(corporation, 0)

    def slot_reserved(self, game: GameState, corporation: str, hex_id: str, city: int) -> bool:
        return hex_id == NEUTRAL_CITY

    def must_own_train(self, corporation: str) -> bool:
        return corporation != PEIR  # 7.7: the PEIR never has to own a train


TITLE_CLASS = Title1871
