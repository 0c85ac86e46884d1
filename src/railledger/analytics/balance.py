"""Does anything about a player's game go with winning? Win rates by seat, bot, opening and holdings.

Every factor is a property of one player in one replayed game (games with standings); each row
of the result pools the players sharing a value of a factor, per title and across titles, with
its sample size and a 95% Wilson interval, because a handful of games proves little and the
table must say so. Players a factor says nothing about get ``none`` (no private, no par), so
each factor's rows add up to the players in the scope (``private`` counts a player once per
private held); only ``first_permanent`` skips games where no permanent train was bought, and
``bot`` seats nobody but bots played.

Games people played and games bots played (``railledger simulate``, source ``selfplay``) answer
different questions, so they are kept apart unless a caller mixes them (:data:`GAME_KINDS`).
"""

from __future__ import annotations

import polars as pl

from railledger.analytics.interval import wilson_interval
from railledger.analytics.scope import Scope
from railledger.records import Archive

FACTORS = ("seat", "bot", "private", "presidencies", "first_par", "first_permanent")
"""Factors in the order they are reported."""

SELFPLAY = "selfplay"
"""The source of games bots played."""

GAME_KINDS = {"real": "games people played", "selfplay": "games bots played", "all": "both, mixed"}
"""Which games a table is made of: every source but selfplay, selfplay only, or all."""

POOLED = "all titles"
"""The scope of rows that pool every title."""


def kind_filter(kind: str) -> bool | None:
    """The ``selfplay`` filter of a kind of games (:data:`GAME_KINDS`): bots' only, people's only,
    or None for both."""
    if kind not in GAME_KINDS:
        raise ValueError(f"games are one of {', '.join(GAME_KINDS)}, not {kind!r}")
    return None if kind == "all" else kind == "selfplay"


def winner_correlations(archive: Archive, games: Scope | None = None, kind: str = "real") -> pl.DataFrame:
    """[scope, factor, value, games, wins, win_rate, mean_rank, ci_low, ci_high] over the games of
    ``games`` (:func:`analytics.scope.counted_games`; every replayed game without one) of one
    ``kind`` (:data:`GAME_KINDS`: people's, bots', or both).

    ``scope`` is a title or ``all titles``; ``games`` is the sample size (players of that value),
    ``wins`` how many of them won (ties for first all win), ``ci_low``/``ci_high`` the 95% Wilson
    interval of ``win_rate``.
    """
    counts = archive.factor_counts(None if games is None else games.keys, selfplay=kind_filter(kind), bots=SELFPLAY)
    per_title = counts.rename({"title": "scope"})
    pooled = counts.group_by("factor", "value").agg(pl.col("games", "wins", "rank_sum").sum()).with_columns(
        scope=pl.lit(POOLED))
    summary = pl.concat([per_title, pooled.select(per_title.columns)]).select(
        "scope", "factor", "value", "games", "wins",
        win_rate=pl.col("wins") / pl.col("games"), mean_rank=pl.col("rank_sum") / pl.col("games"))
    bounds = [wilson_interval(w, n) for w, n in zip(summary["wins"], summary["games"])]
    return (
        summary.with_columns(
            ci_low=pl.Series([low for low, _ in bounds], dtype=pl.Float64),
            ci_high=pl.Series([high for _, high in bounds], dtype=pl.Float64),
        )
        .sort(
            pl.col("scope") == POOLED, "scope", pl.col("factor").replace_strict(FACTORS, list(range(len(FACTORS)))),
            pl.col("value").cast(pl.Int64, strict=False), "value", nulls_last=True,
        )
    )
