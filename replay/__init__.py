"""The validating rules engine: generic 18xx mechanics, with titles as data plus overrides."""

from replay.errors import IllegalAction, Rule
from replay.game import Game
from replay.replayer import Flag, Replay, replay_record
from replay.titles import title_named

ENGINE_VERSION = "steps-6"
"""The shared engine's version: changes whenever a replay of any title's record could give
different rows (the generic steps, rounds or state changed)."""


def engine_version(title: str) -> str:
    """The version stored with a replayed game of ``title``: the shared engine's version and the
    title's own revision (``steps-4+g18ms.1``), so a change to one title's rules or data replays
    that title's games again at the next ingest, and a change to the shared engine every game.

    Raises NotImplementedError for a title without an engine, as :func:`title_named` does.
    """
    rules = title_named(title)
    return f"{ENGINE_VERSION}+{rules.package}.{rules.revision}"


__all__ = ["ENGINE_VERSION", "Flag", "Game", "IllegalAction", "Replay", "Rule", "engine_version", "replay_record"]
