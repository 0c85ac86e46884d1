"""A stand-in for 18xx.games on 127.0.0.1: an HTTP server answering recorded responses, so that the
pull and event tests never touch the network.

Each path (with its query, as the client sends it) has a list of :class:`Reply`; the server answers
them in turn and then repeats the last one. Every request is kept (path, headers, when), so a test
can say what was asked and how politely.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    """One recorded answer: ``status``, ``body``, extra ``headers``; ``pause`` seconds before the
    headers are sent; ``cut`` bytes of the body left unsent although Content-Length counts them;
    ``trickle`` seconds between the bytes of a header sent one at a time, for ``trickle_for`` seconds."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    pause: float = 0.0
    cut: int = 0
    trickle: float = 0.0
    trickle_for: float = 0.0


def game_reply(game: dict[str, Any]) -> Reply:
    return Reply(body=json.dumps(game).encode("utf-8"), headers={"Content-Type": "application/json"})


@dataclass(frozen=True)
class Asked:
    path: str
    headers: dict[str, str]
    at: float


class Site:
    """The recorded answers, the requests made, and the server's address (``url``)."""

    def __init__(self) -> None:
        self.replies: dict[str, list[Reply]] = {}
        self.asked: list[Asked] = []
        self.url = ""
        self._lock = threading.Lock()

    def serve(self, path: str, *replies: Reply) -> None:
        self.replies[path] = list(replies)

    def serve_game(self, game: dict[str, Any]) -> None:
        self.serve(f"/api/game/{game['id']}", game_reply(game))

    def paths(self) -> list[str]:
        return [asked.path for asked in self.asked]

    def _next(self, path: str) -> Reply:
        with self._lock:
            self.asked.append(Asked(path, {}, time.monotonic()))
            queue = self.replies.get(path)
            if not queue:
                return Reply(404, b"Game does not exist")
            return queue.pop(0) if len(queue) > 1 else queue[0]


class _Handler(BaseHTTPRequestHandler):
    site: Site

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        reply = self.site._next(self.path)
        with self.site._lock:
            self.site.asked[-1] = Asked(self.path, dict(self.headers.items()), self.site.asked[-1].at)
        time.sleep(reply.pause)
        self.send_response(reply.status)
        for name, value in reply.headers.items():
            self.send_header(name, value)
        if reply.trickle:
            self.flush_headers()
            try:
                self.wfile.write(b"X-Slow: ")
                until = time.monotonic() + reply.trickle_for
                while time.monotonic() < until:
                    self.wfile.write(b"a")
                    self.wfile.flush()
                    time.sleep(reply.trickle)
                self.wfile.write(b"\r\n")
            except (BrokenPipeError, ConnectionResetError):
                return
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        try:
            self.wfile.write(reply.body[: len(reply.body) - reply.cut])
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass
        if reply.cut:
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:  # the tests' output stays quiet
        pass


@contextmanager
def site_server() -> Iterator[Site]:
    """A :class:`Site` served on 127.0.0.1 (a free port) for the length of the block."""
    site = Site()
    handler = type("Handler", (_Handler,), {"site": site})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    site.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield site
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def bot_game(game_id: int, users: dict[int, str], title: str = "18MS", seed: int = 1,
             status: str = "finished", created_at: int = 1_700_000_000) -> dict[str, Any]:
    """A game as 18xx.games' API answers it, played by random bots: the bots' seats taken by the
    users ``users`` (id: name, in seat order), every player id in the actions and result made theirs."""
    from railledger.selfplay.play import play_game

    played = play_game(title, ["random"] * len(users), seed=seed).export
    seats = dict(zip(range(1, len(users) + 1), users))

    def mapped(action: dict[str, Any]) -> dict[str, Any]:
        action = dict(action)
        if action.get("entity_type") == "player" and action.get("entity") in seats:
            action["entity"] = seats[action["entity"]]
        if action.get("auto_actions"):
            action["auto_actions"] = [mapped(auto) for auto in action["auto_actions"]]
        return action

    game = {key: value for key, value in played.items() if key != "source"}
    game.update(
        id=game_id, status=status, created_at=created_at, user={"id": next(iter(users)), "name": users[next(iter(users))]},
        players=[{"id": user, "name": name} for user, name in users.items()],
        actions=[mapped(action) for action in played["actions"]],
        result={str(seats[int(seat)]): value for seat, value in played["result"].items()} if status == "finished" else {},
    )
    return game
