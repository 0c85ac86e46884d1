"""Game review page: step through one game and see the state after each action.

The game comes from ``?game=key`` (the archive and validation pages link here) or the select
box; ``?step=n`` opens it at its n-th action. Step n is the n-th action on every part of the
page (slider, log, chart axes); the record's own action id appears only inside the notation
line. The step lives in session state under a key per game, so the slider, the previous/next
buttons, the previous/next flag buttons and the round picker all move the same value.
"""

from __future__ import annotations

import json

import polars as pl
import streamlit as st

from railledger.dashboard import charts, data, review_parts as parts
from railledger.dashboard.board import add_routes, map_figure
from railledger.dashboard.colours import company_colours, player_colours
from railledger.dashboard.tables import SHOWN
from railledger.dashboard.text import md

DECLARED_COLOUR, BEST_COLOUR = "#c0392b", "#1f5fbf"

st.title("Game review")
db = data.db_path()
keys = data.load(data.game_keys, db)
if not keys:
    st.info("The archive holds no games yet; run `railledger ingest` first.")
    st.stop()

asked = st.query_params.get("game")
offered = list(keys[:SHOWN])
if len(keys) > SHOWN:  # a hundred thousand options would reach the browser on every run
    found = st.text_input("Find a game", placeholder="part of its key or id")
    if found:
        offered = [k for k in keys if found.lower() in k.lower()][:SHOWN]
    if asked in keys and asked not in offered:
        offered = [asked, *offered]
    st.caption(f"Offering {len(offered):,} of {len(keys):,} games; type part of a key to find another.")
if not offered:
    st.info("No game's key has that in it.")
    st.stop()
key = st.selectbox("Game", offered, index=offered.index(asked) if asked in offered else 0)
st.query_params["game"] = key
game = data.load(data.tables, db, key)
last = game.steps.height - 1
if last < 0:
    st.info(f"{md(key)} has no actions.")
    st.stop()

step_key = f"step:{key}"
if step_key not in st.session_state:
    asked_step = st.query_params.get("step", "")
    st.session_state[step_key] = min(max(int(asked_step), 1), last + 1) if asked_step.isdigit() else last + 1


def _go(step: int) -> None:
    st.session_state[step_key] = max(1, min(last + 1, step))


rounds = game.rounds()
round_labels = [f"{i + 1}. {r}" for i, r in enumerate(rounds["round"])]
round_key = f"round:{key}"


def _jump() -> None:
    _go(rounds["first"][round_labels.index(st.session_state[round_key])] + 1)


before_flag, after_flag = parts.flag_neighbours(game.flags, st.session_state[step_key] - 1)
back, forward, flag_back, flag_forward, jump = st.columns([1, 1, 1, 1, 3], vertical_alignment="bottom")
back.button("◀ Previous", on_click=_go, args=(st.session_state[step_key] - 1,),
            disabled=st.session_state[step_key] == 1, width="stretch")
forward.button("Next ▶", on_click=_go, args=(st.session_state[step_key] + 1,),
               disabled=st.session_state[step_key] == last + 1, width="stretch")
flag_back.button("◀ Previous flag", on_click=_go, args=((before_flag or 0) + 1,), disabled=before_flag is None,
                 width="stretch")
flag_forward.button("Next flag ▶", on_click=_go, args=((after_flag or 0) + 1,), disabled=after_flag is None,
                    width="stretch")
if round_labels:
    current = game.steps.row(st.session_state[step_key] - 1, named=True)["round_index"]
    st.session_state[round_key] = round_labels[current]
    jump.selectbox("Jump to round", round_labels, key=round_key, on_change=_jump)
number = st.slider("Step", 1, last + 1, key=step_key)
st.query_params["step"] = str(number)
seq = number - 1

step = game.steps.row(seq, named=True)
where = f" · {step['round']} · phase {step['phase']}" if step["round"] else ""  # the engine's own labels
st.markdown(f"**Step {number} of {last + 1}**{where} · {md(step['who'])}: {md(step['does'])}")
st.code(step["action"], language=None)
st.caption(f"The step in railledger notation; it starts with the record's own action id ({md(step['action_id'])}).")
for flag in game.flags.filter(pl.col("seq") == seq).iter_rows(named=True):
    st.warning(f"Flagged {flag['rule']}: {md(flag['message'])}")  # a message may quote the record

log_col, other_col = st.columns([3, 2])
log_col.subheader("Action log")
log_col.dataframe(parts.action_log(game.steps, game.flags, seq), hide_index=True, width="stretch",
                  column_config=parts.LOG_COLUMNS)

if not game.replayed:
    st.info(f"{md(game.title)} games are archived without a replay yet: only the actions can be stepped through.")
    st.stop()

view = data.load(data.board, db, key, seq)
other_col.subheader("What else was legal")
alternatives = parts.alternatives_table(view)
other_col.caption(f"{alternatives.height} legal actions before this step, from the rules engine; the one made is "
                  "ticked." if alternatives.height else "The rules engine offered no action here (the record's "
                  "action was refused or automatic).")
other_col.dataframe(alternatives, hide_index=True, width="stretch", height=min(35 * alternatives.height + 40, 390),
                    column_config=parts.ALTERNATIVE_COLUMNS)

names = dict(game.players.iter_rows())
colours = company_colours(game.company_states["company"].unique().to_list())
seat_colours = player_colours(game.players.sort("seat")["name"].to_list())
players = (
    game.player_states.filter(pl.col("seq") == seq).sort("seat")
    .select(pl.col("seat").replace_strict(names, return_dtype=pl.Utf8).alias("player"), "cash", "net_worth", "shares")
)
companies = (
    game.company_states.filter(pl.col("seq") == seq, pl.col("price").is_not_null()).sort("price", descending=True)
    .with_columns(pl.col("president").replace_strict(names, default=None, return_dtype=pl.Utf8))
)
st.subheader("Players")
st.dataframe(players, hide_index=True, width="stretch",
             column_config={**parts.PLAYER_COLUMNS, "shares": st.column_config.TextColumn("Shares held", width="large")})
left, right = st.columns([3, 2])
left.subheader("Companies")
if companies.is_empty():
    left.caption("No company has a share price yet.")
else:
    left.dataframe(companies.select(list(parts.COMPANY_COLUMNS)), hide_index=True, width="stretch",
                   column_config=parts.COMPANY_COLUMNS)
right.subheader("Private companies")
right.dataframe(parts.privates_table(view), hide_index=True, width="stretch", column_config=parts.PRIVATE_COLUMNS)

st.subheader("Map")
figure = map_figure(view, colours)
run = game.runs.filter(pl.col("seq") == seq)
if not run.is_empty():
    audited = run.row(0, named=True)
    add_routes(figure, view, json.loads(audited["declared_routes"]), "declared run", DECLARED_COLOUR, "solid", 0.12)
    add_routes(figure, view, json.loads(audited["optimal_routes"]), "best run", BEST_COLOUR, "dot", -0.12)
    engine = "refused by the engine" if audited["engine"] is None else f"earns {audited['engine']}"
    best = f"{audited['optimum']}" + ("" if audited["proven"] else " (best found, not proven)")
    st.markdown(f"**{md(audited['company'])}'s run** {engine} (solid red); the best run earns {best} "
                f"(dotted blue).")
st.caption("Scroll or drag to zoom; hover a hex for its name, tile and stations.")
st.plotly_chart(figure, key="map", config={"scrollZoom": True})

st.subheader("Stock market")
st.plotly_chart(charts.market_figure(data.market(game.title), companies, colours), key="market")

shown_rounds = rounds.with_columns(parts.step_number(pl.col("first", "last")))  # axes in steps, as the slider counts
prices, worth = (frame.with_columns(parts.step_number(pl.col("seq"))) for frame in data.load(data.step_values, db, key))
price_col, worth_col = st.columns(2)
price_col.plotly_chart(charts.step_lines(prices, "company", "price", number, "Share prices", shown_rounds, colours),
                       key="prices")
worth_col.plotly_chart(charts.step_lines(worth, "player", "net_worth", number, "Net worth", shown_rounds,
                                         seat_colours), key="worth")
revenue_col, trains_col = st.columns([3, 2])
if not game.runs.is_empty():
    revenue_col.plotly_chart(charts.revenue_by_round(game.runs, colours), key="revenue")
trains_col.subheader("Trains bought and rusted")
trains_col.dataframe(parts.trains_so_far(game.events, seq), hide_index=True, width="stretch", height=320,
                     column_config=parts.TRAIN_COLUMNS)
