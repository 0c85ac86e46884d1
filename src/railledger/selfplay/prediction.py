"""Predicting people: at every decision of a people's record, is the person's action the bot's
first choice, or among its first three?

A bot that plays well against bots may still play nothing like people; one that often does what
people do is a better stand-in for them in a designer's statistics. The record is replayed action
by action; before each, the seat the game waits for is asked for its legal actions as a bot would
be (:mod:`selfplay.menu`, every hex listed). Where more than one was legal and the person's action
was one of its seat's kinds, every bot ranks them (:func:`selfplay.ranking.ranked`) and its first
one and first three are compared with what the person did.

Two actions are the same when their type, entity and deciding fields agree
(:func:`deciding_fields`): hex, tile and rotation for a tile lay; company, source and percent for
shares; company and price for a par; train and price for a purchase; city and slot for a token
(who places it is the entity); kind for a dividend; a run by its revenue; every field but a
family's range otherwise. Two certificates of one company from one holder, or two trains of one type, are
the same choice.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from random import Random

from railledger.ingest.model import Action, Record
from railledger.replay import Game, IllegalAction
from railledger.replay.titles import SUPPORTED
from railledger.selfplay.bots import Bot
from railledger.selfplay.concrete import as_recorded
from railledger.selfplay.menu import offered
from railledger.selfplay.ranking import TOP, ranked
from railledger.selfplay.seats import seat_to_act, waited_seat


@dataclass(frozen=True)
class Guess:
    """One decision of a record for one bot: the kind of action the person took, and whether it
    was the bot's first choice and among its first :data:`~selfplay.ranking.TOP`."""

    title: str
    bot: str
    kind: str
    first: bool
    top: bool


def deciding_fields(game: Game, action: Action) -> tuple[object, ...]:
    """What makes two actions the same choice now (``game`` before either is taken)."""
    fields, head = as_recorded(action).fields, (action.type, action.entity)
    if action.type == "lay_tile":
        return (*head, fields.get("hex"), str(fields.get("tile", "")).split("-")[0], fields.get("rotation"))
    if action.type in ("buy_shares", "sell_shares"):
        shares = [game.shares[str(s)] for s in fields.get("shares", ()) if str(s) in game.shares]
        if not shares:
            return (*head, repr(fields.get("shares")))
        return (*head, shares[0].corporation, shares[0].owner, sum(s.percent for s in shares))
    if action.type == "par":
        return (*head, fields.get("corporation"), fields.get("share_price"))
    if action.type == "buy_train":
        train = game.trains.get(str(fields.get("train")))
        return (*head, train.card if train else fields.get("train"), train.owner if train else None, fields.get("price"))
    if action.type == "place_token":
        return (*head, fields.get("city"), fields.get("slot"))
    if action.type == "dividend":
        return (*head, fields.get("kind"))
    if action.type == "run_routes":
        return (*head, sum(int(route.get("revenue", 0)) for route in fields.get("routes", ())))
    return (*head, tuple(sorted((name, repr(value)) for name, value in fields.items())))


def guesses(record: Record, bots: Sequence[Bot], seed: int = 1) -> Iterator[Guess]:
    """Every bot's guess at every decision of ``record`` with more than one legal action, until the
    record ends or an action of it is illegal (what follows is not the game the rules play)."""
    if record.title not in SUPPORTED:
        return
    game = Game.from_record(record)
    game.journal.enabled = False
    rngs = [Random(f"{record.key}/{bot.name}/{seed}") for bot in bots]
    for action in record.actions:
        if game.finished:
            return
        yield from _decision(game, action, bots, rngs)
        try:
            game.process(action)
        except IllegalAction:
            return


def _decision(game: Game, action: Action, bots: Sequence[Bot], rngs: Sequence[Random]) -> Iterator[Guess]:
    """The bots' guesses at ``action``, when it is a decision of the seat the game waits for."""
    turn = seat_to_act(game, offered(game, list), waited_seat(game))
    if turn is None:
        return
    own = turn[1]
    if len(own) < 2 or action.type not in {a.type for a in own} or action.entity not in {a.entity for a in own}:
        return
    person = deciding_fields(game, action)
    for bot, rng in zip(bots, rngs):
        order = [deciding_fields(game, choice) for choice in ranked(bot, game, own, rng)[:TOP]]
        yield Guess(game.title.name, bot.name, action.type, order[0] == person, person in order)
