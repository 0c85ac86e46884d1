"""Private companies' abilities: which are in play for a company now, and how many uses are left.

An ability is data in the title's companies.json (its ``type``, parameters, and 18xx.games'
facts about it: ``owner_type``, the ``timing`` names when it may be used, ``count``, whether it
is ``passive``). Steps that implement an ability ask here whether the private owning it may use
it now; the last step of an operating turn asks whether any active ability is still usable, in
which case the turn waits for a pass instead of ending by itself.
"""

from __future__ import annotations

from collections.abc import Iterator

from railledger.ingest.model import Entity
from railledger.replay.data import Ability
from railledger.replay.errors import Violation
from railledger.replay.state import CompanyState, GameState


def uses_left(company: CompanyState, ability: Ability) -> int | None:
    """Uses left (None: unlimited)."""
    count = ability.get("count")
    return None if count is None else int(count) - company.uses


def usable(company: CompanyState, ability: Ability) -> bool:
    left = uses_left(company, ability)
    return not company.closed and (left is None or left > 0)


def held_for(game: GameState, corporation: str, kind: str | None = None) -> Iterator[tuple[CompanyState, Ability]]:
    """Usable abilities that act for ``corporation``: of privates it owns (for a company owner),
    and of privates its president owns that act for the president's companies."""
    president = game.president(corporation)
    for spec in game.title.companies:
        company = game.companies.get(spec.sym)
        if company is None or company.closed:
            continue
        owned = company.owner == corporation
        if not owned and (president is None or company.owner != president):
            continue
        for ability in spec.abilities:
            if kind is not None and ability.type != kind:
                continue
            acts = ability.get("owner_type") in (None, "corporation") if owned else ability.for_owning_player
            if acts and usable(company, ability):
                yield company, ability


def active_at_turn_end(game: GameState, corporation: str) -> bool:
    """Whether an active (not passive) ability could still be used at any moment of the turn:
    18xx.games then keeps the turn's last step open for a pass."""
    for company, ability in held_for(game, corporation):
        timing = tuple(ability.get("timing", ()))
        if ability.get("passive", not timing):
            continue
        if "any" in timing:
            return True
        if company.owner == corporation and "owning_corp_or_turn" in timing:
            return True
        if company.owner != corporation and "owning_player_or_turn" in timing:
            return True
    return False


def in_time(game: GameState, corporation: str, company: CompanyState, ability: Ability, step: str | None) -> bool:
    """Whether the ability may be used now in ``corporation``'s operating turn, with ``step`` the
    kind of the turn's step under way ("track", "token", "buy_train", ... or None at its end)."""
    for timing in ability.get("timing", ()):
        if timing == "any":
            return True
        if timing == step:
            return True
        if timing == "owning_corp_or_turn" and company.owner == corporation:
            return True
        if timing == "owning_player_or_turn" and company.owner == game.president(corporation):
            return True
        if timing == f"owning_player_{step}" and company.owner == game.president(corporation):
            return True
    return False


def usable_by(game: GameState, corporation: str | None, entity: Entity, kind: str, step: str, now: str | None) -> tuple[CompanyState, Ability] | None:
    """The ``kind`` ability private ``entity`` may use now for the operating ``corporation``:
    only in its ``step`` (the kind of step ``now`` under way) and at the times it says."""
    if entity.kind != "company" or corporation is None or now != step:
        return None
    for company, ability in held_for(game, corporation, kind):
        if company.sym == entity.id and in_time(game, corporation, company, ability, step):
            return company, ability
    return None


def check_acts_for(game: GameState, corporation: str | None, entity: Entity) -> None:
    """A private acts only for the operating company that owns it (or, where the title lets a
    player's private act, for a company its owner presides)."""
    company = game.companies.get(str(entity.id))
    if company is None or company.closed or company.owner is None:
        raise Violation("company-owner", f"{company.name if company is not None else entity.id} is not in play")
    if corporation is not None and company.owner == corporation:
        return
    president = game.president(corporation) if corporation is not None else None
    if game.title.player_privates_act and company.owner in game.players and company.owner == president:
        return
    raise Violation("company-owner", f"{company.name} is not owned by the company that operates")
