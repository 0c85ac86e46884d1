"""Answers about one state of a game, asked once, and counts of its entities, kept while they stand.

Every action ends by asking which step waits and what its actor may do; the next ``is_legal``
or ``legal_actions()`` asks the same of the same state. A :class:`Memo` keeps such answers until
the game changes: a game counts its changes (``moment``) and says while it is changing
(``mutating``, see :meth:`replay.state.GameState.changing`), when nothing asked is kept.

Some answers read the game's entities (certificates, trains, the stock market) and nothing of
the round: a turn handed on or a step passed leaves them as they were, while it ends every
moment. The game's :class:`EntityChanges` counts every change to its entities and the market, and a
:class:`Versioned` keeps such an answer with the count (and whatever else it reads, such as the
phase) it was computed at, until that changes.
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


class EntityChanges:
    """How many times a field of the game's entities was set, a company's token moved on the
    stock market, or the undo journal put either back: it only grows, so an answer computed at
    one count holds while the count stands."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0


class Versioned:
    """Answers read from the game's entities alone, each kept with the entities' count of changes
    (the game's :class:`EntityChanges`) and whatever else it reads (``reads``, such as the phase), and
    computed again only when either differs; nothing is kept while the game changes."""

    __slots__ = ("entity_changes", "answers")

    def __init__(self, entity_changes: EntityChanges) -> None:
        self.entity_changes = entity_changes
        self.answers: dict[Hashable, tuple[int, Hashable, object]] = {}

    def recall(self, game: Changing, reads: Hashable, question: Hashable, answer: Callable[..., Answer],
               *arguments: Any) -> Answer:
        """``answer(*arguments)``, kept while the entities and ``reads`` stand."""
        if game.mutating:
            return answer(*arguments)
        count = self.entity_changes.count
        known = self.answers.get(question)
        if known is not None and known[0] == count and known[1] == reads:
            return known[2]  # type: ignore[return-value]
        found = answer(*arguments)
        self.answers[question] = (count, reads, found)
        return found

    def current(self) -> dict[Hashable, tuple[int, Hashable, object]]:
        """The answers computed since the entities last changed (what an action's undo keeps)."""
        count = self.entity_changes.count
        return {question: known for question, known in self.answers.items() if known[0] == count}

    def resume(self, kept: dict[Hashable, tuple[int, Hashable, object]]) -> None:
        """Answers :meth:`current` gave before an action, good again once the undo journal has
        put the entities back as they were then: kept at the count the takeback moved on to."""
        count = self.entity_changes.count
        for question, (_, reads, found) in kept.items():
            self.answers[question] = (count, reads, found)
