"""The sidebar's scope: one set of controls, drawn by the app on every page, choosing the games
every statistics page counts (:class:`analytics.scope.Population`), so that the Titles, Players,
Train rush, Balance, Validation and Archive pages count the same games as each other and as
``railledger stats``, ``ratings`` and ``export`` given the same options.

The controls live in the app's entry file, which Streamlit runs before the page in view, so the
choice holds while the reader moves between pages.
"""

from __future__ import annotations

import streamlit as st

from railledger.analytics.scope import GAME_KINDS, PEOPLE, Population, Switches

GAMES = "Games"
EVERY_VERDICT = "Every verdict"
MANUAL_ENDS = "Games ended by hand"
SIDEBAR = Switches(f'"{GAMES}" on the sidebar', f'"{EVERY_VERDICT}" on the sidebar')
"""The controls a page's note names: the same on every page."""
_KEYS = {"games": "scope_games", "every_verdict": "scope_every_verdict", "manual_ends": "scope_manual_ends"}


def sidebar() -> None:
    """Draw the scope's controls on the sidebar."""
    side = st.sidebar
    side.subheader("Games counted")
    side.radio(GAMES, list(GAME_KINDS), format_func=GAME_KINDS.__getitem__, key=_KEYS["games"],
               help="Bots' games (railledger simulate) answer other questions than the games people played.")
    side.toggle(EVERY_VERDICT, value=False, key=_KEYS["every_verdict"],
                help="Also unfinished, illegal and mismatched games: not only valid finished ones. "
                     "A game without a result still ranks nobody.")
    side.toggle(MANUAL_ENDS, value=False, key=_KEYS["manual_ends"],
                help="Also games the players ended by hand: they stopped wherever the players chose.")


def chosen() -> Population:
    """The population the sidebar's controls choose (people's valid finished games before any is touched)."""
    state = st.session_state
    return Population(str(state.get(_KEYS["games"], PEOPLE)), bool(state.get(_KEYS["every_verdict"], False)),
                      bool(state.get(_KEYS["manual_ends"], False)))
