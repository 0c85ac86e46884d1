"""Shared test helpers: where the shared 18xx.games fixtures are, small record builders, and the
title data tests' fixtures."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from railledger.pipeline.ingesting import OUTCOMES
from railledger.records.schema import game_tables
from railledger.replay.snapshot import Snapshot, StateColumns
from tests.title_data import catalogue_tiles

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True, scope="session")
def _own_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The archives the tests check are remembered (records.verified) in a folder of the
    session's own, not in the user's cache; the commands tests start inherit it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAILLEDGER_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        yield


def fixtures_dir() -> Path:
    """The shared fixtures: $RAILLEDGER_FIXTURES, else ../shared/fixtures beside the repository."""
    return Path(os.environ.get("RAILLEDGER_FIXTURES", REPO.parent / "shared" / "fixtures"))


def fixture_files(title: str = "*") -> list[Path]:
    """The shared records, all of them or those of one title folder (``18MS``, ``18Texas``, ``1871``)."""
    return sorted(fixtures_dir().glob(f"{title}/*.json"))


needs_fixtures = pytest.mark.skipif(
    not fixture_files(),
    reason=f"shared 18xx.games fixtures not found in {fixtures_dir()} (set RAILLEDGER_FIXTURES)",
)


def fixture_params(title: str = "*") -> list:
    """One pytest param per fixture file (of a title), or a single skipped param when there are none."""
    files = fixture_files(title)
    if not files:
        where = fixtures_dir() if title == "*" else fixtures_dir() / title
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"no shared fixtures in {where}"))]
    return [pytest.param(f, id=f"{f.parent.name}/{f.stem}") for f in files]


def export(actions: list[dict], **extra: object) -> dict:
    """A minimal 18xx.games export around hand-written actions."""
    return {
        "id": 1,
        "title": "18MS",
        "players": [{"id": 10, "name": "Ann"}, {"id": 20, "name": "Bob"}],
        "settings": {"seed": 1, "optional_rules": []},
        "status": "active",
        "actions": actions,
        **extra,
    }


def make_known(patch: pytest.MonkeyPatch, name: str, slug: str, player_counts: tuple[int, ...] = (3, 4)) -> None:
    """Register a stand-in title for a test: known to ingest (with its player counts) and the engine."""
    from railledger.ingest import titles

    patch.setitem(titles.SLUGS, name, slug)
    patch.setitem(titles.PLAYER_COUNTS, name, player_counts)


def act(id_: int, type_: str = "pass", entity: object = 10, entity_type: str = "player", **fields: object) -> dict:
    """One raw 18xx.games action."""
    return {"type": type_, "entity": entity, "entity_type": entity_type, "id": id_, **fields}


# ------------------------------------------------------------------ title data tests
# Each tests/test_title_data_<slug>.py defines ``load = loader(<slug>)``; these read through it.


@pytest.fixture(scope="module")
def catalogue() -> dict:
    return catalogue_tiles()


@pytest.fixture(scope="module")
def manifest(request: pytest.FixtureRequest) -> dict:
    return request.module.load("tiles.json")


@pytest.fixture(scope="module")
def mapdata(request: pytest.FixtureRequest) -> dict:
    return request.module.load("map.json")


@pytest.fixture(scope="module")
def hexes(mapdata: dict) -> dict:
    return mapdata["hexes"]


def ingest_summary(output: str) -> dict[str, int]:
    """The counts of an ingest's summary table (new, unchanged, replaced, duplicate, failed)."""
    for line in output.splitlines():
        cells = [c.strip() for c in line.strip("│┃ ").split("│")]
        if len(cells) == len(OUTCOMES) and all(c.isdigit() for c in cells):
            return dict(zip(OUTCOMES, map(int, cells)))
    raise AssertionError(f"no summary row in:\n{output}")


ARCHIVE_TABLES = ("games", *game_tables(), "schema_version")
"""Every table an archive stores."""


def every_row(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of an archive, read with a separate read-only connection."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {table: sorted(con.execute(f"SELECT * FROM {table}").fetchall(), key=repr) for table in ARCHIVE_TABLES}
    finally:
        con.close()


@pytest.fixture()
def fifo_guard(tmp_path: Path) -> Iterator[None]:
    """If a FIFO under the test's folder were ever opened for reading, feed it, so the test fails
    instead of hanging."""
    done = threading.Event()

    def feed() -> None:
        while not done.wait(0.5):
            for fifo in (path for path in tmp_path.rglob("*") if path.is_fifo()):
                try:
                    fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                except OSError:
                    continue  # no reader: nobody is blocked on it
                os.write(fd, b"{}")
                os.close(fd)

    thread = threading.Thread(target=feed, daemon=True)
    thread.start()
    yield
    done.set()
    thread.join(timeout=5)


def state_columns(snapshots: list[Snapshot]) -> StateColumns:
    """The columns a replay notes for these snapshots (made by hand): each snapshot's round and
    phase, and a row of a player or company wherever its place or state differs from the
    previous snapshot's."""
    columns = StateColumns()
    players: dict[object, tuple[object, ...]] = {}
    companies: dict[object, tuple[object, ...]] = {}
    for seq, snapshot in enumerate(snapshots):
        columns.rounds.append(snapshot.round)
        columns.phases.append(snapshot.phase)
        for position, (pid, view) in enumerate(snapshot.players):
            row = (position, view.cash, view.value, view.shares)
            if players.get(pid) != row:
                players[pid] = row
                columns.player_seq.append(seq)
                columns.player.append(pid)
                columns.player_state.append(row)
        for position, (sym, company) in enumerate(snapshot.corporations):
            state = (position, company.price, company.cell, company.cash, company.trains, company.tokens,
                     company.president, company.floated, company.closed)
            if companies.get(sym) != state:
                companies[sym] = state
                columns.company_seq.append(seq)
                columns.company.append(sym)
                columns.company_state.append(state)
    return columns
