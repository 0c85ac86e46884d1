"""Archive page: every game of the kind the sidebar chooses (people's, bots' or both:
dashboard/population.py) with its verdict, filtered by title, player, status and verdict, with a
review link."""

from __future__ import annotations

import polars as pl
import streamlit as st

from railledger.analytics.scope import GAME_KINDS
from railledger.dashboard import data, population
from railledger.dashboard.links import review_url
from railledger.dashboard.tables import first_rows
from railledger.dashboard.text import md


st.title("railledger archive")
db = data.db_path()
archived = data.load(data.overview, db)
counted = population.chosen()
games = archived.filter(counted.of_kind())
other = archived.height - games.height

title_col, player_col, status_col, verdict_col = st.columns(4)
titles = sorted(games["title"].unique().to_list())
chosen = title_col.multiselect("Title", titles, default=titles)
player = player_col.text_input("Player", placeholder="name")
statuses = sorted(games["status"].drop_nulls().unique().to_list())
status = status_col.multiselect("Status", statuses, default=statuses)
verdicts = games["verdict"].unique(maintain_order=True).sort().to_list()
verdict = verdict_col.multiselect("Verdict", verdicts, default=verdicts)

shown = games.filter(pl.col("title").is_in(chosen), pl.col("status").is_in(status) | pl.col("status").is_null())
if player:
    shown = shown.filter(pl.col("players").str.to_lowercase().str.contains(player.lower(), literal=True))
shown = shown.filter(pl.col("verdict").is_in(verdict))

counts = ", ".join(f"{n} {kind}" for kind, n in games.group_by("verdict").len().sort("verdict").iter_rows())
others = f" {other} other games are not listed ({population.SIDEBAR.games} lists them)." if other else ""
st.caption(f"{shown.height} of {games.height} {GAME_KINDS[counted.games]} in {md(db)}: {md(counts)}.{md(others)} "
           "Every verdict is listed here; flags count root causes only.")
shown = first_rows(shown)
if shown["variant"].is_null().all():
    shown = shown.drop("variant")  # no game here was played with a variant: the column would say nothing
st.dataframe(
    shown.with_columns(review=pl.Series([review_url(key) for key in shown["key"]], dtype=pl.Utf8)),
    hide_index=True,
    width="stretch",
    column_config={"key": "Game", "title": "Title", "variant": "Variant", "source": "Source", "players": "Players", "status": "Status",
                   "actions": "Actions", "verdict": "Verdict", "why": "Why", "replayed": "Replayed",
                   "flags": st.column_config.NumberColumn("Flags (root causes)", format="%d"),
                   "review": st.column_config.LinkColumn("Review", display_text="open")},
)
if shown.height:
    key = st.selectbox("Game to review", shown["key"].to_list())
    st.page_link("views/review.py", label=f"Review {md(key)}", query_params={"game": key})
