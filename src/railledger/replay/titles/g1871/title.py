"""The game's title as The Old Prince 1871's own class, for the title's steps."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from railledger.replay.state import GameState

    from . import Title1871


def title_of(game: GameState) -> Title1871:
    """The title of a game these steps are part of (always 1871's)."""
    return game.title  # type: ignore[return-value]
