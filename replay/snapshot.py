"""Immutable snapshots of a game's state: what review, storage and ``--states`` need per action."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ingest.model import PlayerId

if TYPE_CHECKING:
    from replay.game import Game


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


