"""One whole game played by bots, from setup to the game's own end, as a record.

The loop asks the game for its legal actions, finds the seat the game waits for
(:mod:`selfplay.seats`), lets that seat's bot choose among the seat's own actions, and processes
the choice. Everything is drawn from one random source seeded by the title, player count, seed
and bots, so the same arguments play the same game. A game stops only at its own end (bank
broken, bankruptcy, last operating round, 1871's final phase); :data:`MAX_ACTIONS` is a hard cap
no built-in bot comes near, reached only by a bot that never lets a game end, and it is an error.

Some positions the rules reach leave nobody an action, in 18xx.games as here: an 18MS company
holding no cash and no train, with a route, whose president can sell nothing and pay for no
train (18xx.games' loan takes the company's own cash after the purchase and cannot take $0; title
notes, item 15). A person would take back the move that led there; so does the loop: it replays
the game without the last action and the seat chooses again among the others
(:data:`DEAD_ENDS` at most in one game).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from railledger.ingest.export import read_export, write_export
from railledger.ingest.model import Action, Entity, Player, PlayerId, Record
from railledger.ingest.titles import SLUGS
from railledger.replay.variant import recorded_variant
from railledger.replay import Game, IllegalAction
from railledger.selfplay import MAX_ACTIONS
from railledger.selfplay.bots import Bot, bot_named
from railledger.selfplay.concrete import as_recorded, choice_key
from railledger.selfplay.menu import offered
from railledger.selfplay.seats import controller, seat_to_act, waited_seat

DEAD_ENDS = 50
"""The most actions a game takes back out of positions that leave nobody an action."""

SOURCE = "selfplay"
"""The archive's source of generated games (their keys are ``selfplay/<id>``)."""


class SelfPlayError(Exception):
    """A game could not be played to its end; ``str()`` is one line naming the game and why."""


@dataclass(frozen=True)
class Played:
    """A finished game: as 18xx.games writes it (``export``: an export's JSON object, each run's
    ``revenue_str`` included), as railledger reads that (``record``: the canonical record, source
    ``selfplay``, the bots named per seat), and why it ended."""

    export: dict[str, Any]
    record: Record
    end_reason: str


def game_id(title: str, seed: int, bots: Sequence[str], variant: str | None = None) -> str:
    """``g18ms-3p-42-greedy.random.random``: the game's id, unique for its arguments; a game of a
    variant (its TOML text) ends with the variant's short hash, so it never replaces the base
    title's game of the same seed and table (``...-random-v3ed96fd94281``)."""
    base = f"{SLUGS[title]}-{len(bots)}p-{seed}-{'.'.join(bots)}"
    return base if variant is None else f"{base}-v{recorded_variant(variant).short_hash}"


def seats(bots: Sequence[str]) -> tuple[Player, ...]:
    """The table: player ids 1, 2, ... named after their bot and seat."""
    return tuple(Player(seat, f"{bot} {seat}", bot=bot) for seat, bot in enumerate(bots, start=1))


def play(title: str, seed: int, bots: Sequence[Bot], max_actions: int = MAX_ACTIONS, variant: str | None = None) -> Played:
    """Play one game of ``title`` with one bot per seat (seat order), deterministic for ``seed``;
    with a ``variant`` (its TOML text), the title's data as the variant changes it, and the record
    carries the variant so that its replay plays the same data."""
    names = [bot.name for bot in bots]
    gid = game_id(title, seed, names, variant)
    players = seats(names)
    game = _replayed(title, players, seed, gid, variant, [])
    rng = Random(f"{title}/{seed}/{','.join(names)}")
    by_seat = {player.id: bot for player, bot in zip(players, bots)}
    actions: list[Action] = []
    refused: dict[int, set[tuple[object, ...]]] = {}  # position -> the choices that led into a dead end from it
    taken_back = 0
    while not game.finished:
        if len(actions) >= max_actions:
            raise SelfPlayError(f"{gid}: no end after {max_actions} actions (the cap); the game is at {game.round.label}")
        waiting = waited_seat(game)
        asking = by_seat.get(waiting) if waiting is not None else None
        legal = offered(game, (lambda hexes: asking.lay_hexes(game, hexes, rng)) if asking is not None else list)
        turn = seat_to_act(game, legal, waiting)
        dead_ends = refused.get(len(actions))
        own = [] if turn is None else [a for a in turn[1] if not dead_ends or choice_key(as_recorded(a)) not in dead_ends]
        if turn is None or not own:
            if not actions or taken_back == DEAD_ENDS:
                raise SelfPlayError(f"{gid}: nobody can act at {game.round.label} after {len(actions)} actions, "
                                    f"and the game is not over")
            refused.pop(len(actions), None)
            last = actions.pop()
            refused.setdefault(len(actions), set()).add(choice_key(last))
            game, taken_back = _replayed(title, players, seed, gid, variant, actions), taken_back + 1
            continue
        seat = turn[0]
        bot = by_seat[seat]
        chosen = agreed_choice(game, seat, own, by_seat, rng)
        numbered = Action(chosen.type, chosen.entity, len(actions) + 1, 0, chosen.fields)
        try:
            game.process(numbered)
        except IllegalAction as illegal:
            raise SelfPlayError(f"{gid}: bot {bot.name} (seat {seat}) chose an illegal action {numbered.id} "
                                f"({illegal.rule_id}: {illegal.message})") from None
        actions.append(numbered)
    played = Record(title=title, game_id=gid, players=players, actions=tuple(actions), source=SOURCE, seed=seed,
                    status="finished", result=game.result(), variant=variant)
    export = write_export(played)
    return Played(export, read_export(export), game.end_reason or "")


def _replayed(title: str, players: Sequence[Player], seed: int, gid: str, variant: str | None,
              actions: Sequence[Action]) -> Game:
    """The game started afresh and played through ``actions``, never taken back action by action
    (the journal is off: a dead end, rare, is left by replaying the game without its last action)."""
    game = Game.start(title, players, seed=seed, game_id=gid, variant=variant)
    game.journal.enabled = False
    for action in actions:
        game.process(action)
    return game


def agreed_choice(game: Game, seat: PlayerId, own: Sequence[Action], by_seat: Mapping[PlayerId, Bot], rng: Random) -> Action:
    """The seat's bot's choice among its own legal actions, where a train bought from another
    seat's company is bought only at a price that seat's bot agrees to (:meth:`Bot.consents`):
    the rules let a train pass between companies of different presidents at an agreed price.
    A refused purchase takes that train off the seat's menu for this choice, and the bot chooses
    again among the rest (its bank trains, its pass, other companies' trains). A purchase the
    rules leave as the seat's only way on (no bank train, no pass) is made without asking: a
    refusal there would leave nobody able to act."""
    options = list(own)
    while True:
        chosen = as_recorded(by_seat[seat].choose(game, options, rng))
        seller = _selling_seat(game, chosen)
        if seller is None or seller == seat or seller not in by_seat:
            return chosen
        left = [a for a in options if not (a.type == "buy_train" and a.fields["train"] == chosen.fields["train"])]
        if not left or by_seat[seller].consents(game, chosen, rng):
            return chosen
        options = left


def _selling_seat(game: Game, action: Action) -> PlayerId | None:
    """The seat deciding for the company a train purchase buys from; None for a bank train."""
    if action.type != "buy_train":
        return None
    owner = game.trains[str(action.fields["train"])].owner
    return controller(game, Entity("corporation", owner)) if owner in game.corporations else None


def play_game(title: str, bots: Sequence[str | Bot], seed: int = 1, max_actions: int = MAX_ACTIONS,
              variant: str | None = None) -> Played:
    """Play one game of ``title`` with a bot in every seat, in seat order, each given by name
    (``"greedy"``, ``"random"``, or one registered with :func:`~railledger.selfplay.bots.register`)
    or as a :class:`~railledger.selfplay.bots.Bot`: the same title, bots and seed play the same game.

    Raises :class:`SelfPlayError` when the game cannot be played to its end, and KeyError for a
    bot name nobody registered. ``variant``: a variant's TOML text (:mod:`replay.variant`).

    Example: ``play_game("18MS", ["greedy", "random", "random"], seed=7).record``
    """
    return play(title, seed, [bot if isinstance(bot, Bot) else bot_named(bot) for bot in bots], max_actions, variant)
