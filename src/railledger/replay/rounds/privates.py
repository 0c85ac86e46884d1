"""The round that sells the private companies before the first stock round (draft or auction).

Its steps keep their own turn order; the round is over when none of them waits for anyone.
"""

from __future__ import annotations

from collections.abc import Callable

from railledger.ingest.model import Entity
from railledger.replay.flow import Round, Step
from railledger.replay.state import GameState


class PrivatesRound(Round):
    kind = "auction"

    def __init__(self, game: GameState, label: str, steps: tuple[Callable[[Round], Step], ...]) -> None:
        super().__init__(game, label)
        self.add_steps(*steps)
        self.skip_steps()

    @property
    def current(self) -> Entity | None:
        step = self.active_step()
        return step.actor() if step is not None else None
