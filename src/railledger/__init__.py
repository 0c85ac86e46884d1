"""railledger: an archive, validating replay and statistics for 18xx railway board games.

The names below are the Python API (docs/api.md); each loads its part of railledger on first
use, so ``import railledger`` costs nothing until one is asked for::

    import railledger

    record = railledger.read_record("14375.json")      # an 18xx.games export or .rln notation
    game = railledger.Game.from_record(record)
    for action in record.actions[:40]:
        game.push(action)
    list(game.legal_actions())                          # every legal action now
    replay = railledger.replay_record(record, keep_going=True)
    replay.flags                                        # every rule broken, root causes first

    railledger.ingest_paths(["examples"], "games.duckdb")
    with railledger.open_archive("games.duckdb") as archive:
        archive.games()                                 # polars frames
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from railledger.analytics.reader import ArchiveReader, open_archive
    from railledger.ingest.errors import RecordError
    from railledger.ingest.model import Action, Player, Record
    from railledger.ingest.sources import read_record
    from railledger.pipeline.exporting import export_archive
    from railledger.pipeline.ingesting import Tally, ingest_paths
    from railledger.pipeline.simulating import Simulation, simulate_games
    from railledger.records.errors import ArchiveError
    from railledger.replay.errors import IllegalAction
    from railledger.replay.game import Game
    from railledger.replay.replayer import Flag, Replay, replay_record
    from railledger.selfplay.bots import Bot, register
    from railledger.selfplay.play import Played, play_game

_API = {
    "Action": "railledger.ingest.model", "Player": "railledger.ingest.model", "Record": "railledger.ingest.model",
    "RecordError": "railledger.ingest.errors", "read_record": "railledger.ingest.sources",
    "Game": "railledger.replay.game", "IllegalAction": "railledger.replay.errors",
    "Flag": "railledger.replay.replayer", "Replay": "railledger.replay.replayer",
    "replay_record": "railledger.replay.replayer",
    "ArchiveError": "railledger.records.errors",
    "ArchiveReader": "railledger.analytics.reader", "open_archive": "railledger.analytics.reader",
    "Tally": "railledger.pipeline.ingesting", "ingest_paths": "railledger.pipeline.ingesting",
    "Simulation": "railledger.pipeline.simulating", "simulate_games": "railledger.pipeline.simulating",
    "export_archive": "railledger.pipeline.exporting",
    "Bot": "railledger.selfplay.bots", "register": "railledger.selfplay.bots",
    "Played": "railledger.selfplay.play", "play_game": "railledger.selfplay.play",
}
"""Each public name and the module it is loaded from."""

__all__ = ["Action", "ArchiveError", "ArchiveReader", "Bot", "Flag", "Game", "IllegalAction", "Played",
           "Player", "Record", "RecordError", "Replay", "Simulation", "Tally", "export_archive",
           "ingest_paths", "open_archive", "play_game", "read_record", "register", "replay_record",
           "simulate_games"]
"""The public names, each loaded from its module in :data:`_API` on first use."""


def __getattr__(name: str) -> Any:
    """Load a public name's module on first use (PEP 562)."""
    if name in _API:
        value = getattr(importlib.import_module(_API[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'railledger' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_API})
