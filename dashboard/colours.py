"""One colour per company wherever it appears (map stations, market markers, price lines)."""

from __future__ import annotations

from collections.abc import Iterable

PALETTE = (
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#ff7f0e",
    "#7f7f7f", "#bcbd22", "#393b79", "#637939",
)


def company_colours(companies: Iterable[str]) -> dict[str, str]:
    """Colours by the companies' sorted order, so a game's companies never share one (a hash
    of the symbol would collide among 8 companies) and every chart of the game agrees."""
    return {company: PALETTE[i % len(PALETTE)] for i, company in enumerate(sorted(set(companies)))}
