"""Whether the engine can play a variant: its title built from the variant's data and a game of
it set up at every player count the title is played by, so that a variant the title's own
loading or setup cannot take is refused before ``simulate`` plays a game, not in the middle of one.
"""

from __future__ import annotations

from pathlib import Path

from railledger.ingest.model import Player
from railledger.ingest.titles import PLAYER_COUNTS
from railledger.replay.game import Game
from railledger.replay.variant import Variant, VariantError, load_variant, read_variant


def playable_variant(variant: Variant, origin: str) -> Variant:
    """``variant``, once a game of it is set up at each player count of its title; VariantError
    naming ``origin`` (the file) otherwise."""
    for players in PLAYER_COUNTS[variant.title]:
        try:
            Game.start(variant.title, tuple(Player(seat, f"p{seat}") for seat in range(1, players + 1)),
                       seed=1, game_id="1", variant=variant.text)
        except VariantError as refused:
            raise VariantError(origin, refused.path, refused.problem) from None
    return variant


def read_playable_variant(text: str, origin: str = "variant") -> Variant:
    """The variant of a TOML text (:func:`replay.variant.read_variant`) the engine can play."""
    return playable_variant(read_variant(text, origin), origin)


def load_playable_variant(path: Path) -> Variant:
    """The variant in a TOML file the engine can play; every refusal names the file."""
    return playable_variant(load_variant(path), path.name)
