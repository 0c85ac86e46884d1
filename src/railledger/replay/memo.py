"""Answers about one state of a game, asked once.

Every action ends by asking which step waits and what its actor may do; the next ``is_legal``
or ``legal_actions()`` asks the same of the same state. A :class:`Memo` keeps such answers until
the game changes: a game counts its changes (``moment``) and says while it is changing
(``mutating``, see :meth:`replay.state.GameState.changing`), when nothing asked is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Protocol, TypeVar

Answer = TypeVar("Answer")

_UNKNOWN = object()
"""Not asked yet at this moment (None and False are answers)."""


class Changing(Protocol):
    moment: int
    mutating: bool


class Memo:
    """What was answered at one moment of a game."""

    __slots__ = ("moment", "answers")

    def __init__(self) -> None:
        self.moment = -1
        self.answers: dict[Hashable, object] = {}

    def recall(self, game: Changing, question: Hashable, answer: Callable[..., Answer], *arguments: Any) -> Answer:
        """``answer(*arguments)``, computed once per moment of ``game`` (every time while it
        changes). The arguments are passed rather than bound in a closure: a replay asks
        several questions per action, most of them answered already."""
        if game.mutating:
            return answer(*arguments)
        if self.moment != game.moment:
            self.answers = {}
            self.moment = game.moment
        known = self.answers.get(question, _UNKNOWN)
        if known is _UNKNOWN:
            known = self.answers[question] = answer(*arguments)
        return known  # type: ignore[return-value]
