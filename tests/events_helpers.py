"""Event files and games for the event tests: a file written from parts, and games' facts made by
hand (values chosen so that standings can be worked out on paper)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from railledger.events.file import read_event
from railledger.events.games import GameFacts
from railledger.events.standings import Standing, TableResult, standings, table_results
from railledger.replay.verdict import Verdict

NAMES = {1001: "Ann", 1002: "Bob", 1003: "Cy", 1004: "Di", 1005: "Ed", 1006: "Flo", 1007: "Gus", 1008: "Hal"}


def event_text(scoring: str, rounds: Sequence[Sequence[str]], players: Mapping[int, str] = NAMES, head: str = "") -> str:
    """An event file: its scoring table's body, and each round's tables' bodies."""
    text = f'# a test event\nname = "Test league"\ntitles = ["18MS"]\nseed = 5\n{head}\n[scoring]\n{scoring}\n\n'
    for user, name in players.items():
        text += f'[[players]]\nid = {user}\nname = "{name}"\n\n'
    for n, tables in enumerate(rounds, start=1):
        text += f'[[rounds]]\nname = "Round {n}"\n\n'
        for table in tables:
            text += f"[[rounds.tables]]\n{table}\n\n"
    return text


def facts(game: int, values: Mapping[int, int], verdict: str = "valid", detail: str = "replays with no flag",
          title: str = "18MS", sent_by_others: Mapping[int, int] | None = None) -> GameFacts:
    """A stored game's facts: seats in the order of ``values``, recorded and replayed as given."""
    return GameFacts(game, title, tuple((user, NAMES.get(user, f"user {user}")) for user in values), "finished",
                     Verdict(verdict, detail), dict(values), dict(values), dict(sent_by_others or {}))


def counted(tmp_path: Path, text: str, games: Sequence[GameFacts]) -> tuple[list[TableResult], list[Standing]]:
    path = tmp_path / "event.toml"
    path.write_text(text)
    event = read_event(path).event
    results = table_results(event, {game.game: game for game in games})
    return results, standings(event, results)


def by_name(lines: list[Standing]) -> dict[str, Standing]:
    return {line.player.name: line for line in lines}
