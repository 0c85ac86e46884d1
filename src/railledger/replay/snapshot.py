"""Immutable snapshots of a game's state: what review, storage and ``--states`` need per action.

:func:`take_snapshot` scans every certificate, train and company; :class:`Snapshots` takes one
after every action of a replay for the cost of what the action changed: the game's entities note
their changes in a :class:`~replay.state.ChangeLog`, and only the views of what changed are
built again (a snapshot reuses the previous one's other views). Both give equal snapshots.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from railledger.ingest.model import PlayerId
from railledger.replay.state import ChangeLog, Holder

if TYPE_CHECKING:
    from railledger.replay.game import Game


@dataclass(frozen=True, slots=True)
class PlayerView:
    cash: int
    shares: tuple[tuple[str, int], ...]  # (corporation, percent), held only
    value: int


@dataclass(frozen=True, slots=True)
class CorporationView:
    price: int | None
    cash: int
    trains: tuple[str, ...]
    president: PlayerId | None
    floated: bool
    tokens: int
    cell: tuple[int, int] | None = None  # (row, column) on the stock market
    closed: bool = False


@dataclass(frozen=True, slots=True)
class Snapshot:
    round: str  # the round the action was taken in (its effects may reach into the next round's start)
    phase: str
    players: tuple[tuple[PlayerId, PlayerView], ...]
    corporations: tuple[tuple[str, CorporationView], ...]

    def as_dict(self) -> dict[str, Any]:
        """The ``--states`` JSON form."""
        return {
            "round": self.round,
            "phase": self.phase,
            "players": {str(pid): {"cash": v.cash, "shares": dict(v.shares)} for pid, v in self.players},
            "companies": {
                sym: {"price": v.price, "cash": v.cash, "trains": list(v.trains), "president": v.president}
                for sym, v in self.corporations
            },
        }


def take_snapshot(game: Game) -> Snapshot:
    """One pass over shares, trains and privates: this runs after every action of an ingest."""
    prices = {sym: (cell.price, (cell.row, cell.column)) for sym, cell in game.market.position.items()}
    extra = game.title.value_holders(game)
    holders = [*game.order, *extra]
    holdings: dict[PlayerId, dict[str, int]] = {pid: {} for pid in holders}
    worth: dict[PlayerId, int] = {pid: game.players[pid].cash for pid in holders}
    for share in game.shares.values():
        held = holdings.get(share.owner)
        if held is None:
            continue
        held[share.corporation] = held.get(share.corporation, 0) + share.percent
        worth[share.owner] += prices.get(share.corporation, (0, None))[0] * share.percent // 10
    for company in game.companies.values():
        if company.owner in worth and not company.closed:
            worth[company.owner] += company.value
    for holder, beneficiary in extra.items():
        if beneficiary in worth:
            worth[beneficiary] += worth[holder]
    trains: dict[str, list[str]] = {sym: [] for sym in game.corporations}
    for train in game.trains.values():
        if train.owner in trains and not train.rusted:
            trains[train.owner].append(train.name)
    presidents = {s.corporation: s.owner for s in game.shares.values() if s.president and s.owner in holdings}
    presidents.update({sym: c.operator for sym, c in game.corporations.items() if c.operator is not None})
    return Snapshot(
        round=game.acted_in or game.round.label,
        phase=game.phase.name,
        players=tuple(
            (pid, PlayerView(game.players[pid].cash, tuple(sorted(holdings[pid].items())), worth[pid])) for pid in game.order
        ),
        corporations=tuple(
            (
                sym,
                CorporationView(
                    prices[sym][0] if sym in prices else None, corp.cash, tuple(trains[sym]), presidents.get(sym),
                    corp.floated, len(corp.tokens_placed), prices[sym][1] if sym in prices else None, corp.closed,
                ),
            )
            for sym, corp in game.corporations.items()
        ),
    )


@dataclass(slots=True)
class _Holdings:
    """One corporation's certificates as the snapshot counts them, per owner: percent held and
    worth at the current price (each certificate's worth rounded down, as the full scan does),
    and the owners of its president's certificates in charter order."""

    price: tuple[int, tuple[int, int]] | None
    by_owner: dict[Holder, list[int]]  # owner -> [percent, worth]
    president_owners: tuple[Holder, ...]


class Snapshots:
    """Snapshots of one game after each of its actions, each built from the previous one and
    the game's change log (see the module's docstring); the first one scans everything."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._start()

    def _start(self) -> None:
        """Forget every view: the next snapshot scans the whole game."""
        game = self.game
        self.log: ChangeLog = game.track_changes()
        self.sizes = self._sizes()
        self.order = tuple(game.order)
        self.extra: dict[Holder, Holder] = {}
        self.holdings: dict[str, _Holdings] = {}
        self.trains: dict[str, tuple[str, ...]] = {}
        self.private_worth: dict[Holder, int] = {}
        self.own_worth: dict[Holder, int] = {}
        self.corporations: dict[str, tuple[str, CorporationView]] = {}
        self.players: dict[PlayerId, tuple[PlayerId, PlayerView]] = {}
        self.tokens: dict[str, int] = {}
        self.player_row: tuple[tuple[PlayerId, PlayerView], ...] = ()  # the last snapshot's, kept while no view changes
        self.corporation_row: tuple[tuple[str, CorporationView], ...] = ()
        self.everything = True  # the next snapshot builds every view

    def _sizes(self) -> tuple[int, ...]:
        game = self.game
        return len(game.players), len(game.corporations), len(game.companies), len(game.shares), len(game.trains)

    def take(self) -> Snapshot:
        game = self.game
        if self._sizes() != self.sizes or tuple(game.order) != self.order:
            self._start()  # entities came or went
        log, everything = self.log, self.everything
        corporations = game.corporations
        touched_corps = set(corporations) if everything else set(log.corporations)
        touched_holders: set[Holder] = set(game.players) if everything else set(log.players)
        extra = game.title.value_holders(game)
        if extra != self.extra:
            self.extra = extra
            touched_holders.update(game.players)
            touched_corps.update(corporations)  # presidents are counted among the holders
        self._recount_corporations(set(corporations) if everything else log.shares, touched_corps, touched_holders)
        train_owners = set(corporations) if everything else {o for o in log.trains if o is not None and o in corporations}
        if train_owners:
            self._count_trains(train_owners)
            touched_corps.update(train_owners)
        if everything or log.companies:
            self._count_privates(touched_holders)
        holders = {*game.order, *extra}
        touched_holders &= holders
        if touched_holders:  # most actions of an operating round move no player's cash, share or worth
            self._player_views(touched_holders)
            self.player_row = tuple(map(self.players.__getitem__, game.order))
        if touched_corps:  # over half the actions of a replay change no company's view either
            for sym in touched_corps:
                self.corporations[sym] = (sym, self._corporation_view(sym, holders))
            self.corporation_row = tuple(map(self.corporations.__getitem__, corporations))
        log.clear()
        self.everything = False
        return Snapshot(round=game.acted_in or game.round.label, phase=game.phase.name,
                        players=self.player_row, corporations=self.corporation_row)

    def _recount_corporations(self, share_corps: set[str], touched_corps: set[str], touched_holders: set[Holder]) -> None:
        """Count again the certificates of each corporation whose certificates moved or whose
        price changed, noting the holders and corporations whose views that touches; note the
        corporations that placed a token."""
        game = self.game
        position = game.market.position
        for sym in share_corps | self.log.prices:
            cell = position.get(sym)
            price = (cell.price, (cell.row, cell.column)) if cell is not None else None
            held = self.holdings.get(sym)
            if held is None or sym in share_corps or held.price != price:
                touched_holders.update(held.by_owner if held is not None else ())
                held = self.holdings[sym] = self._count(sym, price)
                touched_holders.update(held.by_owner)
                touched_corps.add(sym)
        known = self.tokens
        for sym, corp in game.corporations.items():
            tokens = len(corp.tokens_placed)  # changed in place: compared, not logged
            if known.get(sym) != tokens:
                known[sym] = tokens
                touched_corps.add(sym)

    def _player_views(self, touched: set[Holder]) -> None:
        """New views of the players whose cash, certificates or worth changed (a holder outside
        the turn order adds its worth to its beneficiary's, as in the full scan). Only the
        ``touched`` holders' worth can have changed: with none, every view stays as it was."""
        game = self.game
        for holder in touched:
            self.own_worth[holder] = self._own_worth(holder)
        worth = {pid: self.own_worth[pid] for pid in game.order}
        for holder, beneficiary in self.extra.items():
            if beneficiary in worth:
                worth[beneficiary] += self.own_worth[holder]
        for pid in game.order:
            known = self.players.get(pid)
            if known is None or pid in touched or known[1].value != worth[pid]:
                shares = tuple(sorted((sym, held.by_owner[pid][0]) for sym, held in self.holdings.items() if pid in held.by_owner))
                self.players[pid] = (pid, PlayerView(game.players[pid].cash, shares, worth[pid]))

    def _count(self, sym: str, price: tuple[int, tuple[int, int]] | None) -> _Holdings:
        by_owner: dict[Holder, list[int]] = {}
        presidents = []
        for share in self.game.shares_of[sym]:
            counted = by_owner.setdefault(share.owner, [0, 0])
            counted[0] += share.percent
            counted[1] += (price[0] if price is not None else 0) * share.percent // 10
            if share.president:
                presidents.append(share.owner)
        return _Holdings(price, by_owner, tuple(presidents))

    def _count_trains(self, owners: set[str]) -> None:
        names: dict[str, list[str]] = {sym: [] for sym in owners}
        for train in self.game.trains.values():
            held = names.get(train.owner) if train.owner is not None else None
            if held is not None and not train.rusted:
                held.append(train.name)
        self.trains.update((sym, tuple(held)) for sym, held in names.items())

    def _count_privates(self, touched: set[Holder]) -> None:
        worth: dict[Holder, int] = {}
        for company in self.game.companies.values():
            if company.owner is not None and not company.closed:
                worth[company.owner] = worth.get(company.owner, 0) + company.value
        touched.update(holder for holder in {*worth, *self.private_worth} if worth.get(holder) != self.private_worth.get(holder))
        self.private_worth = worth

    def _own_worth(self, holder: Holder) -> int:
        """Cash, certificates at their price and open privates of one holder (before what the
        title's other holders add to it)."""
        shares = sum(held.by_owner[holder][1] for held in self.holdings.values() if holder in held.by_owner)
        return self.game.players[holder].cash + shares + self.private_worth.get(holder, 0)

    def _corporation_view(self, sym: str, holders: set[Holder]) -> CorporationView:
        corp = self.game.corporations[sym]
        held = self.holdings[sym]
        president: Holder | None = corp.operator
        if president is None:
            president = next((owner for owner in reversed(held.president_owners) if owner in holders), None)
        price, cell = held.price if held.price is not None else (None, None)
        return CorporationView(price, corp.cash, self.trains[sym], president, corp.floated, self.tokens[sym], cell,
                               corp.closed)
