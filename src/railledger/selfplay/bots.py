"""Bots: players that choose one of the legal actions, and the table of built-in ones.

A bot is a small class with one method, :meth:`Bot.choose`. The game hands it the legal actions
of its own seat at a moment the game waits for that seat (never an empty list) and a random
source of its own; it returns one of them. Where ``legal_actions()`` offers a family rather than
a single action (a run offered as the empty run, a price or an answer with its range), the bot
makes it concrete with :mod:`selfplay.concrete`: ``declared_run`` for the optimizer's best
routes, ``with_amount`` for a price within ``price_range`` or an answer within ``choice_range``.
A bot reads the game and never changes it, so it is a pure function of the position and its
random source; the same seed plays the same game.

Writing one::

    from railledger.selfplay.bots import Bot, register

    @register
    class Cautious(Bot):
        '''Passes whenever it may, else acts as the random bot does.'''
        name = "cautious"

        def choose(self, game, legal, rng):
            passes = [a for a in legal if a.type == "pass"]
            return passes[0] if passes else RandomBot().choose(game, legal, rng)

``railledger play --bots cautious,greedy`` then seats it, once its module is imported: list it
in :data:`BUILT_IN`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from random import Random
from typing import ClassVar, TypeVar

from railledger.ingest.model import Action
from railledger.replay import Game


class Bot:
    """One seat's player. Subclasses set :attr:`name` and implement :meth:`choose`."""

    name: ClassVar[str]
    """How the command line and the archive call the bot (lower case, no commas)."""

    def choose(self, game: Game, legal: Sequence[Action], rng: Random) -> Action:
        """One of ``legal`` (all the seat's own legal actions now), made concrete where it is a
        family (see the module's docstring). ``game`` must not be changed."""
        raise NotImplementedError

    def lay_hexes(self, game: Game, hexes: list[str], rng: Random) -> list[str]:
        """The hexes of its company's network (``hexes``) on which the bot wants tile lays listed
        when its company lays track: all of them unless a bot says otherwise. Listing every
        tile and rotation on every hex is the slow part of a game (:mod:`selfplay.menu`)."""
        return hexes

    def consents(self, game: Game, purchase: Action, rng: Random) -> bool:
        """Whether the bot, as president of the company a train is bought from, agrees to
        ``purchase``: another seat's company buying that train at the purchase's price. The three
        titles' rules let a train pass between companies of different presidents only at a
        price both agree on; 18xx.games records the purchase without asking (the players agree
        at the table), so the self-play loop asks the seller (:mod:`selfplay.play`). By default
        a bot agrees to the train's face value or more."""
        train = game.trains[str(purchase.fields["train"])]
        return int(purchase.fields["price"]) >= game.title.train_price(train, train.name)


BotClass = TypeVar("BotClass", bound=type[Bot])

BOTS: dict[str, Callable[[], Bot]] = {}
"""Every bot by name: ``register`` adds one."""


def register(cls: BotClass) -> BotClass:
    """Class decorator: make a bot known by its name."""
    if not cls.name or "," in cls.name or cls.name != cls.name.strip():
        raise ValueError(f"a bot's name is a word without commas, not {cls.name!r}")
    BOTS[cls.name] = cls
    return cls


def bot_named(name: str) -> Bot:
    """A fresh bot of that name; KeyError naming the known ones otherwise."""
    _load_built_in()
    try:
        return BOTS[name]()
    except KeyError:
        raise KeyError(f"no bot {name!r}; the bots are {', '.join(sorted(BOTS))}") from None


def bot_names() -> list[str]:
    """The names of every bot known now, the built-in ones included, sorted."""
    _load_built_in()
    return sorted(BOTS)


BUILT_IN = ("railledger.selfplay.random_bot", "railledger.selfplay.greedy", "railledger.selfplay.strong")
"""Modules whose bots are known without being imported first."""


def _load_built_in() -> None:
    """Import the built-in bots' modules (they register themselves)."""
    for module in BUILT_IN:
        importlib.import_module(module)
