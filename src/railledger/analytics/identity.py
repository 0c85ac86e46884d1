"""Players in a listing as a reader sees them (docs/identity.md): each by the name they used,
and by the name and a short id where another player of the listing has a name that compares equal
(:func:`ingest.identity.labels`), so that two "Player 3" are never one row nor two rows alike."""

from __future__ import annotations

import polars as pl

from railledger.ingest.identity import labels, short_id


def labelled(frame: pl.DataFrame, player: str = "player", name: str = "name") -> pl.DataFrame:
    """``frame`` with ``shown`` (the name, or the name and short id where names clash in the
    frame) and ``short_id`` (``#680``, ``seat 3 of GAME``) of the identity in column ``player``."""
    pairs = frame.select(player, name).unique(player, keep="last", maintain_order=True)
    shown = labels(zip(pairs[player].to_list(), pairs[name].fill_null("").to_list()))
    return frame.with_columns(
        shown=pl.col(player).replace_strict(shown, default=pl.col(name), return_dtype=pl.Utf8),
        short_id=pl.col(player).map_elements(short_id, return_dtype=pl.Utf8),
    )
