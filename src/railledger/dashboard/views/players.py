"""Players page: Weng-Lin ratings of the games the sidebar chooses (people's valid finished games
unless asked otherwise: dashboard/population.py), per title and over all titles, and
one player's games, titles, rating over time and record against each opponent.

``?player=identity`` (``user:680`` for an 18xx.games user, ``seat:3:GAME`` for a hotseat or notation
game's seat: docs/identity.md) opens a player; the leaderboard's links lead there.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from railledger.analytics.balance import POOLED
from railledger.analytics.identity import labelled
from railledger.dashboard import data, player_charts, population
from railledger.dashboard.links import player_url, review_url
from railledger.dashboard.tables import first_rows
from railledger.dashboard.text import md

RATING_COLUMNS = {
    "place": st.column_config.NumberColumn("Place"),
    "shown": st.column_config.TextColumn("Player", help="The name used last; with the id where two names compare equal"),
    "short_id": st.column_config.TextColumn("Id", help="#: the 18xx.games user id; a hotseat or notation game's "
                                            "players are each a player of that game's seat"),
    "games": st.column_config.NumberColumn("Games"),
    "wins": st.column_config.NumberColumn("Wins"),
    "ordinal": st.column_config.NumberColumn("Rating", format="%.2f", help="μ − 3σ: the skill one can be sure of"),
    "mu": st.column_config.NumberColumn("Skill μ", format="%.2f"),
    "sigma": st.column_config.NumberColumn("Uncertainty σ", format="%.2f"),
    "page": st.column_config.LinkColumn("Page", display_text="open"),
}

st.title("Players")
db = data.db_path()
chosen = population.chosen()
rated, counted = data.load(data.player_ratings, db, chosen)
st.caption(md(counted))
leaderboard = labelled(rated.table)
if rated.table.is_empty():
    st.info("No game counted has a result yet: a game is rated once it is finished with a recorded result "
            "(the sidebar chooses which games count).")
    st.stop()

st.caption(f"Weng-Lin ratings (openskill's Plackett-Luce model) over {rated.games} games with a result, in the order "
           "they were played; ranks come from the final values, and tied players share a rank. Players are "
           "listed by their rating μ − 3σ, which a lucky newcomer does not top.")
scopes = leaderboard["scope"].unique(maintain_order=True).to_list()
scope = st.selectbox("Ratings of", scopes, index=scopes.index(POOLED))
board = leaderboard.filter(pl.col("scope") == scope).with_columns(
    page=pl.col("player").map_elements(player_url, return_dtype=pl.Utf8))
st.dataframe(board.select(list(RATING_COLUMNS)), hide_index=True, width="stretch", column_config=RATING_COLUMNS)

st.header("A player")
players = leaderboard.filter(pl.col("scope") == POOLED).sort("name", "player")
ids = players["player"].to_list()
labels = dict(zip(ids, [f"{name} ({short})" for name, short in zip(players["name"], players["short_id"])]))
asked = st.query_params.get("player")
player = st.selectbox("Player", ids, index=ids.index(asked) if asked in ids else 0, format_func=labels.__getitem__)
st.query_params["player"] = player

record = data.load(data.one_player, db, chosen, player)
mine = leaderboard.filter(pl.col("player") == player)
overall = mine.filter(pl.col("scope") == POOLED).row(0, named=True)
rating_col, games_col, wins_col, titles_col = st.columns(4)
rating_col.metric("Rating (all titles)", f"{overall['ordinal']:.2f}", help=f"μ {overall['mu']:.2f}, σ {overall['sigma']:.2f}")
games_col.metric("Rated games", overall["games"])
wins_col.metric("Wins", overall["wins"])
titles_col.metric("Titles", mine.height - 1)

st.subheader("Titles")
st.dataframe(mine.filter(pl.col("scope") != POOLED).select("scope", "place", "games", "wins", "ordinal", "mu", "sigma"),
             hide_index=True, width="stretch",
             column_config={**RATING_COLUMNS, "scope": st.column_config.TextColumn("Title"),
                            "place": st.column_config.NumberColumn("Place in the title")})

st.plotly_chart(player_charts.rating_history(record.history), key="history")

st.subheader("Head to head")
st.caption("A win is finishing ahead of that opponent in a rated game, a loss behind, a tie level.")
st.dataframe(
    record.versus.with_columns(page=pl.col("opponent").map_elements(player_url, return_dtype=pl.Utf8)),
    hide_index=True, width="stretch",
    column_config={"opponent": None, "name": st.column_config.TextColumn("Opponent"),
                   "games": "Games together", "wins": "Wins", "losses": "Losses", "ties": "Ties",
                   "page": RATING_COLUMNS["page"]},
)

st.subheader("Games")
played = data.load(data.games_of, db, player)
rated_keys = set(record.results["game_key"].to_list())
st.caption(f"{md(overall['shown'])} sat in {played.height} archived games; {overall['games']} of them are rated.")
played = first_rows(played, "review a game from the archive page")
st.dataframe(
    played.with_columns(
        rated=pl.col("game_key").is_in(list(rated_keys)),
        review=pl.Series([review_url(key) for key in played["game_key"]], dtype=pl.Utf8),
    ).select("game_key", "title", "created", "status", "players", "seat", "value", "rank", "rated", "end_reason", "review"),
    hide_index=True, width="stretch",
    column_config={"game_key": "Game", "title": "Title", "created": "Created", "status": "Status",
                   "players": "Players", "seat": "Seat", "value": "Final value", "rank": "Place",
                   "rated": st.column_config.CheckboxColumn("Rated"), "end_reason": "How it ended",
                   "review": st.column_config.LinkColumn("Review", display_text="open")},
)
