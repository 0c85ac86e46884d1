"""The Events page in a real browser at 1600x1000: an event of two rounds (one game set apart with
its verdict, one voided by a decision) served as ``railledger dashboard --event`` serves it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from railledger.pipeline.ingesting import ingest_paths
from tests.browser import CHROMIUM, Browser
from tests.events_helpers import event_text
from tests.site_server import bot_game
from tests.test_dashboard_browser import ARTIFACTS, READY, RENDER, _text_shown, dashboard_server

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} not found: install Debian's chromium")

PLAYERS = {1001: "Ann", 1002: "Bob", 1003: "Cy", 1004: "Di", 1005: "Ed", 1006: "Flo"}
RANK = 'system = "rank points"\npoints = { 3 = [6, 3, 1] }\ntie_breaks = ["head-to-head", "wins", "lot"]'


def _league(folder: Path) -> tuple[Path, Path]:
    """An archive of four games and the event file over them."""
    games = folder / "games"
    games.mkdir()
    tables = [[(1001, 1002, 1003), (1004, 1005, 1006)], [(1001, 1004, 1005), (1002, 1003, 1006)]]
    rounds = []
    game_id = 61001
    for n, round_tables in enumerate(tables):
        rows = []
        for table in round_tables:
            game = bot_game(game_id, {user: PLAYERS[user] for user in table}, seed=game_id)
            if game_id == 61003:  # a recorded result the replay does not reach: set apart until decided
                first = next(iter(game["result"]))
                game["result"][first] += 100
            (games / f"{game_id}.json").write_text(json.dumps(game))
            row = f"game = {game_id}\nplayers = {list(table)}"
            if game_id == 61004:
                row += '\ndecision = { ruling = "void", reason = "played with the wrong optional rules" }'
            rows.append(row)
            game_id += 1
        rounds.append(rows)
    db = folder / "a.duckdb"
    ingest_paths([str(games)], db)
    event = folder / "league.toml"
    event.write_text(event_text(RANK, rounds, PLAYERS))
    return db, event


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db, event = _league(tmp_path_factory.mktemp("events"))
    with dashboard_server(db, RAILLEDGER_EVENTS=str(event)) as url:
        yield url


def test_the_events_page_shows_standings_rounds_and_what_is_set_apart(server: str, tmp_path: Path) -> None:
    with Browser(tmp_path / "profile", width=1600, height=1000) as browser:
        browser.open(server + "events")
        shown = " && ".join([READY, _text_shown("Test league"), _text_shown("Round by round"), _text_shown("Decisions")])
        assert browser.wait_for(shown, RENDER), "the Events page did not show its event"
        text = browser.evaluate("document.body.innerText")
        assert "Standings provisional: 1 game not counted (not valid, no decision yet)." in text
        assert "Not valid, and no decision yet" in text  # the tables themselves are drawn on a canvas
        assert not browser.evaluate("document.querySelector('[data-testid=\"stException\"]') !== null")
        ARTIFACTS.mkdir(exist_ok=True)
        time.sleep(3)  # the tables draw on a canvas after the script has run
        browser.screenshot(ARTIFACTS / "dashboard-events.png")
        browser.call("Emulation.setDeviceMetricsOverride", width=1600, height=2400, deviceScaleFactor=1, mobile=False)
        browser.screenshot(ARTIFACTS / "dashboard-events-whole.png")
