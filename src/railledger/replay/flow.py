"""Rounds made of steps: who may act, what each step offers, and when turns end.

The shape is 18xx.games': a round is a sequence of steps, and a step says which action types it
offers an entity now (:meth:`Step.offers`). A step that *blocks* and offers something to its
actor must be dealt with (acted in or passed) before any later step; a blocking step that
offers nothing is passed at once (:meth:`Step.skip`, which may have effects, such as the price
drop of a company that ran no trains). After every action the round skips what offers nothing
and hands the turn on, so a turn, a step or a round ends with the action that ends it.

Every action handler is a generator, ``do_<type>(action)``: everything before its first
``yield`` checks and changes nothing; everything after it applies the action and may not fail.
:meth:`Step.check` runs only the first part, so ``is_legal`` and ``process`` share one set of
checks and an illegal action leaves the game exactly as it was. A handler names the fields it
reads (:func:`reads`); an action that declares any other field is refused before the handler
runs, so nothing a record says is silently ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from railledger.ingest.model import Action, Entity
from railledger.replay.errors import Violation
from railledger.replay.memo import Memo
from railledger.replay.names import entity_name

if TYPE_CHECKING:
    from railledger.replay.state import GameState

Effects = Generator[None, None, None]
"""An action handler: checks, then ``yield``, then effects."""

Handler = TypeVar("Handler", bound=Callable[..., Effects])

RoundKind = TypeVar("RoundKind", bound="Round")
"""The kind of round a step belongs to: a step's type names it (``Step[OperatingRound]``), so
its code reads that round's own fields with their types, and no subclass narrows an attribute
(which a compiled build cannot take, docs/fast.md)."""

DEFAULT_VALUES: tuple[Any, ...] = (None, "", 0, False, [], {})
"""Values that declare nothing: 18xx.games writes ``subsidy: 0`` or ``extra_due: false`` on
actions of titles without subsidies or extra payments. A field holding one is accepted as
agreeing with an engine that has no such rule."""


def reads(*fields: str) -> Callable[[Handler], Handler]:
    """Declare the fields of an action that a handler uses or compares with what it computes.

    ``Step.handler`` refuses an action declaring any other field (``field-unsupported``), so a
    field 18xx.games writes for other titles, or one a step of ours has no rule for, is a flag
    instead of a field the replay silently does not look at."""

    def mark(method: Handler) -> Handler:
        setattr(method, "fields_read", frozenset(fields))
        return method

    return mark


def fields_read(method: Callable[..., Effects]) -> frozenset[str]:
    found: frozenset[str] = getattr(method, "fields_read", frozenset())
    return found


_HANDLERS: dict[tuple[type[Step], str], tuple[Callable[[Step, Action], Effects], frozenset[str]] | None] = {}
"""(step class, action type) -> its handler and the fields it reads, or None: a step takes the
same types for good, and the round asks every step whether it takes each action."""


def _handler_of(step: type[Step], kind: str) -> tuple[Callable[[Step, Action], Effects], frozenset[str]] | None:
    key = (step, kind)
    try:
        return _HANDLERS[key]
    except KeyError:
        pass
    method = getattr(step, f"do_{kind}", None)
    found = None if method is None or (kind == "pass" and not step.can_pass) else (method, fields_read(method))
    _HANDLERS[key] = found
    return found


def check_declared_range(action: Action, name: str, low: int, high: int, rule: str, what: str) -> None:
    """A range an action declares (``legal_actions()`` writes one on actions with a free amount,
    and a record may keep it) must be the range the engine computes."""
    declared = action.fields.get(name)
    if declared is not None and list(declared) != [low, high]:
        raise Violation(rule, f"{what} may be ${low} to ${high}, not {declared}")


class Step(Generic[RoundKind]):
    """One part of a round (a track step, a dividend step, a stock turn's buying and selling)."""

    blocks: ClassVar[bool] = True
    """Whether the step holds up later ones while it offers its actor something."""
    name: ClassVar[str] = "step"
    """How messages name the step ("track", "train purchase")."""
    timing: ClassVar[str | None] = None
    """The name private abilities' timings give this step (18xx.games: "track", "buy_train")."""
    can_pass: ClassVar[bool] = True
    """Whether the step may be passed (a run, a discard, a private's ability step may not)."""
    answered_kind: ClassVar[str | None] = None
    """The kind of entity whose actions the step takes at any moment ("player", "company"...);
    None: only the round's entity on turn."""

    def __init__(self, round_: Round) -> None:
        # A round builds its own steps (Round.add_steps), so a step's round is of its kind.
        self.round: RoundKind = cast(RoundKind, round_)
        self.game: GameState = round_.game
        self.passed = False
        self.acted = False
        self.memo = Memo()  # what it offered in this state of the game

    # -- lifecycle

    def setup(self) -> None:
        """A new turn begins (a new entity in the round): reset what the step tracks per turn."""

    def skip(self) -> None:
        """The step offers nothing: it is passed; subclasses add the effects of passing it."""
        self.passed = True

    # -- what the step offers

    def actor(self) -> Entity | None:
        """The entity this step waits for: by default the round's entity on turn."""
        return self.round.current

    def offers(self, entity: Entity) -> frozenset[str]:
        """The action types ``entity`` may take in this step now (empty: none)."""
        return frozenset()

    def offers_kind(self, entity: Entity, kind: str) -> bool:
        """Whether the step offers ``entity`` actions of this type now. ``is_legal`` asks only
        this, so a step whose full list is costly (a stock turn) answers it without the list."""
        return kind in self.offers_now(entity)

    def offers_any(self, entity: Entity) -> bool:
        """Whether the step offers ``entity`` anything now (all a blocking test needs)."""
        return bool(self.offers_now(entity))

    def offers_now(self, entity: Entity) -> frozenset[str]:
        """:meth:`offers`, remembered for this state of the game (see :meth:`offers_any_now`)."""
        return self.memo.recall(self.game, ("offers", entity.kind, entity.id), self.offers, entity)

    def offers_any_now(self, entity: Entity) -> bool:
        """:meth:`offers_any`, remembered for this state of the game."""
        return self.memo.recall(self.game, ("any", entity.kind, entity.id), self.offers_any, entity)

    def offers_kind_now(self, entity: Entity, kind: str) -> bool:
        """:meth:`offers_kind`, remembered for this state of the game."""
        return self.memo.recall(self.game, (kind, entity.kind, entity.id), self.offers_kind, entity, kind)

    def blocking(self) -> bool:
        """Whether the step holds up later ones now: it blocks and offers its actor something.
        Remembered for this state of the game as a whole: a replay asks it of every step several
        times per action (which step waits, what is listed, what is skipped), and a step's
        actor may itself be a question (the company over its train limit)."""
        if not self.blocks:
            return False
        return self.memo.recall(self.game, "blocking", self.holds_up)

    def holds_up(self) -> bool:
        """:meth:`blocking`, computed."""
        actor = self.actor()
        return actor is not None and self.offers_any_now(actor)

    def legal(self) -> Iterator[Action]:
        """Every concrete legal action this step offers now (each passes :meth:`check`)."""
        return iter(())

    def answers(self, action: Action) -> bool:
        """Whether this step takes such an action from its entity at all (now or at another
        moment): from any entity of its ``answered_kind``, or else the round's entity on turn."""
        if self.answered_kind is not None:
            return action.entity.kind == self.answered_kind
        return action.entity == self.round.current

    def why_not(self, action: Action) -> Violation | None:
        """While this step waits, why ``action`` (which it does not take) cannot happen; None
        leaves the round's own explanation (not on turn, later step)."""
        return None

    # -- acting

    def takes(self, kind: str) -> bool:
        """Whether actions of this type are ever this step's."""
        return _handler_of(type(self), kind) is not None

    def handler(self, action: Action) -> Effects:
        found = _handler_of(type(self), action.type)
        if found is None:
            raise Violation("action-type", f"{action.type} is not an action of the {self.name} step")
        method, known = found
        for name, value in action.fields.items():
            if name not in known and value not in DEFAULT_VALUES:
                raise Violation("field-unsupported", f"{action.type} declares {name}={value!r}, which the {self.name} step has no rule for")
        return method(self, action)

    def check(self, action: Action) -> None:
        """Raise a Violation if ``action`` is illegal in this step; changes nothing."""
        effects = self.handler(action)
        next(effects, None)
        effects.close()

    def allows(self, action: Action) -> bool:
        """Whether :meth:`check` passes ``action`` (the generators keep only what it allows)."""
        try:
            self.check(action)
        except Violation:
            return False
        return True

    def apply(self, action: Action) -> None:
        """Check and apply ``action``."""
        effects = self.handler(action)
        next(effects, None)
        for _ in effects:
            pass
        self.acted = True

    def do_pass(self, action: Action) -> Effects:
        yield
        self.passed = True

    def say(self, action: Action) -> str | None:
        """The action in a player's words where this step says it its own way (a title's own
        step: a split's answers, a private's purchase); None leaves it to
        :func:`replay.sentences.describe`, which says each action type the same in every title."""
        return None


class Round:
    """A round: its steps, the entities taking turns in it, and the label snapshots carry."""

    kind: ClassVar[str] = "round"
    """"stock", "operating", "auction" or "draft": what a title's next round follows."""

    def __init__(self, game: GameState, label: str) -> None:
        self.game = game
        self.label = label
        self.steps: list[Step] = []

    def add_steps(self, *kinds: Callable[[Round], Step]) -> None:
        self.steps.extend(kind(self) for kind in kinds)

    @property
    def current(self) -> Entity | None:
        """The entity whose turn it is (a player in a stock round, a company in an operating one)."""
        raise NotImplementedError

    @property
    def finished(self) -> bool:
        return self.active_step() is None

    def active_step(self) -> Step | None:
        """The first step that blocks now: the one waiting for an action (a plain loop: every
        action asks it several times)."""
        for step in self.steps:
            if not step.passed and step.blocking():
                return step
        return None

    def step_for(self, action: Action) -> Step:
        """The step that takes ``action`` now, or a Violation saying why none does."""
        for step in self.steps:
            if step.passed:
                continue
            if step.takes(action.type) and step.offers_kind_now(action.entity, action.type):
                return step
            if step.blocking():
                raise self.refusal(action, step)
        raise self.refusal(action, None)

    def refusal(self, action: Action, blocking: Step | None) -> Violation:
        """Why no step takes ``action``. In order: the action is not one of this round's; the
        waiting step explains; the entity is not on turn; a step that takes such actions from it
        says which of its rules forbids this one (no tile lay left, a station already placed);
        the step was passed or is not reached yet."""
        handlers = [s for s in self.steps if s.takes(action.type)]
        if not handlers:
            return Violation("action-type", f"{action.type} is not an action of {self.label}")
        explained = blocking.why_not(action) if blocking is not None else None
        if explained is not None:
            return explained
        answering = [s for s in handlers if s.answers(action)]
        if not answering and blocking is not None:
            return self.not_on_turn(action, blocking)
        if action.type == "pass" and blocking is not None:
            answering = [blocking] if blocking in answering else []  # a pass belongs to the step that waits
        for step in answering:
            if step.passed and action.type in step.offers(action.entity):
                return Violation("step-order", f"{entity_name(self.game, action.entity)} has finished its {step.name} step")
            try:
                step.check(action)
            except Violation as violation:
                return violation
        if blocking is not None:
            return self.blocked(action, blocking)
        return Violation("step-order", f"{entity_name(self.game, action.entity)} cannot {action.type.replace('_', ' ')} now")

    def not_on_turn(self, action: Action, blocking: Step) -> Violation:
        actor = blocking.actor()
        who = entity_name(self.game, actor) if actor is not None else "nobody"
        return Violation("turn-order", f"it is {who}'s turn, not {entity_name(self.game, action.entity)}'s")

    def blocked(self, action: Action, step: Step) -> Violation:
        """The entity on turn tries something a step still under way does not allow."""
        return Violation("step-order", f"{entity_name(self.game, action.entity)} must first finish the {step.name} step")

    def process(self, action: Action) -> None:
        """Apply an action already checked (``step_for`` and ``Step.check``), then move on."""
        self.step_for(action).apply(action)
        self.after_action()

    def after_action(self) -> None:
        """Skip steps that offer nothing and hand the turn on (a subclass's turn order). It runs
        after the action's own changes, and makes each of its changes inside
        ``game.changing()``, so what it asks between them is asked once."""
        self.skip_steps()

    def skip_steps(self) -> None:
        """Pass every blocking-kind step that offers nothing, up to the first that waits."""
        for step in self.steps:
            if step.passed or not step.blocks:
                continue
            if step.blocking():
                return
            with self.game.changing():
                step.skip()

    def legal(self) -> Iterator[Action]:
        """Every concrete legal action now: each step's up to the first that waits."""
        for step in self.steps:
            if step.passed:
                continue
            yield from step.legal()
            if step.blocking():
                return

    def close_at_end(self) -> bool:
        """At the end of a record: conclude what is under way; True if the game moves on."""
        return False


def make_action(action_type: str, entity: Entity, **fields: object) -> Action:
    """An action as the generator offers it (id 0: records number their own actions)."""
    return Action(action_type, entity, 0, 0, fields)
