"""A game's shape: how rich its winner ended, how long it ran, when its phases changed and its
trains first rusted, and how it ended; and whether bots' games take the shape of people's.

Bots that win against each other may still play games no person would: a ladder says which bot is
stronger, not whether its games look like people's. A designer reading bots' games as evidence of
a title's balance needs both, so :func:`compare_shapes` sets the shapes of many bots' games beside
those of people's games of the same title, measure by measure.

Rounds are counted as operating rounds started (the engine's ``or_number``), as the train rush
counts them (:mod:`analytics.rush`), so games whose stock and operating rounds interleave
differently still compare.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from statistics import median

from railledger.ingest.model import Action, Record
from railledger.replay import Game
from railledger.replay.replayer import replay_record
from railledger.replay.verdict import VALID, judge

WIDENING = 0.25
"""How far the target's range reaches past the people's games: a quarter of the width of their
[min, max] on each side (:func:`widened`)."""


@dataclass(frozen=True)
class GameShape:
    """The measures of one finished game that :func:`compare_shapes` compares."""

    winner_value: int
    """The highest final value (cash and shares at market) of any seat."""
    operating_rounds: int
    """Operating rounds started over the whole game."""
    phase_rounds: dict[str, int] = field(default_factory=dict)
    """Each phase the game entered after its first, with the operating round counted when it began
    (0: before the first operating round)."""
    first_rust_round: int | None = None
    """The operating round counted when a train first rusted (None: no train rusted)."""
    end_reason: str = ""


class _RoundOfEvents:
    """Watches a replay and keeps, for every event the game notes, the operating rounds started
    so far when it happened: the engine's events carry only their action."""

    def __init__(self) -> None:
        self.rounds: list[int] = []
        self.operating_rounds = 0

    def before(self, game: Game, index: int, action: Action) -> None:
        """Nothing to see before an action."""

    def after(self, game: Game, index: int, action: Action) -> None:
        self.rounds.extend([game.or_number] * (len(game.events) - len(self.rounds)))
        self.operating_rounds = game.or_number


def game_shape(record: Record) -> GameShape | None:
    """The shape of ``record``'s game once replayed, or None when its verdict is not valid (an
    unfinished, illegal, mismatched or hand-ended game has no shape worth comparing)."""
    watch = _RoundOfEvents()
    replay = replay_record(record, watch=watch)
    if judge(record, replay).kind != VALID or not replay.result:
        return None
    rounds = watch.rounds + [watch.operating_rounds] * (len(replay.events) - len(watch.rounds))
    phases: dict[str, int] = {}
    first_rust: int | None = None
    end_reason = ""
    for event, when in zip(replay.events, rounds):
        if event.kind == "phase":
            phases.setdefault(event.subject, when)
        elif event.kind == "rust" and first_rust is None:
            first_rust = when
        elif event.kind == "game_end":
            end_reason = event.subject
    return GameShape(max(replay.result.values()), watch.operating_rounds, phases, first_rust, end_reason)


@dataclass(frozen=True)
class Spread:
    """min, median and max of one measure over some games; ``games`` is how many had it."""

    games: int
    low: float
    middle: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread | None:
        """The spread of ``values``, None when there are none."""
        if not values:
            return None
        return cls(len(values), min(values), median(values), max(values))

    def __str__(self) -> str:
        return f"{_number(self.low)} / {_number(self.middle)} / {_number(self.high)} ({self.games})"


def widened(people: Spread) -> tuple[float, float]:
    """The people's [min, max] widened by :data:`WIDENING` of its width on each side: for min 10
    and max 18, [8, 20]. One game, or games all alike, widen to nothing: the range is that value."""
    reach = (people.high - people.low) * WIDENING
    return people.low - reach, people.high + reach


@dataclass(frozen=True)
class Measure:
    """One measure's spread in bots' and people's games."""

    name: str
    bots: Spread | None
    people: Spread | None


@dataclass(frozen=True)
class Comparison:
    """Bots' games beside people's of one title, measure by measure, and whether the target holds:
    the bots' median winner value and median operating rounds both within the people's range
    :func:`widened`."""

    title: str
    bot_games: int
    people_games: int
    measures: list[Measure]
    bot_ends: dict[str, int]
    people_ends: dict[str, int]

    def target(self, name: str) -> bool | None:
        """Whether the bots' median of measure ``name`` lies within the people's widened range
        (None: no games of one side to compare)."""
        measure = next(m for m in self.measures if m.name == name)
        if measure.bots is None or measure.people is None:
            return None
        low, high = widened(measure.people)
        return low <= measure.bots.middle <= high

    @property
    def holds(self) -> bool | None:
        """The target: both medians within range (None: nothing to compare against)."""
        verdicts = [self.target(TARGETED[0]), self.target(TARGETED[1])]
        if None in verdicts:
            return None
        return all(verdicts)


WINNER_VALUE, OPERATING_ROUNDS, FIRST_RUST = "winner's value", "operating rounds", "first rust (OR)"
TARGETED = (WINNER_VALUE, OPERATING_ROUNDS)
"""The measures the target asks of bots' games."""


def compare_shapes(title: str, phases: Sequence[str], bots: Iterable[GameShape], people: Iterable[GameShape]) -> Comparison:
    """Each measure's spread among bots' and people's games of ``title``; ``phases`` are the title's
    phase names in order (the first, which every game starts in, has no change to measure)."""
    bot_shapes, people_shapes = list(bots), list(people)

    def measure(name: str, value: Callable[[GameShape], float | None]) -> Measure:
        def spread(shapes: list[GameShape]) -> Spread | None:
            return Spread.of([v for v in map(value, shapes) if v is not None])
        return Measure(name, spread(bot_shapes), spread(people_shapes))

    measures = [measure(WINNER_VALUE, lambda s: s.winner_value), measure(OPERATING_ROUNDS, lambda s: s.operating_rounds)]
    for phase in phases[1:]:
        measures.append(measure(f"phase {phase} (OR)", _entered(phase)))
    measures.append(measure(FIRST_RUST, lambda s: s.first_rust_round))
    return Comparison(title, len(bot_shapes), len(people_shapes), measures, _ends(bot_shapes), _ends(people_shapes))


def _entered(phase: str) -> Callable[[GameShape], float | None]:
    """A game's operating round when it entered ``phase`` (None: it never did)."""
    return lambda shape: shape.phase_rounds.get(phase)


def _ends(shapes: Sequence[GameShape]) -> dict[str, int]:
    """How many games ended each way, the commonest first."""
    counts: dict[str, int] = {}
    for shape in shapes:
        counts[shape.end_reason] = counts.get(shape.end_reason, 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def _number(value: float) -> str:
    return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"
