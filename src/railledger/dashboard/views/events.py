"""Events page: an event's standings, its rounds table by table with each game's review one click
away, the games not counted and the organizer's decisions, from its event file and the archive.

The event files are those ``railledger dashboard --event FILE`` names; the page reads them and
never writes them (``railledger event seat`` does), and counts only the games the archive holds
(``railledger event check --pull`` fetches the others).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import streamlit as st

from railledger.dashboard import data
from railledger.dashboard.links import review_url, user_url
from railledger.dashboard.text import md
from railledger.events.checking import EventCheck
from railledger.events.standings import TableResult
from railledger.pipeline.site import game_key
from railledger.reports.event import (decision_rows, games_rows, scoring_line, set_apart_rows, standings_header,
                                      standings_rows, state_line)

st.title("Events")
db = data.db_path()
paths = data.event_paths()
if not paths:
    st.info("No event file is open: start the dashboard with railledger dashboard \\-\\-event league.toml "
            "(docs/events.md says how to write one).")
    st.stop()
path = st.selectbox("Event file", paths, format_func=lambda p: Path(p).name) if len(paths) > 1 else paths[0]
found = data.load(data.event_check, db, path)
if not isinstance(found, EventCheck):
    st.error("The event file cannot be counted:\n\n" + "\n\n".join(f"- {md(line)}" for line in found.lines))
    st.stop()
checked = found
event = checked.event

st.header(md(event.name))
state = state_line(checked)
(st.success if state.startswith("final") else st.warning)(md(f"Standings {state}."))
st.caption(f"{md(', '.join(event.titles))}: {len(event.players)} players, {len(event.rounds)} rounds. "
           f"{md(scoring_line(event))}")

st.subheader("Standings")
header = standings_header(event)
standings = pl.DataFrame([list(row) for row in standings_rows(checked)], schema=list(header), orient="row")
st.dataframe(
    standings.with_columns(page=pl.col("18xx.games id").map_elements(user_url, return_dtype=pl.Utf8)),
    hide_index=True, width="stretch",
    column_config={"page": st.column_config.LinkColumn("Player page", display_text="open")},
)


def review_links(results: list[TableResult]) -> list[str | None]:
    """The review page of each seat's game, in the order of :func:`games_rows`' rows (None: no game stored)."""
    return [review_url(game_key(r.table.game)) if r.table.game is not None and r.verdict is not None else None
            for r in results for _ in r.seats]


GAME_COLUMNS = ["table", "game", "counted", "verdict", "player", "value", "place", "score"]
st.subheader("Round by round")
for round_ in event.rounds:
    results = [r for r in checked.results if r.round is round_]
    st.markdown(f"**{md(round_.name)}**" + (f" (stage {round_.stage})" if round_.stage > 1 else ""))
    if not results:
        st.caption("No table yet: railledger event seat proposes them.")
        continue
    part = EventCheck(checked.file, results, checked.standings)
    rows = pl.DataFrame([[str(cell) for cell in row] for row in games_rows(part, None)], schema=GAME_COLUMNS, orient="row")
    st.dataframe(rows.with_columns(review=pl.Series(review_links(results), dtype=pl.Utf8)), hide_index=True,
                 width="stretch", column_config={"review": st.column_config.LinkColumn("Review", display_text="open")})

pending = set_apart_rows(checked)
st.subheader("Games not counted")
if pending:
    st.caption("Not valid, and no decision yet: each counts once the organizer accepts, adjusts or voids it in the "
               "event file.")
    st.dataframe(pl.DataFrame([[str(c) for c in row] for row in pending], schema=["table", "game", "why"], orient="row"),
                 hide_index=True, width="stretch")
else:
    st.caption("None: every game is valid or decided.")

decisions = decision_rows(checked)
st.subheader("Decisions")
if decisions:
    st.dataframe(pl.DataFrame([[str(c) for c in row] for row in decisions],
                              schema=["table", "game", "ruling", "reason", "verdict"], orient="row"),
                 hide_index=True, width="stretch")
else:
    st.caption("None.")
