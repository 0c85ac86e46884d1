"""Which games count for ratings and title statistics: valid, finished games with a result.

A rating is only as good as the games it reads. A game counts when people played it (not a
bot's game from ``railledger simulate``), it is finished, its record holds a result, and the
replay matched that result without a flag (``games.replay_matches``), so every rank comes from
final values the rules engine agrees with. A game the players ended by
hand (an ``end_game`` action, or the engine's ``game_end`` "ended by the players") stopped
wherever they chose, so its values say less: it counts only when asked for.
"""

from __future__ import annotations

import polars as pl

from railledger.analytics.balance import SELFPLAY
from railledger.records import Archive

ENDED_BY_HAND = "ended by the players"
"""The engine's end reason for an ``end_game`` action (replay/game.py)."""


def rated_games(archive: Archive, manual_ends: bool = False) -> pl.DataFrame:
    """:meth:`records.Archive.game_facts` of the games that count, in the order they were played,
    with ``ended_by_hand``. Games the players ended by hand count only with ``manual_ends``."""
    return rated_of(archive.game_facts(), manual_ends)


def rated_of(facts: pl.DataFrame, manual_ends: bool = False) -> pl.DataFrame:
    """:func:`rated_games` among game facts already read (a page that also counts every game)."""
    facts = facts.with_columns(
        ended_by_hand=pl.col("end_game_action") | (pl.col("end_reason") == ENDED_BY_HAND).fill_null(False))
    counts = ((pl.col("source") != SELFPLAY) & (pl.col("status") == "finished") & pl.col("has_result")
              & pl.col("replay_matches").fill_null(False))
    return facts.filter(counts if manual_ends else counts & ~pl.col("ended_by_hand"))
