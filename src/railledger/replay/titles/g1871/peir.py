"""The PEIR and the Union Bank: the two holders of 1871 that are not ordinary players or companies.

The PEIR (RB 7.7) is a company whose shares are the PEIR shares in players' hands: each share is
100/n percent of n left, it has no share price, and the player with most shares (ties: the
lowest-numbered share) runs it. A PEIR share leaves play when its company floats; its holder
gets a share of that company instead. The Union Bank (RB 6.8) is a pseudo-player holding cash
and shares for the owner of its charter; it is outside the turn order and the results.
"""

from __future__ import annotations

from railledger.replay.state import MARKET, GameState, Share

PEIR = "PEIR"
UNION_BANK = -1  # the id 18xx.games gives the Union Bank's pseudo-player (records' purchase_for)
RETIRED = "retired"  # owner of a PEIR share whose company has floated
RESERVED = "reserved"  # owner of the Shortline's three exchange shares


def peir_shares(game: GameState) -> list[Share]:
    return [s for s in game.shares_of[PEIR] if s.owner != RETIRED]


def readjust(game: GameState) -> None:
    """Re-divide the PEIR among its remaining shares and name its operator (or close it)."""
    shares = peir_shares(game)
    peir = game.corporations[PEIR]
    if not shares:
        game.close_company("KM")
        game.pay(PEIR, None, peir.cash)
        for train in game.corporation_trains(PEIR):
            train.owner = None
            train.rusted = True
        peir.closed = True
        peir.operator = None
        return
    for share in shares:
        share.percent = 100 // len(shares)
    holders: dict = {}
    for share in sorted(shares, key=lambda s: int(s.id.rsplit("_", 1)[1])):
        if share.owner in game.players:
            holders.setdefault(share.owner, 0)
            holders[share.owner] += 1
    if holders:
        most = max(holders.values())
        operator = next(pid for pid, held in holders.items() if held == most)  # first = lowest-numbered share
        if operator != peir.operator:
            peir.operator = operator
            game.note("president", PEIR, detail=operator)


def first_pool_share(game: GameState, sym: str) -> str | None:
    """The share of a company the bank pool got first (18xx.games hands out the pool's first)."""
    pooled = [s for s in game.shares_of[sym] if s.owner == MARKET and not s.president]
    return min(pooled, key=lambda s: s.acquired).id if pooled else None
