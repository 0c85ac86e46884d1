"""railledger dashboard (Streamlit). Reads the archive named by RAILLEDGER_DB, never writes.

Run it with ``railledger dashboard``; the archive page lists every game with filters.
"""

from __future__ import annotations

import os

import polars as pl
import streamlit as st

from analytics.archive import archived_games

DB = os.environ.get("RAILLEDGER_DB", "railledger.duckdb")


@st.cache_data(ttl=30, show_spinner=False)
def _games(db: str) -> pl.DataFrame:
    return archived_games(db)


def _players_text(players: object) -> str:
    return players if isinstance(players, str) else ", ".join(players)  # type: ignore[arg-type]


def main() -> None:
    st.set_page_config(page_title="railledger", layout="wide")
    st.title("railledger archive")
    try:
        games = _games(DB)
    except Exception as exc:  # shown to the user rather than a Streamlit traceback
        st.error(f"Cannot read the archive {DB}: {exc}")
        return
    games = games.with_columns(pl.col("players").map_elements(_players_text, return_dtype=pl.String))

    left, right = st.columns(2)
    titles = sorted(games["title"].unique().to_list())
    chosen = left.multiselect("Title", titles, default=titles)
    player = right.text_input("Player", placeholder="name or id")
    shown = games.filter(pl.col("title").is_in(chosen))
    if player:
        shown = shown.filter(pl.col("players").str.to_lowercase().str.contains(player.lower(), literal=True))

    st.caption(f"{shown.height} of {games.height} games in {DB}")
    st.dataframe(
        shown.select("key", "title", "players", "status", "actions", "ingested_at"),
        hide_index=True,
        use_container_width=True,
    )


main()
