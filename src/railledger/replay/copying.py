"""A game copied for a search: its state copied, what never changes in place shared.

``copy.deepcopy`` of a game walks every object it reaches: the title's data and tile geometry
(which share themselves), but also every action, event, placed tile and the rounds' references to
the title's specifications, several pushes' worth of time at every copy. A game's state is a
known set of parts, and most of what they hold is never changed in place (the undo journal
relies on that too: entities, placed tiles and the market's positions are replaced, not
edited), so a copy copies exactly the containers and objects that change:

- the game's own attributes (a shallow copy), its lists of moves, events and seats;
- every entity (a new object with the same fields; their lists and sets are never changed in
  place, so they are shared) and the certificates by company, made of the copied certificates;
- the board's and the market's containers, the kept reach (:class:`~replay.network.GraphCache`);
- the round and its steps, relinked to the copy, and the title's state, with their lists,
  dicts, sets and changeable dataclasses copied (:func:`replay.journal.kept`).

Answers remembered for a moment (:class:`~replay.memo.Memo`) start empty; so do the journal and
the noted states.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, TypeVar

from railledger.replay.journal import Journal, kept
from railledger.replay.memo import Memo

if TYPE_CHECKING:
    from railledger.replay.game import Game

Part = TypeVar("Part")


def twin_of(part: Part) -> Part:
    """A new object of the same class with the same attributes (no constructor, no setter)."""
    twin = object.__new__(type(part))
    vars(twin).update(vars(part))
    vars(twin).pop("change_log", None)  # an entity notes changes for the original's noted states only
    return twin


def copy_game(game: Game) -> Game:
    """An independent game in ``game``'s state (see the module's docstring)."""
    twin = twin_of(game)
    twin.moves, twin.events, twin.order = list(game.moves), list(game.events), list(game.order)
    twin.players = {k: twin_of(v) for k, v in game.players.items()}
    twin.corporations = {k: twin_of(v) for k, v in game.corporations.items()}
    twin.companies = {k: twin_of(v) for k, v in game.companies.items()}
    twin.shares = {k: twin_of(v) for k, v in game.shares.items()}
    twin.trains = {k: twin_of(v) for k, v in game.trains.items()}
    twin.shares_of = {sym: [twin.shares[s.id] for s in held] for sym, held in game.shares_of.items()}
    twin.market = twin_of(game.market)
    twin.market.position = dict(game.market.position)
    twin.market.stacks = {cell: list(stack) for cell, stack in game.market.stacks.items()}
    twin.market.moved = None
    twin.board = twin_of(game.board)
    for name in ("hexes", "hex_of_tile", "supply", "terrain_paid", "changes", "laid", "station_hexes", "open_sides"):
        setattr(twin.board, name, copy.copy(getattr(game.board, name)))
    twin.graph = copy.deepcopy(game.graph)
    twin.extra = twin_of(game.extra)
    vars(twin.extra).update(kept(vars(game.extra)))
    twin.round = twin_of(game.round)
    vars(twin.round).update(kept(_own(game.round)), game=twin)
    twin.round.steps = [twin_of(step) for step in game.round.steps]
    for step in twin.round.steps:
        vars(step).update(kept(_own(step)), game=twin, round=twin.round, memo=Memo())
    twin.memo, twin.journal, twin.states = Memo(), Journal(), None
    return twin


def _own(part: object) -> dict[str, object]:
    """A round's or step's values without its links to the game, round and steps."""
    return {k: v for k, v in vars(part).items() if k not in ("game", "round", "steps", "memo")}
