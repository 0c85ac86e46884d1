"""18xx.games' public JSON API: where a game and the finished games of a title are, and what an
answer must hold to be kept.

Every fact railledger relies on about the site is here, so that a change on the site is one place
to mend. They come from the site's own source (tobymao/18xx: ``routes/game.rb`` serves the API,
``models/game.rb`` writes each game with ``Game#to_h`` and lists games with ``Game.home_games``):

* ``GET /api/game/<id>`` answers one game with its actions (``to_h(include_actions: true)``: id,
  title, players, settings, status, result, actions, created_at, finished_at...), the same object
  the site's "download" gives, or 404 for an id with no game. Chat messages are left out for a
  visitor who is not at the table, as railledger is.
* ``GET /api/game?finished=K&title=T`` answers ``{"games": [...]}``: games without their actions,
  13 of each status (new, active, finished) newest first by creation, the finished ones from
  position ``12 * K`` (each page's 13th game is the next page's first). A visitor without a login
  gets pages 0 to 10; a higher page answers page 10 again. A title the site does not know
  matches no game.
* A game's ``status`` is ``new`` (not started: no actions), ``active``, ``finished`` or
  ``archived``: the site deletes an archived game's actions (a year after its creation, or sooner
  for a game pinned to old code), so such an answer holds nothing to keep.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

BASE_URL = "https://18xx.games"
"""The site, unless ``--base-url`` names another server that answers the same API."""

SOURCE = "18xx.games"
"""The archive's source of the site's games: a pulled game is stored as ``18xx.games/<id>``."""

GAMES_PER_PAGE = 13
"""Games of one status a page of the list holds."""

PAGE_STEP = GAMES_PER_PAGE - 1
"""Positions from one page's first game to the next page's: pages overlap by one game."""

ANONYMOUS_PAGES = 11
"""Pages of the list a visitor without a login is given (0 to 10)."""

FINISHED = "finished"
ARCHIVED = "archived"
NOT_STARTED = "new"


def game_path(game_id: int) -> str:
    """The API path of one game with its actions."""
    return f"/api/game/{game_id}"


LIST_PATH = "/api/game"
"""The API path of the lists of games."""


def finished_page(title: str, page: int) -> dict[str, str]:
    """The query of one page (from 0) of a title's finished games."""
    return {"finished": str(page), "title": title}


def game_key(game_id: int) -> str:
    """The archive key of a game of the site."""
    return f"{SOURCE}/{game_id}"


_GAME_URL = re.compile(r"/(?:api/)?game/(\d+)/?")


def game_id_of(text: str) -> int | None:
    """A game id as a person gives it: ``14375``, or a link to the game on the site
    (``https://18xx.games/game/14375``, with any page fragment); None for anything else."""
    text = text.strip()
    if text.isascii() and text.isdigit():
        return int(text)
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https"):
        return None
    found = _GAME_URL.fullmatch(parts.path)
    return int(found.group(1)) if found else None


def check_base_url(url: str) -> str:
    """The base URL without a trailing slash; ValueError unless it is http(s)://host[:port] with
    no path, query or fragment (the API paths are added to it)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"--base-url {url!r} is not an http:// or https:// address of a server")
    if parts.path.strip("/") or parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError(f"--base-url {url!r} must name a server only, e.g. {BASE_URL}")
    return f"{parts.scheme}://{parts.netloc}"


def finished_ids(answer: Any, title: str) -> list[int]:
    """The ids of the finished games of ``title`` in one page of the list, newest first; ValueError
    for an answer that is not the list the site gives (``{"games": [...]}``)."""
    games = answer.get("games") if isinstance(answer, dict) else None
    if not isinstance(games, list):
        raise ValueError("the answer is not a list of games (expected an object with a 'games' list)")
    found = []
    for n, game in enumerate(games):
        if not isinstance(game, dict) or not isinstance(game.get("id"), int) or isinstance(game.get("id"), bool):
            raise ValueError(f"games[{n}] has no whole-number 'id'")
        if game.get("status") == FINISHED and game.get("title") == title:
            created = game.get("created_at")
            found.append((created if isinstance(created, (int, float)) else 0, game["id"]))
    return [game_id for _, game_id in sorted(found, reverse=True)]


def game_problem(answer: Any, game_id: int) -> str | None:
    """Why an answer to ``game_path(game_id)`` holds no game to keep, or None when it holds one.

    The record itself is then checked as every ingested record is (the input schema)."""
    if not isinstance(answer, dict) or not isinstance(answer.get("actions"), list) or "title" not in answer:
        return "the answer is not a game (expected an object with 'title' and an 'actions' list)"
    if answer.get("id") != game_id:
        return f"the answer is game {answer.get('id')!r}, not game {game_id}"
    status = answer.get("status")
    if status == ARCHIVED:
        return ("18xx.games has archived it and deleted its actions: nothing to keep "
                "(a copy pulled earlier is kept as it is)")
    if status == NOT_STARTED:
        return "it has not started yet (status new): nothing to keep"
    return None
