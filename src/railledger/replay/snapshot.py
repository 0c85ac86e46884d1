"""A game's state per action: what review, storage and ``--states`` need.

:func:`take_snapshot` scans every certificate, train and company into an immutable
:class:`Snapshot`. A replay does not take one after every action: :class:`StateChanges` writes
what each action changed into :class:`StateColumns`, the columns the archive stores, for the
cost of what changed (the game's entities note their changes in a
:class:`~replay.state.ChangeLog`, and only the states of what changed are counted again); the
snapshots, when asked for, are rebuilt from those columns and equal a full scan's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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


PlayerState = tuple[int, int, int, tuple[tuple[str, int], ...]]
"""A player's state as :class:`StateColumns` keeps it: position in the turn order, cash, worth,
certificates held (corporation, percent)."""

CompanyState = tuple[int, int | None, tuple[int, int] | None, int, tuple[str, ...], int, Holder | None, bool, bool]
"""A company's state as :class:`StateColumns` keeps it: position among the companies, price,
market cell, cash, trains, stations placed, president, floated, closed."""


@dataclass(slots=True)
class StateColumns:
    """A replay's per-action states as columns: each action's round and phase, and a row for a
    player or a company only at the actions after which its state differs from its previous one
    (every one at the first action). This is what the archive stores (``steps``,
    ``player_changes``, ``company_changes``), and :meth:`snapshots` rebuilds every action's
    :class:`Snapshot` from it for the review and ``--states``."""

    rounds: list[str] = field(default_factory=list)
    phases: list[str] = field(default_factory=list)
    player_seq: list[int] = field(default_factory=list)  # the action after which the row's state holds
    player: list[PlayerId] = field(default_factory=list)
    player_state: list[PlayerState] = field(default_factory=list)
    company_seq: list[int] = field(default_factory=list)
    company: list[str] = field(default_factory=list)
    company_state: list[CompanyState] = field(default_factory=list)

    def snapshots(self) -> list[Snapshot]:
        """Every action's snapshot: each entity in its latest state at or before the action,
        players and companies each in order of position. An action that changed no player (or
        no company) shares the previous snapshot's row of them."""
        snapshots: list[Snapshot] = []
        players: dict[PlayerId, tuple[int, PlayerView]] = {}
        companies: dict[str, tuple[int, CorporationView]] = {}
        player_row: tuple[tuple[PlayerId, PlayerView], ...] = ()
        company_row: tuple[tuple[str, CorporationView], ...] = ()
        next_player = next_company = 0
        for seq, (round_label, phase) in enumerate(zip(self.rounds, self.phases)):
            start = next_player
            while next_player < len(self.player_seq) and self.player_seq[next_player] == seq:
                position, cash, value, shares = self.player_state[next_player]
                players[self.player[next_player]] = (position, PlayerView(cash, shares, value))
                next_player += 1
            if next_player != start:
                player_row = tuple((pid, view) for pid, (_, view) in sorted(players.items(), key=_position))
            start = next_company
            while next_company < len(self.company_seq) and self.company_seq[next_company] == seq:
                position, price, cell, cash, trains, tokens, president, floated, closed = self.company_state[next_company]
                companies[self.company[next_company]] = (
                    position, CorporationView(price, cash, trains, president, floated, tokens, cell, closed))
                next_company += 1
            if next_company != start:
                company_row = tuple((sym, view) for sym, (_, view) in sorted(companies.items(), key=_position))
            snapshots.append(Snapshot(round_label, phase, player_row, company_row))
        return snapshots


def _position(item: tuple[object, tuple[int, object]]) -> int:
    return item[1][0]


@dataclass(slots=True)
class _Holdings:
    """One corporation's certificates as the snapshot counts them, per owner: percent held and
    worth at the current price (each certificate's worth rounded down, as the full scan does),
    and the owners of its president's certificates in charter order."""

    price: tuple[int, tuple[int, int]] | None
    by_owner: dict[Holder, list[int]]  # owner -> [percent, worth]
    president_owners: tuple[Holder, ...]


class StateChanges:
    """Writes into :class:`StateColumns`, after each action of a game, the states of the players
    and companies the action changed: the game's change log names the entities touched, only
    their states are counted again, and a state equal to the entity's previous row adds none.
    The first action, and the first after entities came or went, counts everything."""

    def __init__(self, game: Game, columns: StateColumns | None = None) -> None:
        self.game = game
        self.columns = StateColumns() if columns is None else columns
        self.last_player: dict[PlayerId, PlayerState] = {}  # each entity's latest row, kept through a rescan
        self.last_company: dict[str, CompanyState] = {}
        self._rescan()

    def _rescan(self) -> None:
        """Forget every count: the next action counts the whole game again."""
        game = self.game
        self.log: ChangeLog = game.track_changes()
        self.sizes = self._sizes()
        self.order = list(game.order)
        self.company_position = {sym: position for position, sym in enumerate(game.corporations)}
        self.extra: dict[Holder, Holder] = {}
        self.holdings: dict[str, _Holdings] = {}
        self.trains: dict[str, tuple[str, ...]] = {}
        self.private_worth: dict[Holder, int] = {}
        self.own_worth: dict[Holder, int] = {}
        self.everything = True

    def _sizes(self) -> tuple[int, ...]:
        game = self.game
        return len(game.players), len(game.corporations), len(game.companies), len(game.shares), len(game.trains)

    def note(self) -> None:
        """Add the game's state after its latest action: the round and phase, and a row of each
        player and company whose state the action changed."""
        game = self.game
        if self._sizes() != self.sizes or game.order != self.order:
            self._rescan()  # entities came or went, or the players' order changed
        columns = self.columns
        seq = len(columns.rounds)
        columns.rounds.append(game.acted_in or game.round.label)
        columns.phases.append(game.phase.name)
        log, everything = self.log, self.everything
        if not (everything or log.players or log.corporations or log.companies or log.shares or log.trains or log.prices):
            return  # nothing a state shows changed: no row
        corporations = game.corporations
        touched_corps = set(corporations) if everything else set(log.corporations)
        touched_holders: set[Holder] = set(game.players) if everything else set(log.players)
        if everything or log.companies:  # the title's other holders are found by who owns a private
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
        holders = {*game.order, *self.extra}
        touched_holders &= holders
        if touched_holders:  # most actions of an operating round move no player's cash, share or worth
            self._note_players(seq, touched_holders)
        if touched_corps:  # over half the actions of a replay change no company's state either
            self._note_companies(seq, touched_corps, holders)
        log.clear()
        self.everything = False

    def snapshot(self) -> Snapshot:
        """The state after the latest action noted."""
        columns = self.columns
        players = sorted(self.last_player.items(), key=lambda item: item[1][0])
        companies = sorted(self.last_company.items(), key=lambda item: item[1][0])
        return Snapshot(
            columns.rounds[-1], columns.phases[-1],
            tuple((pid, PlayerView(cash, shares, value)) for pid, (_, cash, value, shares) in players),
            tuple((sym, CorporationView(price, cash, trains, president, floated, tokens, cell, closed))
                  for sym, (_, price, cell, cash, trains, tokens, president, floated, closed) in companies),
        )

    def _recount_corporations(self, share_corps: set[str], touched_corps: set[str], touched_holders: set[Holder]) -> None:
        """Count again the certificates of each corporation whose certificates moved or whose
        price changed, noting the holders and corporations whose states that touches."""
        position = self.game.market.position
        for sym in share_corps | self.log.prices:
            cell = position.get(sym)
            price = (cell.price, (cell.row, cell.column)) if cell is not None else None
            held = self.holdings.get(sym)
            if held is None or sym in share_corps or held.price != price:
                touched_holders.update(held.by_owner if held is not None else ())
                held = self.holdings[sym] = self._count(sym, price)
                touched_holders.update(held.by_owner)
                touched_corps.add(sym)

    def _note_players(self, seq: int, touched: set[Holder]) -> None:
        """Rows of the players whose cash, certificates or worth changed (a holder outside the
        turn order adds its worth to its beneficiary's, as in the full scan). Only the
        ``touched`` holders' worth can have changed; a player not touched keeps its
        certificates and cash."""
        game = self.game
        for holder in touched:
            self.own_worth[holder] = self._own_worth(holder)
        worth = {pid: self.own_worth[pid] for pid in game.order}
        for holder, beneficiary in self.extra.items():
            if beneficiary in worth:
                worth[beneficiary] += self.own_worth[holder]
        columns, last_rows = self.columns, self.last_player
        for position, pid in enumerate(game.order):
            last = last_rows.get(pid)
            if last is not None and pid not in touched and last[2] == worth[pid] and last[0] == position:
                continue
            shares = last[3] if last is not None and pid not in touched else tuple(sorted(
                (sym, held.by_owner[pid][0]) for sym, held in self.holdings.items() if pid in held.by_owner))
            row = (position, game.players[pid].cash, worth[pid], shares)
            if row != last:
                last_rows[pid] = row
                columns.player_seq.append(seq)
                columns.player.append(pid)
                columns.player_state.append(row)

    def _note_companies(self, seq: int, touched: set[str], holders: set[Holder]) -> None:
        """Rows of the touched companies whose state changed, in the title's order of them (a
        president is found among the ``holders``)."""
        game = self.game
        columns, last_rows = self.columns, self.last_company
        for sym in sorted(touched, key=self.company_position.__getitem__):
            corp = game.corporations[sym]
            held = self.holdings[sym]
            president: Holder | None = corp.operator
            if president is None:
                president = next((owner for owner in reversed(held.president_owners) if owner in holders), None)
            price, cell = held.price if held.price is not None else (None, None)
            row = (self.company_position[sym], price, cell, corp.cash, self.trains[sym], len(corp.tokens_placed),
                   president, corp.floated, corp.closed)
            if row != last_rows.get(sym):
                last_rows[sym] = row
                columns.company_seq.append(seq)
                columns.company.append(sym)
                columns.company_state.append(row)

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
