"""The validating rules engine: generic 18xx mechanics, with titles as data plus overrides."""

from replay.errors import IllegalAction, Rule
from replay.game import Game
from replay.replayer import Flag, Replay, replay_record

__all__ = ["Flag", "Game", "IllegalAction", "Replay", "Rule", "replay_record"]
