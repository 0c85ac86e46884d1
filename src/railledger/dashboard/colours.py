"""One colour per company, player and train type wherever it appears (map stations, market
markers, price and value lines, rush charts), so two charts side by side always agree."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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


def company_colours(companies: Iterable[str]) -> dict[str, str]:
    """Colours by the companies' sorted order, so a game's companies never share one (a hash
    of the symbol would collide among 8 companies) and every chart of the game agrees."""
    return assign(sorted(set(companies)), PALETTE)


def player_colours(players: Iterable[str]) -> dict[str, str]:
    """Colours of a game's players, given in seat order."""
    return assign(players, PLAYER_PALETTE)


def train_colours(types: Iterable[str]) -> dict[str, str]:
    """Colours of train types given in the title's order (every type of the title, not only
    those a chart shows), so a type keeps its colour across charts and games of the title."""
    return assign(types, PALETTE)
