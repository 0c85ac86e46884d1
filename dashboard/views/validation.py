"""Validation page: every action the engine flagged, with its rule and message, and a link to
review the game at that action."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboard import charts, data
from dashboard.links import review_url

st.title("Validation")
db = data.db_path()
summary, flags = data.load(data.validation, db)
if flags.is_empty():
    st.success("No archived action breaks a rule the engine knows.")
    st.stop()

roots = flags.filter(pl.col("follows").is_null()).height
st.caption(f"{flags.height} flagged actions in {flags['game_key'].n_unique()} games: {roots} root causes, "
           f"{flags.height - roots} that follow from one (listed after it).")
st.plotly_chart(charts.flags_by_rule(summary), key="rules")
st.dataframe(summary, hide_index=True, width="stretch")
st.subheader("Flagged actions")
links = [review_url(k, s) for k, s in zip(flags["game_key"], flags["seq"])]
st.dataframe(
    flags.with_columns(review=pl.Series(links, dtype=pl.Utf8)),
    hide_index=True,
    width="stretch",
    column_config={"review": st.column_config.LinkColumn("review", display_text="open")},
)
