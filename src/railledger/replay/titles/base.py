"""A title: its data and rules (:class:`~replay.rules.Rules`) plus the rounds it is played in.

A title composes its rounds from generic steps and its own step classes, the way an 18xx.games
title lists its steps: :meth:`Title.stock_steps` and :meth:`Title.operating_steps` name them in
order, and :meth:`Title.next_round` says what follows a round.
"""

from __future__ import annotations

from collections.abc import Callable

from railledger.replay.flow import Round, Step
from railledger.replay.rounds.operating import OperatingRound
from railledger.replay.rounds.stock import StockRound
from railledger.replay.rules import Rules
from railledger.replay.state import GameState
from railledger.replay.steps.companies import BuyCompany, BuyCompanyLast
from railledger.replay.steps.dividends import Dividend
from railledger.replay.steps.routes import RunRoutes
from railledger.replay.steps.shares import BuySellParShares
from railledger.replay.steps.tokens import Token
from railledger.replay.steps.track import Track
from railledger.replay.steps.trains import BuyTrain, DiscardTrain

StepKind = Callable[[Round], Step]


class Title(Rules):
    """Generic 18xx rounds over a title's rules; a title subclass lists its own steps."""

    revision = 1
    """The title's own rules version: raise it whenever a change to the title's data or steps
    could change what a replay of one of its records gives, so its archived games are replayed
    again (see :func:`replay.engine_version`); the shared engine has ``replay.ENGINE_VERSION``."""

    optional_rules: frozenset[str] = frozenset()
    """The title's optional rules (by 18xx.games' names) the engine applies when a record names
    them; a record naming any other is replayed without it, and its verdict says so."""

    def first_round(self, game: GameState) -> Round:
        """The round the game opens with (an auction or draft in most titles)."""
        raise NotImplementedError

    def stock_steps(self) -> tuple[StepKind, ...]:
        return (BuySellParShares,)

    def operating_steps(self) -> tuple[StepKind, ...]:
        return (BuyCompany, Track, Token, RunRoutes, Dividend, DiscardTrain, BuyTrain, BuyCompanyLast)

    def stock_round(self, game: GameState) -> Round:
        return StockRound(game, self.stock_steps())

    def operating_round(self, game: GameState, number_in_set: int) -> Round:
        return OperatingRound(game, number_in_set, self.operating_steps())

    def next_round(self, game: GameState, ended: Round) -> Round:
        """The round after ``ended`` (the game may end instead: then ``ended`` is returned)."""
        if isinstance(ended, OperatingRound):
            self.on_or_end(game)
            if self.game_over_after_or(game, ended.number_in_set):
                game.end_game(f"end of {ended.label}")
                return ended
            if ended.number_in_set < game.ors_this_set:
                return self.operating_round(game, ended.number_in_set + 1)
            return self.stock_round(game)
        if isinstance(ended, StockRound):
            game.ors_this_set = self.ors_in_set(game)
            return self.operating_round(game, 1)
        return self.stock_round(game)
