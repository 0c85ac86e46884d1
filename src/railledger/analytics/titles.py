"""Statistics per title over the games a population counts (:mod:`analytics.scope`): how many,
how long in operating rounds and actions, what final values players reach at each table size,
and how games end.

The engine ends a played-out game "end of OR 5.2" whatever the title's condition was; within a
title only one condition ends a game that way (18MS: its fixed number of ORs; 18Texas: the bank
broke; 1871: the last set after the first Diesel), so the reason is named from the title's rules.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from railledger.analytics.balance import POOLED
from railledger.analytics.interval import with_interval
from railledger.analytics.ratings import ratings
from railledger.analytics.scope import ENDED_BY_HAND, Population, Scope, scope_of
from railledger.records import Archive
from railledger.replay.titles import SUPPORTED, title_named

HOUR = 3600
BANKRUPTCY = "bankruptcy"
"""The engine's end reason when a bankruptcy ends the game."""


@dataclass(frozen=True)
class TitleStatistics:
    scope: Scope
    """The games counted (every title's) and those left out."""
    summary: pl.DataFrame
    """Per title: archived (games in the archive), counted (the games that count), operating_rounds
    and actions (mean per counted game), timed (counted games whose record gives their duration),
    hours (median and mean time from creation to the last action, over the timed games; a median
    because one game left open for weeks would drag a mean far off), players (distinct players
    of the counted games)."""
    values: pl.DataFrame
    """Per title and table size (players): games, mean and std (spread) of every final value,
    lowest and highest, and the winners' mean."""
    endings: pl.DataFrame
    """Per title and end reason (in words): games, share of the title's counted games (n) with its
    95% Wilson interval (ci_low, ci_high)."""
    leaders: pl.DataFrame
    """Per title, its players' ratings over its counted games (:attr:`analytics.ratings.Ratings.table`
    of the title's scope, as stored in the archive while they are up to date), best first."""


def title_statistics(archive: Archive, population: Population = Population()) -> TitleStatistics:
    """Every title's statistics over the games of ``population`` (its title and table size aside:
    the page shows each title and table size apart)."""
    facts = archive.game_facts()
    scope = scope_of(facts, population.all_titles)
    games = scope.games
    archived = facts.group_by("title").agg(archived=pl.len().cast(pl.Int64))
    counted = games.select(game_key="key", title="title", players="players")
    summary = (
        archived.join(
            games.group_by("title").agg(
                counted=pl.len().cast(pl.Int64),
                operating_rounds=pl.col("operating_rounds").mean(),
                actions=pl.col("actions").mean(),
                timed=pl.col("duration").count().cast(pl.Int64),
                median_hours=pl.col("duration").median() / HOUR,
                mean_hours=pl.col("duration").mean() / HOUR,
            ), on="title", how="left")
        .join(archive.player_counts(counted), on="title", how="left")
        .with_columns(pl.col("counted", "timed", "players").fill_null(0))
        .sort("title")
    )
    values = archive.value_spread(counted)
    endings = (
        games.with_columns(reason=_reason_in_words(games["title"].unique().to_list()))
        .group_by("title", "reason")
        .agg(games=pl.len().cast(pl.Int64))
        .with_columns(n=pl.col("games").sum().over("title").cast(pl.Int64))
        .with_columns(share=pl.col("games") / pl.col("n"))
        .sort("title", "games", "reason", descending=[False, True, False])
        .pipe(with_interval, "games", "n")
    )
    rated = ratings(archive, scope.population, scope, pooled=False)
    return TitleStatistics(scope, summary, values, endings, rated.table.filter(pl.col("scope") != POOLED))


def played_out(title: str) -> str:
    """What ends a game of ``title`` at the end of an operating round, in words."""
    if title not in SUPPORTED:
        return "the end of an operating round"
    rules = title_named(title)
    if rules.last_or is not None:
        return f"the last of its {rules.last_or} operating rounds"
    if rules.bank_breaks:
        return "the bank broke"
    return "the final set of operating rounds"


def _reason_in_words(titles: list[str]) -> pl.Expr:
    reason = pl.col("end_reason")
    return (
        pl.when(pl.col("ended_by_hand")).then(pl.lit(ENDED_BY_HAND))
        .when(reason == BANKRUPTCY).then(pl.lit("a bankruptcy"))
        .when(reason.str.starts_with("end of OR")).then(
            pl.col("title").replace_strict({title: played_out(title) for title in titles}, return_dtype=pl.Utf8))
        .otherwise(reason.fill_null("no end recorded"))
    )
