"""Archive page: every game, filtered by title, player, status and flags, with a review link."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import data
from dashboard.links import review_url
from dashboard.text import md

FLAG_CHOICES = ("all games", "flagged only", "without flags")

st.title("railledger archive")
db = data.db_path()
games = data.load(data.overview, db)

title_col, player_col, status_col, flag_col = st.columns(4)
titles = sorted(games["title"].unique().to_list())
chosen = title_col.multiselect("Title", titles, default=titles)
player = player_col.text_input("Player", placeholder="name")
statuses = sorted(games["status"].drop_nulls().unique().to_list())
status = status_col.multiselect("Status", statuses, default=statuses)
flagged = flag_col.selectbox("Flags", FLAG_CHOICES)

shown = games.filter(pl.col("title").is_in(chosen), pl.col("status").is_in(status) | pl.col("status").is_null())
if player:
    shown = shown.filter(pl.col("players").str.to_lowercase().str.contains(player.lower(), literal=True))
if flagged != FLAG_CHOICES[0]:
    shown = shown.filter((pl.col("flags") > 0) == (flagged == FLAG_CHOICES[1]))

st.caption(f"{shown.height} of {games.height} games in {md(db)}")
st.dataframe(
    shown.with_columns(review=pl.col("key").map_elements(review_url, return_dtype=pl.Utf8)),
    hide_index=True,
    width="stretch",
    column_config={"review": st.column_config.LinkColumn("review", display_text="open")},
)
if shown.height:
    key = st.selectbox("Game to review", shown["key"].to_list())
    st.page_link("views/review.py", label=f"Review {md(key)}", query_params={"game": key})
