"""A title's data: the JSON files of ``replay/titles/<package>/``, read once per process.

Everything a title *is* (its map, tiles, market, trains, phases, companies, privates and their
abilities, limits) lives in data; :mod:`replay.rules` and the title's own steps say what it
*does*. Nothing here knows about rounds or steps.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from railledger.replay.errors import Rule
from railledger.replay.geometry import Catalogue, TileGeometry, catalogue_from, hexes_from, load_catalogue, load_hexes
from railledger.replay.hexgrid import neighbour
from railledger.replay.market import Cell, StockMarket

if TYPE_CHECKING:
    from railledger.replay.variant import Variant

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
    color: str = "#555555"
    """The company's colour as 18xx.games draws its stations and charter (a CSS colour)."""
    text_color: str = "#ffffff"
    """The colour of its symbol written on :attr:`color` (18xx.games' default: white)."""


def corporation_from(raw: dict[str, Any]) -> CorporationSpec:
    """A corporation as a title's companies.json writes it; one without a printed home (1871's
    branches and PEIR) gets an empty home hex."""
    home = raw.get("home") or {"hex": "", "city": 0}
    return CorporationSpec(raw["sym"], raw["name"], home["hex"], home["city"], tuple(raw["token_costs"]),
                           raw["color"], raw.get("text_color", "#ffffff"))


@dataclass(frozen=True)
class Ability:
    """One ability of a private company as its title's companies.json writes it.

    ``type`` names the mechanism (``tile_lay``, ``token_discount``, ``exchange_for_train``,
    ``train_discount``, ``blocks_hexes``, ``teleport``, ...); the other keys are its parameters,
    read by the step that implements that mechanism.
    """

    type: str
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)

    @cached_property
    def for_owning_player(self) -> bool:
        """A private a player owns whose ability acts for that player's companies (18xx.games:
        owner type "player", a timing naming "owning_player")."""
        return self.get("owner_type") == "player" and any("owning_player" in t for t in self.get("timing", ()))


@dataclass(frozen=True)
class CompanySpec:
    sym: str
    name: str
    value: int
    revenue: int
    abilities: tuple[Ability, ...] = ()
    min_players: int = 0
    raw: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def ability(self, kind: str) -> Ability | None:
        return next((a for a in self.abilities if a.type == kind), None)


def _trigger_train(trigger: str) -> str | None:
    """The train named by a phase trigger such as 'purchase of the first 3-train'."""
    match = re.search(r"first ([\w+]+)-train", trigger)
    return match.group(1) if match else None


def read_title_file(package: str, name: str) -> Any:
    """One JSON data file of a title folder."""
    return json.loads((TITLES_DIR / package / name).read_text(encoding="utf-8"))


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


def _company(raw: dict[str, Any]) -> CompanySpec:
    abilities = tuple(
        Ability(a["type"], {k: v for k, v in a.items() if k != "type"}) for a in raw.get("abilities", ())
    )
    return CompanySpec(raw["sym"], raw["name"], raw["value"], raw["revenue"], abilities, raw.get("min_players", 0), raw)


class TitleData:
    """The data of one title, loaded from its folder (``package``), with a variant's changes when
    it is played with one (:mod:`replay.variant`)."""

    name: str = ""
    package: str = ""

    def __init__(self, variant: Variant | None = None) -> None:
        self.variant = variant
        game = self.data_file("game.json")
        self.game_file: dict[str, Any] = game
        self.starting_cash: dict[int, int] = {int(k): v for k, v in game["starting_cash"].items()}
        self.cert_limits: dict[int, int] = {int(k): v for k, v in game["cert_limit"].items()}
        limits = game["share_limits"]
        self.max_ownership: int = limits["max_ownership_percent"]
        self.market_pool_max: int = limits["market_pool_max_percent"]
        self.float_percent: int = limits["float_percent"]
        self.bank_cash: int | None = game["bank"]["cash"]  # None: unlimited
        self.par_values: tuple[int, ...] = tuple(game.get("par_values", ()))
        self.last_or: int | None = game["game_end"].get("after_or")
        self.bank_breaks: bool = game["bank"].get("breaks_game", False)
        self.capitalization: str = game["capitalization"]["type"]
        self.no_sales_in_first_sr: bool = game["stock_round"].get("no_sales_in_first_sr", False)
        self.sell_after_operated: bool = game["stock_round"].get("sell_only_after_operated", False)

        trains = self.data_file("trains.json")
        self.trains_file: dict[str, Any] = trains
        self.trains: tuple[TrainType, ...] = tuple(_train(t) for t in trains["trains"])
        phases = self.data_file("phases.json")
        self.phases: tuple[Phase, ...] = tuple(
            Phase(p["name"], tuple(p["tiles"]), p["train_limit"], _trigger_train(p.get("trigger", "")),
                  p.get("operating_rounds"))
            for p in phases["phases"]
        )
        self.ors_per_set: int | dict[str, int] = phases["ors_per_set"]

        companies = self.data_file("companies.json")
        self.companies_file: dict[str, Any] = companies
        self.corporations: tuple[CorporationSpec, ...] = tuple(corporation_from(c) for c in companies["corporations"])
        self.companies: tuple[CompanySpec, ...] = tuple(_company(p) for p in companies["privates"])
        map_data = self.data_file("map.json")
        self.map: dict[str, dict[str, Any]] = map_data["hexes"]
        self.layout: str = map_data.get("layout", "pointy")
        self.printed: dict[str, TileGeometry] = (dict(load_hexes(self.package)) if variant is None
                                                 else dict(hexes_from(map_data["hexes"])))
        self.tiles: Catalogue = (load_catalogue(self.package) if variant is None
                                 else catalogue_from(self.package, self.data_file("tiles.json")))
        self.rules: dict[str, dict[str, str]] = self.data_file("rules.json")["rules"]
        self.market_rows: list[list[dict[str, Any] | None]] = self.data_file("market.json")["rows"]

    def data_file(self, name: str) -> Any:
        """One of the title's data files, as the variant it is played with changes it."""
        base = read_title_file(self.package, name)
        return base if self.variant is None else self.variant.data_file(self.package, name, base)

    def __deepcopy__(self, memo: dict[int, Any]) -> TitleData:
        return self  # read-only data shared by every game of the title

    @cached_property
    def neighbours(self) -> Mapping[str, tuple[str | None, ...]]:
        """Each hex of the board (not the map's empty places) -> the board hex across each of its
        six edges, or None: the network walk asks this at every step."""
        board = {hex_id for hex_id, spec in self.map.items() if spec.get("color") != "empty"}
        return MappingProxyType({
            hex_id: tuple(other if other in board else None for other in (neighbour(hex_id, e, self.layout) for e in range(6)))
            for hex_id in board
        })

    def new_market(self) -> StockMarket:
        rows = [
            [
                None if cell is None else Cell(r, c, cell["price"], cell.get("par", False), "yellow" if cell.get("yellow") else None)
                for c, cell in enumerate(row)
            ]
            for r, row in enumerate(self.market_rows)
        ]
        return StockMarket(rows)

    def train_type(self, name: str) -> TrainType:
        """A train type or variant by name (looked up on every route and purchase: a dict, made
        again whenever a title replaces its train list)."""
        built = self.__dict__.get("_train_types")
        if built is None or built[0] is not self.trains:
            by_name: dict[str, TrainType] = {}
            for train in self.trains:
                for kind in (train, *train.variants):
                    by_name.setdefault(kind.name, kind)
            built = (self.trains, by_name)
            self.__dict__["_train_types"] = built
        return built[1][name]

    def corporation_spec(self, sym: str) -> CorporationSpec:
        spec: CorporationSpec = self._by_sym("corporations")[sym]
        return spec

    def company_spec(self, sym: str) -> CompanySpec:
        spec: CompanySpec = self._by_sym("companies")[sym]
        return spec

    def ability_of(self, sym: str, kind: str) -> Ability | None:
        """The private's ability of this kind in companies.json; None without one, or for a
        company the title makes at setup (1871's PEIR share privates)."""
        spec: CompanySpec | None = self._by_sym("companies").get(sym)
        return spec.ability(kind) if spec is not None else None

    def _by_sym(self, specs: str) -> dict[str, Any]:
        """The specs of ``corporations`` or ``companies`` by symbol (the first of each, as a scan
        finds it): steps ask for one at every tile lay checked and every listing of a turn, so
        the index is made once, and again whenever a title replaces the tuple."""
        found = getattr(self, specs)
        built = self.__dict__.get(f"_{specs}_by_sym")
        if built is None or built[0] is not found:
            index: dict[str, Any] = {}
            for spec in found:
                index.setdefault(spec.sym, spec)
            built = (found, index)
            self.__dict__[f"_{specs}_by_sym"] = built
        return built[1]

    def rule(self, key: str) -> Rule:
        """The title's rule for a generic key; an unmapped key still gets a stable id."""
        entry = self.rules.get(key)
        if entry is None:
            return Rule(f"{self.name}/{key}", "", key)
        return Rule(f"{self.name}/{entry['section']}-{key}", entry["section"], entry["text"])

    def phase_index(self, name: str) -> int:
        return [p.name for p in self.phases].index(name)
