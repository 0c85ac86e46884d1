"""Tables sent to the browser: at most :data:`SHOWN` rows, saying how many more there are.

An archive of 100,000 games has 100,000 rows in its games list and as many in the revenue audit;
sending them all makes the browser wait seconds for a table nobody scrolls through. Filters still
work on every row; only what is drawn is cut, and the caption says so.
"""

from __future__ import annotations

import polars as pl

SHOWN = 1_000
"""Rows of a table drawn at most."""


def first_rows(frame: pl.DataFrame, narrow: str = "narrow the filters") -> tuple[pl.DataFrame, str]:
    """The first :data:`SHOWN` rows of ``frame`` and, when some were left out, a sentence saying
    so and how to see the others (``narrow``); an empty sentence when every row is shown."""
    if frame.height <= SHOWN:
        return frame, ""
    return frame.head(SHOWN), f"Showing the first {SHOWN:,} of {frame.height:,} rows; {narrow} to see the others."
