"""Moving certificates and settling the presidency, as 18xx.games does it.

A bundle is some certificates of one company held by one holder, with the percent it stands for:
normally their sum, less when a seller keeps part of the president's certificate (a 20%
certificate sold "as 10%"). After certificates move, the player holding most becomes president
if the president no longer holds most (ties: the first such player after the old president in
seat order), provided they hold at least the president's certificate's size. The new president
gives the old one (or the open market, when the old one no longer holds that much) as many of
their own certificates, the first ones they got, as the president's certificate is worth, and
takes it. A seller who kept part of the president's certificate then takes that part back from
the open market, the market's first certificates.
"""

from __future__ import annotations

from collections.abc import Sequence

from railledger.ingest.model import PlayerId
from railledger.replay.state import MARKET, GameState, Holder, Share

NORMAL_SHARE = 10


def bundle_percent(shares: Sequence[Share]) -> int:
    return sum(s.percent for s in shares)


def transfer(game: GameState, shares: Sequence[Share], to: Holder, percent: int | None = None) -> None:
    """Move ``shares`` (one holder's, one company's) to ``to``, standing for ``percent``, and
    settle the presidency."""
    sym = shares[0].corporation
    owner = shares[0].owner
    previous = game.president(sym)
    total = bundle_percent(shares)
    percent = total if percent is None else percent
    holders = game.presidency_holders()
    counted = {p: game.percent(p, sym) for p in holders}
    if owner in counted:
        counted[owner] -= percent
    if to in counted:
        counted[to] += percent
    for share in shares:
        game.move_share(share.id, to)
    _settle(game, sym, previous, counted, shares, owner, to, total - percent)


def settle_presidency(game: GameState, sym: str) -> None:
    """Settle the presidency after certificates moved outside a bundle transfer (an exchange)."""
    counted = {p: game.percent(p, sym) for p in game.presidency_holders()}
    _settle(game, sym, game.president(sym), counted, (), None, None, 0)


def _settle(game: GameState, sym: str, previous: PlayerId | None, counted: dict[PlayerId, int],
            moved: Sequence[Share], owner: Holder | None, to: Holder | None, kept: int) -> None:
    holders = game.presidency_holders()
    if not counted:
        return
    most = max(counted.values())
    majority = [p for p in holders if counted[p] == most]
    if previous in majority:
        return
    president_share = next((s for s in game.shares_of[sym] if s.president), None)
    if president_share is None:
        return
    candidates = [p for p in majority if game.percent(p, sym) >= president_share.percent]
    if not candidates:
        return
    new = min(candidates, key=lambda p: (game.title.loses_presidency_ties(p), _distance(holders, previous, p)))
    if owner == new or previous is None:
        return
    swap_to: Holder = previous if game.percent(previous, sym) >= president_share.percent else MARKET
    given = [s for s in game.held(new, sym) if not s.president][: president_share.percent // NORMAL_SHARE]
    for share in given:
        game.move_share(share.id, swap_to)
    game.move_share(president_share.id, new)
    game.note("president", sym, detail=new)
    if kept and president_share in moved:
        for share in game.held(MARKET, sym)[: kept // NORMAL_SHARE]:
            game.move_share(share.id, owner)  # type: ignore[arg-type]


def _distance(holders: list[PlayerId], start: PlayerId | None, player: PlayerId) -> int:
    """Seats from ``start`` forward to ``player`` (the player itself is a full turn away)."""
    if start is None or start not in holders:
        return 0
    a, b = holders.index(start), holders.index(player)
    return b - a if a < b else b - a + len(holders)


def sale_bundles(game: GameState, holder: Holder, sym: str) -> list[tuple[list[Share], int]]:
    """Every bundle a holder could offer for sale, smallest first: its first n certificates
    (plain ones by size, the president's last) and, with the president's certificate, the same
    certificates standing for 10% less per 10% of it beyond a plain share."""
    own = sorted(game.held(holder, sym), key=lambda s: (s.president, s.percent))
    bundles: list[tuple[list[Share], int]] = []
    percent = 0
    for n, share in enumerate(own, start=1):
        percent += share.percent
        bundles.append((own[:n], percent))
    if own and own[-1].president:
        extra = (own[-1].percent - NORMAL_SHARE) // NORMAL_SHARE
        bundles.extend((list(own), percent - NORMAL_SHARE * k) for k in range(1, extra + 1))
    return sorted(bundles, key=lambda b: b[1])


def can_dump(game: GameState, seller: Holder, shares: Sequence[Share]) -> bool:
    """A bundle with the president's certificate may go only if another player could take it."""
    president_share = next((s for s in shares if s.president), None)
    if president_share is None:
        return True
    sym = president_share.corporation
    others = [game.percent(p, sym) for p in game.presidency_holders() if p != seller]
    return max(others, default=0) >= president_share.percent
