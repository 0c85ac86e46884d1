"""Every dashboard page in a real browser: the Streamlit server as ``railledger dashboard`` runs
it, and headless Chromium reading the rendered page.

AppTest runs the scripts but not the frontend; this catches what only a browser shows (a page
that fails to render, an exception box, a chart that never draws). Screenshots go to
test-artifacts/ for a person to look at. Skips when /usr/bin/chromium is absent (.ci/run
installs Debian's chromium).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.test_dashboard import FLAGGED_KEY, REPO, build_archive

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = REPO / "test-artifacts"
PAGES = {
    "archive": ("", "railledger archive", False),
    "review": (f"review?game={quote(FLAGGED_KEY, safe='')}&step=19", "Game review", True),
    "players": ("players", "Players", False),
    "titles": ("titles", "Titles", False),
    "rush": ("rush", "Train rush", True),
    "balance": ("balance", "Balance", True),
    "validation": ("validation", "Validation", True),
}
"""name -> (path, heading the page shows, whether it draws a plotly chart)."""
ATTEMPTS = 3
"""A cold server may answer the first load before the app ran; a page gets a few loads to render."""

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} not found: install Debian's chromium")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The dashboard served on a free port for the module; always killed at the end."""
    db = build_archive(tmp_path_factory.mktemp("browser"))
    port = _free_port()
    command = [sys.executable, "-m", "streamlit", "run", str(REPO / "dashboard" / "app.py"),
               "--server.headless", "true", "--server.port", str(port), "--server.address", "127.0.0.1",
               "--browser.gatherUsageStats", "false"]
    process = subprocess.Popen(command, env={**os.environ, "RAILLEDGER_DB": str(db)}, cwd=REPO,
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


def _chromium(profile: Path, *args: str) -> str:
    command = [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
               f"--user-data-dir={profile}", "--virtual-time-budget=30000", "--window-size=1400,2400", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=True).stdout


@pytest.mark.parametrize("name", list(PAGES))
def test_page_renders_without_error_in_chromium(server: str, name: str, tmp_path: Path) -> None:
    path, heading, has_chart = PAGES[name]
    url = server + path
    for _ in range(ATTEMPTS):
        dom = _chromium(tmp_path / "profile", "--dump-dom", url)
        if heading in dom and (not has_chart or 'data-testid="stPlotlyChart"' in dom):
            break
    assert heading in dom, f"{name}: the page did not render its heading"
    assert 'data-testid="stException"' not in dom, f"{name}: Streamlit shows an exception"
    assert 'data-testid="stAlertContentError"' not in dom, f"{name}: Streamlit shows an error box"
    if has_chart:
        assert 'data-testid="stPlotlyChart"' in dom, f"{name}: no plotly chart"
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / f"dashboard-{name}.png"
    _chromium(tmp_path / "profile", f"--screenshot={shot}", url)
    assert shot.stat().st_size > 0
