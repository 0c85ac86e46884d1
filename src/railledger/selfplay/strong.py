"""The strong bot: greedy's rules where a decision is routine, a search where it matters most.

The decisions that decide an 18xx game are the stock round's (which company to start, whose shares
to buy or sell, when to pass) and a company's train purchases. There the bot tries each candidate
on a copy of the game (``push``, evaluate, ``pop``: the undo journal takes an action back at the
cost of what it changed, docs/engine.md) and plays the one the evaluation
(:mod:`selfplay.evaluation`) scores highest for its own seat, ties broken by its random source. A
player who leads no company and can pay a company's float starts one, as people do (at greedy's
par); a share of a company the bot leads that has not floated is bought first, as greedy does (a
company earns nothing before it floats); and when its pass would end a stock round in which no
company has been started yet, the bot starts one by greedy's rule. Candidates are the distinct
actions on offer: one purchase per company, source and size, one par per company (greedy's price:
the highest whose float it can pay), the pass; where the title fixes the game's last operating
round (18MS), also one sale per company and size in a stock turn and, for a company's train
purchase, one bank train per type and the pass. Elsewhere the rounds a holding or a train still
pays are the evaluation's estimate from the bank's cash, and searching sales and trains against it
lost to greedy's rules on the ladder (a company buys the train that raises its run most, a player
sells only when it must). A company's dividend is searched among the kinds on offer where the game
ends after a given round or when the bank breaks (18MS, 18Texas); where it waits for a train
purchase (1871's Diesel) it is greedy's, which saves for the trains that bring the end. A company's
track and stations are laid for the runs they open (:mod:`selfplay.building`; whether to place a
station at all is greedy's rule). A train purchase the company must make, its runs, auctions and
everything else are greedy's (:mod:`selfplay.greedy`).

The search reads a copy and never the game it is given, so the bot is a pure function of the
position and its random source, as every bot is.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from railledger.ingest.model import Action, PlayerId
from railledger.replay import Game, IllegalAction
from railledger.selfplay.bots import register
from railledger.selfplay.building import LAY_HEXES, best_for_runs
from railledger.selfplay.concrete import as_recorded, bounds, choice_key
from railledger.selfplay.evaluation import Evaluation, Standing
from railledger.selfplay.greedy import (GreedyBot, best_scored, lay_score, operating_company, par_price, par_score,
                                       stops_first)
from railledger.selfplay.seats import controller

STOCK = frozenset({"par", "buy_shares", "sell_shares"})
"""A stock turn: what the bot searches among (with the pass)."""

BUYING = frozenset({"par", "buy_shares"})
"""What makes a turn a stock turn: a president's sales alone (offered during a company's train
purchase in some titles) are not searched, and greedy makes them only when it must."""


@register
class StrongBot(GreedyBot):
    name = "strong"

    def __init__(self, evaluation: Evaluation | None = None) -> None:
        self.evaluation: Evaluation = evaluation if evaluation is not None else Standing()

    def choose(self, game: Game, legal: Sequence[Action], rng: Random) -> Action:
        me = controller(game, legal[0].entity)
        assert me is not None, "a bot is asked only for its own seat's actions"
        kinds = {a.type for a in legal}
        if "lay_tile" in kinds:
            return self.lay(game, legal, rng)
        if "place_token" in kinds:
            return self.station(game, legal, rng)
        starts = _own_starts(game, me, legal)
        if starts:
            chosen = best_scored(starts, lambda a: par_score(game, me, a), rng)
            assert chosen is not None
            return chosen
        candidates = self.candidates(game, me, legal)
        if len(candidates) < 2:
            return super().choose(game, legal, rng)
        return self.search(game, me, candidates, rng)

    def lay_hexes(self, game: Game, hexes: list[str], rng: Random) -> list[str]:
        return stops_first(game, hexes, rng, LAY_HEXES)

    def lay(self, game: Game, legal: Sequence[Action], rng: Random) -> Action:
        """The lay that opens the best run (:mod:`selfplay.building`), greedy's rule among equals."""
        lays = [a for a in legal if a.type == "lay_tile"]
        chosen = best_for_runs(game, operating_company(game, lays[0]), lays, lambda a: lay_score(game, a), rng)
        return chosen if chosen is not None else super().choose(game, legal, rng)

    def station(self, game: Game, legal: Sequence[Action], rng: Random) -> Action:
        """Whether to place a station is greedy's rule; where, the station that opens the best run
        (:mod:`selfplay.building`)."""
        chosen = super().choose(game, legal, rng)
        if chosen.type != "place_token":
            return chosen
        stations = [a for a in legal if a.type == "place_token"]
        better = best_for_runs(game, operating_company(game, chosen), stations, lambda a: 0.0, rng)
        return better if better is not None else chosen

    def candidates(self, game: Game, me: PlayerId, legal: Sequence[Action]) -> list[Action]:
        """The distinct actions worth searching among now; none when greedy's rules decide (and
        in a stock turn where a company the bot leads can be floated: it is, first)."""
        kinds = {a.type for a in legal}
        passing = [a for a in legal if a.type == "pass"]
        if kinds & BUYING and all(a.entity.kind == "player" for a in legal if a.type in STOCK):
            if (any(_floats_own(game, me, a) for a in legal) or _own_starts(game, me, legal)
                    or _last_chance_to_start(game, me)):
                return []
            searched = {"buy_shares", "sell_shares"} if game.title.last_or is not None else {"buy_shares"}
            stock = [a for a in legal if a.type in searched and not a.fields.get("purchase_for")]
            return _distinct(game, stock) + _pars(game, me, legal) + passing
        if "dividend" in kinds and _end_is_timed(game):
            return _distinct(game, [a for a in legal if a.type == "dividend"])
        if "buy_train" in kinds and passing and game.title.last_or is not None:
            bank = [a for a in legal if a.type == "buy_train" and bounds(a) is None]
            return _distinct(game, bank) + passing
        return []

    def search(self, game: Game, me: PlayerId, candidates: Sequence[Action], rng: Random) -> Action:
        """The candidate after which the evaluation scores the position highest for ``me``."""
        sandbox = game.copy()
        sandbox.journal.enabled = True
        forget = getattr(self.evaluation, "forget", None)
        if forget is not None:
            forget()
        scored: list[tuple[float, float, int]] = []
        for n, action in enumerate(candidates):
            try:
                sandbox.push(as_recorded(action))
            except IllegalAction:
                continue
            scored.append((self.evaluation(sandbox, me), rng.random(), n))
            sandbox.pop()
        return candidates[max(scored)[2]] if scored else candidates[-1]


def _end_is_timed(game: Game) -> bool:
    """Whether the game ends after a given operating round (18MS) or when the bank breaks
    (18Texas), rather than when a train is first bought (1871's Diesel). Where the end waits for
    a purchase, a company that pays out what greedy saves for a train can leave a table whose
    companies all sit at their train limit with no train to buy, and the game never ends; there
    the dividend is greedy's."""
    return game.title.last_or is not None or game.title.bank_breaks


def _pars(game: Game, me: PlayerId, legal: Sequence[Action]) -> list[Action]:
    """One par per company: greedy's (the highest whose float the player can pay)."""
    best: dict[str, Action] = {}
    for action in legal:
        if action.type == "par" and not action.fields.get("purchase_for"):
            sym = str(action.fields["corporation"])
            if sym not in best or par_score(game, me, action) > par_score(game, me, best[sym]):
                best[sym] = action
    return list(best.values())


def _own_starts(game: Game, me: PlayerId, legal: Sequence[Action]) -> list[Action]:
    """Greedy's par of each company whose float the player can pay, where the player leads no
    company: people start a company of their own and float it from their own pocket (every player
    in both shared 18MS records' first stock round, three of four in the 18Texas one), and so
    does the bot before it searches. The search alone saw nothing to earn before any company runs and spread the
    table's money over one or two companies: strong tables' 18MS games then started one company in
    the first stock round where people start three, and ended with winners worth half of theirs
    (docs/selfplay.md)."""
    if any(game.president(sym) == me and not corp.closed for sym, corp in game.corporations.items()):
        return []
    return [a for a in _pars(game, me, legal) if _float_cost(game, a) <= game.cash(me)]


def _float_cost(game: Game, par: Action) -> int:
    """What buying a company's float at this par costs (its shares are tenths)."""
    return par_price(par) * game.title.float_percent // 10


def _last_chance_to_start(game: Game, me: PlayerId) -> bool:
    """No company has a par yet and every other player has passed: the bot's pass would end the
    stock round with nothing started. Before any run the evaluation sees nothing to earn, so a
    table of strong bots would pass for ever; the bot starts a company by greedy's rule."""
    if any(corp.par_price is not None for corp in game.corporations.values()):
        return False
    marked = getattr(game.round, "marked", None)
    return marked is not None and all(pid in marked for pid in game.order if pid != me)


def _floats_own(game: Game, me: PlayerId, action: Action) -> bool:
    """A purchase of a share of a company the player leads and that has not floated yet."""
    if action.type != "buy_shares" or action.fields.get("purchase_for"):
        return False
    sym = game.shares[str(action.fields["shares"][0])].corporation
    return game.president(sym) == me and not game.corporations[sym].floated


def _distinct(game: Game, actions: Sequence[Action]) -> list[Action]:
    """One action per kind, company, source, size and price: buying either of two equal
    certificates, or either of two trains of one type, leads to the same position."""
    seen: dict[tuple[object, ...], Action] = {}
    for action in actions:
        seen.setdefault(_sameness(game, action), action)
    return list(seen.values())


def _sameness(game: Game, action: Action) -> tuple[object, ...]:
    fields = action.fields
    if action.type == "buy_train":
        train = game.trains[str(fields["train"])]
        return action.type, train.card, train.owner, fields.get("variant"), fields.get("price")
    if action.type in ("buy_shares", "sell_shares"):
        shares = [game.shares[str(s)] for s in fields["shares"]]
        return (action.type, shares[0].corporation, tuple(sorted((s.owner, s.percent, s.president) for s in shares)),
                fields.get("percent"))
    return choice_key(action)
