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
    round: str
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
    holdings: dict[PlayerId, dict[str, int]] = {pid: {} for pid in game.order}
    for share in game.shares.values():
        if share.owner in holdings:
            held = holdings[share.owner]  # type: ignore[index]
            held[share.corporation] = held.get(share.corporation, 0) + share.percent
    trains: dict[str, list[str]] = {sym: [] for sym in game.corporations}
    for train in game.trains.values():
        if train.owner in trains and not train.rusted:
            trains[train.owner].append(train.name)  # type: ignore[index]
    return Snapshot(
        round=game.round.label,
        phase=game.phase.name,
        players=tuple(
            (pid, PlayerView(game.players[pid].cash, tuple(sorted(holdings[pid].items())), game.player_value(pid)))
            for pid in game.order
        ),
        corporations=tuple(
            (
                sym,
                CorporationView(
                    game.share_price(sym), corp.cash, tuple(trains[sym]), game.president(sym), corp.floated,
                    len(corp.tokens_placed), _cell(game, sym), corp.closed,
                ),
            )
            for sym, corp in game.corporations.items()
        ),
    )


def _cell(game: Game, sym: str) -> tuple[int, int] | None:
    cell = game.market.position.get(sym)
    return (cell.row, cell.column) if cell else None
