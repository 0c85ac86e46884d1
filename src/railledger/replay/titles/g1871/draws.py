"""The random setup of 1871, drawn exactly as 18xx.games draws it.

18xx.games seeds its generator with the record's seed (else the first digits of the game id),
draws once per PEIR company to pick the Mainline, the Shortline and the Union Bank's company,
then once per auction item to deal the piles. Only the facts of that procedure are used here.
"""

from __future__ import annotations

from dataclasses import dataclass

from railledger.replay.seeded import SeededDraws

PEIR_COMPANIES = ("So", "A", "MS", "MR", "S", "Gt", "C")
"""The seven PEIR companies in the order 18xx.games draws for them; index + 1 is the PEIR share number."""
AUCTION_ITEMS = ("MC", "VR", "IB", "RA", "RF", "SB", "HSE", "ML", "SBC", "SL", "UB")
FOUR_PLAYERS_ONLY = ("IB",)


@dataclass(frozen=True)
class Draws:
    mainline: str
    shortline: str
    union_bank_company: str  # the company whose share 8 the Union Bank starts with
    peir_companies: tuple[str, ...]  # the five PEIR companies, by number: PEIR_0 .. PEIR_4
    piles: tuple[tuple[str, ...], ...]  # auction items dealt to each player, in seat order


def peir_private(company: str) -> str:
    """The auction item standing for a company's PEIR share: P<number>."""
    return f"P{PEIR_COMPANIES.index(company) + 1}"


def draw(seed: int | None, game_id: str | None, n_players: int) -> Draws:
    draws = SeededDraws(seed, game_id)
    order = draws.shuffled(list(PEIR_COMPANIES))
    peir = tuple(sorted(order[2:], key=PEIR_COMPANIES.index))
    items = [i for i in AUCTION_ITEMS if n_players >= 4 or i not in FOUR_PLAYERS_ONLY]
    deck = draws.shuffled(items + [peir_private(c) for c in peir])
    size = 5 if n_players == 3 else 4
    piles = tuple(tuple(deck[i * size:(i + 1) * size]) for i in range(n_players))
    return Draws(order[0], order[1], order[2], peir, piles)
