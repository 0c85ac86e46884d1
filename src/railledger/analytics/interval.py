"""Confidence intervals for win rates: archives hold few games, so every rate needs its uncertainty."""

from __future__ import annotations

from math import sqrt

import polars as pl

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


def with_interval(frame: pl.DataFrame, hits: str, n: str) -> pl.DataFrame:
    """``frame`` with ``ci_low`` and ``ci_high``: the Wilson interval of its ``hits`` out of ``n`` per row."""
    bounds = [wilson_interval(k, total) for k, total in zip(frame[hits], frame[n])]
    return frame.with_columns(ci_low=pl.Series([low for low, _ in bounds], dtype=pl.Float64),
                              ci_high=pl.Series([high for _, high in bounds], dtype=pl.Float64))
