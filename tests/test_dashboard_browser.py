"""Every dashboard page in a real browser: the Streamlit server as ``railledger dashboard`` runs
it, and headless Chromium reading the rendered page.

AppTest runs the scripts but not the frontend; this catches what only a browser shows (a page
that fails to render, an exception box, a chart that never draws). The browser is driven over
the DevTools protocol (tests/browser.py) and waits in real time for the page to finish. Screenshots go to
test-artifacts/ for a person to look at. Skips when /usr/bin/chromium is absent (.ci/run
installs Debian's chromium).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.browser import CHROMIUM, Browser
from tests.test_dashboard import FLAGGED_KEY, REPO, build_archive

ARTIFACTS = REPO / "test-artifacts"
PAGES = {
    "archive": ("", "railledger archive", False),
    "review": (f"review?game={quote(FLAGGED_KEY, safe='')}&action=185", "Game review", True),
    "players": ("players", "Players", False),
    "titles": ("titles", "Titles", False),
    "rush": ("rush", "Train rush", True),
    "balance": ("balance", "Balance", True),
    "validation": ("validation", "Validation", True),
}
"""name -> (path, heading the page shows, whether it draws a plotly chart)."""

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} not found: install Debian's chromium")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def dashboard_server(db: Path, **env: str) -> Iterator[str]:
    """The dashboard on the archive ``db`` (with more of the environment ``env``) served on a free
    port for the block, as ``railledger dashboard`` runs it; its URL. Always killed at the end."""
    port = _free_port()
    command = [sys.executable, "-m", "streamlit", "run", str(REPO / "src" / "railledger" / "dashboard" / "app.py"),
               "--server.headless", "true", "--server.port", str(port), "--server.address", "127.0.0.1",
               "--browser.gatherUsageStats", "false"]
    process = subprocess.Popen(command, env={**os.environ, "RAILLEDGER_DB": str(db), **env}, cwd=REPO,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "_stcore/health", timeout=2) as answer:
                    if answer.read() == b"ok":
                        break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("the Streamlit server did not come up") from None
                time.sleep(0.3)
        yield url
    finally:
        process.kill()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The dashboard on the test archive for the module."""
    with dashboard_server(build_archive(tmp_path_factory.mktemp("browser"))) as url:
        yield url


READY = ("document.querySelector('[data-test-script-state=\"notRunning\"]') !== null"
         " && document.querySelector('[data-test-connection-state=\"CONNECTED\"]') !== null")
"""The app is connected and its script has finished."""
RENDER = 60.0
"""Seconds a page gets to show its heading (and charts) on a busy machine."""


def _text_shown(heading: str) -> str:
    return f"document.body.innerText.includes({json.dumps(heading)})"


CHARTS_DRAWN = "document.querySelectorAll('[data-testid=\"stPlotlyChart\"] .main-svg').length > 0"


@pytest.mark.parametrize("name", list(PAGES))
def test_page_renders_without_error_in_chromium(server: str, name: str, tmp_path: Path) -> None:
    path, heading, has_chart = PAGES[name]
    done = " && ".join([READY, _text_shown(heading), *([CHARTS_DRAWN] if has_chart else [])])
    with Browser(tmp_path / "profile") as browser:
        browser.open(server + path)
        assert browser.wait_for(done, RENDER), f"{name}: no heading{' or chart' if has_chart else ''} after {RENDER:.0f} s"
        assert browser.wait_for(READY, RENDER)
        assert not browser.evaluate("document.querySelector('[data-testid=\"stException\"]') !== null"), \
            f"{name}: Streamlit shows an exception"
        assert not browser.evaluate("document.querySelector('[data-testid=\"stAlertContentError\"]') !== null"), \
            f"{name}: Streamlit shows an error box"
        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / f"dashboard-{name}.png"
        browser.screenshot(shot)
    assert shot.stat().st_size > 0
