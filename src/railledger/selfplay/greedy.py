"""The greedy bot: the best run now, money where it shows at once, and companies it leads.

It looks no further than the action in hand:

* runs the optimizer's best routes (a proven maximum, docs/optimizer.md);
* pays out, which raises its own value (its share of the revenue, the share price moving right),
  unless the company runs fewer than two trains (or only ones the next would rust) and cannot
  pay for the next bank train: then it withholds to save for it (companies that never save never
  buy the trains that end the game), except in the game's last operating round (18MS's tenth),
  where a saved train would never run;
* buys the train its company needs: when it must, the cheapest it can pay (a spare train of
  another company it runs at the lowest price before the president's own money); else the bank
  train it can pay for that raises the company's best run most (the optimizer on the company's
  trains with that one added and those it would rust taken away), times the runs it has left
  where the title fixes them (18MS takes its 2+, 3+ and 4+ away after given operating rounds,
  and ends after the tenth), and there only when those runs earn back its price; when none
  raises it, the cheapest, if the company holds twice its price or runs fewer than two trains
  (idle money buys no end: in 1871, where the bank never breaks, companies that never buy
  never bring the Diesel), else none; where the game ends after a fixed round, none;
* in a stock round keeps and takes presidencies (buys a share when another holder is within a
  certificate of it, or when one share makes it president), floats the companies it leads,
  starts a company at the highest par it can float (while it leads fewer than two, or has the
  cash to float it ten times over: fresh companies buy the trains that end a rich game), then
  buys the dearest share of a company trading at or above its par; where a game that ends with a
  purchase has stalled (no train bought for 300 actions, and no floated company able to buy
  one), it buys, with cash for ten times its par, into a company not yet floated that another
  leads; it sells only when it must;
* lays the tile that adds most stops (an upgrade of a city first; lays are listed on a few
  hexes, those with a stop first), places the cheapest station,
  sells a private to its company at the highest price the company can spare, and bids the
  minimum on a private worth its price.

Whatever it has no rule for (1871's offers, splits and answers, issuing shares) it leaves to the
random bot's choice.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from random import Random
from typing import Any

from railledger.ingest.model import Action, PlayerId
from railledger.replay import Game
from railledger.replay.optimizer import position_of, solve, train_of
from railledger.replay.optimizer.model import Position
from railledger.replay.state import IPO
from railledger.selfplay.bots import Bot, register
from railledger.selfplay.concrete import bounds, declared_run, with_amount
from railledger.selfplay.random_bot import RandomBot, concrete
from railledger.selfplay.seats import controller

Rule = Callable[[Game, PlayerId, Sequence[Action], Random], Action | None]


LAY_HEXES = 6
"""Hexes of the network on which lays are listed: those with a stop first."""


@register
class GreedyBot(Bot):
    name = "greedy"

    def lay_hexes(self, game: Game, hexes: list[str], rng: Random) -> list[str]:
        return stops_first(game, hexes, rng, LAY_HEXES)

    def choose(self, game: Game, legal: Sequence[Action], rng: Random) -> Action:
        me = controller(game, legal[0].entity)
        assert me is not None, "a bot is asked only for its own seat's actions"
        kinds = {a.type for a in legal}
        for kinds_needed, rule in RULES:
            if kinds_needed & kinds:
                chosen = rule(game, me, legal, rng)
                if chosen is not None:
                    return chosen
        return RandomBot().choose(game, legal, rng)


def stops_first(game: Game, hexes: list[str], rng: Random, count: int) -> list[str]:
    """At most ``count`` of ``hexes``: those with a city or town first (upgrades and new stops
    earn), then others, drawn at random within each kind."""
    stops = [h for h in hexes if _stops(game, h)]
    with_stops = set(stops)
    plain = [h for h in hexes if h not in with_stops]
    ranked = rng.sample(stops, len(stops)) + rng.sample(plain, len(plain))
    return sorted(ranked[:count])


def _of(legal: Sequence[Action], kind: str) -> list[Action]:
    return [a for a in legal if a.type == kind]


def _pass(legal: Sequence[Action]) -> Action | None:
    return next((a for a in legal if a.type == "pass"), None)


def best_scored(actions: Sequence[Action], score: Callable[[Action], Any], rng: Random) -> Action | None:
    """The highest-scoring action, ties broken by the random source."""
    if not actions:
        return None
    keyed = [(score(a), rng.random(), i) for i, a in enumerate(actions)]
    return actions[max(keyed)[2]]


# ---------------------------------------------------------------------------------- operating


def run(game: Game, me: PlayerId, legal: Sequence[Action], rng: Random) -> Action | None:
    return declared_run(game, _of(legal, "run_routes")[0])


def dividend(game: Game, me: PlayerId, legal: Sequence[Action], rng: Random) -> Action | None:
    offered = {str(a.fields.get("kind")): a for a in _of(legal, "dividend")}
    sym = operating_company(game, _of(legal, "dividend")[0])
    price = _cheapest_bank_train(game)
    saving = _ors_left(game) != 0  # in the game's last operating round a saved train would never run
    if "withhold" in offered and saving and _short(game, sym) and price is not None and game.cash(sym) < price:
        return offered["withhold"]
    return offered.get("payout") or next(iter(offered.values()))


def buy_train(game: Game, me: PlayerId, legal: Sequence[Action], rng: Random) -> Action | None:
    offered = _of(legal, "buy_train")
    sym = operating_company(game, offered[0])
    cash = game.cash(sym)
    bank = [a for a in offered if bounds(a) is None]
    if _pass(legal) is None:
        return _forced_purchase(game, me, sym, offered, bank, rng)
    affordable = [a for a in bank if int(a.fields["price"]) <= cash and _runs_left(game, a) != 0]
    if not affordable:
        return _pass(legal)
    position = position_of(game, sym)  # read once: each candidate train is weighed on it
    base = solve(position).revenue
    gains = {id(a): _with_train(game, sym, position, a) - base for a in affordable}
    best = best_scored(affordable, lambda a: (_earned(game, a, gains[id(a)]), -int(a.fields["price"])), rng)
    if best is not None and _pays(game, best, gains[id(best)]):
        return best
    if _ors_left(game) is not None:  # the game ends when it ends: no train needs buying to end it
        return _pass(legal)
    cheapest = min(affordable, key=lambda a: (int(a.fields["price"]), rng.random()))
    idle = cash >= 2 * int(cheapest.fields["price"]) or len(game.corporation_trains(sym)) < 2
    return cheapest if idle else _pass(legal)


def _forced_purchase(game: Game, me: PlayerId, sym: str, offered: list[Action], bank: list[Action], rng: Random) -> Action | None:
    """A company that must buy: a bank train it can pay for itself, else a spare train of another
    company its president runs at the lowest price, else the cheapest bank train with the
    president's help."""
    cash = game.cash(sym)
    own = [a for a in bank if int(a.fields["price"]) <= cash]
    if own:
        return min(own, key=lambda a: (int(a.fields["price"]), rng.random()))
    spare = [a for a in offered if bounds(a) is not None and _train_owner_president(game, a) == me
             and len(game.corporation_trains(str(game.trains[str(a.fields["train"])].owner))) > 1]
    if spare:
        cheapest = min(spare, key=lambda a: bounds(a)[0])  # type: ignore[index]
        return with_amount(cheapest, bounds(cheapest)[0])  # type: ignore[index]
    if bank:
        return min(bank, key=lambda a: (int(a.fields["price"]), rng.random()))
    return None


def _with_train(game: Game, sym: str, position: Position, action: Action) -> int:
    """The company's best run on ``position`` (the company's now) if it also had this train
    (and lost the trains it would rust)."""
    train = game.trains[str(action.fields["train"])]
    kind = game.title.train_type(str(action.fields.get("variant") or train.card))
    rusted = {t.id for t in game.corporation_trains(sym) if game.title.train_type(t.card).rusts_on == train.card}
    added = train_of(game, train.id, kind.name)
    kept = tuple(t for t in position.trains if t.id not in rusted)
    return solve(dataclasses.replace(position, trains=(*kept, added))).revenue


def discard(game: Game, me: PlayerId, legal: Sequence[Action], rng: Random) -> Action | None:
    return best_scored(_of(legal, "discard_train"), lambda a: -_train_value(game, str(a.fields["train"])), rng)


def lay_tile(game: Game, me: PlayerId, legal: Sequence[Action], rng: Random) -> Action | None:
    return best_scored(_of(legal, "lay_tile"), lambda action: lay_score(game, action), rng)


def lay_score(game: Game, action: Action) -> float:
    """Greedy's worth of a lay: an upgraded city first, then a new city, then a new town, then
    the stops it adds."""
    hex_id = str(action.fields["hex"])
    new = game.title.tiles.tiles[str(action.fields["tile"]).rsplit("-", 1)[0]]
    old = game.board.tile(hex_id)
    added = 2 * (len(new.cities) - len(old.cities)) + len(new.towns) - len(old.towns)
    return 3 * bool(new.cities and old.color != "white") + 2 * bool(new.cities) + bool(new.towns) + added


def place_token(game: Game, me: PlayerId, legal: Sequence[Action], rng: Random) -> Action | None:
    tokens = _of(legal, "place_token")
    sym = operating_company(game, tokens[0])
    cheapest = min(int(a.fields.get("cost") or 0) for a in tokens)
    if game.corporation_trains(sym) or game.cash(sym) - cheapest >= (_cheapest_bank_train(game) or 0):
        return best_scored([a for a in tokens if int(a.fields.get("cost") or 0) == cheapest], lambda a: 0.0, rng)
    return _pass(legal)


def sell_private(game: Game, me: PlayerId, legal: Sequence[Action], rng: Random) -> Action | None:
    """A company buys its president's private at the highest price it can spare."""
    for action in _of(legal, "buy_company"):
        found = bounds(action)
        company = game.companies[str(action.fields["company"])]
        if found is None or company.owner != me:
            continue
        spare = game.cash(operating_company(game, action)) - (_cheapest_bank_train(game) or 0)
        if spare >= found[0]:
            return with_amount(action, min(found[1], spare))
    return None


# ---------------------------------------------------------------------------------- stock


def stock(game: Game, me: PlayerId, legal: Sequence[Action], rng: Random) -> Action | None:
    buys = [a for a in _of(legal, "buy_shares") if a.entity.kind == "player" and not a.fields.get("purchase_for")]
    pars = [a for a in _of(legal, "par") if not a.fields.get("purchase_for")]

    def corp(action: Action) -> str:
        return game.shares[str(action.fields["shares"][0])].corporation

    def leader_gap(sym: str) -> int:
        others = [game.percent(p, sym) for p in game.order if p != me]
        return game.percent(me, sym) - max(others, default=0)

    defend = [a for a in buys if game.president(corp(a)) == me and leader_gap(corp(a)) <= 10]
    take = [a for a in buys if game.president(corp(a)) not in (me, None) and leader_gap(corp(a)) + int(a.fields.get("percent") or 10) > 0]
    unfloated = [a for a in buys if game.president(corp(a)) == me and not game.corporations[corp(a)].floated]
    for group in (unfloated, defend, take):
        if group:
            return best_scored(group, lambda a: game.share_price(corp(a)) or 0, rng)
    presided = [sym for sym in game.corporations if game.president(sym) == me and not game.corporations[sym].closed]
    if pars and (len(presided) < 1 or game.cash(me) >= 10 * max(par_price(a) for a in pars)):
        return best_scored(pars, lambda a: par_score(game, me, a), rng)
    doing_well = [a for a in buys if game.corporations[corp(a)].floated
                  and (game.share_price(corp(a)) or 0) >= (game.corporations[corp(a)].par_price or 0)
                  and game.cash(me) >= 2 * (game.share_price(corp(a)) or 0)]
    if doing_well:
        return best_scored(doing_well, lambda a: game.share_price(corp(a)) or 0, rng)
    unfloated_others = [a for a in buys if not game.corporations[corp(a)].floated
                        and game.cash(me) >= 10 * (game.corporations[corp(a)].par_price or 0)]
    if unfloated_others and _stalled(game):
        return best_scored(unfloated_others, lambda a: 100 - game.percent(IPO, corp(a)), rng)  # the nearest its float
    passing = _pass(legal)
    if passing is not None or not _of(legal, "sell_shares"):
        return passing
    # must sell (over a limit): the smallest sale of a company it does not lead
    return best_scored(_of(legal, "sell_shares"),
                 lambda a: (game.president(corp(a)) != me, -int(a.fields.get("percent") or 0)), rng)


def par_score(game: Game, me: PlayerId, action: Action) -> float:
    """The highest par whose float (six certificates at par) the player can pay; a lower one rather
    than one it cannot."""
    price = par_price(action)
    return price if 6 * price <= game.cash(me) else -price


def par_price(action: Action) -> int:
    """A par action's price per 10% share."""
    return int(str(action.fields["share_price"]).split(",")[0])


def auction(game: Game, me: PlayerId, legal: Sequence[Action], rng: Random) -> Action | None:
    """Bid the minimum on the private paying most for its price, when the price is at most its
    face value plus a fifth; else pass."""
    def worth(action: Action) -> float:
        company = game.companies[str(action.fields["company"])]
        return company.revenue / max(1, int(action.fields["price"]))
    fair = [a for a in _of(legal, "bid")
            if int(a.fields["price"]) <= 1.2 * game.companies[str(a.fields["company"])].value]
    if fair:
        chosen = best_scored(fair, worth, rng)
        return chosen if chosen is None else concrete_low(chosen)
    return _pass(legal)


def concrete_low(action: Action) -> Action:
    found = bounds(action)
    return action if found is None else with_amount(action, found[0])


def fallback(game: Game, me: PlayerId, legal: Sequence[Action], rng: Random) -> Action | None:
    return concrete(game, RandomBot().choose(game, legal, rng), rng)


# ---------------------------------------------------------------------------------- helpers


def _stops(game: Game, hex_id: str) -> int:
    tile = game.board.tile(hex_id)
    return len(tile.cities) + len(tile.towns)


def operating_company(game: Game, action: Action) -> str:
    """The corporation an operating action is for (a private acts for the company operating)."""
    sym = getattr(game.round, "corporation", None)
    return str(sym if sym is not None else action.entity.id)


def _cheapest_bank_train(game: Game) -> int | None:
    prices = [game.title.train_price(t, v) for t in game.title.bank_trains(game) for v in game.title.variants_of(t)]
    return min(prices) if prices else None


STALL_ACTIONS = 300
"""Actions without a train bought after which a game whose end waits for a purchase is stalled
(:func:`_stalled`): a whole game of 1871 is about 600 actions, with trains bought all through it."""


def _stalled(game: Game) -> bool:
    """The game waits for a train nobody buys: its end comes with a purchase (1871's Diesel: no
    fixed last round, no bank to break), no train was bought in the last :data:`STALL_ACTIONS`
    actions, and every floated company holds its train limit or lacks the cash for the cheapest
    bank train. Only a new company, which must buy a train, moves it on (a table of three greedy
    bots played 1871 to OR 111 so)."""
    if game.title.last_or is not None or game.title.bank_breaks:
        return False
    bought = next((event.index for event in reversed(game.events) if event.kind == "train"), 0)
    price = _cheapest_bank_train(game)
    return game.index - bought >= STALL_ACTIONS and price is not None and all(
        game.trains_for_limit(sym) >= game.phase.train_limit or game.cash(sym) < price
        for sym, corp in game.corporations.items() if corp.floated and not corp.closed)


def _short(game: Game, sym: str) -> bool:
    """The company runs fewer than two trains (or the limit), or only ones the next would rust."""
    return _needs_train(game, sym) or len(game.corporation_trains(sym)) < min(2, game.phase.train_limit)


def _needs_train(game: Game, sym: str) -> bool:
    """The company has no train, or only trains the next bank train would rust."""
    trains = game.corporation_trains(sym)
    bank = game.title.bank_trains(game)
    following = bank[0].card if bank else None
    return not trains or all(game.title.train_type(t.card).rusts_on == following for t in trains)


def _earned(game: Game, action: Action, gain: int) -> int:
    """What a train adds to its company's runs before it goes: ``gain`` a run, times the runs it
    has left where the title fixes them, else ``gain`` alone."""
    runs = _runs_left(game, action)
    return gain if runs is None else gain * runs


def _pays(game: Game, action: Action, gain: int) -> bool:
    """Whether a train is worth buying: it raises the company's run, and where the title fixes
    how many runs it has left, they earn back its price."""
    if gain <= 0:
        return False
    return _runs_left(game, action) is None or _earned(game, action, gain) >= int(action.fields["price"])


def _ors_left(game: Game) -> int | None:
    """Operating rounds still to come after this one when the title fixes the game's last (18MS),
    else None (the end waits for a bank to break, or a phase)."""
    last = game.title.last_or
    return None if last is None else max(0, last - game.or_number)


def _runs_left(game: Game, action: Action) -> int | None:
    """How many runs a train bought by ``action`` would make, one in each operating round after
    this one until the title's schedule takes it away (18MS's 2+, 3+ and 4+) or the game ends; None
    when neither is fixed (it rusts when a later train is bought, whenever that is)."""
    train = game.title.train_type(str(action.fields.get("variant") or game.trains[str(action.fields["train"])].card))
    ends = [end for end in (train.obsolete_after_or, game.title.last_or) if end is not None]
    return None if not ends else max(0, min(ends) - game.or_number)


def _train_owner_president(game: Game, action: Action) -> PlayerId | None:
    owner = game.trains[str(action.fields["train"])].owner
    return game.president(owner) if owner in game.corporations else None


def _reach(game: Game, action: Action) -> int:
    train = game.title.train_type(str(action.fields.get("variant") or game.trains[str(action.fields["train"])].card))
    return (train.hex_edges or train.distance) * train.multiplier


def _train_value(game: Game, train_id: str) -> int:
    return game.title.train_type(game.trains[train_id].card).price


RULES: tuple[tuple[frozenset[str], Rule], ...] = (
    (frozenset({"run_routes"}), run),
    (frozenset({"dividend"}), dividend),
    (frozenset({"discard_train"}), discard),
    (frozenset({"buy_company"}), sell_private),
    (frozenset({"buy_train"}), buy_train),
    (frozenset({"lay_tile"}), lay_tile),
    (frozenset({"place_token"}), place_token),
    (frozenset({"bid"}), auction),
    (frozenset({"par", "buy_shares", "sell_shares"}), stock),
)
"""Rules in the order they are asked; the first kind of action offered that a rule answers decides
(a rule may decline, leaving it to the next)."""
