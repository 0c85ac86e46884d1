"""Game review page: step through one game and see the state after each action.

The game comes from ``?game=key`` (the archive and validation pages link here) or the select
box; ``?step=n`` opens it at an action. The step lives in session state under a key per game, so
the slider, the previous/next buttons and the round picker all move the same value.
"""

from __future__ import annotations

import json

import polars as pl
import streamlit as st

from analytics.review import GameTables
from dashboard import charts, data
from dashboard.board import add_routes, map_figure
from dashboard.colours import company_colours
from dashboard.text import md

DECLARED_COLOUR, BEST_COLOUR = "#c0392b", "#1f5fbf"

st.title("Game review")
db = data.db_path()
games = data.load(data.overview, db)
if games.is_empty():
    st.info("The archive holds no games yet; run `railledger ingest` first.")
    st.stop()

keys = games["key"].to_list()
asked = st.query_params.get("game")
key = st.selectbox("Game", keys, index=keys.index(asked) if asked in keys else 0)
st.query_params["game"] = key
game = data.load(data.tables, db, key)
last = game.steps.height - 1
if last < 0:
    st.info(f"{md(key)} has no actions.")
    st.stop()

step_key = f"step:{key}"
if step_key not in st.session_state:
    asked_step = st.query_params.get("step", "")
    st.session_state[step_key] = min(int(asked_step), last) if asked_step.isdigit() else last


def _move(delta: int) -> None:
    st.session_state[step_key] = max(0, min(last, st.session_state[step_key] + delta))


def _rounds(game: GameTables) -> pl.DataFrame:
    """First action of each round: round_index, round, seq."""
    return game.steps.drop_nulls("round_index").group_by("round_index").agg(
        pl.col("round").first(), pl.col("seq").min()).sort("round_index")


rounds = _rounds(game)
round_labels = [f"{i + 1}. {r}" for i, r in enumerate(rounds["round"])]
round_key = f"round:{key}"


def _jump() -> None:
    st.session_state[step_key] = rounds["seq"][round_labels.index(st.session_state[round_key])]


back, forward, jump = st.columns([1, 1, 4], vertical_alignment="bottom")
back.button("◀ Previous", on_click=_move, args=(-1,), disabled=st.session_state[step_key] == 0, width="stretch")
forward.button("Next ▶", on_click=_move, args=(1,), disabled=st.session_state[step_key] == last, width="stretch")
if round_labels:
    current = game.steps.row(st.session_state[step_key], named=True)["round_index"]
    st.session_state[round_key] = round_labels[current]
    jump.selectbox("Jump to round", round_labels, key=round_key, on_change=_jump)
seq = st.slider("Action", 0, last, key=step_key)
st.query_params["step"] = str(seq)

step = game.steps.row(seq, named=True)
where = f" · {step['round']} · phase {step['phase']}" if step["round"] else ""  # the engine's own labels
st.markdown(f"**Action {seq + 1} of {last + 1}**{where}")
st.code(step["action"], language=None)
for flag in game.flags.filter(pl.col("seq") == seq).iter_rows(named=True):
    st.warning(f"Flagged {flag['rule']}: {md(flag['message'])}")  # a message may quote the record

if not game.replayed:
    st.info(f"{md(game.title)} games are archived without a replay yet: only the actions can be stepped through.")
    st.stop()

names = dict(game.players.iter_rows())
colours = company_colours(game.company_states["company"].unique().to_list())
players = (
    game.player_states.filter(pl.col("seq") == seq).sort("seat")
    .select(pl.col("seat").replace_strict(names, return_dtype=pl.Utf8).alias("player"), "cash", "net_worth", "shares")
)
companies = (
    game.company_states.filter(pl.col("seq") == seq, pl.col("price").is_not_null()).sort("price", descending=True)
    .with_columns(pl.col("president").replace_strict(names, default=None, return_dtype=pl.Utf8))
)
left, right = st.columns([2, 3])
left.subheader("Players")
left.dataframe(players, hide_index=True, width="stretch")
right.subheader("Companies")
if companies.is_empty():
    right.caption("No company has a share price yet.")
else:
    right.dataframe(companies.select("company", "price", "cash", "trains", "tokens", "president", "floated", "closed"),
                    hide_index=True, width="stretch")

st.subheader("Stock market")
st.plotly_chart(charts.market_figure(data.market(game.title), companies, colours), key="market")
map_col, chart_col = st.columns([3, 2])
map_col.subheader("Map")
view = data.load(data.board, db, key, seq)
figure = map_figure(view, colours)
run = game.runs.filter(pl.col("seq") == seq)
if not run.is_empty():
    audited = run.row(0, named=True)
    add_routes(figure, view, json.loads(audited["declared_routes"]), "declared run", DECLARED_COLOUR, "solid", 0.12)
    add_routes(figure, view, json.loads(audited["optimal_routes"]), "best run", BEST_COLOUR, "dot", -0.12)
    engine = "refused by the engine" if audited["engine"] is None else f"earns {audited['engine']}"
    best = f"{audited['optimum']}" + ("" if audited["proven"] else " (best found, not proven)")
    map_col.markdown(f"**{md(audited['company'])}'s run** {engine} (solid red); the best run earns {best} "
                     f"(dotted blue).")
map_col.plotly_chart(figure, key="map")
prices, worth = data.load(data.step_values, db, key)
chart_col.plotly_chart(charts.step_lines(prices, "company", "price", seq, "Share prices", colours), key="prices")
chart_col.plotly_chart(charts.step_lines(worth, "player", "net_worth", seq, "Net worth"), key="worth")
