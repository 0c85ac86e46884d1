"""One colour per company, player and train type wherever it appears (map stations, market
markers, price and value lines, rush charts), so two charts side by side always agree.

A company has the colour its title gives it, as 18xx.games draws it (the titles' data carry it
over), so a player who knows the game on 18xx.games finds the same companies in the same colours.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from railledger.analytics.position import company_colours as title_colours

PALETTE = (
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#ff7f0e",
    "#7f7f7f", "#bcbd22", "#393b79", "#637939",
)
PLAYER_PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
"""Seats in order: hues far apart (blue, orange, green, red, purple, brown...). Without them a
chart takes Streamlit's theme colours, whose first two are a dark and a light blue."""


def assign(names: Iterable[str], palette: Sequence[str]) -> dict[str, str]:
    """Colours in the order of ``names`` (first occurrence), cycling through ``palette``."""
    return {name: palette[i % len(palette)] for i, name in enumerate(dict.fromkeys(names))}


@dataclass(frozen=True, slots=True)
class Look:
    """A company's colours: its own (a station, a line, a bar) and its symbol's written on it."""

    fill: str
    text: str


def company_looks(title: str) -> dict[str, Look]:
    """Every company of a title with its colours from the title's data."""
    return {sym: Look(fill, text) for sym, (fill, text) in title_colours(title).items()}


def company_colours(title: str) -> dict[str, str]:
    """Every company of a title -> its colour, for charts."""
    return {sym: look.fill for sym, look in company_looks(title).items()}


def player_colours(players: Iterable[str]) -> dict[str, str]:
    """Colours of a game's players, given in seat order."""
    return assign(players, PLAYER_PALETTE)


def train_colours(types: Iterable[str]) -> dict[str, str]:
    """Colours of train types given in the title's order (every type of the title, not only
    those a chart shows), so a type keeps its colour across charts and games of the title."""
    return assign(types, PALETTE)


MARKET_LOOKS: dict[str, tuple[str, str]] = {
    "par": ("#ffaaaa", "start (par) price"),
    "par until 5H": ("#ffff99", "start price until the first 5H is bought"),
    "par until 3+": ("#aaffaa", "start price until the first 3+ is bought"),
    "par until 7": ("#35a7ff", "start price until the first 7 is bought"),
    "no cert limit": ("#ffff99", "shares here do not count against the certificate limit"),
    "reserved start": ("#c8c8c8", "start price set at setup for one company"),
    "bonus": ("#ffbb55", "a payout here pays a bonus per share"),
}
"""A stock market cell's kind (:func:`analytics.review.market_cells`) -> its colour, as
18xx.games colours its market (par red; no certificate limit yellow; 1871's start prices yellow,
green, blue and red by the train that withdraws them, its 400 orange; the Mainline's and
Shortline's starts gray as the rulebook prints them), and what it means. A plain cell has none."""
