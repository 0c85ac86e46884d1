"""Confidence intervals for win rates: archives hold few games, so every rate needs its uncertainty."""

from __future__ import annotations

from math import sqrt

Z_95 = 1.959964
"""Two-sided 95% normal quantile."""


def wilson_interval(wins: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval of ``wins`` out of ``n``.

    Wilson rather than the normal approximation because it stays inside [0, 1] and is honest
    for the tiny samples (and 0% or 100% rates) a game archive gives. With ``n == 0`` nothing is
    known, so the interval is all of (0, 1).
    """
    if n == 0:
        return 0.0, 1.0
    rate = wins / n
    spread = z * z / n
    centre = (rate + spread / 2) / (1 + spread)
    half = z * sqrt(rate * (1 - rate) / n + spread / (4 * n)) / (1 + spread)
    return max(0.0, centre - half), min(1.0, centre + half)
