"""Titles page: per title, how many games, how long, what final values players reach at each
table size, how games end (each share with its n and 95% interval), and who leads the title's
ratings (tobymao/18xx #8220); over the games the sidebar chooses (dashboard/population.py)."""

from __future__ import annotations

import polars as pl
import streamlit as st

from railledger.analytics.identity import labelled
from railledger.dashboard import data, player_charts, population
from railledger.dashboard.links import player_url
from railledger.dashboard.text import md

LEADERS = 10

st.title("Titles")
db = data.db_path()
stats, counted = data.load(data.titles, db, population.chosen())
st.caption(md(counted))
if stats.summary.is_empty():
    st.info("The archive holds no games yet; run `railledger ingest` first.")
    st.stop()

st.dataframe(
    stats.summary, hide_index=True, width="stretch",
    column_config={
        "title": "Title", "archived": "Games archived", "counted": "Games counted",
        "operating_rounds": st.column_config.NumberColumn("Operating rounds (mean)", format="%.1f"),
        "actions": st.column_config.NumberColumn("Actions (mean)", format="%.0f"),
        "timed": st.column_config.NumberColumn("Timed games", help="Games whose record says when they began and "
                                               "when their last action was made"),
        "median_hours": st.column_config.NumberColumn("Length, hours (median)", format="%.1f",
                                                      help="From the game's creation to its last action"),
        "mean_hours": st.column_config.NumberColumn("Length, hours (mean)", format="%.1f"),
        "players": "Different players",
    },
)
if stats.values.is_empty():
    st.info("No game counted yet: the sidebar chooses which games count.")
    st.stop()
st.plotly_chart(player_charts.values_by_players(stats.values), key="values")

titles = stats.values["title"].unique(maintain_order=True).to_list()
title = st.selectbox("Title", titles)
st.subheader(f"Final values in {md(title)}")
st.dataframe(
    stats.values.filter(pl.col("title") == title).drop("title"), hide_index=True, width="stretch",
    column_config={
        "players": "Players", "games": "Games",
        "mean": st.column_config.NumberColumn("Mean value", format="%.0f"),
        "std": st.column_config.NumberColumn("Spread (std)", format="%.0f"),
        "lowest": "Lowest", "highest": "Highest",
        "winners_mean": st.column_config.NumberColumn("Winners' mean", format="%.0f"),
    },
)
ending_col, leader_col = st.columns(2)
endings = stats.endings.filter(pl.col("title") == title)
ending_col.plotly_chart(player_charts.end_reasons(endings), key="endings")
percent = [(pl.col(bound) * 100).round(0).cast(pl.Int64).cast(pl.Utf8) + "%" for bound in ("ci_low", "ci_high")]
ending_col.dataframe(
    endings.select("reason", "games", "n", "share", interval=pl.concat_str(percent, separator="–")),
    hide_index=True, width="stretch",
    column_config={"reason": "How it ended", "games": "Games", "n": "Out of",
                   "share": st.column_config.NumberColumn("Share", format="percent"),
                   "interval": st.column_config.TextColumn("95% interval", help="Wilson's, of the share")},
)
leader_col.subheader("Leaderboard")
leaders = labelled(stats.leaders.filter(pl.col("scope") == title).head(LEADERS))
leader_col.dataframe(
    leaders.select("place", "shown", "games", "wins", "ordinal", page=pl.col("player").map_elements(player_url, return_dtype=pl.Utf8)),
    hide_index=True, width="stretch",
    column_config={"place": "Place", "shown": st.column_config.TextColumn(
                       "Player", help="By 18xx.games user id; a name two players share is followed by each one's id"),
                   "games": "Games", "wins": "Wins",
                   "ordinal": st.column_config.NumberColumn("Rating", format="%.2f", help="Weng-Lin μ − 3σ"),
                   "page": st.column_config.LinkColumn("Page", display_text="open")},
)
