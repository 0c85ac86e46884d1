"""A bot's preferences in order, not only its choice: what predicting people's actions asks of it.

A bot answers one question, :meth:`~selfplay.bots.Bot.choose`. Whether a person's action was the
bot's second or third thought needs an order, so :func:`ranked` asks each bot for its first
:data:`TOP` preferences the way it decides:

- the random bot's order is a shuffle, each action made concrete as it makes its own;
- the strong bot's is its search's: where it searches (:meth:`StrongBot.candidates
  <selfplay.strong.StrongBot.candidates>`), its choice among the candidates, then its choice among
  those left, and so on (every search scores each candidate alike, so this is the order of the
  evaluation's scores); where greedy's rules decide, as a bot that only chooses;
- any other bot, which only chooses: its choice first, then the other legal actions in the order
  the game lists them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from random import Random

from railledger.ingest.model import Action
from railledger.replay import Game
from railledger.selfplay.bots import Bot
from railledger.selfplay.random_bot import RandomBot, concrete
from railledger.selfplay.seats import controller
from railledger.selfplay.strong import StrongBot

TOP = 3
"""How many preferences :func:`ranked` orders; the rest follow in the game's order."""

Ranking = Callable[[Bot, Game, Sequence[Action], Random], list[Action]]


def ranked(bot: Bot, game: Game, legal: Sequence[Action], rng: Random) -> list[Action]:
    """``bot``'s first :data:`TOP` preferences among ``legal`` (its seat's legal actions now), best
    first, then every other legal action in the game's order. ``game`` is not changed."""
    for kind in type(bot).__mro__:
        if kind in RANKINGS:
            return RANKINGS[kind](bot, game, legal, rng)
    return _choice_first(bot, game, legal, rng)


def _choice_first(bot: Bot, game: Game, legal: Sequence[Action], rng: Random) -> list[Action]:
    """A bot that only chooses: its choice, then the rest as listed."""
    choice = bot.choose(game, legal, rng)
    return [choice, *(action for action in legal if action != choice)]


def _shuffled(bot: Bot, game: Game, legal: Sequence[Action], rng: Random) -> list[Action]:
    """The random bot: every order equally likely, the first :data:`TOP` made concrete."""
    order = rng.sample(list(legal), len(legal))
    return [concrete(game, action, rng) for action in order[:TOP]] + order[TOP:]


def _searched(bot: Bot, game: Game, legal: Sequence[Action], rng: Random) -> list[Action]:
    """The strong bot: its search's order among its candidates where it searches."""
    assert isinstance(bot, StrongBot)
    me = controller(game, legal[0].entity)
    candidates = bot.candidates(game, me, legal) if me is not None else []
    if me is None or len(candidates) < 2:
        return _choice_first(bot, game, legal, rng)
    order: list[Action] = []
    left = list(candidates)
    while left and len(order) < TOP:
        best = bot.search(game, me, left, rng)
        order.append(best)
        left.remove(best)
    return order + [action for action in legal if action not in order]


RANKINGS: dict[type[Bot], Ranking] = {RandomBot: _shuffled, StrongBot: _searched}
"""Bots whose preferences come otherwise than their choice first (a subclass inherits its base's)."""
