"""The validating rules engine: generic 18xx mechanics, with titles as data plus overrides."""

from replay.errors import IllegalAction, Rule
from replay.game import Game
from replay.replayer import Flag, Replay, replay_record

ENGINE_VERSION = "steps-3"
"""Changes whenever a replay of the same record could give different rows; a re-ingest then replays again."""

__all__ = ["ENGINE_VERSION", "Flag", "Game", "IllegalAction", "Replay", "Rule", "replay_record"]
