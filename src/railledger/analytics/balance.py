"""Does anything about a player's game go with winning? Win rates by seat, bot, opening and holdings.

Every factor is a property of one player in one replayed game (games with standings); each row
of the result pools the players sharing a value of a factor, per title and across titles, with
its sample size and a 95% Wilson interval, because a handful of games proves little and the
table must say so. Players a factor says nothing about get ``none`` (no private, no par), so
each factor's rows add up to the players in the scope (``private`` counts a player once per
private held); only ``first_permanent`` skips games where no permanent train was bought, and
``bot`` seats nobody but bots played.

Games people played and games bots played (``railledger simulate``, source ``selfplay``) answer
different questions, so they are kept apart unless the population mixes them (:mod:`analytics.scope`).
"""

from __future__ import annotations

import polars as pl

from railledger.analytics.interval import with_interval
from railledger.analytics.scope import Scope
from railledger.records import Archive

FACTORS = ("seat", "bot", "private", "presidencies", "first_par", "first_permanent")
"""Factors in the order they are reported."""

POOLED = "all titles"
"""The scope of rows that pool every title."""


def winner_correlations(archive: Archive, games: Scope) -> pl.DataFrame:
    """[scope, factor, value, games, wins, win_rate, mean_rank, ci_low, ci_high] over the games of
    ``games`` (:func:`analytics.scope.counted_games`) that have a result: a game with none ranks
    nobody, so it has no factors.

    ``scope`` is a title or ``all titles``; ``games`` is the sample size (players of that value),
    ``wins`` how many of them won (ties for first all win), ``ci_low``/``ci_high`` the 95% Wilson
    interval of ``win_rate``.
    """
    counts = archive.factor_counts(games.keys)
    per_title = counts.rename({"title": "scope"})
    pooled = counts.group_by("factor", "value").agg(pl.col("games", "wins", "rank_sum").sum()).with_columns(
        scope=pl.lit(POOLED))
    summary = pl.concat([per_title, pooled.select(per_title.columns)]).select(
        "scope", "factor", "value", "games", "wins",
        win_rate=pl.col("wins") / pl.col("games"), mean_rank=pl.col("rank_sum") / pl.col("games"))
    return (
        with_interval(summary, "wins", "games")
        .sort(
            pl.col("scope") == POOLED, "scope", pl.col("factor").replace_strict(FACTORS, list(range(len(FACTORS)))),
            pl.col("value").cast(pl.Int64, strict=False), "value", nulls_last=True,
        )
    )
