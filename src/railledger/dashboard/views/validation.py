"""Validation page: every action the engine flagged, by its record id and round and in words, with
its rule and why, and a link to review the game at that action; then the revenue audit: what runs
left on the table, per president and per game."""

from __future__ import annotations

import polars as pl
import streamlit as st

from railledger.analytics.validation import flags_in_words
from railledger.dashboard import charts, data
from railledger.dashboard.links import review_url
from railledger.dashboard.tables import first_rows

st.title("Validation")
db = data.db_path()
summary, flags = data.load(data.validation, db)
if flags.is_empty():
    st.success("No archived action breaks a rule the engine knows.")
else:
    roots = flags.filter(pl.col("follows").is_null()).height
    games = flags["game_key"].n_unique()
    st.caption(f"{flags.height} flagged action{'s' if flags.height != 1 else ''} in {games} game{'s' if games != 1 else ''}: "
               f"{roots} root cause{'s' if roots != 1 else ''}, {flags.height - roots} that follow from one (listed after it: "
               "an action that counted on a refused one). Each action is numbered as its record numbers it, with its round.")
    st.plotly_chart(charts.flags_by_rule(summary), key="rules")
    st.dataframe(summary, hide_index=True, width="stretch")
    st.subheader("Flagged actions")
    flags = flags_in_words(first_rows(flags, "review a game"))
    links = [review_url(k, a) for k, a in zip(flags["game_key"], flags["action_id"])]
    st.dataframe(
        flags.drop("action_id").with_columns(review=pl.Series(links, dtype=pl.Utf8)),
        hide_index=True,
        width="stretch",
        column_config={"game_key": "game", "review": st.column_config.LinkColumn("review", display_text="open")},
    )

st.header("Revenue left on the table")
by_game, by_player = data.load(data.shortfalls, db)
if by_game.is_empty():
    st.info("No run is audited yet: ingest games of a title with an engine.")
    st.stop()
runs, lost = int(by_game["runs"].sum()), int(by_game["left_on_table"].sum())
st.caption(f"{runs} runs audited against the best run the company could make (the route optimizer's "
           f"optimum, proven unless counted as unproven): {lost} left on the table in all.")
st.subheader("By president")
st.caption("Each president is one player by 18xx.games user id (a hotseat game's by game and seat), shown by name, "
           "and by name and id where two names compare equal.")
st.dataframe(by_player.select("title", "shown", "short_id", *by_player.columns[3:-2]), hide_index=True, width="stretch",
             column_config={"shown": "president", "short_id": "id"})
st.subheader("By game")
by_game = first_rows(by_game, "most left on the table first; review a game")
st.dataframe(
    by_game.with_columns(review=pl.Series([review_url(k) for k in by_game["game_key"]], dtype=pl.Utf8)),
    hide_index=True,
    width="stretch",
    column_config={"review": st.column_config.LinkColumn("review", display_text="open")},
)
