"""What every step of an operating turn shares: the round it belongs to and the company on turn."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from railledger.ingest.model import Entity
from railledger.replay.abilities import held_for
from railledger.replay.flow import Step
from railledger.replay.rounds.operating import OperatingRound

if TYPE_CHECKING:
    from railledger.replay.data import Ability


class OperatingStep(Step[OperatingRound]):

    @property
    def corporation(self) -> str:
        """The operating company (steps are asked only while one operates)."""
        sym = self.round.corporation
        assert sym is not None
        return sym

    def offering_privates(self, kind: str) -> Iterator[tuple[Entity, Ability]]:
        """The operating company's privates whose ``kind`` ability this step offers now."""
        corp = self.round.corporation
        if corp is None:
            return
        for company, ability in held_for(self.game, corp, kind):
            entity = Entity("company", company.sym)
            if self.offers_now(entity):
                yield entity, ability
