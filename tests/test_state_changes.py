"""Per-action states stored as changes (schema version 9): read back, every player's and every
company's state after every action (and at every round's end) is the one the replay's snapshot
shows, and an archive written at version 8 (a row per player and per company after every action
and at every round's end) converts to the same rows and answers."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from railledger.ingest import notation
from railledger.ingest.export import read_export
from railledger.ingest.model import Record
from railledger.records import Archive, StoreOutcome
from railledger.records.archive import ARCHIVE_TABLES
from railledger.records.schema import latest_version, migrations, shown_columns
from railledger.records.states import STATE_TABLES
from railledger.records.summaries import SUMMARIES
from railledger.replay import Replay, replay_record
from tests.conftest import fixture_params
from tests.test_schema_upgrades import RANKED_BEFORE, without_flag_words

TESTS = Path(__file__).parent
OWN_RECORDS = sorted([*(TESTS / "games").glob("*.rln"), *(TESTS / "selfplay_games").glob("*.rln")])


def snapshot_rows(record: Record, replay: Replay) -> dict[str, list[tuple[object, ...]]]:
    """The state tables as the replay's snapshots give them: a row per player and per company
    after every action, and at the last action of each round, in the snapshot's order."""
    seats = {p.id: seat for seat, p in enumerate(record.players, start=1)}
    rows: dict[str, list[tuple[object, ...]]] = {name: [] for name in STATE_TABLES}
    round_index = -1
    for seq, snap in enumerate(replay.snapshots):
        ends_round = seq + 1 == len(replay.snapshots) or replay.snapshots[seq + 1].round != snap.round
        round_index += ends_round
        for pid, view in snap.players:
            rows["player_states"].append((record.key, seq, seats[pid], view.cash, view.value,
                                          ",".join(f"{c}={p}" for c, p in view.shares)))
            if ends_round:
                rows["round_player_values"].append((record.key, round_index, snap.round, seats[pid], view.cash, view.value))
        for sym, c in snap.corporations:
            row, col = c.cell or (None, None)
            president = None if c.president is None else seats.get(c.president)
            rows["company_states"].append((record.key, seq, sym, c.price, row, col, c.cash, ",".join(c.trains), c.tokens,
                                           president, c.floated, c.closed))
            if ends_round:
                rows["round_company_prices"].append((record.key, round_index, snap.round, sym, c.price))
    return rows


def change_rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of each table of changes and of each per-game summary, sorted."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {table: sorted(con.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
                for table in (*(table.changes for table in STATE_TABLES.values()), *SUMMARIES)}
    finally:
        con.close()


def assert_states_are_the_snapshots(record: Record, tmp_path: Path) -> None:
    replay = replay_record(record, keep_going=True, snapshots=True)
    db = tmp_path / "changes.duckdb"
    with Archive.open(db) as archive:
        archive.store(record, replay=replay)
        for name, expected in snapshot_rows(record, replay).items():
            assert archive.table(name, record.key).rows() == expected, name
            assert archive.table(name).rows() == expected, name
            assert archive.table(name).columns == list(STATE_TABLES[name].columns)
    stored = change_rows(db)
    assert len(stored["company_changes"]) < len(snapshot_rows(record, replay)["company_states"]) / 4  # few change
    assert len({row[:3] for row in stored["company_changes"]}) == len(stored["company_changes"])  # one row per change


@pytest.mark.parametrize("path", fixture_params())
def test_shared_records_read_back_as_their_snapshots(path: Path, tmp_path: Path) -> None:
    assert_states_are_the_snapshots(read_export(json.loads(path.read_text(encoding="utf-8"))), tmp_path)


@pytest.mark.parametrize("path", OWN_RECORDS[:6], ids=lambda p: p.stem)
def test_own_records_read_back_as_their_snapshots(path: Path, tmp_path: Path) -> None:
    assert_states_are_the_snapshots(notation.read(path.read_text(encoding="utf-8")), tmp_path)


def test_a_company_state_is_read_at_any_action_as_its_latest_change(tmp_path: Path) -> None:
    """``select`` asks for a few (game, action) pairs and gets each company's state then."""
    record = notation.read(OWN_RECORDS[0].read_text(encoding="utf-8"))
    replay = replay_record(record, keep_going=True, snapshots=True)
    with Archive.open(tmp_path / "a.duckdb") as archive:
        archive.store(record, replay=replay)
        at = pl.DataFrame({"game_key": [record.key] * 3, "seq": [0, len(record.actions) // 2, len(record.actions) - 1]},
                          schema={"game_key": pl.Utf8, "seq": pl.Int32})
        found = archive.select("company_states", ["game_key", "seq", "company", "cash"], matching=at)
    expected = [(record.key, seq, sym, view.cash) for seq in at["seq"] for sym, view in replay.snapshots[seq].corporations]
    assert sorted(found.rows()) == sorted(expected)


def written_at_version_8(source: Path, target: Path) -> None:
    """``target``: the archive ``source`` was at schema version 8, when every action had a row per
    player and per company (written from what ``source`` reads back, in each action's order) and
    every replayed game ranked its players, one without a result too."""
    with Archive.open(source, read_only=True) as archive:
        states = {name: archive.table(name) for name in STATE_TABLES}
    con = duckdb.connect(str(target))
    try:
        con.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)")
        for migration in migrations()[:8]:
            con.execute(migration.sql)
            con.execute("INSERT INTO schema_version VALUES (?, ?, now()::TIMESTAMP)", [migration.version, migration.name])
        con.execute(f"ATTACH '{source}' AS source (READ_ONLY)")
        for table in ARCHIVE_TABLES:
            if table not in STATE_TABLES and table not in SUMMARIES:  # summaries came at version 10
                held = {c for (c,) in con.execute("SELECT column_name FROM duckdb_columns() WHERE database_name = "
                                                  "current_database() AND table_name = ?", [table]).fetchall()}
                names = [c for c in shown_columns()[table] if c in held]  # as version 8 had them
                selected = ", ".join(RANKED_BEFORE.get(c, c) if table == "standings" else c for c in names)
                con.execute(f"INSERT INTO {table} ({', '.join(names)}) SELECT {selected} FROM source.{table} ORDER BY rowid")
        con.execute("DETACH source")
        for name, frame in states.items():
            con.register("old_rows", frame.to_arrow())
            con.execute(f"INSERT INTO {name} SELECT * FROM old_rows")
            con.unregister("old_rows")
    finally:
        con.close()


def test_a_version_8_archive_converts_to_the_same_rows_and_answers(tmp_path: Path) -> None:
    from railledger.analytics.balance import winner_correlations
    from railledger.analytics.review import game_tables
    from railledger.analytics.scope import BOTH, Population, counted_games

    fresh = tmp_path / "fresh.duckdb"
    with Archive.open(fresh) as archive:
        for path in OWN_RECORDS:
            record = notation.read(path.read_text(encoding="utf-8"))
            archive.store(record, replay=replay_record(record, keep_going=True, snapshots=True))
    old = tmp_path / "old.duckdb"
    written_at_version_8(fresh, old)
    fresh = without_flag_words(fresh, tmp_path / "fresh-before-ingest.duckdb")
    with Archive.open(old) as converted, Archive.open(fresh, read_only=True) as expected:
        assert converted.schema_version == latest_version()  # 9 converts the states, later ones follow
        for table in ARCHIVE_TABLES:
            if table in SUMMARIES:  # derived all at once by the migration, game by game when stored
                assert_frame_equal(converted.table(table).sort(pl.all()), expected.table(table).sort(pl.all()))
            else:
                assert_frame_equal(converted.table(table), expected.table(table))
        every = Population(BOTH, every_verdict=True)
        assert_frame_equal(winner_correlations(converted, counted_games(converted, every)),
                           winner_correlations(expected, counted_games(expected, every)))
        key = expected.game_keys()[0]
        assert_frame_equal(game_tables(converted, key).company_states, game_tables(expected, key).company_states)
    assert change_rows(old) == change_rows(fresh)


def test_a_replaced_game_keeps_one_row_per_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables of changes and the summaries have no primary key: replacing a game (a new
    engine) leaves only the new version's rows, each once."""
    played = notation.read(OWN_RECORDS[0].read_text(encoding="utf-8"))  # finished, so that its players are ranked
    record = dataclasses.replace(played, status="finished", result=replay_record(played, keep_going=True).result)
    replay = replay_record(record, keep_going=True, snapshots=True)
    db = tmp_path / "replaced.duckdb"
    with Archive.open(db) as archive:
        archive.store(record, replay=replay)
    first = change_rows(db)
    monkeypatch.setattr("railledger.replay.engine_version", lambda title, variant=None: "next")
    with Archive.open(db) as archive:
        assert archive.store(record, replay=replay) is StoreOutcome.REPLACED
        assert archive.table("company_states").rows() == snapshot_rows(record, replay)["company_states"]
    assert change_rows(db) == first and all(rows for table, rows in first.items() if table != "seat_runs")  # no audit here
