"""A headless Chromium driven over the DevTools protocol, for the dashboard's browser tests.

Chromium's one-shot ``--dump-dom``/``--screenshot`` with a virtual time budget waits for network
fetches but not for Streamlit's websocket: on a busy machine the page is dumped before the
server has run its script, so a page fails at random. Driving the browser instead lets a test
wait in real time until the page shows what it should (or a deadline passes), then take the
screenshot of what a person would see.
"""

from __future__ import annotations

import base64
import itertools
import json
import subprocess
import time
from contextlib import ExitStack
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import Any

from websockets.sync.client import ClientConnection, connect

CHROMIUM = Path("/usr/bin/chromium")
STARTUP = 30.0
"""Seconds Chromium gets to open its DevTools port."""


class Browser:
    """One headless Chromium with one tab; ``with Browser(profile) as browser: ...``."""

    def __init__(self, profile: Path, width: int = 1400, height: int = 2400) -> None:
        self._profile = profile
        self._size = (width, height)
        self._ids = itertools.count(1)
        self._process: subprocess.Popen[bytes] | None = None
        self._tab: ClientConnection | None = None
        self._closing = ExitStack()

    def __enter__(self) -> Browser:
        self._profile.mkdir(parents=True, exist_ok=True)
        port_file = self._profile / "DevToolsActivePort"
        port_file.unlink(missing_ok=True)
        self._process = subprocess.Popen(
            [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
             "--remote-debugging-port=0", f"--user-data-dir={self._profile}",
             f"--window-size={self._size[0]},{self._size[1]}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            self._attach(port_file)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _attach(self, port_file: Path) -> None:
        """Connect to the tab once Chromium has written its DevTools port."""
        assert self._process is not None
        deadline = time.monotonic() + STARTUP
        while not port_file.exists() or len(port_file.read_text().split()) < 2:
            if time.monotonic() > deadline or self._process.poll() is not None:
                raise RuntimeError("Chromium did not open its DevTools port")
            time.sleep(0.1)
        port = port_file.read_text().split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as answer:
            tab = next(target for target in json.load(answer) if target["type"] == "page")
        self._tab = self._closing.enter_context(connect(tab["webSocketDebuggerUrl"], max_size=None, open_timeout=STARTUP))
        self.call("Emulation.setDeviceMetricsOverride",
                  width=self._size[0], height=self._size[1], deviceScaleFactor=1, mobile=False)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self._closing.close()
        if self._process is not None:
            self._process.kill()
            self._process.wait(timeout=10)

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one DevTools command and return its result (events in between are skipped)."""
        assert self._tab is not None, "use the browser inside its with block"
        ident = next(self._ids)
        self._tab.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self._tab.recv(timeout=60))
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return dict(message["result"])

    def open(self, url: str) -> None:
        self.call("Page.navigate", url=url)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        return self.call("Runtime.evaluate", expression=expression, returnByValue=True)["result"].get("value")

    def wait_for(self, expression: str, seconds: float) -> bool:
        """Poll until ``expression`` is true in the page; False when ``seconds`` pass first."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.evaluate(expression):
                return True
            time.sleep(0.25)
        return False

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"]))
