"""18Texas: rule overrides of the generic 18xx core.

The Jay Gould company is drawn at setup with 18xx.games' seeded generator; an open auction
sells the privates; companies hold half their stock (incremental capitalization), float on
their fourth certificate, pay half dividends, issue and redeem shares; trains rust when a new
type is first bought; the game ends with the set of ORs in which the bank breaks. Data lives
in the JSON files beside this module; decisions are in notes.md.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Mapping

from ingest.model import Action
from replay.errors import Violation
from replay.geometry import TileGeometry
from replay.rounds import BidAuction, OperatingRound, parse_share_price
from replay.title import Title, read_title_file

if TYPE_CHECKING:
    from replay.game import Game
    from replay.state import CompanyState, Train

RAND_A, RAND_C, RAND_M = 1_103_515_245, 12_345, 2**31
"""18xx.games' linear congruential generator (base game), which draws the Jay Gould company."""
DRAW_ORDER = ("T&P", "MKT", "SP", "MP", "SSW", "SAA")
JAY_GOULD = "JG"
MATCH_SHARE_PRIVATES = ("IGN", "NOPR")  # each comes with a 10% certificate of the Jay Gould company
TELEPORTS = {"GRRRC": "I14", "NOPR": "J5"}  # lay the 511 there without a route, then a free station
IGN_HEXES, IGN_TILES, IGN_LAYS = ("D13", "E12"), ("8", "9"), 2
ABILITY_PHASES = ("3", "4")
BLOCKS = {"BBBCRC": ("J13",), "IGN": ("D13", "E12")}
MAP_CHANGE = "2024-11-15"  # 18xx.games changed Corpus Christi, H5 and Lafayette that day


def jay_gould_company(seed: int | None, game_id: str | None) -> str:
    """The public company 18xx.games draws for Jay Gould: one step of its generator, mod 6."""
    if seed is None:
        digits = re.search(r"\d+", game_id or "")
        seed = int(digits.group()) if digits else 0
    state = (RAND_A * (seed % RAND_M) + RAND_C) % RAND_M
    return DRAW_ORDER[state % len(DRAW_ORDER)]


class JayGouldAuction(BidAuction):
    """The private auction, then the Jay Gould winner sets the drawn company's par (10)."""

    def pending(self) -> str | None:
        game = self.game
        sym = game.flags["jay_gould"]
        return None if game.corporations[sym].par_price is not None else sym

    def _resolve(self) -> None:
        """The I&GN and NOPR come with their 10% of the Jay Gould company as soon as they are won."""
        super()._resolve()
        game = self.game
        sym = game.flags["jay_gould"]
        for number, private in enumerate(MATCH_SHARE_PRIVATES, start=1):
            owner = game.companies[private].owner
            if owner is not None and not game.companies[private].closed:
                game.move_share(f"{sym}_{number}", owner)

    def accepts(self, action: Action) -> bool:
        if self.resolved and not self.finished:
            owner = self.game.companies[JAY_GOULD].owner
            if action.type != "par" or action.entity.id != owner:
                raise Violation("jay-gould-par", f"the Jay Gould owner must first set the par of {self.pending()}")
        return super().accepts(action)

    def do_par(self, action: Action) -> None:
        game = self.game
        sym = str(action.fields.get("corporation"))
        if not self.resolved or sym != self.pending():
            raise Violation("jay-gould-par", f"only the Jay Gould company {game.flags['jay_gould']} is parred now")
        price, row, column = parse_share_price(action)
        cell = game.market.cell(row, column)
        if cell is None or not cell.par or cell.price != price:
            raise Violation("par-value", f"${price} is not a pink par square")
        game.corporations[sym].par_price = price
        game.market.place(sym, cell)
        game.move_share(f"{sym}_0", game.companies[JAY_GOULD].owner)  # type: ignore[arg-type]
        shares = 2 + sum(1 for p in MATCH_SHARE_PRIVATES if game.companies[p].owner is not None)
        game.pay(None, sym, price * shares)  # the treasury gets the par of every share the privates brought
        game.note("par", sym, price, game.companies[JAY_GOULD].owner)
        self.finished = True


class EighteenTexas(Title):
    name = "18Texas"
    slug = "18texas"
    home_token_at_float = True
    ipo_at_market_price = True
    buy_then_sell = False
    player_privates_act = True
    one_token_per_hex = True  # 12.3: no two stations of a company in one hex (Dallas/Fort Worth)
    dividend_kinds = ("payout", "half", "withhold")

    def __init__(self) -> None:
        super().__init__()
        companies = read_title_file(self.slug, "companies.json")
        self.min_players = {p["sym"]: p.get("min_players", 0) for p in companies["privates"]}
        self.token_fees = {c["sym"]: c.get("token_fee", 0) for c in companies["corporations"]}
        self._printed_before = dict(self.printed)
        for hex_id, spec in self.map.items():
            if "before_2024_11_15" in spec:
                merged = {**spec, **spec["before_2024_11_15"]}
                self._printed_before[hex_id] = TileGeometry.from_json(hex_id, merged)

    def printed_for(self, created: str | None) -> Mapping[str, TileGeometry]:
        """18xx.games changed three hexes on 2024-11-15; earlier games keep the old ones (notes.md)."""
        if created is not None and created < MAP_CHANGE:
            return self._printed_before
        return self.printed

    def setup(self, game: Game) -> None:
        for sym, least in self.min_players.items():
            if least > len(game.order):
                game.companies[sym].closed = True  # not in this game (7)
        game.flags["jay_gould"] = jay_gould_company(game.seed, game.game_id)

    def first_round(self, game: Game) -> JayGouldAuction:
        return JayGouldAuction(game)

    # -- floating (11.2)

    def on_float(self, game: Game, sym: str) -> None:
        game.market.move_up(sym)
        game.pay(sym, None, self.token_fees[sym])
        self.place_home_token(game, sym)

    # -- dividends (12.5)

    def dividend_move(self, game: Game, sym: str, paid: int, revenue: int) -> str:
        if paid == 0:
            return "left"
        return "right" if paid >= game.share_price(sym) else "none"  # type: ignore[operator]

    # -- track (12.2, 5)

    def tile_lays(self, game: Game, round_: OperatingRound) -> int:
        laid = round_.turn.laid
        return 1 if laid and laid[0][2] else 2

    def tile_lay_slots(self, game: Game, round_: OperatingRound) -> int:
        return 2  # an upgrade uses the first slot; a pass ends the step (65394 #95-97)

    def check_lay_rules(self, game: Game, round_: OperatingRound, action: Action, turned: Any) -> None:
        hex_id = str(action.fields["hex"])
        if round_.turn.laid and turned.color != "yellow":
            raise Violation("tile-two-yellow", "a second tile in a turn must be yellow (two yellow tiles, or one upgrade)")
        for private, hexes in BLOCKS.items():
            company = game.companies[private]
            if hex_id in hexes and not company.closed and action.entity.id != private:
                raise Violation("private-block", f"{hex_id} is reserved while {company.name} is open")
        corp = round_.corp
        assert corp is not None
        home = next(c for c in self.corporations if c.sym == corp).home_hex
        if hex_id != home and not game.board.tile(home).paths and action.entity.kind == "corporation":
            raise Violation("tile-home-first", f"{corp} must lay its first tile in its home hex {home}")

    def lay_as_if(self, game: Game, action: Action) -> str | None:
        """The NOPR lays its green 511 on San Antonio even before a yellow tile is there (16)."""
        if action.entity.id == "NOPR" and game.board.tile(str(action.fields["hex"])).color == "white":
            return "yellow"
        return None

    def lay_needs_route(self, game: Game, round_: OperatingRound, action: Action) -> bool:
        if action.entity.kind == "company":
            return False  # GRRRC/NOPR teleports and the I&GN's own hexes need no route
        corp = round_.corp
        home = next(c for c in self.corporations if c.sym == corp).home_hex
        return action.fields["hex"] != home or bool(game.board.tile(home).paths)

    def check_company_lay(self, game: Game, round_: OperatingRound, action: Action) -> bool:
        sym = str(action.entity.id)
        company = game.companies[sym]
        hex_id, tile = str(action.fields["hex"]), str(action.fields["tile"]).rsplit("-", 1)[0]
        if game.phase.name not in ABILITY_PHASES:
            raise Violation("company-ability", f"{company.name}'s ability is usable in phases 3 and 4 only")
        if sym in TELEPORTS:
            if hex_id != TELEPORTS[sym] or tile != "511" or company.uses:
                raise Violation("private-teleport", f"{company.name} lays the 511 on {TELEPORTS[sym]} once")
            return True  # it is the company's tile lay
        if sym == "IGN":
            if hex_id not in IGN_HEXES or tile not in IGN_TILES or company.uses >= IGN_LAYS:
                raise Violation("private-ign-lay", f"{company.name} lays tiles 8 or 9 on D13 and E12, twice")
            return False
        raise Violation("company-ability", f"{company.name} has no ability to lay track")

    def company_lays_open(self, game: Game, round_: OperatingRound) -> bool:
        if game.phase.name not in ABILITY_PHASES or round_.corp is None:
            return False
        president = game.president(round_.corp)
        for sym, limit in ((*((s, 1) for s in TELEPORTS), ("IGN", IGN_LAYS))):
            company = game.companies[sym]
            if company.owner == president and not company.closed and company.uses < limit:
                return True
        return False

    def token_needs_route(self, game: Game, round_: OperatingRound, action: Action) -> bool:
        return action.entity.kind != "company"

    def token_cost(self, game: Game, corporation: str, action: Action, cost: int) -> int:
        if action.entity.kind == "company":
            sym = str(action.entity.id)
            hex_id = game.board.city(str(action.fields["city"]))[0]
            if TELEPORTS.get(sym) != hex_id:
                raise Violation("private-teleport", f"{sym} places a station only on {TELEPORTS.get(sym, 'no hex')}")
        return cost

    # -- phases, trains (9, 12.6)

    def on_phase(self, game: Game, phase: Any) -> None:
        super().on_phase(game, phase)
        if phase.name == "5":
            for company in game.companies.values():
                game.close_company(company.sym)

    def discard(self, game: Game, train: Train) -> None:
        train.owner = None
        train.rusted = True  # discarded trains leave the game (REF DISCARDED_TRAINS :remove)

    # -- privates are never sold (5)

    def company_price_range(self, game: Game, round_: OperatingRound, company: CompanyState) -> tuple[int, int]:
        raise Violation("company-buy", "private companies are never sold to public companies")

    # -- issue and redeem (12.7)

    def check_issue(self, game: Game, round_: OperatingRound, action: Action) -> None:
        if round_.turn.first:
            raise Violation("issue-first-turn", "a company may not issue shares in its first operating turn")

    def check_redeem(self, game: Game, round_: OperatingRound, action: Action) -> None:
        corp = round_.corp
        shares = len(action.fields.get("shares") or [])
        if game.percent("ipo", corp) + 10 * shares > 50:  # type: ignore[arg-type]
            raise Violation("redeem-treasury-limit", "no more than 50% of a company may be in its treasury")

    def last_step_open(self, game: Game, round_: OperatingRound) -> bool:
        """The issue/redeem step (12.7): open while the company could do either."""
        corp = round_.corp
        if round_.turn.shares is not None or corp is None:
            return False
        price = game.share_price(corp) or 0
        may_issue = not round_.turn.first and game.percent("ipo", corp) > 0 and game.percent("market", corp) < 50
        may_redeem = game.percent("market", corp) > 0 and game.percent("ipo", corp) < 50 and game.cash(corp) >= price
        return may_issue or may_redeem


TITLE_CLASS = EighteenTexas
