"""The Old Prince 1871: rule overrides of the generic 18xx core.

The PEIR and its shares, the Union Bank, the Mainline and Shortline drawn at setup, an initial
auction of dealt piles, tranches that pace company starts, splits into branch companies, hex
trains and + trains, and the game's end after the Diesel. Data lives in the JSON files beside
this module; where the prototype rulebook and the recorded games disagree, notes.md says which
the engine follows.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ingest.model import Action, PlayerId
from replay.errors import Violation
from replay.market import Cell
from replay.state import IPO, MARKET, CompanyState, PlayerState, Train
from replay.title import CorporationSpec, Phase, Title, read_title_file

from .auction import InitialAuction
from .draws import draw, peir_private
from .operating import OperatingRound1871
from .peir import PEIR, RESERVED, RETIRED, UNION_BANK, first_pool_share, readjust
from .stock import SALE_LIMIT, StockRound1871

if TYPE_CHECKING:
    from replay.game import Game
    from replay.rounds import OperatingRound

SHARE_PRIVATES = {"ML": ("mainline", 0), "RA": ("mainline", 1), "RF": ("mainline", 2), "SL": ("shortline", 0)}
"""Privates that come with a share (11.3): the Mainline's president's and 10% shares, the Shortline's."""
SHORTLINE_RESERVED = (6, 7, 8)  # the Shortline's exchange shares
NEUTRAL_CITY = "G11"  # Malpeque Shipyard: no station may be placed (9.1)
BRIDGE_HEX, BRIDGE_PRIVATE = "N18", "VR"
SECOND_YELLOW_COST = 20
TOP_BONUS = 40  # 10.2: a company at 400 pays $40 a share more
UNLIMITED_DIESELS = 20
HUNSLET, HUNSLET_PRICES, HUNSLET_FROM = "HSE", (1, 200), "4H"
MIN_SPLIT_PERCENT, MIN_SPLIT_STATIONS = 40, 2


class Title1871(Title):
    name = "The Old Prince 1871"
    slug = "1871"
    home_token_at_float = True
    ipo_at_market_price = True  # treasury shares of a split company sell at the market price
    buy_then_sell = False
    sale_drop_per_share = False
    top_price = 400

    def __init__(self) -> None:
        super().__init__()
        companies = read_title_file(self.slug, "companies.json")
        self.branches = tuple(b["sym"] for b in companies["branches"])
        peir = companies["peir"]
        self.corporations = self.corporations + tuple(
            CorporationSpec(b["sym"], b["name"], "", 0, tuple(b["token_costs"])) for b in companies["branches"]
        ) + (CorporationSpec(PEIR, peir["name"], "", 0, tuple(peir["token_costs"])),)
        self.trains = tuple(replace(t, count=UNLIMITED_DIESELS) if t.count == 0 else t for t in self.trains)
        self.market_pool_max = 80  # REF MARKET_SHARE_LIMIT; RB 15 says no limit (notes.md)
        self.start_cells: dict[int, tuple[int, int, str | None]] = {
            cell["price"]: (r, c, cell.get("par_until_first"))
            for r, row in enumerate(self._market_rows) for c, cell in enumerate(row) if cell and cell.get("par")
        }

    def certificates_of(self, sym: str) -> tuple[tuple[int, bool], ...]:
        if sym == PEIR:
            return ((20, False),) * 5
        return super().certificates_of(sym)

    # ---------------------------------------------------------------- setup (3)

    def setup(self, game: Game) -> None:
        drawn = draw(game.seed, game.game_id, len(game.order))
        ml, sl = drawn.mainline, drawn.shortline
        game.flags.update(
            mainline=ml, shortline=sl, piles=drawn.piles, peir_companies=drawn.peir_companies,
            tranches=[[ml, sl], [None], [None, None], [None, None, None]], obsolete=set(),
        )
        game.players[UNION_BANK] = PlayerState(UNION_BANK, "Union Bank", 0)
        for sym in game.corporations:
            if sym == PEIR:
                continue
            for share in game.shares_of[sym]:
                game.move_share(share.id, MARKET)
        for number in SHORTLINE_RESERVED:
            game.move_share(f"{sl}_{number}", RESERVED)
        game.move_share(f"{ml}_8", UNION_BANK)
        game.move_share(f"{drawn.union_bank_company}_8", UNION_BANK)
        for sym, row in ((ml, 1), (sl, 2)):
            cell = game.market.cell(row, 1)
            assert cell is not None
            game.corporations[sym].par_price = cell.price
            game.market.place(sym, cell)
            self._place_home(game, sym)
        for number, sym in enumerate(drawn.peir_companies):
            spec = self._spec(sym)
            game.board.place_token(spec.home_hex, spec.home_city, 0, PEIR)
            game.corporations[PEIR].tokens_placed.append(f"{spec.home_hex}-{spec.home_city}")
            private = peir_private(sym)
            game.companies[private] = CompanyState(private, f"PEIR - {spec.name}", 80, 0)
            game.flags[f"peir_share_{sym}"] = f"{PEIR}_{number}"
        if len(game.order) < 4:
            game.companies["IB"].closed = True
        game.companies["KM"].owner = PEIR
        game.corporations[PEIR].floated = True  # it operates from the first round (7.7)
        game.pay(None, PEIR, 200)

    def _spec(self, sym: str) -> CorporationSpec:
        return next(c for c in self.corporations if c.sym == sym)

    def _place_home(self, game: Game, sym: str) -> None:
        spec = self._spec(sym)
        slots = game.board.tokens_in(spec.home_hex, spec.home_city)
        if PEIR in slots:
            slots[slots.index(PEIR)] = None
            game.corporations[PEIR].tokens_placed.remove(f"{spec.home_hex}-{spec.home_city}")
        game.board.place_token(spec.home_hex, spec.home_city, slots.index(None), sym)
        game.corporations[sym].tokens_placed.append(f"{spec.home_hex}-{spec.home_city}")

    def first_round(self, game: Game) -> Any:
        return InitialAuction(game)

    def stock_round(self, game: Game) -> StockRound1871:
        return StockRound1871(game)

    def operating_round(self, game: Game, number_in_set: int) -> OperatingRound1871:
        return OperatingRound1871(game, number_in_set)

    # ---------------------------------------------------------------- auction (5)

    def after_private_bought(self, game: Game, player: PlayerId, sym: str, price: int) -> None:
        company = game.companies[sym]
        company.owner = player
        game.note("private", sym, price, player)
        if sym in SHARE_PRIVATES:
            which, number = SHARE_PRIVATES[sym]
            corp = game.flags[which]
            game.move_share(f"{corp}_{number}", player)
            game.float_if_ready(corp)
        if sym == "UB":
            company.value = 0  # its worth is the Union Bank's, counted for its owner
        if sym.startswith("P"):
            company_sym = next(c for c in game.flags["peir_companies"] if peir_private(c) == sym)
            game.move_share(game.flags[f"peir_share_{company_sym}"], player)
            readjust(game)

    def after_auction(self, game: Game) -> None:
        """The first stock round goes in ascending cash, ties in seat order (5.2.6)."""
        seats = list(game.order)
        game.order.sort(key=lambda p: (game.cash(p), seats.index(p)))
        game.priority = game.order[0]

    # ---------------------------------------------------------------- companies

    def tranche_available(self, game: Game) -> bool:
        tranches = game.flags["tranches"]
        current = next((i for i, t in enumerate(tranches) if None in t), None)
        if current is None:
            return False
        return current == 0 or all(
            game.corporations[sym].operated or not any(s.owner in (IPO, MARKET, RESERVED) for s in game.shares_of[sym])
            for sym in tranches[current - 1]  # sold out: the Shortline's exchange shares still count as unsold
        )

    def may_start(self, game: Game, sym: str) -> bool:
        return (
            sym in game.flags["peir_companies"] and game.corporations[sym].par_price is None
            and self.tranche_available(game)
        )

    def start_prices(self, game: Game) -> list[int]:
        reached = {p.on for p in self.phases[: game.phase_index + 1] if p.on}
        return [price for price, (_, _, until) in self.start_cells.items() if until not in reached]

    def start_cell(self, game: Game, price: int) -> Cell:
        row, column, _ = self.start_cells[price]
        cell = game.market.cell(row, column)
        assert cell is not None
        return cell

    def start_company(self, game: Game, sym: str, cell: Cell) -> None:
        game.corporations[sym].par_price = cell.price
        game.market.place(sym, cell)
        tranche = next(t for t in game.flags["tranches"] if None in t)
        tranche[tranche.index(None)] = sym

    def floats(self, game: Game, sym: str) -> bool:
        """60% (the Mainline 50%) out of the bank pool and any treasury (6.7.5)."""
        held = 100 - game.percent(MARKET, sym) - game.percent(IPO, sym)
        return held >= (50 if sym == game.flags["mainline"] else self.float_percent)

    def on_float(self, game: Game, sym: str) -> None:
        """Full capitalization for PEIR companies; a PEIR company's PEIR station and PEIR share are
        exchanged for its own station and a share from the pool (6.7.5)."""
        if sym in self.branches:
            return  # capitalized at the split
        game.pay(None, sym, 10 * game.corporations[sym].par_price)  # type: ignore[operator]
        if sym not in game.flags["peir_companies"]:
            return
        self._place_home(game, sym)
        private = game.companies[peir_private(sym)]
        owner = private.owner
        game.close_company(private.sym)
        game.shares[game.flags[f"peir_share_{sym}"]].owner = RETIRED
        share = first_pool_share(game, sym)
        if owner is not None and share is not None:
            game.move_share(share, owner)
            game.check_presidency(sym)
        readjust(game)

    def may_split(self, game: Game, sym: str, player: PlayerId) -> bool:
        corp = game.corporations[sym]
        return (
            sym != PEIR and corp.par_price is not None and game.president(sym) == player
            and game.percent(player, sym) >= MIN_SPLIT_PERCENT and len(corp.tokens_placed) >= MIN_SPLIT_STATIONS
            and self.tranche_available(game)
        )

    def free_branches(self, game: Game) -> list[str]:
        return [b for b in self.branches if game.corporations[b].par_price is None]

    def split_token_choices(self, game: Game, parent: str) -> list[int]:
        placed = game.corporations[parent].tokens_placed
        if len(placed) < MIN_SPLIT_STATIONS:
            return []
        home = self._spec(parent).home_hex
        return [i for i, city in enumerate(placed) if city.rsplit("-", 1)[0] != home]

    def swap_station(self, game: Game, parent: str, branch: str, index: int) -> str:
        """The branch's station replaces one of the parent's, which leaves the game (6.7.4)."""
        city = game.corporations[parent].tokens_placed.pop(index)
        hex_id, number = city.rsplit("-", 1)
        slots = game.board.tokens_in(hex_id, int(number))
        game.board.place_token(hex_id, int(number), slots.index(parent), branch)
        game.corporations[branch].tokens_placed.append(city)
        game.flags.setdefault("lost_stations", {}).setdefault(parent, 0)
        game.flags["lost_stations"][parent] += 1
        return city

    def exchange_split_shares(self, game: Game, parent: str, branch: str) -> None:
        """Holders give two parent shares for each branch share; exchanged shares go to the parent's
        treasury; the branch gets its start price for each of its shares left in the pool (6.7.4)."""
        president = game.president(parent)
        assert president is not None

        def plain(owner: Any, sym: str) -> list[Any]:
            return sorted((s for s in game.shares_of[sym] if s.owner == owner and not s.president), key=lambda s: s.acquired)

        for share in plain(president, parent)[:2]:
            game.move_share(share.id, IPO)
        game.move_share(f"{branch}_0", president)
        for holder in [*game.order, UNION_BANK, MARKET]:
            given = plain(holder, parent)
            count = sum(s.percent for s in given) // 20
            for share in given[:count]:
                game.move_share(share.id, IPO)
            if holder != MARKET:
                for share in plain(MARKET, branch)[:count]:
                    game.move_share(share.id, holder)
        pool = len(plain(MARKET, branch))
        game.pay(None, branch, game.corporations[branch].par_price * pool)  # type: ignore[operator]
        game.corporations[parent].abilities.add("treasury")
        game.note("par", branch, game.corporations[branch].par_price, president)
        game.float_if_ready(branch)

    def ipo_payee(self, sym: str) -> str | None:
        return sym

    def operating_order(self, game: Game, floated: list[str]) -> list[str]:
        order = sorted((s for s in floated if s != PEIR), key=game.market.order_key)
        return order + [PEIR] if PEIR in floated else order

    def private_counts(self, sym: str) -> bool:
        """A PEIR share's private (P<n>) is not counted: the PEIR share itself is (REF num_certs)."""
        return not sym.startswith("P")

    def value_holders(self, game: Game) -> dict[Any, Any]:
        owner = game.companies["UB"].owner
        return {UNION_BANK: owner} if owner is not None else {}

    def acting_president(self, game: Game, sym: str) -> PlayerId | None:
        president = game.president(sym)
        return game.companies["UB"].owner if president == UNION_BANK else president

    # ---------------------------------------------------------------- operating rounds (7)

    def dividend_choices(self, corporation: str) -> tuple[str, ...]:
        return ("payout", "half", "withhold") if corporation == PEIR else ("payout", "withhold")

    def dividend_paid(self, corporation: str, kind: str, revenue: int) -> int:
        """The PEIR's half pay keeps the larger half (REF rounds the kept half up)."""
        return revenue - math.ceil(revenue / 2) if kind == "half" else super().dividend_paid(corporation, kind, revenue)

    def dividend_bonus(self, game: Game, sym: str) -> int:
        return TOP_BONUS * 10 if game.share_price(sym) == self.top_price else 0  # 10.2

    def shares_paying_company(self, sym: str) -> tuple[str, ...]:
        return (IPO, MARKET)  # 7.5: treasury and bank pool shares pay the company

    def dividend_move(self, game: Game, sym: str, paid: int, revenue: int) -> str:
        """No dividend: left; a full payout: right; the PEIR's half pay (it has no price): none."""
        if sym == PEIR:
            return "none"
        return "left" if paid == 0 else "right" if paid == revenue else "none"

    def after_dividend(self, game: Game, sym: str, first: bool) -> None:
        """The Mainline and Shortline concessions close once their company has operated; a 4+
        kept past the Diesel rusts once it has run (13.2)."""
        if first and sym == game.flags["mainline"]:
            game.close_company("ML")
        if first and sym == game.flags["shortline"]:
            game.close_company("SL")
        for train in game.corporation_trains(sym):
            if train.id in game.flags["obsolete"]:
                game.flags["obsolete"].discard(train.id)
                game.rust_train(train)

    def game_over_after_or(self, game: Game, round_: OperatingRound) -> bool:
        last_set = game.flags.get("last_set_after_sr")
        return last_set is not None and game.sr_number >= last_set and round_.number_in_set >= game.ors_this_set

    def rusts_later(self, game: Game, train: Train) -> bool:
        """A 4+ that has not run yet runs once more before it rusts (13.2)."""
        if train.name == "4+" and not train.operated and train.owner is not None:
            game.flags["obsolete"].add(train.id)
            return True
        return False

    def on_phase(self, game: Game, phase: Phase) -> None:
        super().on_phase(game, phase)
        if phase.name == "4+":
            self._close_privates(game)
        if phase.name == "D":
            game.flags["last_set_after_sr"] = game.sr_number + 1

    def _close_privates(self, game: Game) -> None:
        """At the first 4+ every private closes but the Union Bank; the Shortline exchange privates
        first take their reserved share (REF event close_companies)."""
        sl = game.flags["shortline"]
        for sym in ("MC", "VR", "SB"):
            company = game.companies[sym]
            if company.closed or company.owner is None:
                continue
            reserved = [s for s in game.shares_of[sl] if s.owner == RESERVED]
            if reserved:
                game.move_share(reserved[0].id, company.owner)
        for sym, company in game.companies.items():
            if sym != "UB" and not sym.startswith("P"):
                game.close_company(sym)
        game.check_presidency(sl)

    # -- track (7.2, 12)

    def tile_lays(self, game: Game, round_: OperatingRound) -> int:
        return 2

    def tile_lay_slots(self, game: Game, round_: OperatingRound) -> int:
        """The second lay is gone after an upgrade, or when the company cannot pay its $20."""
        laid = round_.turn.laid
        if (laid and laid[0][1] != "yellow") or game.cash(round_.corp) < SECOND_YELLOW_COST:  # type: ignore[arg-type]
            return max(1, len(laid))
        return 2

    def check_lay_rules(self, game: Game, round_: OperatingRound, action: Action, turned: Any) -> None:
        laid = round_.turn.laid
        if laid and (laid[0][1] != "yellow" or turned.color != "yellow"):
            raise Violation("tile-two-yellow", "a second tile is only a yellow one after a yellow one, never with an upgrade (7.2)")
        if laid and game.cash(round_.corp) < SECOND_YELLOW_COST:  # type: ignore[arg-type]
            raise Violation("tile-two-yellow", f"a second yellow tile costs ${SECOND_YELLOW_COST}; {round_.corp} has ${game.cash(round_.corp)}")  # type: ignore[arg-type]
        hex_id = action.fields["hex"]
        bridge = game.companies[BRIDGE_PRIVATE]
        if hex_id == BRIDGE_HEX and not bridge.closed and bridge.owner is not None:
            if bridge.owner != self.acting_president(game, round_.corp):  # type: ignore[arg-type]
                raise Violation("private-block", f"{BRIDGE_HEX} needs the consent of the Vernon River Bridge owner (12.2)")
        if str(action.fields["tile"]).rsplit("-", 1)[0] == "9":
            sbc = game.companies["SBC"]
            if sbc.closed or sbc.owner != self.acting_president(game, round_.corp):  # type: ignore[arg-type]
                raise Violation("private-sbc", "tile 9 is laid only by a company whose president owns Schreiber and Burpee (11.3)")

    def after_tile_laid(self, game: Game, corporation: str, hex_id: str) -> None:
        if len(game.round.turn.laid) == 2:
            game.pay(corporation, None, SECOND_YELLOW_COST)

    def stations_of(self, game: Game, corporation: str) -> int:
        """A split parent's station taken by its branch leaves the game (6.7.4)."""
        return super().stations_of(game, corporation) - game.flags.get("lost_stations", {}).get(corporation, 0)

    def slot_reserved(self, game: Game, corporation: str, hex_id: str, city: int) -> bool:
        return hex_id == NEUTRAL_CITY

    # -- trains (7.6, 13)

    def must_own_train(self, corporation: str) -> bool:
        return corporation != PEIR  # 7.7: the PEIR never has to own a train

    def check_train_transfer(self, game: Game, round_: OperatingRound, train: Train) -> None:
        if train.name == "4+" and game.phase.name == "D":
            raise Violation("train-source", "a 4+ cannot change companies once the first Diesel is bought (13.2)")

    def buy_from_bank(self, game: Game, round_: OperatingRound, action: Action, train: Train, price: int) -> None:
        if round_.corp == PEIR and game.flags["peir_bank_trains"]:
            raise Violation("peir-train", "the PEIR buys at most one train from the bank each operating round (7.7)")
        super().buy_from_bank(game, round_, action, train, price)
        if round_.corp == PEIR:
            game.flags["peir_bank_trains"] += 1

    def on_bankruptcy(self, game: Game, player: Any) -> None:
        """8.1 / REF: the bankrupt player sells what he may (one sale per company, up to 30%,
        never a president's certificate nobody can take) and his cash goes to the bank."""
        player = self.acting_president(game, game.round.corp) or player
        for sym in sorted({s.corporation for s in game.shares.values() if s.owner == player}):
            corp = game.corporations[sym]
            if sym == PEIR or not corp.operated:
                continue
            room = min(SALE_LIMIT, self.market_pool_max - game.percent(MARKET, sym))
            plain = [s for s in game.shares_of[sym] if s.owner == player and not s.president][: room // 10]
            if plain:
                game.pay(None, player, game.share_price(sym) * len(plain))  # type: ignore[operator]
                for share in plain:
                    game.move_share(share.id, MARKET)
                game.market.move_down(sym)
        game.pay(player, None, game.cash(player))

    def fund_purchase(self, game: Game, round_: OperatingRound, price: int, train_name: str) -> None:
        """A company without a train that cannot pay first sells its treasury shares, then its
        president pays the rest; a Union Bank president pays what it can first and its owner the
        rest (7.6.4, 15)."""
        corp = round_.corp
        assert corp is not None
        shortfall = price - game.cash(corp)
        if shortfall <= 0:
            return
        if game.corporation_trains(corp):
            raise Violation("cash", f"{corp} has ${game.cash(corp)}, less than ${price}")
        if any(s.owner == IPO for s in game.shares_of[corp]) and game.percent(MARKET, corp) + 10 <= self.market_pool_max:
            raise Violation("emr-treasury", f"{corp} must sell its treasury shares before its president helps (7.6.4)")
        payers = [game.president(corp)]
        if payers[0] == UNION_BANK:
            payers.append(game.companies["UB"].owner)
        if None in payers or sum(game.cash(p) for p in payers) < shortfall:  # type: ignore[arg-type]
            raise Violation("forced-purchase", f"{corp}'s president cannot pay the ${shortfall} it lacks")
        for payer in payers:
            part = min(game.cash(payer), shortfall)  # type: ignore[arg-type]
            game.pay(payer, corp, part)
            shortfall -= part

    def discard(self, game: Game, train: Train) -> None:
        train.owner = None
        train.rusted = True  # discarded trains leave the game (REF DISCARDED_TRAINS remove)

    def check_issue(self, game: Game, round_: OperatingRound, action: Action) -> None:
        corp = round_.corp
        assert corp is not None
        if game.corporation_trains(corp):
            raise Violation("emr-treasury", f"{corp} sells treasury shares only to buy a train it must have (7.6.4)")

    def company_price_range(self, game: Game, round_: OperatingRound, company: CompanyState) -> tuple[int, int]:
        if company.sym != HUNSLET:
            raise Violation("company-buy", f"{company.name} cannot be sold to a company; only the Hunslet can")
        if round_.corp == PEIR:
            raise Violation("company-buy", "the PEIR may not buy the Hunslet (7.7)")
        names = [p.name for p in self.phases]
        if game.phase_index < names.index(HUNSLET_FROM):
            raise Violation("company-buy-phase", f"the Hunslet may be sold to a company from phase {HUNSLET_FROM} (7.1.1)")
        return HUNSLET_PRICES

    def last_step_open(self, game: Game, round_: OperatingRound) -> bool:
        """A company owning the Hunslet keeps its last step open: its ability may still be used."""
        hunslet = game.companies[HUNSLET]
        return super().last_step_open(game, round_) or (hunslet.owner == round_.corp and not hunslet.closed)

    def company_for_sale(self, game: Game, round_: OperatingRound, company: CompanyState) -> bool:
        """Any player may sell the Hunslet to a company (REF: purchasable from any player)."""
        return company.owner in game.order

    def hunslet_purchase(self, game: Game, round_: OperatingRound) -> None:
        corp = round_.corp
        assert corp is not None
        hunslet = game.companies[HUNSLET]
        if hunslet.closed or hunslet.owner != corp:
            raise Violation("private-hunslet", f"{corp} does not own the Hunslet")
        card = self.available_from_bank(game)[0]
        train = next(t for t in game.trains.values() if t.id.rsplit("-", 1)[0] == card and t.owner is None and not t.rusted)
        price = self.train_type(card).price
        if len(game.corporation_trains(corp)) >= game.phase.train_limit or game.cash(corp) < price:
            raise Violation("private-hunslet", f"{corp} has no room or cash for a {card} train")
        game.close_company(HUNSLET)
        self.sell_bank_train(game, corp, train, price, card)


TITLE_CLASS = Title1871
