"""Links between pages: a game (and a step of it) opens on the review page, a player on the
players page, through its URL."""

from __future__ import annotations

from urllib.parse import urlencode

from railledger.ingest.identity import USER

REVIEW_PATH = "review"
PLAYERS_PATH = "players"


def review_url(key: str, action: str | None = None) -> str:
    """Relative URL of the review page at a game (``?game=key``), optionally at an action named
    by the record's own id (``&action=209``), as the page names it."""
    query = {"game": key} if action is None else {"game": key, "action": action}
    return f"{REVIEW_PATH}?{urlencode(query)}"


def player_url(player: str) -> str:
    """Relative URL of a player's page (``?player=identity``: docs/identity.md)."""
    return f"{PLAYERS_PATH}?{urlencode({'player': player})}"


def user_url(user: int | str) -> str:
    """Relative URL of the page of an 18xx.games user, given their user id (an event names its
    players so): the player of identity ``user:ID``."""
    return player_url(f"{USER}{user}")
