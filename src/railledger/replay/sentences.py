"""Actions in sentences: a game's log as players write it.

A canonical action says ``IC lay_tile H3 57-0 2``; a player says "IC lays tile 57 on H3
(Jackson), rotation 2, for $0". As python-chess needs the board to write a move in SAN, a
sentence needs the game as it stands before the action: whose certificate is bought and from
where, what it costs, which town a hex is, which step a pass leaves, what a run earned. So
:func:`describe` takes the game before the action and the action, and reads the money from the
engine's own rules (the step that takes the action, the title's prices), never from a guess: a
test holds every amount a sentence states to the cash the action moves.

Everything a record can hold is said: every action type of every title, a title's own steps
saying theirs (:meth:`~replay.flow.Step.say`), an illegal action (no step takes it: it is said
from what it declares, without the amounts the rules would give), and a malformed one (said by
its type). A sentence holds no notation (``=``, ``:=``, ``@``), no type name and no id where a
name exists (:mod:`replay.names`).

:func:`narrate` says every action of a record in one replay, with the round each was taken in;
:func:`group_offers` groups the legal actions of a position by kind, one line per distinct move,
the one made marked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from railledger.ingest.model import Action, Record
from railledger.replay.errors import IllegalAction, Violation
from railledger.replay.flow import Step
from railledger.replay.game import Game
from railledger.replay.moves import move_key
from railledger.replay.names import (a_train, city_name, entity_name, hex_name, holder_name, listed, money,
                                     player_name, private_name, shares_phrase, source_name, tile_name, train_name)
from railledger.replay.rounds.operating import OperatingRound
from railledger.replay.routes import build_route
from railledger.replay.shape import check_shape
from railledger.replay.state import Share
from railledger.replay.steps.companies import BuyCompany
from railledger.replay.steps.dividends import Dividend
from railledger.replay.steps.draft import Draft
from railledger.replay.steps.routes import RunRoutes, merge_repeats, stop_hexes
from railledger.replay.steps.shares import BuySellParShares
from railledger.replay.steps.tokens import CompanyToken, Token
from railledger.replay.steps.track import CompanyTrack, Track


@dataclass(frozen=True)
class Kind:
    """What an action type is called: the verb a sentence falls back on when it can say no more
    (a malformed action), and the kind's name in a list of legal actions (one and many)."""

    verb: str
    one: str
    many: str


KINDS: dict[str, Kind] = {
    "pass": Kind("passes", "pass", "passes"),
    "bid": Kind("bids on a private company", "bid", "bids"),
    "offer": Kind("offers a private company for auction", "offer", "offers"),
    "par": Kind("pars a company", "par", "pars"),
    "buy_shares": Kind("buys shares", "share purchase", "share purchases"),
    "sell_shares": Kind("sells shares", "share sale", "share sales"),
    "buy_company": Kind("buys a private company", "private purchase", "private purchases"),
    "purchase_train": Kind("buys a train with a private company", "purchase with a private", "purchases with a private"),
    "lay_tile": Kind("lays a tile", "tile lay", "tile lays"),
    "place_token": Kind("places a token", "token", "tokens"),
    "run_routes": Kind("runs its trains", "run", "runs"),
    "dividend": Kind("pays or withholds its revenue", "dividend choice", "dividend choices"),
    "buy_train": Kind("buys a train", "train purchase", "train purchases"),
    "discard_train": Kind("discards a train", "train discard", "train discards"),
    "choose": Kind("answers a question of the split", "split answer", "split answers"),
    "split": Kind("splits a company", "split", "splits"),
    "bankrupt": Kind("goes bankrupt", "bankruptcy", "bankruptcies"),
    "end_game": Kind("ends the game", "end of the game", "ends of the game"),
}

PROGRAM = Kind("changes an automatic action", "automatic action setting", "automatic action settings")
"""The kind of every ``program_*`` action (a player's automation, no game effect)."""

PASSES = {
    "track": "passes on laying track",
    "token": "passes on placing a token",
    "train": "passes on buying trains",
    "private purchase": "passes on buying a private company",
    "issue or redeem": "passes on issuing or redeeming shares",
}
"""What a pass gives up, by the name of the step it passes (:attr:`~replay.flow.Step.name`); a
stock turn's pass, and any other, is a plain pass."""


@dataclass(frozen=True)
class Said:
    """An action in words: the whole ``text``, its ``headline`` (the move without the details a
    heading has no room for: rotation, route, price per share) and its ``kind``."""

    text: str
    headline: str
    kind: Kind


def kind_of(action: Action) -> Kind:
    """The kind an action is listed under."""
    if action.is_program:
        return PROGRAM
    return KINDS.get(action.type) or Kind(action.type.replace("_", " "), action.type.replace("_", " "),
                                          action.type.replace("_", " ") + " actions")


def sentence(game: Game, action: Action) -> str:
    """The action as a player writes it, the game standing where it was taken."""
    return describe(game, action).text


def headline(game: Game, action: Action) -> str:
    """The short form, for a heading: "IC lays tile 57 on H3 (Jackson)"."""
    return describe(game, action).headline


def describe(game: Game, action: Action, offered: bool = False) -> Said:
    """The action in words, read against ``game`` as it stands before the action.

    ``offered``: the action is one of ``legal_actions()``, not a record's, so a free amount is
    said as its range ("for $1 to $240") and a run as the step it is (routes of its choice).
    Nothing a record holds makes this fail: an action no step takes is said from what it
    declares, one whose fields cannot be read by its type.
    """
    step = _step_taking(game, action)
    telling = _Telling(game, action, step, offered)
    try:
        said = _say(telling)
    except (Violation, LookupError, TypeError, ValueError, AttributeError):
        said = _by_kind(telling)  # a field of the wrong shape or naming nothing: say what it is
    if action.auto and not action.is_program:
        return Said(f"{said.text} (automatic)", f"{said.headline} (automatic)", said.kind)
    return said


def _say(t: _Telling) -> Said:
    """The step's own words for the action, or its type's (an offered amount's range is always
    said by its type: a step says what a record did)."""
    ranged = t.offered and any(t.fields.get(name) for name in ("price_range", "choice_range"))
    own = t.step.say(t.action) if t.step is not None and not ranged else None
    if own is not None:
        return Said(own, own, kind_of(t.action))
    speaker = SPEAKERS.get(t.action.type)
    return speaker(t) if speaker is not None else _by_kind(t)


def _step_taking(game: Game, action: Action) -> Step | None:
    """The step that would take the action now (asking changes nothing), or None; none takes a
    malformed action (a step's checks read its fields as their kinds say)."""
    if game.finished or action.is_program:
        return None
    try:
        check_shape(action)
        return game.round.step_for(action)
    except Violation:
        return None


@dataclass
class _Telling:
    """What the speakers read: the game, the action, the step taking it, whether it is offered."""

    game: Game
    action: Action
    step: Step | None
    offered: bool
    fields: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.fields = dict(self.action.fields)

    @property
    def who(self) -> str:
        return entity_name(self.game, self.action.entity)

    def operating(self) -> str:
        """The company an action is for: the acting company, or for a private the company
        operating (a private acts for it)."""
        round_ = self.game.round
        if self.action.entity.kind == "company" and isinstance(round_, OperatingRound) and round_.corporation is not None:
            return round_.corporation
        return self.who

    def shares(self) -> list[Share]:
        ids = self.fields.get("shares")
        if not isinstance(ids, list) or not ids:
            raise ValueError("no certificates named")
        return [self.game.shares[str(i)] for i in ids]

    def percent(self, shares: Sequence[Share]) -> int:
        declared = self.fields.get("percent")
        return declared if isinstance(declared, int) else sum(s.percent for s in shares)

    def price(self, name: str = "price") -> str:
        """A declared amount, or an offered action's range of amounts."""
        low, high = self.fields.get(f"{name}_range") or (None, None)
        if self.offered and isinstance(low, int) and isinstance(high, int) and low != high:
            return f"{money(low)} to {money(high)}"
        return money(int(self.fields[name]))


def _by_kind(telling: _Telling) -> Said:
    """An action said by its kind alone (its fields could not be read)."""
    kind = kind_of(telling.action)
    text = f"{telling.who} {kind.verb}"
    return Said(text, text, kind)


def _said(telling: _Telling, text: str, headline: str | None = None) -> Said:
    return Said(text, text if headline is None else headline, kind_of(telling.action))


# ------------------------------------------------------------------------------------ speakers


def _pass(t: _Telling) -> Said:
    phrase = PASSES.get(t.step.name, "passes") if t.step is not None else "passes"
    return _said(t, f"{t.who} {phrase}")


def _bid(t: _Telling) -> Said:
    company = private_name(t.game, t.fields["company"])
    if isinstance(t.step, Draft):
        return _said(t, f"{t.who} buys {company} for {t.price()}")
    return _said(t, f"{t.who} bids {t.price()} on {company}")


def _offer(t: _Telling) -> Said:
    return _said(t, f"{t.who} offers {private_name(t.game, t.fields['company'])} for auction")


def _for_union_bank(t: _Telling) -> str:
    """``for the Union Bank`` where a player buys for a holder outside the turn order (1871)."""
    target = t.fields.get("purchase_for")
    if target is None:
        return ""
    return f" for {'' if target in t.game.order else 'the '}{player_name(t.game, target)}"


def _par(t: _Telling) -> Said:
    sym = str(t.fields["corporation"])
    price = int(str(t.fields["share_price"]).split(",")[0])
    start = f"{t.who} pars {sym} at {money(price)}{_for_union_bank(t)}"
    if not isinstance(t.step, BuySellParShares):
        return _said(t, start)
    president = t.game.shares_of[sym][0]
    cost = president.percent // 10 * price
    return _said(t, f"{start}, buying the president's certificate ({president.percent}%) for {money(cost)}", start)


def _buy_shares(t: _Telling) -> Said:
    shares = t.shares()
    first = shares[0]
    bundle = shares_phrase(t.game, shares, t.percent(shares))
    if t.action.entity.kind == "corporation":  # a redemption: the company buys its own shares back
        price = (t.game.share_price(first.corporation) or 0) * t.percent(shares) // 10
        text = f"{t.who} redeems {t.percent(shares)}% of its shares from {holder_name(t.game, first.owner)}"
        return _said(t, f"{text} for {money(price)}" if t.step is not None else text, text)
    headline = f"{t.who} buys {bundle}{_for_union_bank(t)}"
    text = f"{headline} from {source_name(t.game, first.owner, first.corporation)}"
    if isinstance(t.step, BuySellParShares) and len(shares) == 1 and t.game.share_price(first.corporation) is not None:
        text += f" for {money(t.step.price_of(first))}"  # priced once the company is started
    return _said(t, text, headline)


def _sell_shares(t: _Telling) -> Said:
    shares = t.shares()
    percent = t.percent(shares)
    price = t.game.share_price(shares[0].corporation)
    amount = "" if t.step is None or price is None else f" for {money(price * percent // 10)}"
    if t.action.entity.kind == "corporation":  # an issue: the company sells its treasury shares
        headline = f"{t.who} issues {percent}% of its shares"
        return _said(t, f"{headline} to the market{amount}", headline)
    headline = f"{t.who} sells {shares_phrase(t.game, shares, percent)}"
    return _said(t, f"{headline} to the market{amount}", headline)


def _buy_company(t: _Telling) -> Said:
    sym = str(t.fields["company"])
    company = t.game.companies[sym]
    headline = f"{t.who} buys {company.name}"
    seller = holder_name(t.game, company.owner)
    if isinstance(t.step, BuyCompany) or "price" in t.fields:
        return _said(t, f"{headline} from {seller} for {t.price()}", headline)
    return _said(t, f"{headline} from {seller}", headline)


def _lay_tile(t: _Telling) -> Said:
    game, step = t.game, t.step
    hex_id = str(t.fields["hex"])
    corp = t.operating()
    tool = f" with {t.who}" if t.action.entity.kind == "company" else ""
    headline = f"{corp} lays tile {tile_name(t.fields['tile'])} on {hex_name(game, hex_id)}"
    text = f"{headline}{tool}, rotation {t.fields['rotation']}"
    cost: int | None = None
    lay = step.next_lay() if isinstance(step, Track) else None  # none left: no price to give
    if lay is not None:
        cost = lay.cost + game.board.terrain_cost_of(hex_id)
    elif isinstance(step, CompanyTrack):
        ability = step.abilities(t.action.entity)[0][1]
        cost = 0 if ability.get("free") else game.board.terrain_cost_of(hex_id)
    return _said(t, text if cost is None else f"{text}, for {money(cost)}", headline)


def _place_token(t: _Telling) -> Said:
    step = t.step
    corp = t.operating()
    tool = f" with {t.who}" if t.action.entity.kind == "company" else ""
    headline = f"{corp} places a token on {city_name(t.game, t.fields['city'])}"
    cost: int | None = None
    if isinstance(step, CompanyToken):
        found = step.ability(t.action.entity)
        cost = step.cost(found[1]) if found is not None else None
    elif isinstance(step, Token):
        cost = step.cost()
    return _said(t, f"{headline}{tool}" + ("" if cost is None else f" for {money(cost)}"), headline)


def _route(t: _Telling, route: dict[str, Any]) -> tuple[str, int | None]:
    """One train's run: ``a 3+ train on C13-D14-F14 for $110``, and its revenue: as the record declares
    them, or (a record that declares only the track) as the engine reads the route."""
    stops, revenue = route.get("hexes"), route.get("revenue")
    if isinstance(t.step, RunRoutes) and not (stops and isinstance(revenue, int)):
        try:
            built = build_route(t.game, t.operating(), route)
        except Violation:
            built = None
        if built is not None:
            stops = stops or merge_repeats(stop_hexes(built))
            revenue = revenue if isinstance(revenue, int) else built.revenue
    if not isinstance(stops, list) or not stops:
        chains = route.get("connections") or []
        stops = [chain[0] for chain in chains[:1] if chain] + [chain[-1] for chain in chains if chain]
    words = f"{a_train(train_name(t.game, route.get('train')))} on {'-'.join(map(str, stops))}"
    return (f"{words} for {money(revenue)}" if isinstance(revenue, int) else words), \
        revenue if isinstance(revenue, int) else None


def _run_routes(t: _Telling) -> Said:
    corp = t.operating()
    routes = t.fields.get("routes") or []
    if not routes:
        text = f"{corp} runs its trains on routes of its choice" if t.offered else f"{corp} runs no train"
        return _said(t, text)
    runs = [_route(t, route) for route in routes]
    text = f"{corp} runs {listed(words for words, _ in runs)}"
    revenues = [revenue for _, revenue in runs]
    if None in revenues:
        return _said(t, text, f"{corp} runs {len(runs)} train{'s' if len(runs) > 1 else ''}")
    total = sum(r for r in revenues if r is not None)
    if len(runs) > 1:
        text += f", {money(total)} in all"
    return _said(t, text, f"{corp} runs for {money(total)}")


def _per_share(amount: float) -> str:
    return money(int(amount)) if amount == int(amount) else f"${amount:.2f}"


def _dividend(t: _Telling) -> Said:
    kind = str(t.fields["kind"])
    corp = t.operating()
    step, round_ = t.step, t.game.round
    if not isinstance(step, Dividend) or not isinstance(round_, OperatingRound):
        return _said(t, f"{corp} {'withholds' if kind == 'withhold' else 'pays out' if kind == 'payout' else 'pays ' + kind}")
    revenue = round_.turn.revenue
    paid = t.game.title.dividend_paid(corp, kind, revenue)
    if paid == 0:
        return _said(t, f"{corp} withholds {money(revenue)}")
    each = _per_share(step.per_share(paid))
    if paid == revenue:
        return _said(t, f"{corp} pays out {money(revenue)}, {each} a share", f"{corp} pays out {money(revenue)}")
    headline = f"{corp} pays half of {money(revenue)}"
    return _said(t, f"{headline}: {money(paid)} to its shareholders ({each} a share), {corp} keeps {money(revenue - paid)}",
                 headline)


def _buy_train(t: _Telling) -> Said:
    train = t.game.trains[str(t.fields["train"])]
    variant = t.fields.get("variant") or train.name
    corp = t.operating()
    headline = f"{corp} buys {a_train(str(variant))} from {holder_name(t.game, train.owner)}"
    discount = f" with the {t.who} discount" if t.action.entity.kind == "company" else ""
    return _said(t, f"{headline} for {t.price()}{discount}", headline)


def _discard_train(t: _Telling) -> Said:
    return _said(t, f"{t.who} discards {a_train(train_name(t.game, t.fields['train']))}")


def _choose(t: _Telling) -> Said:
    choice = t.fields.get("choice")
    if t.offered and t.fields.get("choice_range"):
        low, high = t.fields["choice_range"]
        return _said(t, f"{t.who} chooses an amount from {money(low)} to {money(high)}")
    return _said(t, f"{t.who} chooses {choice}" if isinstance(choice, (str, int)) else f"{t.who} makes a choice")


def _split(t: _Telling) -> Said:
    return _said(t, f"{t.who} splits {t.fields['corporation']}")


def _bankrupt(t: _Telling) -> Said:
    president = t.game.president(str(t.action.entity.id)) if t.action.entity.kind == "corporation" else None
    if president is None:
        return _said(t, f"{t.who} goes bankrupt")
    return _said(t, f"{t.who} goes bankrupt with its president {player_name(t.game, president)}", f"{t.who} goes bankrupt")


def _end_game(t: _Telling) -> Said:
    return _said(t, f"{t.who} ends the game")


def _purchase_train(t: _Telling) -> Said:
    return _said(t, f"{t.operating()} buys a train with {t.who}")


def _program(t: _Telling) -> Said:
    if t.action.type == "program_disable":
        return _said(t, f"{t.who}'s automatic actions are switched off")
    return _said(t, f"{t.who} sets an automatic action ({t.action.type.removeprefix('program_').replace('_', ' ')})")


SPEAKERS: dict[str, Callable[[_Telling], Said]] = {
    "pass": _pass, "bid": _bid, "offer": _offer, "par": _par, "buy_shares": _buy_shares, "sell_shares": _sell_shares,
    "buy_company": _buy_company, "lay_tile": _lay_tile, "place_token": _place_token, "run_routes": _run_routes,
    "dividend": _dividend, "buy_train": _buy_train, "discard_train": _discard_train, "choose": _choose,
    "split": _split, "bankrupt": _bankrupt, "end_game": _end_game, "purchase_train": _purchase_train,
    "program_disable": _program,
}


# ------------------------------------------------------------------------------------ a record


@dataclass(frozen=True)
class Line:
    """One action of a record in words: its id as the record numbers it (``22``, ``22.1``), the
    round it was taken in (``OR 1.1``), the sentence and its short form."""

    action_id: str
    round: str
    text: str
    headline: str


def place(action_id: str, round_label: str) -> str:
    """How every consumer numbers an action: ``22 (OR 1.1)``, the record's id and its round."""
    return f"{action_id} ({round_label})" if round_label else action_id


def narrate(record: Record) -> list[Line]:
    """Every action of a record in words, in one replay that goes on past an illegal action (the
    game then stands unchanged for the next one, as ``replay --keep-going`` replays it), each said
    against the game before it."""
    game = Game.from_record(record)
    lines = []
    for action in record.actions:
        said = describe(game, action)
        lines.append(Line(action.label, game.round.label, said.text, said.headline))
        try:
            game.process(action)
        except IllegalAction:
            pass
    return lines


# ------------------------------------------------------------------------------------ legal actions


@dataclass(frozen=True)
class Offer:
    """One move of a position's legal actions: its sentence, the legal actions that say it (two
    bundles of the same certificates are one move to a player) and whether it is the one made."""

    text: str
    actions: tuple[Action, ...]
    made: bool = False


@dataclass(frozen=True)
class OfferGroup:
    """The legal moves of one kind: ``23 tile lays``."""

    kind: Kind
    offers: tuple[Offer, ...]

    @property
    def title(self) -> str:
        count = len(self.offers)
        return f"{count} {self.kind.one if count == 1 else self.kind.many}"


def group_offers(game: Game, offered: Iterable[Action], made: Action | None = None) -> list[OfferGroup]:
    """A position's legal actions grouped by kind in the order first met, each move once (legal
    actions that make the same move, :func:`replay.moves.move_key`, or read the same are one
    line: any certificate of a kind, a tile's rotations that lay the same track), and the move
    ``made`` marked (:func:`is_move`)."""
    groups: dict[str, list[tuple[str, list[Action]]]] = {}
    kinds: dict[str, Kind] = {}
    seen: dict[object, list[Action]] = {}
    for action in offered:
        key = move_key(game, action)
        if key in seen:
            seen[key].append(action)
            continue
        said = describe(game, action, offered=True)
        lines = groups.setdefault(said.kind.many, [])
        same = next((actions for text, actions in lines if text == said.text), None)
        if same is not None:
            same.append(action)
            seen[key] = same
            continue
        kinds[said.kind.many] = said.kind
        seen[key] = [action]
        lines.append((said.text, seen[key]))
    chosen = _made_line(game, [line for lines in groups.values() for line in lines], made)
    return [OfferGroup(kinds[name], tuple(Offer(text, tuple(actions), chosen is not None and actions is chosen[1])
                                          for text, actions in lines))
            for name, lines in groups.items()]


def _made_line(game: Game, lines: list[tuple[str, list[Action]]], made: Action | None) -> tuple[str, list[Action]] | None:
    """The line of the move made: the one offering it, else the one that reads as it does."""
    if made is None:
        return None
    found = next((line for line in lines if any(is_move(game, offer, made) for offer in line[1])), None)
    if found is None:
        text = describe(game, made).text
        found = next((line for line in lines if line[0] == text), None)
    return found


def is_move(game: Game, offered: Action, made: Action) -> bool:
    """Whether a recorded action is the move a legal action offers (:func:`replay.moves.move_key`:
    any certificate of the same kind, any price in the offered range); a run is offered as its
    step, so every run of the company is that move."""
    if offered.type == "run_routes":
        return (made.type, made.entity) == (offered.type, offered.entity)
    return move_key(game, offered) == move_key(game, made)


__all__ = ["Kind", "Line", "Offer", "OfferGroup", "Said", "describe", "group_offers", "headline",
           "is_move", "kind_of", "narrate", "place", "sentence"]
