"""What a seat is offered: the game's legal actions, with a track step's tile lays listed only on
the hexes the bot asks for.

A track step lists every tile in every rotation on every hex its company reaches, each checked by
the rules, and that listing is most of the time a game of bots takes (docs/selfplay.md). A bot
that will look at a few hexes only says which (:meth:`selfplay.bots.Bot.lay_hexes`); the step's
own ``lay_candidates`` then lists and checks the lays on those, so everything offered is still
legal, and a bot that asks for every hex gets exactly ``game.legal_actions()`` (less a sale
that leads to a dead end, below).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from railledger.ingest.model import Action
from railledger.replay import Game
from railledger.replay.flow import make_action
from railledger.replay.steps.track import Track

HexPicker = Callable[[list[str]], list[str]]
"""The reachable hexes (sorted) -> those to list lays on."""


def offered(game: Game, pick: HexPicker) -> list[Action]:
    """``game.legal_actions()``, but a generic track step lists lays only on the picked hexes,
    and without the one legal sale that leads where nobody may act (:func:`_without_dead_ends`)."""
    return [] if game.finished else _without_dead_ends(game, list(_offered(game, pick)))


def _without_dead_ends(game: Game, actions: list[Action]) -> list[Action]:
    """1871 (and 18xx.games): while a company must sell its treasury shares for a train, its
    president may still sell shares of that company himself; then the company may sell none
    (one block per company), its bankruptcy still counts them, and nobody may act. A bot does
    not take that path: the president's sales of a company issuing its own are left out."""
    issuing = {str(a.entity.id) for a in actions if a.type == "sell_shares" and a.entity.kind == "corporation"}
    if not issuing:
        return actions
    return [a for a in actions if not (a.type == "sell_shares" and a.entity.kind == "player"
                                       and game.shares[str(a.fields["shares"][0])].corporation in issuing)]


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
    if current is None or not step.offers_now(current):
        return
    yield from step.lay_candidates(current, iter(pick(sorted(step.reachable_hexes()))))
    yield make_action("pass", current)
