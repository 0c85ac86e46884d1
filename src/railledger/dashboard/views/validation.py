"""Validation page: every game whose verdict is not valid (illegal, result mismatch, unfinished, no
engine...) with its reason, of the games the sidebar chooses; every action the engine flagged, by
its record id and round and in words, with its rule and why, and a link to review the game at that
action; then the revenue audit: what runs left on the table, per president and per game."""

from __future__ import annotations

import polars as pl
import streamlit as st

from railledger.analytics.validation import flags_in_words
from railledger.dashboard import charts, data, population
from railledger.dashboard.links import review_url
from railledger.dashboard.tables import first_rows
from railledger.dashboard.text import md

WHOLE = "%d"  # counts are whole numbers, shown without decimals

st.title("Validation")
db = data.db_path()
chosen = population.chosen()
listed, of = data.load(data.not_valid, db, chosen)
st.header("Games that are not valid")
st.caption(md(of))
if listed.is_empty():
    st.success("Each of these games is valid: finished, replayed with no flag to its recorded result.")
else:
    counts = ", ".join(f"{n} {verdict}" for verdict, n in listed.group_by("verdict", maintain_order=True).len().iter_rows())
    st.caption(md(f"{listed.height} game{'s' if listed.height != 1 else ''} not valid: {counts}."))
    listed = first_rows(listed, "review a game")
    st.dataframe(
        listed.with_columns(review=pl.Series([review_url(k) for k in listed["game_key"]], dtype=pl.Utf8)),
        hide_index=True, width="stretch",
        column_config={"game_key": "Game", "title": "Title", "verdict": "Verdict", "reason": "Why",
                       "review": st.column_config.LinkColumn("Review", display_text="open")},
    )

st.header("Flagged actions")
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
    st.dataframe(summary, hide_index=True, width="stretch",
                 column_config={"title": "Title", "rule": "Rule",
                                "flags": st.column_config.NumberColumn("Flags (root causes)", format=WHOLE),
                                "games": st.column_config.NumberColumn("Games with one", format=WHOLE)})
    st.subheader("Every flagged action")
    flags = flags_in_words(first_rows(flags, "review a game"))
    links = [review_url(k, a) for k, a in zip(flags["game_key"], flags["action_id"])]
    st.dataframe(
        flags.drop("action_id").with_columns(review=pl.Series(links, dtype=pl.Utf8)),
        hide_index=True,
        width="stretch",
        column_config={"game_key": "Game", "action": "Action", "what was done": "What was done", "why": "Why",
                       "cause": "Cause", "rule": "Rule", "section": "Rules section", "title": "Title",
                       "review": st.column_config.LinkColumn("Review", display_text="open")},
    )

st.header("Revenue left on the table")
by_game, by_player = data.load(data.shortfalls, db, chosen)
if by_game.is_empty():
    st.info("No run is audited yet: ingest games of a title with an engine.")
    st.stop()
runs, lost = int(by_game["runs"].sum()), int(by_game["left_on_table"].sum())
st.caption(f"{runs} runs audited against the best run the company could make (the route optimizer's "
           f"optimum, proven unless counted as unproven): {lost} left on the table in all.")
AUDIT_COLUMNS = {
    "game_key": st.column_config.TextColumn("Game"), "title": st.column_config.TextColumn("Title"),
    "player": st.column_config.TextColumn("President"),
    "runs": st.column_config.NumberColumn("Runs", format=WHOLE),
    "below_optimum": st.column_config.NumberColumn("Runs below the best", format=WHOLE),
    "left_on_table": st.column_config.NumberColumn("Left on the table ($)", format=WHOLE),
    "best_possible": st.column_config.NumberColumn("Best possible ($)", format=WHOLE),
    "unproven": st.column_config.NumberColumn("Best runs not proven", format=WHOLE),
    "review": st.column_config.LinkColumn("Review", display_text="open"),
}
st.subheader("By president")
st.caption("Each president is one player by 18xx.games user id (a hotseat game's by game and seat), shown by name, "
           "and by name and id where two names compare equal.")
st.dataframe(by_player.select("title", "shown", *by_player.columns[3:-2]), hide_index=True, width="stretch",
             column_config={**AUDIT_COLUMNS, "shown": st.column_config.TextColumn("President")})
st.subheader("By game")
by_game = first_rows(by_game, "most left on the table first; review a game")
st.dataframe(
    by_game.with_columns(review=pl.Series([review_url(k) for k in by_game["game_key"]], dtype=pl.Utf8)),
    hide_index=True,
    width="stretch",
    column_config=AUDIT_COLUMNS,
)
