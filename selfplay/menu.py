"""What a seat is offered: the game's legal actions, with a track step's tile lays listed only on
the hexes the bot asks for.

A track step lists every tile in every rotation on every hex its company reaches, each checked by
the rules, and that listing is most of the time a game of bots takes (docs/selfplay.md). A bot
that will look at a few hexes only says which (:meth:`selfplay.bots.Bot.lay_hexes`); the step's
own ``lay_candidates`` then lists and checks the lays on those, so everything offered is still
legal, and a bot that asks for every hex gets exactly ``game.legal_actions()``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ingest.model import Action
from replay import Game
from replay.flow import make_action
from replay.steps.track import Track

HexPicker = Callable[[list[str]], list[str]]
"""The reachable hexes (sorted) -> those to list lays on."""


def offered(game: Game, pick: HexPicker) -> list[Action]:
    """``game.legal_actions()``, but a generic track step lists lays only on the picked hexes."""
    return [] if game.finished else list(_offered(game, pick))


def _offered(game: Game, pick: HexPicker) -> Iterator[Action]:
    for step in game.round.steps:  # as Round.legal: each open step up to the first that waits
        if step.passed:
            continue
        if isinstance(step, Track) and type(step).legal is Track.legal:
            yield from _track(step, pick)
        else:
            yield from step.legal()
        if step.blocking():
            return


def _track(step: Track, pick: HexPicker) -> Iterator[Action]:
    """Track.legal with the hexes picked: lays, then the pass."""
    current = step.round.current
    if current is None or not step.offers(current):
        return
    yield from step.lay_candidates(current, iter(pick(sorted(step.reachable_hexes()))))
    yield make_action("pass", current)
