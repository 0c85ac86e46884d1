"""The game: its state plus the round in progress, one canonical action at a time.

Modelled on python-chess's Board: ``Game.start(...)`` sets a title up; ``legal_actions()``
yields every concrete action legal now; ``is_legal(action)`` and ``check(action)`` ask without
changing anything (no copy is made: every handler checks before it changes); ``process(action)``
(or ``push``) applies a legal action or raises :class:`~replay.errors.IllegalAction` naming the
rule it breaks, leaving the game exactly as it was; ``pop()`` takes the last action back;
``snapshot()`` is a cheap immutable view and ``result()`` the players' values.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator

from railledger.ingest.identity import seat_labels
from railledger.ingest.model import Action, Player, PlayerId, Record
from railledger.replay import copying
from railledger.replay.errors import IllegalAction, Violation
from railledger.replay.flow import Effects, Round, Step
from railledger.replay.shape import check_shape
from railledger.replay.snapshot import Snapshot, StateChanges, take_snapshot
from railledger.replay.state import GameState
from railledger.replay.titles import title_named
from railledger.replay.variant import RECORDED, VariantError, recorded_variant
from railledger.replay.titles.base import Title


class Game(GameState):
    """One game of a title, from setup to its end."""

    def __init__(self, title: Title, players: Iterable[Player], seed: int | None = None,
                 optional_rules: Iterable[str] = (), game_id: str | None = None, created: str | None = None) -> None:
        roster = tuple(players)
        super().__init__(title, roster, seed, optional_rules, game_id, created)
        self.roster = roster
        self.moves: list[Action] = []  # the actions applied, for pop()
        self.acted_in = ""  # label of the round the last action came in, applied or refused
        self.states: StateChanges | None = None  # made by the first note_state()
        self.applying = True
        with self.changing():
            title.setup(self)
            self.round: Round = title.first_round(self)
        self.settle_rounds()
        self.applying = False

    @classmethod
    def start(cls, title: str, players: Iterable[Player], seed: int | None = None,
              optional_rules: Iterable[str] = (), game_id: str | None = None, created: str | None = None,
              variant: str | None = None) -> Game:
        """Set up a new game of the title with this 18xx.games name.

        Titles with random setup draw from ``seed``, or from the digits of ``game_id`` when the
        record has no seed, exactly as 18xx.games does; ``created`` (ISO day) picks the version of
        the title's map the game was played on; ``variant``, a variant's TOML text, the data the
        title is played with (:class:`~replay.variant.VariantError` when it does not fit the title).
        """
        if variant is None:
            return cls(title_named(title), players, seed, optional_rules, game_id, created)
        try:
            return cls(title_named(title, recorded_variant(variant)), players, seed, optional_rules, game_id, created)
        except VariantError:
            raise
        except Exception as broken:  # the title's own loading and setup are a variant's last consistency checks
            raise VariantError(RECORDED, "", f"the title's data is inconsistent with this change: "
                                             f"{type(broken).__name__}: {broken}") from None

    @classmethod
    def from_record(cls, record: Record) -> Game:
        """Set up the game a record is of, as its header says (title, players, seed, optional
        rules, id, day created), before its first action: ``push`` its actions to step through it.
        Each player goes by the name shown for them (:func:`ingest.identity.seat_labels`), so that
        two whose names compare equal are told apart in every sentence and message."""
        shown = seat_labels(record)
        players = tuple(dataclasses.replace(player, name=shown[player.id]) for player in record.players)
        return cls.start(record.title, players, seed=record.seed, optional_rules=record.optional_rules,
                         game_id=record.game_id, created=record.created, variant=record.variant)

    # ------------------------------------------------------------------ asking

    def legal_actions(self) -> Iterator[Action]:
        """Every concrete legal action now, of every entity that may act (ids 0)."""
        if not self.finished:
            yield from self.round.legal()

    def check(self, action: Action) -> None:
        """Raise IllegalAction if ``action`` is illegal now; the game is not changed."""
        try:
            prepared = self._prepare(action)
        except Violation as violation:
            raise self._illegal(self.index, action, violation) from None
        if prepared is not None:
            prepared[1].close()

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be played now (:meth:`check` without the reason); nothing changes."""
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    # ------------------------------------------------------------------ acting

    def process(self, action: Action) -> None:
        """Apply a legal action, or raise IllegalAction and change nothing (the record's position,
        ``index``, still moves on, and ``acted_in`` names the round the refused action came in)."""
        index, acted_in = self.index, self.acted_in
        self.index += 1
        self.acted_in = self.round.label  # refused or not, the action belongs to the round it came in
        try:
            prepared = self._prepare(action)
        except Violation as violation:
            raise self._illegal(index, action, violation) from None
        if self.journal.enabled:
            undo = self.journal.begin(self, [self.round, *self.round.steps, self.extra],
                                      [self.moves, self.events, self.players, self.corporations, self.companies, self.trains])
            undo.attributes.update(index=index, acted_in=acted_in)
            self.journal.save(self.graph, self.graph.kept())
        self.moves.append(action)
        self.applying = True
        try:
            if prepared is not None:
                self._apply(*prepared)
        finally:
            self.applying = False
            self.journal.end()

    def _apply(self, step: Step | None, effects: Effects) -> None:
        with self.changing():
            for _ in effects:
                pass
            if step is not None:
                step.acted = True
        if step is not None:
            self.round.after_action()  # it makes its own changes, asking between them
        self.settle_rounds()

    def push(self, action: Action) -> None:
        """python-chess's name for :meth:`process`."""
        self.process(action)

    def pop(self) -> Action:
        """Take the last applied action back: the undo journal puts back what it changed
        (:mod:`replay.journal`), at the cost of that. A game whose journal does not reach that
        action (a copy's actions before it was made, a game changed by hand or ended by its
        record) is replayed without it instead."""
        if not self.moves:
            raise IndexError("no action to take back")
        last = self.moves[-1]
        if self.journal.undo_last(self):
            self.states = None  # what the journal put back was not logged: the next state scans the game again
            return last
        fresh = Game(self.title, self.roster, self.seed, self.optional_rules, self.game_id, self.created)
        for move in self.moves[:-1]:
            fresh.process(move)
        fresh.moment = self.moment + 1  # answers remembered by steps kept from this game are over
        fresh.journal.forget()  # what it journaled undoes its own objects, not the ones kept here
        self.__dict__.update(fresh.__dict__)
        return last

    def copy(self) -> Game:
        """An independent game in the same state: pushing to one leaves the other as it was.

        What never changes in place is shared: the title's data, tile geometry, actions and
        events, the board's placed tiles, an entity's lists (replaced when they change, as the
        undo journal needs). Entities, rounds, steps and containers are copied
        (:mod:`replay.copying`): a copy costs a few pushes, not a deep copy of every object.
        The copy's journal starts empty: it pops the actions pushed to it cheaply, and earlier
        ones by replaying."""
        return copying.copy_game(self)

    def _prepare(self, action: Action) -> tuple[Step | None, Effects] | None:
        """Find the step that takes the action and run its checks; nothing changes here."""
        if self.finished:
            raise Violation("game-over", "the game is over; no action can follow")
        if action.type.startswith("program_"):
            return None  # automation bookkeeping of the server: no game effect
        check_shape(action)
        if action.type == "end_game":
            return None, self._end_by_hand()  # the players end the game: no step's rule
        step = self.round.step_for(action)
        effects = step.handler(action)
        next(effects, None)
        return step, effects

    def _end_by_hand(self) -> Effects:
        yield
        self.end_game("ended by the players")

    def settle_rounds(self) -> None:
        """A finished round hands over at once: its end effects and the next round's opening
        belong to the action that ended it, as in 18xx.games. Whether a fixed last operating
        round (18MS's tenth) has been reached is asked of the game as the action left it
        (``acted_in_or``): 18xx.games checks the end once per action, before the rounds it
        finishes move on, so a last round opened and closed with nothing to do in it does not
        end the game then. The other ends (a broken bank, 1871's last set) are read at each
        operating round's end."""
        self.acted_in_or = self.or_number
        ended = False  # the title ended the game instead of opening a round
        while self.round.finished and not self.finished and not ended:
            with self.changing():  # no break out of it: a compiled build cannot take one (docs/fast.md)
                following = self.title.next_round(self, self.round)
                ended = following is self.round
                if not ended:
                    self.round = following

    def _illegal(self, index: int, action: Action, violation: Violation) -> IllegalAction:
        return IllegalAction(index, action.label, self.title.rule(violation.key), violation.message, self.round.label)

    # ------------------------------------------------------------------ record and results

    def end_of_record(self) -> None:
        """The record ends here; the state stays as it reached (a round under way stays so)."""
        with self.changing():
            self.round.close_at_end()

    def note_state(self) -> StateChanges:
        """Note the state now in the game's :class:`~replay.snapshot.StateChanges` (made by the
        first call, which scans the whole game; later ones count what changed since)."""
        if self.states is None:
            self.states = StateChanges(self)
        self.states.note()
        return self.states

    def snapshot(self) -> Snapshot:
        """The state now, noted as :meth:`note_state` does."""
        return self.note_state().snapshot()

    def fingerprint(self) -> tuple[object, ...]:
        """The whole state, the round's and its steps' included: equal before and after an
        illegal action (tests hold the engine to it)."""
        return (super().fingerprint(), type(self.round).__name__, _state_of(self.round),
                tuple(_state_of(step) for step in self.round.steps))

    def result(self) -> dict[PlayerId, int]:
        """Each player's value: cash (negative with a loan) plus shares at market value plus privates."""
        return {pid: view.value for pid, view in take_snapshot(self).players}


_NOT_STATE = frozenset({"game", "round", "steps", "memo"})
"""A round's or step's links and its memo of answers (:class:`~replay.memo.Memo`), not its state."""


def _state_of(part: object) -> tuple[tuple[str, str], ...]:
    """A round's or step's own values (not the game or round it refers to)."""
    return tuple(sorted((name, repr(value)) for name, value in vars(part).items() if name not in _NOT_STATE))
