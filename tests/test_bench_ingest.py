"""The bench's whole-process ingest is timed on distinct games (issue: no cache keyed on a record's
content may serve a new game): the records given once each, then bots' games of every title on
seeds of their own."""

from __future__ import annotations

import json
from pathlib import Path

from railledger.bench.figures import INGEST_TABLES, audit_section, distinct_games
from railledger.ingest.sources import read_record

EXAMPLE = Path(__file__).parent.parent / "examples" / "18ms-opening.rln"
GAMES = Path(__file__).parent / "games"


def test_the_ingest_is_timed_on_distinct_games_of_every_title(tmp_path: Path) -> None:
    given = distinct_games([EXAMPLE], 1 + 2 * len(INGEST_TABLES), tmp_path, workers=1)
    assert given == 1
    written = sorted(tmp_path.iterdir())
    assert written[0].read_text(encoding="utf-8") == EXAMPLE.read_text(encoding="utf-8")
    played = [json.loads(path.read_text(encoding="utf-8")) for path in written[1:]]
    assert len(played) == 2 * len(INGEST_TABLES)
    assert len({game["id"] for game in played}) == len(played)  # no copies: every game its own
    assert len({json.dumps(game["actions"]) for game in played}) == len(played)
    assert {game["title"] for game in played} == {title for title, _, _ in INGEST_TABLES}


def test_the_audit_figure_counts_every_run_of_the_records_replayed() -> None:
    """The bench states what the revenue audit adds to a replay, over every run of the records of
    titles with an engine (one here: the short 18MS test game)."""
    record = read_record(str(GAMES / "18ms-short.rln"))
    runs = sum(action.type == "run_routes" for action in record.actions)
    assert runs > 0
    section = audit_section([record], repeat=1)
    assert len(section.lines) == 1 and f"{runs} runs in 1 record)" in section.lines[0]
    assert audit_section([], repeat=1).lines == []
