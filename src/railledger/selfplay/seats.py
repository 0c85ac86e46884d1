"""Who decides an action: every entity that acts belongs to one seat at the table.

A player acts for themselves; a corporation is run by its president (or its operator, where a
company has no president's certificate); a private company by whoever owns it, a player or the
president of the corporation owning it; a holder outside the turn order (1871's Union Bank) by
the player who owns it. A game asks one seat at a time: the seat of the entity
the waiting step is waiting for. Actions another seat could take at the same moment (a private's
ability usable at any time) are not offered to it: bots play their own turns.
"""

from __future__ import annotations

from collections.abc import Sequence

from railledger.ingest.model import Action, Entity, PlayerId
from railledger.replay import Game
from railledger.replay.state import Holder


def controller(game: Game, entity: Entity) -> PlayerId | None:
    """The player at the table who decides ``entity``'s actions now, or None when nobody does."""
    if entity.kind == "player":
        return _seated(game, entity.id)
    sym = str(entity.id)
    if sym in game.corporations:
        return _seated(game, game.president(sym))
    company = game.companies.get(sym)
    if company is None or company.owner is None:
        return None
    if str(company.owner) in game.corporations:
        return _seated(game, game.president(str(company.owner)))
    return _seated(game, company.owner)


def _seated(game: Game, holder: Holder | None) -> PlayerId | None:
    """The seated player a holder stands for: itself, or for a holder outside the turn order
    (1871's Union Bank) the player its title says owns it."""
    if holder in game.order:
        return holder
    owner = game.title.value_holders(game).get(holder) if holder is not None else None
    return owner if owner in game.order else None


def waited_seat(game: Game) -> PlayerId | None:
    """The player the waiting step waits for (the controller of its actor), if any."""
    step = game.round.active_step()
    actor = step.actor() if step is not None else None
    return controller(game, actor) if actor is not None else None


def seat_to_act(game: Game, legal: Sequence[Action], waiting: PlayerId | None) -> tuple[PlayerId, list[Action]] | None:
    """The player to decide now, with the legal actions they decide; None when nobody controls
    one. That player is ``waiting`` (:func:`waited_seat`) when some legal action is theirs, else
    (no step holds, or its actor is nobody's) the first player in seat order who controls one of
    the legal actions. Both come from one asking of each entity's controller."""
    deciders = _controllers(game, legal)
    seated = set(deciders.values())
    seat = waiting if waiting is not None and waiting in seated else next((pid for pid in game.order if pid in seated), None)
    if seat is None:
        return None
    return seat, [action for action in legal if deciders[action.entity] == seat]


def _controllers(game: Game, legal: Sequence[Action]) -> dict[Entity, PlayerId | None]:
    """The controller of each entity acting in ``legal``, asked once per entity (a listing holds
    a few entities and up to hundreds of actions)."""
    return {entity: controller(game, entity) for entity in {action.entity for action in legal}}
