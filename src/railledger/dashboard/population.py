"""The sidebar's scope: one set of controls, drawn by the app on every page, choosing the games
every statistics page counts (:class:`analytics.scope.Population`), so that the Titles, Players,
Train rush, Balance, Validation and Archive pages count the same games as each other and as
``railledger stats``, ``ratings`` and ``export`` given the same options.

The controls live in the app's entry file, which Streamlit runs before the page in view, so the
choice holds while the reader moves between pages.
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from railledger.analytics.scope import GAME_KINDS, PEOPLE, Population, Switches

GAMES = "Games"
EVERY_VERDICT = "Every verdict"
MANUAL_ENDS = "Games ended by hand"
VARIANT = "Variant"
PUBLISHED = "the titles as published"
"""The variant choice that counts no variant's games (the default)."""
EVERY_BOT = "Every bot's games"
"""The Balance page's control counting the bots' games of every bot, not only the strongest's."""
SIDEBAR = Switches(f'"{GAMES}" on the sidebar', f'"{EVERY_VERDICT}" on the sidebar', f'"{VARIANT}" on the sidebar')
"""The controls a page's note names: the same on every page."""
_KEYS = {"games": "scope_games", "every_verdict": "scope_every_verdict", "manual_ends": "scope_manual_ends",
         "variant": "scope_variant"}


def sidebar(variants: pl.DataFrame) -> None:
    """Draw the scope's controls on the sidebar; ``variants`` (:func:`analytics.variants.archived_variants`)
    are offered in place of the titles as published when the archive has games of any."""
    side = st.sidebar
    side.subheader("Games counted")
    asked_games = str(st.query_params.get("games", ""))  # a link to bots' games (?games=bots)
    if _KEYS["games"] not in st.session_state and asked_games in GAME_KINDS:
        st.session_state[_KEYS["games"]] = asked_games
    side.radio(GAMES, list(GAME_KINDS), format_func=GAME_KINDS.__getitem__, key=_KEYS["games"],
               help="Bots' games (railledger simulate) answer other questions than the games people played.")
    side.toggle(EVERY_VERDICT, value=False, key=_KEYS["every_verdict"],
                help="Also unfinished, illegal and mismatched games: not only valid finished ones. "
                     "A game without a result still ranks nobody.")
    side.toggle(MANUAL_ENDS, value=False, key=_KEYS["manual_ends"],
                help="Also games the players ended by hand: they stopped wherever the players chose.")
    if variants.height:
        labels = {row["variant_hash"]: f"{row['title']}: {row['label']} ({row['games']} games)" for row in variants.iter_rows(named=True)}
        asked = str(st.query_params.get("variant", "")).lower()  # a link to a variant's page (?variant=HASH)
        if _KEYS["variant"] not in st.session_state and asked:
            st.session_state[_KEYS["variant"]] = next((h for h in labels if h.startswith(asked)), PUBLISHED)
        side.selectbox(VARIANT, [PUBLISHED, *labels], format_func=lambda choice: labels.get(choice, choice), key=_KEYS["variant"],
                       help="A variant (simulate --variant) plays a title with its data changed: its games are counted "
                            "apart from the title's; the Balance page sets it beside the title as published.")


def chosen() -> Population:
    """The population the sidebar's controls choose (people's valid finished games before any is touched)."""
    state = st.session_state
    variant = str(state.get(_KEYS["variant"], PUBLISHED))
    return Population(str(state.get(_KEYS["games"], PEOPLE)), bool(state.get(_KEYS["every_verdict"], False)),
                      bool(state.get(_KEYS["manual_ends"], False)), variant=None if variant == PUBLISHED else variant)
