"""Links between pages: a game (and a step of it) opens on the review page, a player on the
players page, through its URL."""

from __future__ import annotations

from urllib.parse import urlencode

REVIEW_PATH = "review"
PLAYERS_PATH = "players"


def review_url(key: str, seq: int | None = None) -> str:
    """Relative URL of the review page at a game (``?game=key``), optionally at an action: its
    0-based ``seq`` in the archive, written as the step number the page shows (``seq + 1``)."""
    query = {"game": key} if seq is None else {"game": key, "step": seq + 1}
    return f"{REVIEW_PATH}?{urlencode(query)}"


def player_url(player: str) -> str:
    """Relative URL of a player's page (``?player=id``: the 18xx.games user id, or a hotseat name)."""
    return f"{PLAYERS_PATH}?{urlencode({'player': player})}"
