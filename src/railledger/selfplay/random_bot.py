"""The random bot: uniform over the legal actions, weighted by kind so that games end.

Uniform over every action would almost never pass (a track step offers hundreds of tile lays and
one pass, a stock turn dozens of sales): companies would sell themselves to nothing and trains
would not be bought. So the bot first draws a kind of action with the weights below, then one
action of that kind uniformly, then any free amount uniformly in its range. Tile lays are drawn
from a few hexes of the network drawn first (listing every lay is the slow part of a game). It passes more than
it bids, buys more than it sells, buys trains from the bank readily (and must, when the rules
make it: then nothing else is offered), and declares the best run the optimizer finds (a run is
one action whose routes no uniform draw could enumerate). Asked to sell its company's train to
another seat's company, it agrees half the time, at any price.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from railledger.ingest.model import Action
from railledger.replay import Game
from railledger.selfplay.bots import Bot, register
from railledger.selfplay.concrete import RANGES, bounds, declared_run, uniform_amount

WEIGHTS = {
    "bid": 1.0, "offer": 1.0, "par": 1.5, "buy_shares": 2.5, "sell_shares": 0.2, "lay_tile": 2.0,
    "place_token": 2.0, "buy_company": 0.3, "bankrupt": 0.01,
}
"""Weight of each kind of action against the others offered at the same moment (1 otherwise)."""

PASS_BESIDE = {"bid": 2.5, "buy_shares": 1.0, "par": 1.0, "lay_tile": 0.5, "place_token": 1.0, "buy_train": 0.3}
"""A pass's weight beside these kinds (the largest that applies; 1 beside others)."""

BANK_TRAIN, TRADED_TRAIN = 3.0, 0.3
"""A train from the bank against one bought from another company (which carries a price range)."""

CONSENT = 0.5
"""How often the bot agrees when another seat's company offers to buy one of its company's trains."""

LAY_HEXES = 4
"""Hexes of the network a track step's lays are drawn from (drawn uniformly themselves)."""


@register
class RandomBot(Bot):
    name = "random"

    def choose(self, game: Game, legal: Sequence[Action], rng: Random) -> Action:
        kinds = sorted({_kind(a) for a in legal})
        weights = [_weight(kind, kinds) for kind in kinds]
        kind = rng.choices(kinds, weights)[0] if sum(weights) > 0 else rng.choice(kinds)
        action = rng.choice([a for a in legal if _kind(a) == kind])
        return concrete(game, action, rng)

    def lay_hexes(self, game: Game, hexes: list[str], rng: Random) -> list[str]:
        return sorted(rng.sample(hexes, min(LAY_HEXES, len(hexes))))

    def consents(self, game: Game, purchase: Action, rng: Random) -> bool:
        """Agrees to half the purchases of its company's trains, whatever the price."""
        return rng.random() < CONSENT


def concrete(game: Game, action: Action, rng: Random) -> Action:
    """A uniform member of the family an offered action stands for."""
    if action.type == "run_routes":
        return declared_run(game, action)
    for amount in RANGES:
        if bounds(action, amount) is not None:
            return uniform_amount(game, action, rng, amount)
    return action


def _kind(action: Action) -> str:
    if action.type == "buy_train":
        return "buy_train/traded" if "price_range" in action.fields else "buy_train/bank"
    return action.type


FORCED = frozenset({"bankrupt", "sell_shares"})
"""What is offered when a company must buy a train it cannot pay for: its president's sales and
bankruptcy. 18xx.games lets a company short of the cheapest bank train declare bankruptcy at any
moment of its turn, so the bot does it only then, or the game would end long before its time."""


def _weight(kind: str, kinds: list[str]) -> float:
    if kind == "bankrupt" and not set(kinds) <= FORCED:
        return 0.0
    if kind == "pass":
        beside = [PASS_BESIDE[k.split("/")[0]] for k in kinds if k.split("/")[0] in PASS_BESIDE]
        return max(beside) if beside else 1.0
    if kind == "buy_train/bank":
        return BANK_TRAIN
    if kind == "buy_train/traded":
        return TRADED_TRAIN
    return WEIGHTS.get(kind, 1.0)
