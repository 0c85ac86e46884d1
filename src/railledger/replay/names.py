"""What players call the things of a game: the names sentences and rule messages use.

A record names everything by an id: a player by an 18xx.games user id (``4861``), a private by
its symbol, a tile by its copy (``57-0``), a train by its copy (``2+-1``), a station by its city
(``619-0-0``), a certificate by its number (``GMO_3``). A player reading a log knows the player's
name, the private's name, tile 57, a 2+ train, the hex and its town, a 10% share of GMO. These
functions turn the one into the other, reading the game as it stands; an id the game does not
know is written as it is (there is no name to give it).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from railledger.ingest.model import Entity, PlayerId
from railledger.replay.state import IPO, MARKET, Holder

if TYPE_CHECKING:
    from railledger.replay.state import GameState, Share

VOWEL_SOUNDS = frozenset("AEFHILMNORSX")
"""Capital letters whose spoken name starts with a vowel sound (an A, an F, an H...)."""


def money(amount: int) -> str:
    """``$67``, ``-$5`` (a president in debt)."""
    return f"-${-amount}" if amount < 0 else f"${amount}"


def article(word: str) -> str:
    """``a`` or ``an`` before a word as it is spoken: an 8 train, an 11, an E train, a D train."""
    first = word[:1]
    if first.isdigit():
        spoken_vowel = first == "8" or (word[:2] in ("11", "18") and not word[2:3].isdigit())
    elif first.isupper() and (len(word) == 1 or not word[1:2].isalpha() or word.isupper()):
        spoken_vowel = first in VOWEL_SOUNDS  # a letter read by its name (an H train, an IPO)
    else:
        spoken_vowel = first.lower() in "aeiou"
    return "an" if spoken_vowel else "a"


def listed(items: Iterable[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``."""
    words = list(items)
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def player_name(game: GameState, pid: PlayerId) -> str:
    """The name the record gives the player (1871's Union Bank is "Union Bank")."""
    return game.player_name(pid)


def private_name(game: GameState, sym: object) -> str:
    """A private company by its name on the card ("Alabama Great Southern Railroad")."""
    company = game.companies.get(str(sym))
    return company.name if company is not None else str(sym)


def entity_name(game: GameState, entity: Entity) -> str:
    """Who acts, as the table knows them: a player's name, a company's symbol, a private's name."""
    if entity.kind == "player":
        return player_name(game, entity.id)
    if entity.kind == "company":
        return private_name(game, entity.id)
    return str(entity.id)


def holder_name(game: GameState, holder: Holder | None) -> str:
    """Who holds a certificate, a private or cash: a player by name, a company by symbol, the IPO,
    the market, the bank (None)."""
    if holder is None:
        return "the bank"
    if holder == IPO:
        return "the IPO"
    if holder == MARKET:
        return "the market"
    if isinstance(holder, str) and holder in game.corporations:
        return holder
    return player_name(game, holder)


def hex_name(game: GameState, hex_id: object) -> str:
    """``H3 (Jackson)``: the hex and the place printed on it (an off-board area's part names the
    area), or the bare hex where nothing is printed."""
    spec = game.title.map.get(str(hex_id)) or {}
    place = spec.get("location")
    if place is None and spec.get("part_of") is not None:
        place = (game.title.map.get(str(spec["part_of"])) or {}).get("location") or spec["part_of"]
    return f"{hex_id} ({place})" if place else str(hex_id)


def city_name(game: GameState, city_id: object) -> str:
    """Where a station goes: the hex of a city id (``619-0-0``), and which city where a tile has
    several."""
    hex_id, index = game.board.city(str(city_id))
    where = hex_name(game, hex_id)
    if len(game.board.tile(hex_id).cities) > 1:
        where += f", city {index + 1}"
    return where


def tile_name(tile_id: object) -> str:
    """Tile 57 of the copy ``57-0`` (the number printed on the tile)."""
    return str(tile_id).rsplit("-", 1)[0]


def train_name(game: GameState, train_id: object) -> str:
    """A train as its type (``2+``, ``4D``), or its card's type for a train the game does not know."""
    train = game.trains.get(str(train_id))
    return train.name if train is not None else tile_name(train_id)


def a_train(name: str) -> str:
    """``a 2+ train``, ``an 8 train``."""
    return f"{article(name)} {name} train"


def shares_phrase(game: GameState, shares: list[Share], percent: int | None = None) -> str:
    """Certificates of one company as a player says them: ``a 10% share of GMO``, ``2 shares of
    GMO (20%)``, ``the president's certificate of GMO (20%)``; a bundle with the president's
    certificate in it hands the presidency over (``30% of GMO (the president's certificate
    changes hands)``)."""
    sym = shares[0].corporation
    total = sum(s.percent for s in shares) if percent is None else percent
    if any(s.president for s in shares):
        if len(shares) == 1 and total == shares[0].percent:
            return f"the president's certificate of {sym} ({total}%)"
        return f"{total}% of {sym} (the president's certificate changes hands)"
    if len(shares) == 1:
        return f"{article(str(total))} {total}% share of {sym}"
    return f"{len(shares)} shares of {sym} ({total}%)"


def source_name(game: GameState, owner: Holder, sym: str) -> str:
    """Where certificates come from: the IPO (a company's treasury where its IPO pays the
    company), the market, or their holder."""
    if owner == IPO and game.title.ipo_payee(sym) is not None:
        return f"{sym}'s treasury"
    return holder_name(game, owner)
