"""What every step of an operating turn shares: the round it belongs to and the company on turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.flow import Step

if TYPE_CHECKING:
    from replay.rounds.operating import OperatingRound


class OperatingStep(Step):
    round: OperatingRound

    @property
    def corporation(self) -> str:
        """The operating company (steps are asked only while one operates)."""
        sym = self.round.corporation
        assert sym is not None
        return sym
