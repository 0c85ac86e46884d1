"""The position after one action of a game, as the game review shows it: the map, the private
companies, the spreadsheet (players, companies, the bank, trains and phase) and every action that
was legal instead of that one.

The archive keeps per-action numbers (cash, prices, trains) but not the board, because tiles and
tokens are bulky to store per action and cheap to rebuild: replaying one 18MS game takes a few
tens of milliseconds. So the position at a step is replayed from the record on demand, one game at
a time, the way ingest replayed it (``keep_going``: an illegal action is flagged and skipped), and
the legal-action generator is asked, on the way, what could have been done instead. Everything
here is read from the engine's state, never inferred from the record.
"""

from __future__ import annotations

from dataclasses import dataclass

from railledger.ingest.identity import seat_labels
from railledger.ingest.model import PlayerId, Record
from railledger.replay import Game, IllegalAction
from railledger.replay.hexgrid import coordinates
from railledger.replay.rounds.operating import OperatingRound
from railledger.replay.sentences import OfferGroup, group_offers
from railledger.replay.snapshot import take_snapshot
from railledger.replay.state import IPO, MARKET
from railledger.replay.titles import SUPPORTED, title_named


@dataclass(frozen=True, slots=True)
class HexView:
    """One hex as the map draws it. Paths keep the engine's endpoint names (``e0``..``e5``,
    ``c0``, ``t0``, ``o0``), already turned to the tile's rotation; ``revenues`` holds each stop's
    revenue in the current phase, in that node order (cities, towns, offboards)."""

    hex: str
    x: int
    y: int
    tile: str
    """The laid tile's number ("57"), or "" for the hex as printed."""
    rotation: int
    colour: str
    label: str | None
    location: str | None
    paths: tuple[tuple[str, str], ...]
    cities: tuple[tuple[str | None, ...], ...]
    """Per city, its station slots: a corporation symbol or None for a free slot."""
    towns: int
    offboards: int
    layout: str = "pointy"  # the map's hex orientation: "pointy" or "flat" (1871)
    revenues: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PrivateView:
    """A private company after a step: who holds it (a player's name, a company's symbol, or
    ``bank``) and whether it has closed."""

    company: str
    name: str
    owner: str
    value: int
    revenue: int
    closed: bool


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player's line of the spreadsheet."""

    name: str
    cash: int
    certificates: int
    """Certificates counting against the limit (none in a yellow zone; privates count)."""
    shares: tuple[tuple[str, int], ...]
    """(company, percent) of every company the player holds shares of."""
    privates: tuple[str, ...]
    value: int
    priority: bool
    """Holds the priority deal: first to act in the next stock round."""


@dataclass(frozen=True, slots=True)
class CompanyRow:
    """A company's line of the spreadsheet. ``cell`` is its (row, column) on the stock market;
    ``order`` its place in the operating round under way (or the next one, by price)."""

    sym: str
    name: str
    price: int | None
    cell: tuple[int, int] | None
    par: int | None
    ipo: int
    market: int
    treasury: int
    trains: tuple[str, ...]
    tokens_left: int
    tokens: int
    president: str | None
    order: int | None
    operating: bool
    """It is this company's operating turn."""
    floated: bool
    closed: bool


@dataclass(frozen=True, slots=True)
class TrainRow:
    """A train type: its price, how many the bank still holds (None: without limit), and the
    type whose first purchase removes it from play (None: permanent)."""

    name: str
    price: int
    left: int | None
    rusts: str | None


@dataclass(frozen=True, slots=True)
class Sheet:
    """The spreadsheet of a position, as 18xx.games' own shows it."""

    players: tuple[PlayerRow, ...]
    companies: tuple[CompanyRow, ...]
    unstarted: tuple[str, ...]
    """Companies without a par price yet."""
    cert_limit: int
    bank: int | None
    """The bank's cash; None for a title whose bank has no limit."""
    phase: str
    train_limit: int
    tiles: tuple[str, ...]
    trains: tuple[TrainRow, ...]


@dataclass(frozen=True, slots=True)
class Position:
    """The position after action ``seq``: the map, the private companies, the spreadsheet, that
    action's flag, if any, and every move that was legal instead of it, in sentences grouped by
    kind, the one the record made marked (:func:`replay.sentences.group_offers`)."""

    seq: int
    hexes: tuple[HexView, ...]
    flag: str | None
    privates: tuple[PrivateView, ...] = ()
    offers: tuple[OfferGroup, ...] = ()
    sheet: Sheet | None = None


def can_replay(record: Record) -> bool:
    """Whether the engine can set the record's game up (its title has a complete engine, for
    that many players), so its board, spreadsheet and market can be shown."""
    return record.title in SUPPORTED and len(record.players) in title_named(record.title).starting_cash


def company_colours(title: str) -> dict[str, tuple[str, str]]:
    """Each company of a title -> (its colour, its symbol's colour), from the title's data, as
    18xx.games draws them."""
    return {spec.sym: (spec.color, spec.text_color) for spec in title_named(title).corporations}


def position_at(record: Record, seq: int) -> Position:
    """Replay ``record`` up to and including action ``seq`` and return the position to show,
    with the legal actions the game offered just before action ``seq``.

    Raises KeyError for a game the engine cannot set up (:func:`can_replay`) and IndexError for
    a step outside the record.
    """
    if not can_replay(record):
        raise KeyError(f"no replay engine for {record.title} with {len(record.players)} players")
    if not 0 <= seq < len(record.actions):
        raise IndexError(f"step {seq} is outside the record's {len(record.actions)} actions")
    game = Game.from_record(record)
    flag = None
    offers: tuple[OfferGroup, ...] = ()
    for index, action in enumerate(record.actions[: seq + 1]):
        if index == seq:
            offers = tuple(group_offers(game, game.legal_actions(), action))
        try:
            game.process(action)
        except IllegalAction as illegal:
            if index == seq:
                flag = f"{illegal.rule_id}: {illegal.message}"
    return Position(seq, _hexes(game), flag, _privates(game, record), offers, _sheet(game, record))


def _hexes(game: Game) -> tuple[HexView, ...]:
    spec, colour = game.title.map, game.phase.colour
    hexes = []
    for hex_id, placed in game.board.hexes.items():
        geometry = placed.geometry
        x, y = coordinates(hex_id, game.title.layout)
        stops = (*geometry.cities, *geometry.towns, *geometry.offboards)
        hexes.append(HexView(
            hex=hex_id, x=x, y=y,
            tile=placed.tile_id.rsplit("-", 1)[0] if placed.tile_id != f"{hex_id}-0" else "",
            rotation=placed.rotation,
            colour=geometry.color,
            label=geometry.label,
            location=spec[hex_id].get("location"),
            paths=tuple(sorted((min(path), max(path)) for path in geometry.paths)),
            cities=tuple(tuple(placed.tokens.get(i, [None] * city.slots)) for i, city in enumerate(geometry.cities)),
            towns=len(geometry.towns),
            offboards=len(geometry.offboards),
            layout=game.title.layout,
            revenues=tuple(stop.revenue_in(colour) for stop in stops),
        ))
    return tuple(hexes)


def _privates(game: Game, record: Record) -> tuple[PrivateView, ...]:
    names = seat_labels(record)
    return tuple(
        PrivateView(company.sym, company.name,
                    "bank" if company.owner is None else names.get(company.owner, str(company.owner)),
                    company.value, company.revenue, company.closed)
        for company in game.companies.values()
    )


def _sheet(game: Game, record: Record) -> Sheet:
    names = seat_labels(record)
    values = dict((pid, view.value) for pid, view in take_snapshot(game).players)
    players = tuple(
        PlayerRow(
            name=names.get(pid, str(pid)),
            cash=game.players[pid].cash,
            certificates=game.certificates(pid),
            shares=tuple((sym, percent) for sym in game.corporations if (percent := game.percent(pid, sym))),
            privates=tuple(c.sym for c in game.companies.values() if c.owner == pid and not c.closed),
            value=values[pid],
            priority=game.priority == pid,
        )
        for pid in game.order
    )
    started = [sym for sym, corp in game.corporations.items() if corp.par_price is not None or corp.floated]
    operating = game.round if isinstance(game.round, OperatingRound) and not game.round.finished else None
    queue = operating.queue if operating else game.floated_in_order()  # else the next round's, by price
    current = operating.corporation if operating else None
    companies = tuple(_company_row(game, sym, names, queue, current) for sym in started)
    phase = game.phase
    return Sheet(
        players=players,
        companies=tuple(sorted(companies, key=lambda c: (c.closed, c.order is None, c.order or 0, -(c.price or 0)))),
        unstarted=tuple(sym for sym in game.corporations if sym not in started),
        cert_limit=game.cert_limit(),
        bank=None if game.title.bank_cash is None else game.bank,
        phase=phase.name,
        train_limit=phase.train_limit,
        tiles=phase.tiles,
        trains=_trains(game),
    )


def _company_row(game: Game, sym: str, names: dict[PlayerId, str], queue: list[str], current: str | None) -> CompanyRow:
    corp = game.corporations[sym]
    cell = game.market.position.get(sym)
    president = game.president(sym)
    tokens = len(game.title.corporation_spec(sym).token_costs)
    return CompanyRow(
        sym=sym, name=corp.name,
        price=cell.price if cell else None,
        cell=(cell.row, cell.column) if cell else None,
        par=corp.par_price,
        ipo=game.percent(IPO, sym),
        market=game.percent(MARKET, sym),
        treasury=corp.cash,
        trains=tuple(train.name for train in game.corporation_trains(sym)),
        tokens_left=max(tokens - len(corp.tokens_placed), 0),
        tokens=tokens,
        president=None if president is None else names.get(president, str(president)),
        order=queue.index(sym) + 1 if sym in queue else None,
        operating=sym == current,
        floated=corp.floated,
        closed=corp.closed,
    )


def _trains(game: Game) -> tuple[TrainRow, ...]:
    """Every train type of the title, with how many the bank still holds: trains nobody owns that
    have not rusted and are not set aside (a discarded train is the bank's again). A type the
    title's data gives no count is without limit (1871's diesels)."""
    in_bank: dict[str, int] = {}
    for train in game.trains.values():
        if train.owner is None and not train.rusted and not train.reserved:
            in_bank[train.card] = in_bank.get(train.card, 0) + 1
    unlimited = {raw["name"] for raw in game.title.trains_file["trains"] if not raw.get("count")}
    return tuple(
        TrainRow(kind.name, kind.price, None if kind.name in unlimited else in_bank.get(kind.name, 0), kind.rusts_on)
        for kind in game.title.trains
    )
