"""The game review in a real browser at 1600 x 1000, as a player meets it: a game of each title
and an illegal one (the test games; with the shared 18xx.games records, 18MS 14375, 18Texas 65394,
1871 204408 and a copy of 14375 whose tile lay 22 is moved off IC's network as well).

Each page is checked for what the first screen holds (the board, the log around the action and
the spreadsheet, wholly inside the window; the charts below it), where it opened, that the log
reads as sentences, and, measured from the drawn text of the map, that no label covers another
or a station and none is under 10 px; the market's tokens never cover a price; the right arrow
key steps on. A screenshot of each first screen is kept in test-artifacts/ for a person to look at.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.browser import CHROMIUM, Browser
from tests.conftest import fixture_files
from tests.test_dashboard import FLAGGED_KEY, build_archive
from tests.test_dashboard_browser import ARTIFACTS, READY, RENDER, dashboard_server

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} not found: install Debian's chromium")

WIDTH, HEIGHT = 1600, 1000
GAMES = {  # name -> (game key, the action the review opens at)
    "18ms": ("railledger/test-18ms-short", "10"),
    "18texas": ("railledger/test-18texas-short", "10"),
    "1871": ("railledger/test-1871-short", "10"),
    "illegal": (FLAGGED_KEY, "185"),
}
SHARED = {  # with the shared records: the demo games
    "14375": ("18xx.games/14375", "1"),
    "65394": ("18xx.games/65394", "1"),
    "204408": ("18xx.games/204408", "8"),
    "14375-moved": ("18xx.games/143750", "22"),
}


def _moved_tile_copy(folder: Path) -> Path | None:
    """14375 with IC's first tile lay (action 22) moved from B2 to D6, where it does not connect:
    an illegal game whose first root cause is in OR 1.1."""
    source = next((f for f in fixture_files("18MS") if f.stem == "14375"), None)
    if source is None:
        return None
    game = json.loads(source.read_text(encoding="utf-8"))
    (lay,) = [a for a in game["actions"] if a["id"] == 22]
    assert (lay["type"], lay["hex"]) == ("lay_tile", "B2")
    lay["hex"] = "D6"
    game["id"] = 143750
    path = folder / "14375-moved.json"
    path.write_text(json.dumps(game), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, tuple[str, str]]]]:
    folder = tmp_path_factory.mktemp("review-browser")
    extra = [f for f in fixture_files() if f.stem in {"14375", "65394", "1871_game_end_final_phase"}]
    moved = _moved_tile_copy(folder)
    db = build_archive(folder, extra=[*extra, *([moved] if moved else [])])
    games = {**GAMES, **(SHARED if moved else {})}
    with dashboard_server(db) as url:
        yield url, games


LOOKS = """(() => {
  const box = e => { const r = e.getBoundingClientRect(); return {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}; };
  const charts = [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')];
  const map = charts.find(c => (c.data || []).some(t => t.name === 'track'));
  const headline = [...document.querySelectorAll('[data-testid="stMarkdownContainer"] p')]
    .map(p => p.innerText).find(t => t.startsWith('Action '));
  const log = document.querySelector('[data-testid="stMainBlockContainer"] [data-testid="stRadio"]');  // not the sidebar's
  const sheet = document.querySelector('table.rl-sheet');
  const order = [...sheet.querySelectorAll('thead th')].find(th => th.innerText === 'Order');
  const later = charts.filter(c => c !== map).map(box);
  const names = map.data.map(t => t.name);
  const layers = [...map.querySelectorAll('.scatterlayer > .trace')];
  const texts = [];
  layers.forEach((layer, i) => layer.querySelectorAll('.textpoint text').forEach(t => {
    if (t.textContent.trim()) texts.push({trace: names[i], text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize), ...box(t)});
  }));
  const stations = [...layers[names.indexOf('stations')].querySelectorAll('path.point')].map(box);
  const market = [...document.querySelectorAll('table.rl-market td')].flatMap(td => {
    const price = td.firstChild && td.firstChild.nodeType === 3 ? td.firstChild : null;
    if (!price) return [];
    const range = document.createRange(); range.selectNodeContents(price);
    const p = range.getBoundingClientRect();
    return [...td.querySelectorAll('.rl-token')].map(t => [{x0: p.left, y0: p.top, x1: p.right, y1: p.bottom}, box(t)]);
  });
  return {headline, url: location.search, map: box(map), log: box(log), sheet: box(sheet.parentElement),
          order: box(order), later, texts, stations,
          market, lines: [...log.querySelectorAll('label')].map(l => l.innerText)};
})()"""
"""What the checks read of the page: the boxes of the map, the log, the spreadsheet (as its frame
shows it; the revenue history may scroll) and its Order column, and the later charts; every drawn text of the map with its trace and font size; the station markers; each market
token with the price of its cell."""


def _meet(a: dict[str, float], b: dict[str, float], slack: float = 0.5) -> bool:
    return a["x0"] < b["x1"] - slack and b["x0"] < a["x1"] - slack and a["y0"] < b["y1"] - slack and b["y0"] < a["y1"] - slack


def _inside(a: dict[str, float]) -> bool:
    return a["x0"] >= 0 and a["y0"] >= 0 and a["x1"] <= WIDTH and a["y1"] <= HEIGHT


def _open(browser: Browser, url: str, key: str) -> dict:
    browser.open(f"{url}review?game={quote(key, safe='')}")
    drawn = " && ".join([READY, "document.querySelectorAll('table.rl-sheet').length > 0",
                         "[...document.querySelectorAll('.js-plotly-plot')].some(c => (c.data || []).some(t => t.name === 'track'))"])
    assert browser.wait_for(drawn, RENDER), f"{key}: the review did not draw its map and spreadsheet"
    return browser.evaluate(LOOKS)


@pytest.mark.parametrize("name", [*GAMES, *SHARED])
def test_the_review_s_first_screen_reads_as_a_player_reads_a_game(server: tuple[str, dict[str, tuple[str, str]]],
                                                                  name: str, tmp_path: Path) -> None:
    url, games = server
    if name not in games:
        pytest.skip("needs the shared 18xx.games records (../shared/fixtures or RAILLEDGER_FIXTURES)")
    key, opening = games[name]
    with Browser(tmp_path / "profile", WIDTH, HEIGHT) as browser:
        page = _open(browser, url, key)
        ARTIFACTS.mkdir(exist_ok=True)
        browser.screenshot(ARTIFACTS / f"review-{name}.png")
        assert page["headline"].startswith(f"Action {opening} ·"), page["headline"]
        assert f"action={quote(opening)}" in page["url"]
        for part in ("map", "log", "sheet"):  # the first screen holds them whole
            assert _inside(page[part]), (part, page[part])
        assert page["order"]["x1"] <= page["sheet"]["x1"] + 0.5  # every column but the revenue history in view
        assert all(chart["y0"] >= HEIGHT - 40 for chart in page["later"])  # the charts come below it
        for line in page["lines"]:  # sentences, not notation
            words = line.split(" · ", 2)[-1]
            assert not any(mark in words for mark in ("=", ":=", "@")), line
            assert not any("_" in word for word in words.split()), line
        texts = page["texts"]
        assert "names" in {t["trace"] for t in texts} and page["stations"]
        for text in texts:
            assert text["size"] >= 10 and text["y1"] - text["y0"] >= 10, text
        overlaps = [(a["text"], b["text"]) for i, a in enumerate(texts) for b in texts[i + 1:] if _meet(a, b)]
        assert overlaps == []
        covered = [t["text"] for t in texts if t["trace"] != "stations" and any(_meet(t, s) for s in page["stations"])]
        assert covered == []  # a station never sits on a name, a revenue or a tile number
        assert page["market"] == [] or not any(_meet(price, token, 0) for price, token in page["market"])
        browser.call("Input.dispatchKeyEvent", type="keyDown", key="ArrowRight", code="ArrowRight",
                     windowsVirtualKeyCode=39)
        browser.call("Input.dispatchKeyEvent", type="keyUp", key="ArrowRight", code="ArrowRight",
                     windowsVirtualKeyCode=39)
        moved = f"!window.location.search.includes('action={quote(opening)}&') && !window.location.search.endsWith('action={quote(opening)}')"
        assert browser.wait_for(moved, RENDER), "the right arrow key did not step to the next action"
