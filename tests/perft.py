"""An 18xx perft: the number of legal actions at every position of a record.

Like a chess perft count, the numbers pin down the legal-action generator: any change of a
rule that widens or narrows what is legal somewhere changes a count. ``tests/perft.json`` keeps
the counts of the authored test games and the shared records; after a deliberate rule change,
rewrite it with ``python -m tests.perft`` and review the diff.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

from railledger.ingest.model import Action, Record
from railledger.ingest.sources import load
from railledger.replay import Game

HERE = Path(__file__).resolve().parent
COUNTS = HERE / "perft.json"
TEST_GAMES = sorted((HERE / "games").glob("*.rln"))


def record_of(path: Path) -> Record:
    return next(iter(load(str(path)))).record


def positions(record: Record) -> Iterator[tuple[int, Game]]:
    """The game before each of the record's actions (the record must be legal)."""
    game = Game.from_record(record)
    for index, action in enumerate(record.actions):
        yield index, game
        game.process(action)


def played(record: Record) -> Iterator[tuple[Action, Game]]:
    """Each of the record's actions with the game before it, applied when legal (a bots' record
    may end in the refused action it was kept for); after the last, the game has played them."""
    game = Game.from_record(record)
    for action in record.actions:
        yield action, game
        if game.is_legal(action):
            game.process(action)


def counts(record: Record) -> list[int]:
    return [sum(1 for _ in game.legal_actions()) for _, game in positions(record)]


def name_of(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def main(paths: list[Path]) -> None:
    stored = json.loads(COUNTS.read_text()) if COUNTS.exists() else {}
    for path in paths:
        stored[name_of(path)] = counts(record_of(path))
    lines = [f"  {json.dumps(name)}: {json.dumps(stored[name])}" for name in sorted(stored)]
    COUNTS.write_text("{\n" + ",\n".join(lines) + "\n}\n")


if __name__ == "__main__":
    from tests.conftest import fixture_files

    main([*TEST_GAMES, *fixture_files()] if len(sys.argv) < 2 else [Path(p) for p in sys.argv[1:]])
