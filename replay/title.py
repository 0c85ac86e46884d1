"""A title: its data files (read once) and the hooks where its rules differ from generic 18xx.

The generic engine calls these hooks at fixed moments (round starts and ends, a tile laid, a
token placed, a train bought, a route's revenue); a title subclass in ``replay/titles/<slug>/``
overrides the ones its rulebook changes. Data stays in JSON, rules stay in Python.
"""

from __future__ import annotations

import importlib
import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from replay.errors import Rule
from replay.geometry import Catalogue, TileGeometry, load_catalogue, load_hexes
from replay.market import Cell, StockMarket
from replay.state import IPO, MARKET
from replay.titles import TITLES

if TYPE_CHECKING:
    from replay.game import Game
    from replay.rounds import OperatingRound
    from replay.routes import Route
    from replay.state import CompanyState, Train

from ingest.model import Action
from replay.errors import Violation

TITLES_DIR = Path(__file__).resolve().parent / "titles"
COLOUR_ORDER = ("yellow", "green", "brown", "gray")


@dataclass(frozen=True)
class TrainType:
    name: str
    count: int
    price: int
    salvage: int | None
    permanent: bool
    distance: int  # stops counted against the train's number
    counts_towns: bool
    multiplier: int
    obsolete_after_or: int | None
    available_after: str | None  # e.g. "6": only once that train type has been bought
    variants: tuple[TrainType, ...] = ()
    rusts_on: str | None = None  # the train type whose first purchase removes this one from play
    hex_edges: int | None = None  # a hex train: how many hex sides its route may cross (stops unlimited)


@dataclass(frozen=True)
class Phase:
    name: str
    tiles: tuple[str, ...]
    train_limit: int
    on: str | None = None  # the train type whose first purchase starts this phase
    operating_rounds: int | None = None  # ORs in a set that starts in this phase (when it varies)

    @property
    def colour(self) -> str:
        """The newest tile colour: the key of phase-dependent revenues."""
        return max(self.tiles, key=COLOUR_ORDER.index)


@dataclass(frozen=True)
class CorporationSpec:
    sym: str
    name: str
    home_hex: str
    home_city: int
    token_costs: tuple[int, ...]


@dataclass(frozen=True)
class CompanySpec:
    sym: str
    name: str
    value: int
    revenue: int


def _trigger_train(trigger: str) -> str | None:
    """The train named by a phase trigger such as 'purchase of the first 3-train'."""
    match = re.search(r"first ([\w+]+)-train", trigger)
    return match.group(1) if match else None


def read_title_file(slug: str, name: str) -> Any:
    """One JSON data file of a title folder."""
    return json.loads((TITLES_DIR / slug / name).read_text(encoding="utf-8"))


def _train(raw: dict[str, Any], count: int | None = None) -> TrainType:
    distance = raw["distance"]
    return TrainType(
        name=raw["name"],
        count=raw.get("count", count or 0) or 0,
        price=raw["price"],
        salvage=raw.get("salvage"),
        permanent=raw.get("permanent", True),
        distance=distance.get("cities_and_offboards", distance.get("all_stops", 0)),
        counts_towns=raw.get("counts_towns", True),
        multiplier=raw.get("revenue_multiplier", 1),
        obsolete_after_or=raw.get("obsolete_after_or"),
        available_after="6" if raw.get("available_after", "").startswith("first 6") else None,
        variants=tuple(_train(v, raw.get("count")) for v in raw.get("variants", ())),
        rusts_on=raw.get("rusts_on"),
        hex_edges=distance.get("hex_edges"),
    )


class Title:
    """Generic 18xx rules over one title's data. Subclasses override hooks for title rules."""

    name: str = ""
    slug: str = ""

    def __init__(self) -> None:
        game = read_title_file(self.slug, "game.json")
        self.starting_cash: dict[int, int] = {int(k): v for k, v in game["starting_cash"].items()}
        self.cert_limits: dict[int, int] = {int(k): v for k, v in game["cert_limit"].items()}
        limits = game["share_limits"]
        self.max_ownership = limits["max_ownership_percent"]
        self.market_pool_max = limits["market_pool_max_percent"]
        self.float_percent = limits["float_percent"]
        self.bank_cash: int | None = game["bank"]["cash"]  # None: unlimited
        self.par_values: tuple[int, ...] = tuple(game["par_values"])
        self.last_or: int | None = game["game_end"].get("after_or")
        self.bank_breaks: bool = game["bank"].get("breaks_game", False)
        self.capitalization: str = game["capitalization"]["type"]
        self.no_sales_in_first_sr: bool = game["stock_round"].get("no_sales_in_first_sr", False)
        self.sell_after_operated: bool = game["stock_round"].get("sell_only_after_operated", False)

        trains = read_title_file(self.slug, "trains.json")
        self.trains: tuple[TrainType, ...] = tuple(_train(t) for t in trains["trains"])
        phases = read_title_file(self.slug, "phases.json")
        self.phases: tuple[Phase, ...] = tuple(
            Phase(p["name"], tuple(p["tiles"]), p["train_limit"], _trigger_train(p.get("trigger", "")),
                  p.get("operating_rounds"))
            for p in phases["phases"]
        )
        self._ors_per_set: int | dict[str, int] = phases["ors_per_set"]

        companies = read_title_file(self.slug, "companies.json")
        self.corporations: tuple[CorporationSpec, ...] = tuple(
            CorporationSpec(c["sym"], c["name"], c["home"]["hex"], c["home"]["city"], tuple(c["token_costs"]))
            for c in companies["corporations"]
        )
        self.companies: tuple[CompanySpec, ...] = tuple(
            CompanySpec(p["sym"], p["name"], p["value"], p["revenue"]) for p in companies["privates"]
        )
        map_data = read_title_file(self.slug, "map.json")
        self.map: dict[str, dict[str, Any]] = map_data["hexes"]
        self.layout: str = map_data.get("layout", "pointy")
        self.printed: dict[str, TileGeometry] = dict(load_hexes(self.slug))
        self.tiles: Catalogue = load_catalogue(self.slug)
        self.rules: dict[str, dict[str, str]] = read_title_file(self.slug, "rules.json")["rules"]
        self._market_rows = read_title_file(self.slug, "market.json")["rows"]

    def certificates_of(self, sym: str) -> tuple[tuple[int, bool], ...]:
        """(percent, president) of a company's certificates, numbered from 0: by default a 20%
        president's certificate and eight 10% shares."""
        return ((20, True),) + ((10, False),) * 8

    def operating_order(self, game: Game, floated: list[str]) -> list[str]:
        """Floated companies in operating order: descending share price."""
        return sorted(floated, key=game.market.order_key)

    def private_counts(self, sym: str) -> bool:
        """Whether a private company counts against the certificate limit."""
        return True

    def value_holders(self, game: Game) -> dict[Any, Any]:
        """Holders outside the turn order whose net worth belongs to a player (holder -> player)."""
        return {}

    def printed_for(self, created: str | None) -> Mapping[str, TileGeometry]:
        """The printed map a game created on that day (ISO date, None: today) was played on."""
        return self.printed

    def __deepcopy__(self, memo: dict[int, Any]) -> Title:
        return self  # read-only data shared by every game of the title

    # ---------------------------------------------------------------- data helpers

    def new_market(self) -> StockMarket:
        rows = [
            [
                None if cell is None else Cell(r, c, cell["price"], cell.get("par", False), "yellow" if cell.get("yellow") else None)
                for c, cell in enumerate(row)
            ]
            for r, row in enumerate(self._market_rows)
        ]
        return StockMarket(rows)

    def train_type(self, name: str) -> TrainType:
        for train in self.trains:
            if train.name == name:
                return train
            for variant in train.variants:
                if variant.name == name:
                    return variant
        raise KeyError(name)

    def rule(self, key: str) -> Rule:
        """The title's rule for a generic key; an unmapped key still gets a stable id."""
        entry = self.rules.get(key)
        if entry is None:
            return Rule(f"{self.name}/{key}", "", key)
        return Rule(f"{self.name}/{entry['section']}-{key}", entry["section"], entry["text"])

    # ---------------------------------------------------------------- hooks (generic defaults)

    def first_round(self, game: Game) -> Any:
        """The round the game opens with (an auction or draft in most titles)."""
        raise NotImplementedError

    def stock_round(self, game: Game) -> Any:
        """A new stock round (a title with its own stock round rules returns its subclass)."""
        from replay.rounds import StockRound  # rounds depend on titles, not the other way round

        return StockRound(game)

    def operating_round(self, game: Game, number_in_set: int) -> Any:
        from replay.rounds import OperatingRound

        return OperatingRound(game, number_in_set)

    def setup(self, game: Game) -> None:
        """Title-specific setup after the generic one (special trains, random draws)."""

    home_token_at_float = False
    """Whether a company places its home station when it floats (else at its first operating turn)."""
    ipo_at_market_price = False
    """Whether unsold (treasury) certificates sell at the current price rather than at par."""
    sale_drop_per_share = True
    """Whether a sale drops the price one row per share sold (else once per sale)."""
    buy_then_sell = True
    """Whether a player may sell after buying in a stock turn (never sell, buy, sell)."""
    dividend_kinds: tuple[str, ...] = ("payout", "withhold")

    def before_operating_round(self, game: Game, round_: OperatingRound) -> None:
        """Called when an operating round starts, before private companies pay."""

    def after_operating_round(self, game: Game, round_: OperatingRound) -> None:
        """Called when an operating round ends, before the next round starts."""

    def ors_in_set(self, game: Game) -> int:
        """Operating rounds in the set after a stock round, fixed or by the phase then."""
        if isinstance(self._ors_per_set, int):
            return self._ors_per_set
        return self._ors_per_set[game.phase.name]

    def game_over_after_or(self, game: Game, round_: OperatingRound) -> bool:
        """After a fixed number of ORs, or at the end of the set in which the bank broke."""
        if self.last_or is not None and game.or_number >= self.last_or:
            return True
        return self.bank_breaks and game.bank < 0 and round_.number_in_set >= game.ors_this_set

    # -- stock

    def ipo_price(self, game: Game, sym: str) -> int:
        """Price of a 10% certificate from the initial offering (or treasury)."""
        if self.ipo_at_market_price:
            return game.share_price(sym)  # type: ignore[return-value]
        return game.corporations[sym].par_price  # type: ignore[return-value]

    def ipo_payee(self, sym: str) -> str | None:
        """Who is paid for initial-offering certificates: the bank (full) or the company (incremental)."""
        return sym if self.capitalization == "incremental" else None

    def on_float(self, game: Game, sym: str) -> None:
        """A company has just floated: full capitalization pays it ten times its par value."""
        if self.capitalization == "full":
            game.pay(None, sym, 10 * game.corporations[sym].par_price)  # type: ignore[operator]
        if self.home_token_at_float:
            self.place_home_token(game, sym)

    def dividend_choices(self, corporation: str) -> tuple[str, ...]:
        """The dividend kinds a corporation may choose."""
        return self.dividend_kinds

    def dividend_paid(self, corporation: str, kind: str, revenue: int) -> int:
        """How much of ``revenue`` a dividend of ``kind`` distributes (a half pays the larger half
        in whole $10 a share)."""
        return {"payout": revenue, "withhold": 0, "half": revenue - revenue // 20 * 10}[kind]

    def dividend_bonus(self, game: Game, sym: str) -> int:
        """An amount distributed on top of a payout (e.g. at the top of the market)."""
        return 0

    def shares_paying_company(self, sym: str) -> tuple[str, ...]:
        """Holders whose shares pay their dividends to the company itself."""
        return (MARKET,) if self.capitalization == "full" else (IPO,)

    def dividend_move(self, game: Game, sym: str, paid: int, revenue: int) -> str:
        """How the share price moves after a company distributed ``paid`` of ``revenue``: right,
        left or none."""
        return "right" if paid > 0 else "left"

    def after_dividend(self, game: Game, sym: str, first: bool) -> None:
        """Effects of a company's dividend step (``first``: its first operating turn)."""

    def floats(self, game: Game, sym: str) -> bool:
        """Whether a started company has sold enough to float: its percent out of the offering."""
        return 100 - game.percent(IPO, sym) >= self.float_percent

    def sold_out(self, game: Game, sym: str) -> bool:
        """No share left in the initial offering or the open market (the price rises)."""
        return not any(s.owner in (IPO, MARKET) for s in game.shares_of[sym])

    def rusts_later(self, game: Game, train: Train) -> bool:
        """Whether a train of a type that rusts now stays in play a little longer (it rusts later
        through ``Game.rust_train``)."""
        return False

    def on_phase(self, game: Game, phase: Phase) -> None:
        """A new phase has started: trains that rust on it leave play."""
        for train_type in self.trains:
            if phase.on is not None and train_type.rusts_on == phase.on:
                game.rust(train_type.name, None)

    # -- track

    def tile_lays(self, game: Game, round_: OperatingRound) -> int:
        """How many tile lays the operating corporation has this turn."""
        return 1

    def tile_lay_slots(self, game: Game, round_: OperatingRound) -> int:
        """Lays after which the track step is over by itself (18xx.games counts slots, not what
        a slot still allows: after an upgrade that forbids a second lay, a pass ends the step)."""
        return self.tile_lays(game, round_)

    def company_lays_open(self, game: Game, round_: OperatingRound) -> bool:
        """Whether a private could still lay track for the operating company this turn (the
        track step then stays open for it)."""
        return False

    def last_step_open(self, game: Game, round_: OperatingRound) -> bool:
        """Whether the turn's last step (buying a private; in some titles issuing or redeeming
        shares) offers the operating company anything, so that only a pass ends the turn."""
        return self.may_buy_company(game, round_)

    def company_for_sale(self, game: Game, round_: OperatingRound, company: CompanyState) -> bool:
        """Whether the operating company may buy this private: by default from its president."""
        president = game.president(round_.corp) if round_.corp else None
        return president is not None and company.owner == president

    def may_buy_company(self, game: Game, round_: OperatingRound) -> bool:
        """Whether the operating company could buy a private from its president now."""
        corp = round_.corp
        for company in game.companies.values():
            if company.closed or not self.company_for_sale(game, round_, company):
                continue
            try:
                low, _ = self.company_price_range(game, round_, company)
            except Violation:
                continue
            if game.cash(corp) >= low:  # type: ignore[arg-type]
                return True
        return False

    def check_lay_rules(self, game: Game, round_: OperatingRound, action: Action, turned: Any) -> None:
        """Title restrictions on a tile lay beyond the board's own checks."""

    one_token_per_hex = False
    """Whether a company may have only one station per hex (else per city)."""
    player_privates_act = False
    """Whether a private a player owns acts (lays track, places stations) for that player's companies."""

    def lay_as_if(self, game: Game, action: Action) -> str | None:
        """A colour to treat the hex's tile as (an ability that skips a colour), or None."""
        return None

    def lay_needs_route(self, game: Game, round_: OperatingRound, action: Action) -> bool:
        """Whether a tile lay must connect to the company's network (special abilities may not)."""
        return True

    def token_needs_route(self, game: Game, round_: OperatingRound, action: Action) -> bool:
        return True

    def discard(self, game: Game, train: Train) -> None:
        """A discarded train goes back to the bank (some titles remove it from the game)."""
        train.owner = None

    def check_issue(self, game: Game, round_: OperatingRound, action: Action) -> None:
        raise Violation("issue", f"{self.name} companies do not issue shares")

    def check_redeem(self, game: Game, round_: OperatingRound, action: Action) -> None:
        raise Violation("redeem", f"{self.name} companies do not redeem shares")

    def check_company_lay(self, game: Game, round_: OperatingRound, action: Action) -> bool:
        """A private company laying track for its owner: refused unless a title grants it.

        Returns whether the lay counts as the company's own tile lay (else it is an extra one).
        """
        raise Violation("company-ability", f"{action.entity.id} has no ability to lay track")

    def after_tile_laid(self, game: Game, corporation: str, hex_id: str) -> None:
        """Bonuses for building somewhere (e.g. a first connection)."""

    # -- stations

    def place_home_token(self, game: Game, corporation: str) -> None:
        """Put a corporation's home station down at the start of its first operating turn."""
        spec = next(c for c in self.corporations if c.sym == corporation)
        slots = game.board.tokens_in(spec.home_hex, spec.home_city)
        if corporation in slots or None not in slots:
            return
        game.board.place_token(spec.home_hex, spec.home_city, slots.index(None), corporation)
        game.corporations[corporation].tokens_placed.append(f"{spec.home_hex}-{spec.home_city}")

    def stations_of(self, game: Game, corporation: str) -> int:
        """How many stations a corporation has in all (placed or not)."""
        return len(next(c for c in self.corporations if c.sym == corporation).token_costs)

    def slot_reserved(self, game: Game, corporation: str, hex_id: str, city: int) -> bool:
        """Whether the last free slot of a city is kept for a home station not yet placed."""
        free = game.board.tokens_in(hex_id, city).count(None)
        waiting = [
            c for c in self.corporations
            if c.sym != corporation and c.home_hex == hex_id and c.home_city == city
            and not game.corporations[c.sym].tokens_placed
        ]
        return bool(waiting) and free <= len(waiting)

    def token_cost(self, game: Game, corporation: str, action: Action, cost: int) -> int:
        return cost

    def after_token_placed(self, game: Game, corporation: str, hex_id: str) -> None:
        """Bonuses for placing a station somewhere."""

    # -- trains

    def must_own_train(self, corporation: str) -> bool:
        """Whether a corporation without a train must buy one (7.6.3 in most titles)."""
        return True

    def available_from_bank(self, game: Game) -> list[str]:
        """Train types the bank sells now: the lowest type left, plus any unlocked by a purchase."""
        bought = {t.name for t in game.trains.values() if t.owner is not None or t.rusted}
        bought |= {v.name for t in self.trains for v in t.variants if t.name in bought}
        available = []
        for train_type in self.trains:
            left = [t for t in game.trains.values() if t.id.rsplit("-", 1)[0] == train_type.name and t.owner is None and not t.rusted and not t.reserved]
            if not left:
                continue
            if train_type.available_after is None and not available:
                available.append(train_type.name)
            elif train_type.available_after is not None and train_type.available_after in bought:
                available.append(train_type.name)
        return available

    def train_price(self, game: Game, train: Train, variant: str | None) -> int:
        """Face value of a bank train, bought as its own type or as one of its variants (2D as 4D)."""
        card = self.train_type(train.id.rsplit("-", 1)[0])
        if not variant or variant == card.name:
            return card.price
        chosen = next((v for v in card.variants if v.name == variant), None)
        if chosen is None:
            raise Violation("train-price", f"a {card.name} train cannot be bought as a {variant!r}")
        return chosen.price

    def buy_from_bank(self, game: Game, round_: OperatingRound, action: Action, train: Train, price: int) -> None:
        """Buy a new train at face value; a corporation without trains may get its president's cash."""
        corp = round_.corp
        assert corp is not None
        card = train.id.rsplit("-", 1)[0]
        if train.reserved or card not in self.available_from_bank(game):
            raise Violation("train-order", f"{card} trains are not for sale yet; the bank sells {', '.join(self.available_from_bank(game))}")
        variant = action.fields.get("variant")
        due = self.train_price(game, train, variant)
        if price != due:
            raise Violation("train-price", f"a new {variant or card} train costs ${due}, not ${price}")
        self.fund_purchase(game, round_, price, variant or card)
        self.sell_bank_train(game, corp, train, price, variant or card)

    def sell_bank_train(self, game: Game, corp: str, train: Train, price: int, name: str) -> None:
        """The bank sells a train (already checked): payment, delivery, the phase it starts."""
        card = train.id.rsplit("-", 1)[0]
        game.pay(corp, None, price)
        train.name = name
        game.deliver_train(train, corp, price, "bank")
        for phase in self.phases:
            if phase.on == card:
                game.set_phase(phase.name)
        self.after_train_bought(game, corp, train.name)

    def fund_purchase(self, game: Game, round_: OperatingRound, price: int, train_name: str) -> None:
        """Make sure the corporation can pay ``price``, with its president's help where allowed."""
        corp = round_.corp
        assert corp is not None
        shortfall = price - game.cash(corp)
        if shortfall <= 0:
            return
        president = game.president(corp)
        if game.corporation_trains(corp) or president is None:
            raise Violation("cash", f"{corp} has ${game.cash(corp)}, less than ${price}")
        if game.cash(president) < shortfall:
            raise Violation("forced-purchase", f"{game.player_name(president)} cannot pay the ${shortfall} {corp} lacks")
        game.pay(president, corp, shortfall)

    def on_bankruptcy(self, game: Game, player: Any) -> None:
        """What a bankrupt player gives up before the game ends (by default nothing)."""

    def check_train_transfer(self, game: Game, round_: OperatingRound, train: Train) -> None:
        """Title limits on buying a train from another corporation."""

    def after_train_bought(self, game: Game, corporation: str, train_name: str) -> None:
        """Phase changes and events triggered by a purchase."""

    # -- private companies

    def company_price_range(self, game: Game, round_: OperatingRound, company: CompanyState) -> tuple[int, int]:
        return company.value // 2, company.value * 3 // 2

    def after_company_bought(self, game: Game, round_: OperatingRound, company: CompanyState) -> None:
        """Effects of a corporation buying a private (e.g. an exchange for a train)."""

    # -- revenue

    def route_bonus(self, game: Game, corporation: str, route: Route) -> int:
        """Extra revenue a route earns beyond its stops (e.g. a company's hex bonus)."""
        return 0


@cache
def title_named(name: str) -> Title:
    """The title with this 18xx.games name, its data loaded once per process.

    Raises NotImplementedError for a known title whose engine is not written yet.
    """
    if name not in TITLES:
        raise KeyError(f"unknown title {name!r}")
    try:
        module = importlib.import_module(f"replay.titles.{TITLES[name]}")
    except ModuleNotFoundError:
        module = None
    title_class = getattr(module, "TITLE_CLASS", None)  # a title folder may hold its data before its rules
    if title_class is None:
        raise NotImplementedError(f"no replay engine for {name} yet (its data is in replay/titles/{TITLES[name]})")
    return title_class()
