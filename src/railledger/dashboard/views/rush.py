"""Train rush page: when each train type came out and rusted, in one game and across a title's
games the sidebar chooses (dashboard/population.py: bots' games run far longer than people's, so
they are counted apart unless asked). Each train type keeps one colour, the title's, in every
chart of the page."""

from __future__ import annotations

import polars as pl
import streamlit as st

from railledger.analytics.rush import train_order
from railledger.dashboard import charts, data, population
from railledger.dashboard.colours import train_colours
from railledger.dashboard.review_parts import step_number
from railledger.dashboard.text import md

st.title("Train rush")
db = data.db_path()
distribution, rushed, counted = data.load(data.rush, db, population.chosen())
st.caption(md(counted))
if rushed.is_empty():
    st.info("No game counted here has bought a train yet.")
    st.stop()

st.subheader("Across games")
titles = sorted(distribution["title"].unique().to_list())
title = st.selectbox("Title", titles)
of_title = distribution.filter(pl.col("title") == title)
colours = train_colours(train_order(title, of_title["train_type"].to_list()))
keys = rushed.filter(pl.col("title") == title)["game_key"].to_list()
st.caption(f"{len(keys)} {md(title)} games. An operating round count of n means the n-th OR was the latest started.")
bought_col, gone_col = st.columns(2)
bought_col.plotly_chart(charts.rush_distribution(of_title, "bought", colours), key="bought")
gone_col.plotly_chart(charts.rush_distribution(of_title, "gone", colours), key="gone")

st.subheader("One game")
key = st.selectbox("Game", keys)
game = data.load(data.game_rush, db, key).with_columns(step_number(pl.col("first_bought_seq", "gone_seq")))
rounds = data.load(data.rounds, db, key).with_columns(step_number(pl.col("first", "last")))  # as the review counts
st.plotly_chart(charts.rush_timeline(game, rounds, colours), key="timeline")
st.dataframe(game.select("train_type", "first_bought_round", "first_bought_action", "gone_round", "gone_action"),
             hide_index=True, width="stretch",
             column_config={"train_type": "Train type", "first_bought_round": "First bought in",
                            "first_bought_action": "at action", "gone_round": "Rusted in", "gone_action": "at action"})
