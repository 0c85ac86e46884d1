"""Train rush page: when each train type came out and rusted, in one game and across a title."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import charts, data
from dashboard.text import md

st.title("Train rush")
db = data.db_path()
everything = st.toggle(data.INCLUDE_ALL, value=False, help="Unfinished, illegal and mismatched games too.")
rush, distribution, counted = data.load(data.rush, db, everything)
st.caption(counted)
if rush.is_empty():
    st.info("No game counted here has bought a train yet.")
    st.stop()

st.subheader("Across games")
titles = sorted(distribution["title"].unique().to_list())
title = st.selectbox("Title", titles)
of_title = distribution.filter(pl.col("title") == title)
games = rush.filter(pl.col("title") == title)["game_key"].n_unique()
st.caption(f"{games} {md(title)} games. An operating round count of n means the n-th OR was the latest started.")
bought_col, gone_col = st.columns(2)
bought_col.plotly_chart(charts.rush_distribution(of_title, "bought"), key="bought")
gone_col.plotly_chart(charts.rush_distribution(of_title, "gone"), key="gone")

st.subheader("One game")
keys = rush.filter(pl.col("title") == title)["game_key"].unique(maintain_order=True).to_list()
key = st.selectbox("Game", keys)
game = rush.filter(pl.col("game_key") == key)
last_seq = data.load(data.tables, db, key).steps.height - 1
st.plotly_chart(charts.rush_timeline(game, last_seq), key="timeline")
st.dataframe(game.drop("game_key", "title"), hide_index=True, width="stretch")
