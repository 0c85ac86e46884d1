"""Tables sent to the browser: at most :data:`SHOWN` rows, saying how many more there are.

An archive of 100,000 games has 100,000 rows in its games list and as many in the revenue audit;
sending them all makes the browser wait seconds for a table nobody scrolls through. Filters still
work on every row; only what is drawn is cut, and the caption says so.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

SHOWN = 1_000
"""Rows of a table drawn at most."""


def first_rows(frame: pl.DataFrame, narrow: str = "narrow the filters") -> pl.DataFrame:
    """The first :data:`SHOWN` rows of ``frame``; when some are left out, a caption above the
    table says how many and how to see the others (``narrow``)."""
    if frame.height <= SHOWN:
        return frame
    st.caption(f"Showing the first {SHOWN:,} of {frame.height:,} rows; {narrow} to see the others.")
    return frame.head(SHOWN)
