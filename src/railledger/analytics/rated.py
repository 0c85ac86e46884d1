"""Which games count for ratings: people's valid finished games (:mod:`analytics.scope`).

A rating is only as good as the games it reads. A game counts when people played it (not a
bot's game from ``railledger simulate``), it is finished, its record holds a result, and the
replay matched that result without a flag (``games.replay_matches``), so every rank comes from
final values the rules engine agrees with. A game the players ended by hand (an ``end_game``
action, or the engine's ``game_end`` "ended by the players") stopped wherever they chose, so its
values say less: it counts only when asked for. The archive keeps the ratings of these two
counts (:func:`analytics.ratings.store_ratings`); any other population is rated when asked.
"""

from __future__ import annotations

import polars as pl

from railledger.analytics.scope import Population, scope_of
from railledger.records import Archive


def rated_games(archive: Archive, manual_ends: bool = False) -> pl.DataFrame:
    """:meth:`records.Archive.game_facts` of the games that count, in the order they were played,
    with ``ended_by_hand``. Games the players ended by hand count only with ``manual_ends``."""
    return rated_of(archive.game_facts(), manual_ends)


def rated_of(facts: pl.DataFrame, manual_ends: bool = False) -> pl.DataFrame:
    """:func:`rated_games` among game facts already read (a page that also counts every game)."""
    return scope_of(facts, Population(manual_ends=manual_ends)).games
