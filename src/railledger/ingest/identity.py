"""Who a player is, and how names are compared: one policy for every room (docs/identity.md).

A player is known by the 18xx.games user id where the record has one: a person seated under a
whole-number id (18xx.games numbers its users; a notation file written from an export keeps
them). Every other seat (a hotseat game, whose players have no id and go by name; a notation
file's players named by text; a bot's seat) is a player of that one game only, known by the game
and the seat. A name is only shown, never grouped by: 18xx.games lets a user
rename, anonymised archives give every game a "Player 1", and two people may share a name.

Names are kept as the record has them and compared in one form (:func:`compared`): NFKC,
case-folded, zero-width characters removed, so that "Café" written composed or decomposed,
``Player\\u200b1`` and ``player1`` compare equal. Players whose names compare equal are shown as
the name plus a short id (:func:`short_id`), so a reader can tell them apart.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from railledger.ingest.model import Player, PlayerId, Record

USER = "user:"
"""Prefix of an identity that is an 18xx.games user id: ``user:680``."""
BOT = "bot:"
"""Prefix of a bot as the ratings know it, one player over all its games: ``bot:greedy``."""
SEAT = "seat:"
"""Prefix of an identity of one game's seat: ``seat:3:18xx.games/hs_hqrmcntr_1641188459``."""

ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))
"""Zero-width space, non-joiner and joiner, word joiner and byte-order mark: invisible in a name."""


def compared(name: str) -> str:
    """The form in which names are compared: zero-width characters removed, NFKC, case-folded
    (NFKC again after folding, which may decompose: Unicode's NFKC_Casefold in effect)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name.translate(ZERO_WIDTH)).casefold())


def is_blank(name: str) -> bool:
    """True for a name that shows nothing: empty, or only whitespace, control and format
    characters (zero-width ones among them), which 18xx.games never writes."""
    return all(char.isspace() or unicodedata.category(char).startswith("C") for char in name)


def is_user(player: Player) -> bool:
    """True when the seat's id is an 18xx.games user id: a whole number, for a person (a bot's
    seat in a generated game is numbered 1, 2... by its seat)."""
    return player.bot is None and isinstance(player.id, int) and not isinstance(player.id, bool)


def identity(game_key: str, seat: int, player: Player) -> str:
    """The player's identity: ``user:ID`` for an 18xx.games user, else ``seat:N:GAME``."""
    return f"{USER}{player.id}" if is_user(player) else f"{SEAT}{seat}:{game_key}"


def identities(record: Record) -> list[str]:
    """The identity of each seat of ``record``, in seat order."""
    return [identity(record.key, seat, player) for seat, player in enumerate(record.players, start=1)]


def short_id(player_identity: str, within_game: bool = False) -> str:
    """What tells a player apart from another of the same name: ``#680`` for a user; ``bot`` for a
    bot; for a seat, ``seat 3`` within its own game and ``seat 3 of 18xx.games/hs_x`` anywhere else."""
    if player_identity.startswith(USER):
        return "#" + player_identity.removeprefix(USER)
    if player_identity.startswith(BOT):
        return "bot"
    seat, _, game = player_identity.removeprefix(SEAT).partition(":")
    return f"seat {seat}" if within_game else f"seat {seat} of {game}"


def labels(pairs: Iterable[tuple[str, str]], within_game: bool = False) -> dict[str, str]:
    """Each identity's label among ``pairs`` (identity, name): its name, or its name and short id
    where another identity of the listing has a name that compares equal."""
    named = dict(pairs)
    clashes = Counter(compared(name) for name in named.values())
    return {who: name if clashes[compared(name)] == 1 else f"{name} ({short_id(who, within_game)})"
            for who, name in named.items()}


def seat_labels(record: Record) -> dict[PlayerId, str]:
    """Each player id of ``record`` with the name shown for it in that game (:func:`labels`)."""
    shown = game_labels(identities(record), [p.name for p in record.players])
    return {player.id: label for player, label in zip(record.players, shown)}


def game_labels(seat_identities: Sequence[str], names: Sequence[str]) -> list[str]:
    """The name shown for each seat of one game, in seat order: its name, and its short id too where
    another seat's name compares equal (``Café (seat 1)``, ``Player 3 (#686)``)."""
    shown = labels(zip(seat_identities, names), within_game=True)
    return [shown[who] for who in seat_identities]


def names_clash(names: Sequence[str]) -> bool:
    """Whether two of one game's names compare equal, so that the game's listing needs short ids."""
    return len({compared(name) for name in names}) < len(names)


def relabelled_games(players_by_game: Mapping[str, Sequence[str]],
                     seat_identities: Callable[[Collection[str]], Mapping[str, Sequence[str]]]) -> dict[str, list[str]]:
    """The names to show instead for the games of a listing (game key: names in seat order) where
    two names compare equal, each with its short id (:func:`game_labels`); ``seat_identities``
    gives those games' identities in seat order (the archive's :meth:`seat_identities`). Games
    whose names are told apart as they are are left out."""
    clashing = [key for key, names in players_by_game.items() if names_clash(names)]
    if not clashing:
        return {}
    found = seat_identities(clashing)
    return {key: game_labels(found[key], players_by_game[key]) for key in clashing if key in found}


def name_clashes(players: Sequence[Player]) -> list[tuple[int, ...]]:
    """The seats (from 1) of each group of two or more players whose names compare equal."""
    seats: dict[str, list[int]] = {}
    for seat, player in enumerate(players, start=1):
        seats.setdefault(compared(player.name), []).append(seat)
    return [tuple(group) for group in seats.values() if len(group) > 1]


def clash_notes(record: Record) -> tuple[str, ...]:
    """A note per group of players whose names compare equal: how each is shown instead."""
    shown = seat_labels(record)
    return tuple(
        "seats " + ", ".join(map(str, group)) + " have names that compare equal ("
        + ", ".join(repr(record.players[seat - 1].name) for seat in group) + "); shown as "
        + ", ".join(shown[record.players[seat - 1].id] for seat in group)
        for group in name_clashes(record.players))

