"""Cached, read-only reads of the archive for every page, keyed by the archive's path.

Each loader opens the archive read-only, asks ``analytics/`` and closes it again, so the
dashboard never holds the DuckDB file between reruns (an ingest can still write it) and never
shares one connection between Streamlit's session threads (a DuckDB connection is not
thread-safe). Results are cached, so a rerun (a slider move) costs no archive read at all; the
TTL lets a fresh ingest show up within a minute.

The cache keeps each result itself (``st.cache_resource``), shared by every rerun and session,
not a pickled copy made on every call (``st.cache_data``): the results are polars frames, tuples
and frozen dataclasses of them, which nothing changes in place, and on 100,000 games pickling the
ratings alone took 0.65 s of the Players page's first load and unpickling 0.42 s of every rerun.
Clear it with :func:`forget`.

An ingest holds the file for one transaction at a time (up to 32 games, a few tenths of a second);
an open waits up to :data:`WAIT` seconds for it.
When a read still fails (a long write, a file being replaced), :func:`load` shows the last data
that loader read, with a note saying when it was read and why it is not newer.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import polars as pl
import streamlit as st

from railledger.analytics.balance import winner_correlations
from railledger.analytics.bot_strength import strongest_bots
from railledger.analytics.prices import prices_by_step, worth_by_step
from railledger.analytics.ratings import PlayerRatings, Ratings, StoredRatings, player_games, ratings
from railledger.analytics.position import Position, position_at
from railledger.analytics.review import (GameTables, archive_overview, flag_list, game_rounds, game_tables, market_cells,
                                         revenue_history)
from railledger.analytics.rush import rush_games, train_rush, train_rush_distribution
from railledger.analytics.scope import Population, counted_games
from railledger.analytics.titles import TitleStatistics, title_statistics
from railledger.analytics.variants import archived_variants, archived_variants_schema, compare_variant
from railledger.analytics.variants import game_variant as variant_of_game
from railledger.analytics.validation import games_not_valid, shortfalls_by_game, shortfalls_by_player, validation_summary
from railledger.dashboard.population import EVERY_BOT, SIDEBAR
from railledger.dashboard.text import md
from railledger.events.checking import EventCheck, check_event
from railledger.events.file import EventError
from railledger.records import Archive

TTL = 60
WAIT = float(os.environ.get("RAILLEDGER_WAIT", "10"))
"""Seconds an open waits while another process (an ingest) holds the archive: $RAILLEDGER_WAIT,
which ``railledger dashboard --wait`` sets."""
KEPT = 64
"""Results kept as last good data (the most recently read ones)."""
P = ParamSpec("P")
T = TypeVar("T")


def forget() -> None:
    """Drop every cached result: the next read of each page goes to the archive."""
    st.cache_resource.clear()


def db_path() -> str:
    """The archive the dashboard shows: $RAILLEDGER_DB (``railledger dashboard`` sets it)."""
    return os.environ.get("RAILLEDGER_DB", "railledger.duckdb")


_last_good: OrderedDict[Hashable, tuple[Any, datetime]] = OrderedDict()
_last_good_lock = threading.Lock()


def load(loader: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run a loader; when it fails, show its last good result with a note, or else why and stop.

    A missing, busy or foreign file is a normal situation for a dashboard pointed at a path, so
    it gets one readable line instead of a traceback.
    """
    key = (getattr(loader, "__name__", repr(loader)), args, tuple(sorted(kwargs.items())))
    try:
        value = loader(*args, **kwargs)
    except Exception as exc:  # any failure to read is shown, not raised into Streamlit's error box
        with _last_good_lock:
            last = _last_good.get(key)
        if last is None:
            st.error(f"Cannot read the archive {md(db_path())}: {md(exc)}")
            st.stop()
        kept, when = last
        st.warning(f"Showing the archive as it was at {when:%H:%M:%S}: it cannot be read now ({md(exc)}).")
        return kept
    with _last_good_lock:
        _last_good[key] = (value, datetime.now())
        _last_good.move_to_end(key)
        while len(_last_good) > KEPT:
            _last_good.popitem(last=False)
    return value


@contextmanager
def _archive(db: str) -> Iterator[Archive]:
    with Archive.open(db, read_only=True, wait=WAIT) as archive:
        yield archive


@st.cache_resource(ttl=TTL, show_spinner=False)
def overview(db: str) -> pl.DataFrame:
    with _archive(db) as archive:
        return archive_overview(archive)


@st.cache_resource(ttl=TTL, show_spinner=False)
def game_keys(db: str) -> tuple[str, ...]:
    """Every game's key, in the overview's order, for a page that offers them to choose from."""
    with _archive(db) as archive:
        return tuple(archive.game_keys())


@st.cache_resource(ttl=TTL, show_spinner=False, max_entries=8)
def tables(db: str, key: str) -> GameTables:
    with _archive(db) as archive:
        return game_tables(archive, key)


@st.cache_resource(ttl=TTL, show_spinner=False, max_entries=8)
def step_values(db: str, key: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(share prices, net worth) after every action of one game, from its tables: no second read."""
    game = tables(db, key)
    return prices_by_step(game.company_states), worth_by_step(game.player_states, game.players)


@st.cache_resource(ttl=TTL, show_spinner=False, max_entries=8)
def rounds(db: str, key: str) -> pl.DataFrame:
    """One game's rounds (GameTables.rounds), reading its steps alone, for a page drawing nothing else of it."""
    with _archive(db) as archive:
        return game_rounds(archive, key)


@st.cache_resource(show_spinner=False, max_entries=256)
def position(db: str, key: str, seq: int) -> Position:
    """The position after one action (map, spreadsheet, what else was legal); replays only the
    reviewed game from its record (read with its tables)."""
    return position_at(tables(db, key).record, seq)


@st.cache_resource(ttl=TTL, show_spinner=False, max_entries=8)
def revenues(db: str, key: str) -> pl.DataFrame:
    """Every run of one game with what its company did with the revenue, from its tables."""
    return revenue_history(tables(db, key))


@st.cache_resource(show_spinner=False)
def market(title: str) -> pl.DataFrame:
    return market_cells(title)


@st.cache_resource(ttl=TTL, show_spinner=False)
def rush(db: str, population: Population) -> tuple[pl.DataFrame, pl.DataFrame, str]:
    """(the train rush's distribution per title, the games it counts with their title, what was
    counted and left out) over the games of ``population``."""
    with _archive(db) as archive:
        scope = counted_games(archive, population)
        return train_rush_distribution(archive, scope), rush_games(archive, scope), scope.note(SIDEBAR)


@st.cache_resource(ttl=TTL, show_spinner=False, max_entries=8)
def game_rush(db: str, key: str) -> pl.DataFrame:
    """One game's train rush (analytics.rush.train_rush), read when the page shows that game."""
    with _archive(db) as archive:
        return train_rush(archive, key)


@st.cache_resource(ttl=TTL, show_spinner=False)
def correlations(db: str, population: Population, every_bot: bool = False) -> tuple[pl.DataFrame, str, pl.DataFrame]:
    """(winner correlations, what was counted and left out, the bots of the bots' games counted
    with their ladder figures) over the games of ``population``; of its bots' games only those
    the strongest bot played at every seat unless ``every_bot`` (analytics.bot_strength)."""
    with _archive(db) as archive:
        bots = strongest_bots(archive, counted_games(archive, population), every_bot)
        note = " ".join(filter(None, [bots.counted.note(SIDEBAR), bots.note(f'"{EVERY_BOT}" on the page')]))
        return winner_correlations(archive, bots.counted), note, bots.bots


@st.cache_resource(ttl=TTL, show_spinner=False)
def variants(db: str) -> pl.DataFrame:
    """The variants the archive has games of (:func:`analytics.variants.archived_variants`)."""
    with _archive(db) as archive:
        return archived_variants(archive)


def offered_variants(db: str) -> pl.DataFrame:
    """The variants the sidebar offers (:func:`variants`); none while the archive cannot be read,
    which the page in view says in its own words, once."""
    try:
        return variants(db)
    except Exception:  # any failure to read: the page's own load reports it
        return archived_variants_schema()


@st.cache_resource(ttl=TTL, show_spinner=False)
def game_variant(db: str, key: str) -> str | None:
    """The label of the variant the game was played with (None: the title as published)."""
    with _archive(db) as archive:
        return variant_of_game(archive, key)


@st.cache_resource(ttl=TTL, show_spinner=False)
def variant_comparison(db: str, population: Population, title: str, variant_hash: str) -> tuple[pl.DataFrame, str, str]:
    """(the base title beside the variant, what each side counted and left out)."""
    with _archive(db) as archive:
        compared = compare_variant(archive, population, title, variant_hash)
        return compared.rows, compared.base.note(SIDEBAR), compared.variant.note(SIDEBAR)


@st.cache_resource(ttl=TTL, show_spinner=False)
def validation(db: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(flags per title and rule, every flagged action)."""
    with _archive(db) as archive:
        return validation_summary(archive), flag_list(archive)


@st.cache_resource(ttl=TTL, show_spinner=False)
def not_valid(db: str, population: Population) -> tuple[pl.DataFrame, str]:
    """(every game of the population's kind whose verdict is not valid, with its reason; what the
    list is of and left out)."""
    with _archive(db) as archive:
        listed, scope = games_not_valid(archive, population)
        return listed, scope.note(SIDEBAR)


@st.cache_resource(ttl=TTL, show_spinner=False)
def shortfalls(db: str, population: Population) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(revenue left on the table per game, per title and president) in the games of the
    population's kind, whatever their verdict (a run is audited in every game)."""
    with _archive(db) as archive:
        scope = counted_games(archive, Population(population.games, every_verdict=True, variant=population.variant))
        return shortfalls_by_game(archive, scope), shortfalls_by_player(archive, scope)


@st.cache_resource(ttl=TTL, show_spinner=False, max_entries=4)
def player_ratings(db: str, population: Population) -> tuple[Ratings | StoredRatings, str]:
    """(ratings of every player over the ranked games of ``population``, what was counted and left out)."""
    with _archive(db) as archive:
        scope = counted_games(archive, population)
        return ratings(archive, population, scope), scope.note(SIDEBAR)


@st.cache_resource(ttl=TTL, show_spinner=False, max_entries=16)
def one_player(db: str, population: Population, player: str) -> PlayerRatings:
    """One player's part of :func:`player_ratings`: from the ratings in memory when they were
    rated here, else read from the stored ones."""
    rated, _ = player_ratings(db, population)
    with _archive(db) as archive:
        return rated.of_player(archive, player)


@st.cache_resource(ttl=TTL, show_spinner=False, max_entries=16)
def games_of(db: str, player: str) -> pl.DataFrame:
    """Every archived game of one player (by identity: docs/identity.md)."""
    with _archive(db) as archive:
        return player_games(archive, player)


@st.cache_resource(ttl=TTL, show_spinner=False, max_entries=4)
def titles(db: str, population: Population) -> tuple[TitleStatistics, str]:
    """(every title's statistics over the games of ``population``, what was counted and left out)."""
    with _archive(db) as archive:
        stats = title_statistics(archive, population)
        return stats, stats.scope.note(SIDEBAR)


EVENTS = "RAILLEDGER_EVENTS"
"""The environment variable naming the event files the Events page shows (``railledger dashboard
--event FILE``), separated as paths are (``:`` on Linux)."""


def event_paths() -> list[str]:
    """The event files the Events page shows, as given."""
    return [path for path in os.environ.get(EVENTS, "").split(os.pathsep) if path]


@st.cache_resource(ttl=TTL, show_spinner=False, max_entries=8)
def event_check(db: str, path: str) -> EventCheck | EventError:
    """An event counted from the archive alone (its file is read, never written), or the faults
    that keep it from being counted: the page shows those as lines, not as a failure to read."""
    try:
        return check_event(Path(path), Path(db), wait=WAIT)
    except EventError as faults:
        return faults
