"""Game review page: step through one game as its players saw it, an action at a time.

The first screen holds the board (left) and, beside it, the controls, the action in words, the
log around it and the spreadsheet; below come what else was legal, the stock market, the private
companies and the charts. An action is named by the record's own id with the round it was taken
in, on the page and in its URL: ``?game=14375&action=209`` (a game by its key or source id). A
game opens at the action its URL names, else an illegal one at its first root cause, else at its
first action. The action in view lives in session state under a key per game, so the buttons (and
the arrow keys), the log, the round picker and the flag buttons all move the same value.
"""

from __future__ import annotations

import json

import polars as pl
import streamlit as st

from railledger.analytics.review import find_game, opening_seq
from railledger.dashboard import charts, data, review_parts as parts
from railledger.dashboard.board import add_routes, map_figure, map_scale
from railledger.dashboard.colours import company_colours, company_looks, player_colours
from railledger.dashboard.spreadsheet import STYLE, market_html, sheet_html
from railledger.dashboard.tables import SHOWN
from railledger.dashboard.text import md

DECLARED_COLOUR, BEST_COLOUR = "#c0392b", "#1f5fbf"
# The review wants every pixel of the first screen: Streamlit's roomy margins shrink on this page.
# (A comment, not a docstring: Streamlit writes a page's bare strings out.)
PAGE = "<style>[data-testid='stMainBlockContainer'] {padding-top: 4.2rem; padding-left: 1.5rem; padding-right: 1.5rem;}</style>"

st.set_page_config(initial_sidebar_state="collapsed")  # the first screen needs the width; the games counted are one click away
st.html(PAGE + STYLE)
db = data.db_path()
keys = data.load(data.game_keys, db)
if not keys:
    st.title("Game review")
    st.info("The archive holds no games yet; run `railledger ingest` first.")
    st.stop()

asked = st.query_params.get("game")
linked = find_game(keys, asked) if asked else None
offered = list(keys[:SHOWN])
title_col, pick_col, find_col = st.columns([2, 5, 3], vertical_alignment="center")
title_col.markdown("#### Game review")
if len(keys) > SHOWN:  # a hundred thousand options would reach the browser on every run
    found = find_col.text_input("Find a game", placeholder="part of its key or id", label_visibility="collapsed")
    if found:
        offered = [k for k in keys if found.lower() in k.lower()][:SHOWN]
    if linked is not None and linked not in offered:
        offered = [linked, *offered]
    find_col.caption(f"Offering {len(offered):,} of {len(keys):,} games; type part of a key to find another.")
if asked and linked is None:
    st.warning(f"No archived game is {md(asked)}; showing another.")
if not offered:
    st.info("No game's key has that in it.")
    st.stop()
key = pick_col.selectbox("Game", offered, index=offered.index(linked) if linked in offered else 0,
                         label_visibility="collapsed")
game = data.load(data.tables, db, key)
played_with = data.load(data.game_variant, db, key)
if played_with is not None:
    st.caption(md(f"Played with the variant {played_with}: the title's data as the variant changes it "
                  "(designers.md, Variants), replayed with the same data."))
last = game.steps.height - 1
if last < 0:
    st.info(f"{md(key)} has no actions.")
    st.stop()

step_key, written_key = f"seq:{key}", "review:written"
asked_action = st.query_params.get("action")
if step_key not in st.session_state or (asked_action is not None and st.session_state.get(written_key) != (key, asked_action)):
    st.session_state[step_key] = opening_seq(game, asked_action)  # a new game, or a link followed to an action


def _go(seq: int) -> None:
    st.session_state[step_key] = max(0, min(last, seq))


seq = st.session_state[step_key]
step = game.steps.row(seq, named=True)
st.query_params["game"] = key
st.query_params["action"] = step["label"]
st.session_state[written_key] = (key, step["label"])

view = data.load(data.position, db, key, seq) if game.replayed else None
frame = map_scale(view) if view is not None else None
# the map exactly as wide as it was laid out for (its labels are placed in pixels), the rest beside it
first_screen = st.container(horizontal=True, gap="small")
map_col = first_screen.container(width=frame.size[0] if frame is not None else "content")
side = first_screen.container(width="stretch")

# ------------------------------------------------------------------ beside the map: where we are
rules = parts.flag_rules(game.flags)
before_root, after_root = parts.root_neighbours(game.flags, seq)
buttons = side.columns([1, 1, 1, 1, 2, 2], gap="small", vertical_alignment="bottom")
buttons[0].button("", icon=":material/first_page:", on_click=_go, args=(0,), disabled=seq == 0,
                  help="First action", width="stretch", key="first")
buttons[1].button("", icon=":material/chevron_left:", on_click=_go, args=(seq - 1,), disabled=seq == 0,
                  shortcut="Left", help="Previous action (left arrow key)", width="stretch", key="previous")
buttons[2].button("", icon=":material/chevron_right:", on_click=_go, args=(seq + 1,), disabled=seq == last,
                  shortcut="Right", help="Next action (right arrow key)", width="stretch", key="next")
buttons[3].button("", icon=":material/last_page:", on_click=_go, args=(last,), disabled=seq == last,
                  help="Last action", width="stretch", key="last")
buttons[4].button("Flag", icon=":material/arrow_back:", on_click=_go, args=(before_root if before_root is not None else seq,),
                  disabled=before_root is None, help="Previous rule broken (a root cause)", width="stretch",
                  key="previous flag")
buttons[5].button("Flag", icon=":material/arrow_forward:", on_click=_go,
                  args=(after_root if after_root is not None else seq,), disabled=after_root is None,
                  help="Next rule broken (a root cause)", width="stretch", key="next flag")
toggle_col, round_col = side.columns([1, 2], vertical_alignment="center")
notation = toggle_col.toggle("Notation", key="review:notation", help="The actions in railledger notation instead of words")
rounds = game.rounds()
if not rounds.is_empty():
    round_labels = [f"{i + 1}. {r}" for i, r in enumerate(rounds["round"])]
    round_key = f"round:{key}"
    current_round = step["round_index"]
    st.session_state[round_key] = round_labels[current_round] if current_round is not None else round_labels[0]

    def _jump() -> None:
        _go(rounds["first"][round_labels.index(st.session_state[round_key])])

    round_col.selectbox("Round", round_labels, key=round_key, on_change=_jump, label_visibility="collapsed",
                        help="Jump to the start of a round")

where = f" · {step['round']}" if step["round"] else ""
phase = f" · phase {step['phase']}" if step["phase"] else ""
side.markdown(f"**Action {md(step['label'])}**{md(where)}{md(phase)}")
if notation:
    side.code(step["notation"], language=None)
else:
    side.markdown(f"##### {md(step['sentence'])}")
flagged = game.flags.filter(pl.col("seq") == seq)
run_note = side.empty()  # filled once the map is drawn, at a run
for flag in flagged.iter_rows(named=True):
    cause = "" if flag["follows"] is None else \
        f" It follows from action {md(game.steps['label'][flag['follows']])}, broken earlier: the record goes on as if that had happened."
    side.warning(f"**Rule broken**: {md(flag['rule'])} ({md(flag['section'])}): {md(flag['message'])}.{cause} "
               "An illegal action changes nothing.")

window = parts.log_window(game.steps, seq)
log_key = f"log:{key}"
st.session_state[log_key] = seq
lines = {s: parts.log_line(game.steps.row(s, named=True), rules.get(s), notation) for s in window}
side.radio("Action log", window, key=log_key, format_func=lines.__getitem__,
           on_change=lambda: _go(st.session_state[log_key]), help="Click an action to go there")

if view is None or frame is None:
    side.info(f"{md(game.title)} games are archived without a replay yet: only the actions can be stepped through.")
    st.stop()

looks = company_looks(game.title)
market = data.market(game.title)
assert view.sheet is not None
revenues = data.load(data.revenues, db, key).filter(pl.col("seq") <= seq)
side.html(sheet_html(view.sheet, revenues, looks, market))

# ------------------------------------------------------------------ the map
figure = map_figure(view, looks, frame)
run = game.runs.filter(pl.col("seq") == seq)
if not run.is_empty():
    audited = run.row(0, named=True)
    add_routes(figure, view, json.loads(audited["declared_routes"]), "declared run", DECLARED_COLOUR, "solid", 0.12)
    add_routes(figure, view, json.loads(audited["optimal_routes"]), "best run", BEST_COLOUR, "dot", -0.12)
    engine = "refused by the engine" if audited["engine"] is None else f"earns ${audited['engine']}"
    best = f"${audited['optimum']}" + ("" if audited["proven"] else " (best found, not proven)")
    run_note.markdown(f"**{md(audited['company'])}'s run** {engine} (solid red on the map); the best run earns "
                      f"{best} (dotted blue).")
map_col.plotly_chart(figure, key="map", width="content", config={"scrollZoom": True, "displayModeBar": False})
map_col.caption("Scroll to zoom, drag to move; hover a hex for its tile, revenues and stations.")

# ------------------------------------------------------------------ below the first screen
legal_col, market_col = st.columns([2, 3])
legal_col.subheader("What else was legal")
if not view.offers:
    legal_col.caption("The rules offered no action here: the record's action was refused, or it was automatic.")
else:
    made = any(offer.made for group in view.offers for offer in group.offers)
    legal_col.caption(f"{sum(len(g.offers) for g in view.offers)} moves the rules allowed before this action, by kind; "
                      + ("the one made is marked ✔." if made else "the record's action is none of them: it broke a rule."))
for group in view.offers:
    with legal_col.expander(group.title, expanded=any(o.made for o in group.offers) or len(group.offers) <= 3):
        st.markdown("\n".join(f"- {'✔ **' if o.made else ''}{md(o.text)}{'** (made)' if o.made else ''}"
                              for o in group.offers))
market_col.subheader("Stock market")
market_col.html(market_html(market, view.sheet.companies, looks))

colours = company_colours(game.title)
seat_colours = player_colours(game.players.sort("seat")["name"].to_list())
labels = game.steps["label"].to_list()
prices, worth = data.load(data.step_values, db, key)
price_col, worth_col = st.columns(2)
price_col.plotly_chart(charts.step_lines(prices, "company", "price", seq, "Share prices", rounds, colours, labels),
                       key="prices")
worth_col.plotly_chart(charts.step_lines(worth, "player", "net_worth", seq, "Net worth", rounds, seat_colours,
                                         labels), key="worth")
revenue_col, trains_col = st.columns([3, 2])
if not game.runs.is_empty():
    revenue_col.plotly_chart(charts.revenue_by_round(game.runs, colours), key="revenue")
trains_col.subheader("Trains bought and rusted")
trains_col.dataframe(parts.trains_so_far(game.events, game.steps, seq), hide_index=True, width="stretch", height=320,
                     column_config=parts.TRAIN_COLUMNS)
st.subheader("Private companies")
st.dataframe(parts.privates_table(view), hide_index=True, width="stretch", column_config=parts.PRIVATE_COLUMNS)
