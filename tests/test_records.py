"""The archive: exact round trips, idempotent and atomic stores, locking, queries, migrations."""

from __future__ import annotations

import dataclasses
import json
import re
import select
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator, Mapping

import duckdb
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import fixture_params
from railledger.ingest import notation
from railledger.ingest.export import read_export
from railledger.ingest.model import Action, Entity, Player, Record
from railledger.records import schema
from railledger.records.schema import game_tables, latest_version, migrations
from railledger.records import Archive, ArchiveBusy, ArchiveError, StoreOutcome
from railledger.records.archive import ARCHIVE_TABLES
from railledger.records.states import STATE_TABLES
from railledger.records.codec import canonical_json, content_hash
from railledger.records.errors import ArchiveDamaged, ForeignArchive, ReplayWouldBeLost
from railledger.replay import engine_version

TABLES = ("games", "players", "actions", "programs", "seat_bots", "schema_version")


def strict(value: Any) -> Any:
    """A comparable form of ``value`` that tells 1 from True from 1.0 and list from tuple.

    Plain ``==`` on records says ``{"a": 1} == {"a": True}``; an exact round trip needs more.
    """
    if dataclasses.is_dataclass(value):
        return type(value).__name__, [(f.name, strict(getattr(value, f.name))) for f in dataclasses.fields(value)]
    if isinstance(value, Mapping):
        return "dict", sorted((strict(k), strict(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [strict(item) for item in value]
    return type(value).__name__, value


def dump(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table, read with a separate connection (the archive must be closed)."""
    con = duckdb.connect(str(path), read_only=True)
    try:
        return {table: sorted(con.execute(f"SELECT * FROM {table}").fetchall(), key=repr) for table in TABLES}
    finally:
        con.close()


def hand_made(game_id: str = "hand-1", title: str = "18MS", **changes: Any) -> Record:
    """A record built directly: int and str player ids, every JSON type in fields, a program."""
    record = Record(
        title=title,
        game_id=game_id,
        players=(Player(101, "Ann"), Player("Bob", "Bob"), Player(7, "Cleo")),
        actions=(
            Action(
                "bid",
                Entity("player", 101),
                1,
                0,
                {"company": "AR", "price": 20, "flag": True, "ratio": 0.5, "none": None,
                 "nested": {"a": [1, "1", None, False, {"b": [], "c": {}}], "big": 2**70}},
            ),
            Action("pass", Entity("player", "Bob"), 2),
            Action("lay_tile", Entity("corporation", "GMO"), 3, 0, {"hex": "E11", "tile": "57-0", "rotation": 0}),
            Action("pass", Entity("minor", 4), 3, 1, {"note": "Ünïcødé ✓", "count": -3}),
        ),
        seed=9_000_000_000_000,
        optional_rules=("rule_b", "rule_a"),
        status="active",
        result={101: 10, "Bob": 20, 7: -5},
        programs=(Action("program_share_pass", Entity("player", 7), 5, 0, {"unconditional": False}),),
    )
    return dataclasses.replace(record, **changes)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "test.duckdb"


@pytest.mark.fixtures
@pytest.mark.parametrize("fixture", fixture_params())
def test_shared_fixture_round_trips_exactly(db: Path, fixture: Path) -> None:
    record = read_export(json.loads(fixture.read_text(encoding="utf-8")))
    with Archive.open(db) as archive:
        assert archive.store(record, origin=str(fixture)) is StoreOutcome.NEW
    with Archive.open(db, read_only=True) as archive:
        by_key = archive.record(record.key)
        by_source_id = archive.record(record.game_id)
    assert by_key == record
    assert strict(by_key) == strict(record)
    assert strict(by_source_id) == strict(record)


def test_hand_made_record_round_trips_exactly(db: Path) -> None:
    record = hand_made()
    with Archive.open(db) as archive:
        assert archive.store(record, origin="hand.json") is StoreOutcome.NEW
    with Archive.open(db, read_only=True) as archive:
        rebuilt = archive.record("18xx.games/hand-1")
    assert strict(rebuilt) == strict(record)
    assert [type(p.id) for p in rebuilt.players] == [int, str, int]
    assert rebuilt.result is not None and [type(k) for k in rebuilt.result] == [int, str, int]
    assert rebuilt.programs[0].fields == {"unconditional": False}


def test_bots_per_seat_round_trip_and_leave_peoples_hashes_alone(db: Path) -> None:
    people = hand_made()
    played = hand_made(game_id="bots-1", source="selfplay",
                       players=(Player(101, "Ann", bot="greedy"), Player("Bob", "Bob"), Player(7, "Cleo", bot="random")))
    with Archive.open(db) as archive:
        archive.store(people)
        archive.store(played)
        assert strict(archive.record("selfplay/bots-1")) == strict(played)
        assert strict(archive.record("18xx.games/hand-1")) == strict(people)
        assert sorted(archive.table("seat_bots").rows()) == [("selfplay/bots-1", 1, "greedy"), ("selfplay/bots-1", 3, "random")]
    # people's seats hash as they did before bots were recorded; a bot is content
    assert '"players":[[101,"Ann"],["Bob","Bob"],[7,"Cleo"]]' in canonical_json(people)
    assert content_hash(dataclasses.replace(played, players=people.players)) != content_hash(played)


def test_record_without_result_or_seed_round_trips(db: Path) -> None:
    bare = hand_made(result=None, seed=None, status=None, optional_rules=(), programs=())
    empty_result = hand_made(game_id="hand-2", result={})
    with Archive.open(db) as archive:
        archive.store(bare)
        archive.store(empty_result)
        assert strict(archive.record("hand-1")) == strict(bare)
        assert strict(archive.record("hand-2")) == strict(empty_result)


def test_second_store_of_same_record_writes_nothing(db: Path) -> None:
    with Archive.open(db) as archive:
        archive.store(hand_made(), origin="first.json")
    before = dump(db)
    reordered = hand_made(
        actions=tuple(dataclasses.replace(a, fields=dict(reversed(list(a.fields.items())))) for a in hand_made().actions)
    )
    with Archive.open(db) as archive:
        assert archive.store(hand_made(), origin="first.json") is StoreOutcome.UNCHANGED
        # Where it came from and the order of keys inside fields are not content.
        assert archive.store(reordered, origin="elsewhere.json") is StoreOutcome.UNCHANGED
    assert dump(db) == before


def test_content_hash_tells_types_apart() -> None:
    base = hand_made()
    flag_as_int = hand_made(
        actions=(dataclasses.replace(base.actions[0], fields={**base.actions[0].fields, "flag": 1}), *base.actions[1:])
    )
    assert flag_as_int == base  # Python's == cannot see True became 1 ...
    assert content_hash(flag_as_int) != content_hash(base)  # ... the hash must
    assert content_hash(hand_made(players=(Player("101", "Ann"), *base.players[1:]))) != content_hash(base)


def test_changed_record_replaces_the_old_version(db: Path) -> None:
    old = hand_made()
    new = hand_made(
        actions=(*old.actions[:2], Action("buy_train", Entity("corporation", "GMO"), 9, 0, {"price": 80})),
        players=old.players[:2],
        result={101: 1, "Bob": 2},
        programs=(),
    )
    with Archive.open(db) as archive:
        archive.store(old)
        archive.store(hand_made(game_id="other"))
        assert archive.store(new, origin="new.json") is StoreOutcome.REPLACED
        assert strict(archive.record("hand-1")) == strict(new)
        games = archive.games().filter(key="18xx.games/hand-1")
        assert games["actions"].to_list() == [3]
        assert games["players"].to_list() == [["Ann", "Bob"]]
    rows = dump(db)
    mine = {t: [r for r in rows[t] if r[0] == "18xx.games/hand-1"] for t in ("games", "players", "actions", "programs")}
    assert [len(mine[t]) for t in ("games", "players", "actions", "programs")] == [1, 2, 3, 0]
    assert sorted(r[4] for r in mine["actions"]) == ["bid", "buy_train", "pass"]
    assert mine["games"][0][9] == "new.json"  # origin (columns: see docs/schema.md)
    assert len(rows["actions"]) == 3 + len(old.actions)  # the other game is untouched


def test_type_only_change_is_replaced(db: Path) -> None:
    base = hand_made()
    changed = hand_made(
        actions=(dataclasses.replace(base.actions[0], fields={**base.actions[0].fields, "flag": 1}), *base.actions[1:])
    )
    with Archive.open(db) as archive:
        archive.store(base)
        assert archive.store(changed) is StoreOutcome.REPLACED
        assert archive.record("hand-1").actions[0].fields["flag"].__class__ is int


def _fail_on_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the actions insert raise, after the games and players rows of the game are written."""
    real = Archive._insert_rows

    def failing(self: Archive, table: str, games: list[tuple[str, Mapping[str, list[Any]]]], numbers: Mapping[str, int]) -> None:
        if table == "actions":
            raise RuntimeError("disk on fire")
        real(self, table, games, numbers)

    monkeypatch.setattr(Archive, "_insert_rows", failing)


def test_failed_replace_rolls_back_to_the_previous_version(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = hand_made()
    with Archive.open(db) as archive:
        archive.store(old)
    before = dump(db)
    with Archive.open(db) as archive:
        _fail_on_actions(monkeypatch)
        with pytest.raises(RuntimeError, match="disk on fire"):
            archive.store(hand_made(status="finished", players=old.players[:1], result={101: 3}))
        monkeypatch.undo()
        assert strict(archive.record("hand-1")) == strict(old)
        # The connection is usable again after the rollback.
        assert archive.store(hand_made(game_id="after")) is StoreOutcome.NEW
    after = dump(db)
    assert {t: [r for r in after[t] if "after" not in r[0]] for t in TABLES if t != "schema_version"} == {
        t: before[t] for t in TABLES if t != "schema_version"
    }


def test_failed_first_store_leaves_no_rows(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Archive.open(db) as archive:
        _fail_on_actions(monkeypatch)
        with pytest.raises(RuntimeError):
            archive.store(hand_made())
    assert all(not rows for table, rows in dump(db).items() if table != "schema_version")


def test_record_with_values_json_would_change_is_refused(db: Path) -> None:
    base = hand_made()
    with_tuple = hand_made(actions=(dataclasses.replace(base.actions[0], fields={"nested": {"hexes": ("A1", "B2")}}),))
    with Archive.open(db) as archive:
        with pytest.raises(ValueError, match=r"action 1: field \['nested'\]\['hexes'\] is a tuple"):
            archive.store(with_tuple)
        with pytest.raises(ValueError, match="result key 999"):
            archive.store(hand_made(result={999: 1}))
        assert archive.games().is_empty()


def test_second_process_holding_the_file_makes_open_raise_busy(db: Path) -> None:
    Archive.open(db).close()
    holder = "import duckdb, sys, time; con = duckdb.connect(sys.argv[1]); print('locked', flush=True); time.sleep(60)"
    child = subprocess.Popen([sys.executable, "-c", holder, str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([child.stdout], [], [], 30)
        assert ready, "the child process did not take the lock within 30 s"
        assert child.stdout.readline().strip() == "locked", child.stderr.read()
        for read_only in (False, True):
            with pytest.raises(ArchiveBusy) as caught:
                Archive.open(db, read_only=read_only)
            message = str(caught.value)
            assert "\n" not in message
            assert message.startswith(f"archive {db} is in use by another process")
            assert message.endswith("try again when it finishes")
            if caught.value.pid is not None:
                assert f"PID {child.pid}" in message
    finally:
        child.kill()
        child.wait(timeout=10)
    with Archive.open(db) as archive:  # free again once the other process is gone
        assert archive.schema_version == latest_version()


def test_busy_message_names_the_holder() -> None:
    detail = (
        'IO Error: Could not set lock on file "/x/a.duckdb": Conflicting lock is held in '
        "/usr/bin/python3.11 (PID 4242) by user ann. See also https://duckdb.org/docs/current/connect/concurrency"
    )
    busy = ArchiveBusy("a.duckdb", detail)
    assert str(busy) == "archive a.duckdb is in use by another process (PID 4242, /usr/bin/python3.11); try again when it finishes"
    assert busy.pid == 4242


def test_read_only_open_of_missing_file_is_a_clear_error(db: Path) -> None:
    with pytest.raises(FileNotFoundError, match=f"archive {db} does not exist"):
        Archive.open(db, read_only=True)
    assert not db.exists()


def test_read_only_archive_refuses_to_store(db: Path) -> None:
    Archive.open(db).close()
    with Archive.open(db, read_only=True) as archive, pytest.raises(ArchiveError, match="read-only"):
        archive.store(hand_made())


def test_games_filters_by_title_and_player(db: Path) -> None:
    with Archive.open(db) as archive:
        archive.store(hand_made(game_id="20"))
        archive.store(hand_made(game_id="3"))
        archive.store(hand_made(game_id="5", title="1871", players=(Player(55, "Dora"),), result=None))
        everything = archive.games()
        assert everything.columns == [
            "key", "title", "source", "source_id", "players", "status", "actions", "seed", "ingested_at",
            "verdict", "verdict_detail", "engine", "variant_hash",
        ]
        assert everything["key"].to_list() == ["18xx.games/5", "18xx.games/3", "18xx.games/20"]
        assert everything["players"].to_list()[1] == ["Ann", "Bob", "Cleo"]
        assert everything["actions"].to_list() == [4, 4, 4]
        assert archive.games(title="18ms")["source_id"].to_list() == ["3", "20"]
        assert archive.games(player="dor")["source_id"].to_list() == ["5"]
        assert archive.games(player="101")["source_id"].to_list() == ["3", "20"]
        assert archive.games(title="1871", player="ann").is_empty()
        assert archive.games(title="nope").columns == everything.columns
        # the newest (highest source id here: none has a creation day), listed in the usual order
        assert archive.games(newest=2)["source_id"].to_list() == ["5", "20"]
        assert archive.games(title="18ms", newest=1)["source_id"].to_list() == ["20"]
        assert archive.games(newest=5)["source_id"].to_list() == ["5", "3", "20"]
        assert [archive.count_games(), archive.count_games(title="18ms"), archive.count_games(player="dor"),
                archive.count_games(title="1871", player="ann")] == [3, 2, 1, 0]
        # the same rows as Python values, for a command that prints them without polars
        for asked in ({}, {"title": "18ms"}, {"player": "101", "newest": 1}, {"title": "1871", "player": "ann"}):
            assert archive.game_rows(**asked) == archive.games(**asked).to_dicts()
        assert isinstance(archive.game_rows()[0]["ingested_at"], datetime)
        summary = archive.summary()
        assert summary.rows() == [("1871", 1, 4), ("18MS", 2, 8)]


def test_record_lookup_errors_are_clear(db: Path) -> None:
    with Archive.open(db) as archive:
        archive.store(hand_made(game_id="42"))
        archive.store(dataclasses.replace(hand_made(game_id="42"), source="elsewhere"))
        with pytest.raises(KeyError, match="no game 7 in archive"):
            archive.record("7")
        with pytest.raises(KeyError, match="18xx.games/42, elsewhere/42"):
            archive.record("42")
        assert archive.record("elsewhere/42").source == "elsewhere"


def test_schema_is_at_the_latest_version_and_reopening_applies_nothing(db: Path) -> None:
    latest = latest_version()
    with Archive.open(db) as archive:
        assert archive.schema_version == latest == len(migrations())
    applied = sorted(dump(db)["schema_version"])  # by version: dump sorts text, where 10 comes before 2
    assert [row[:2] for row in applied] == [(m.version, m.name) for m in migrations()]
    assert [row[:2] for row in applied[:5]] == [(1, "initial"), (2, "replay"), (3, "created"), (4, "flag_causes"), (5, "runs")]
    with Archive.open(db) as archive:
        assert archive.schema_version == latest
    with Archive.open(db, read_only=True) as archive:
        assert archive.schema_version == latest
    assert sorted(dump(db)["schema_version"]) == applied


def test_a_version_1_archive_is_upgraded_and_keeps_its_games(db: Path) -> None:
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)")
    con.execute(migrations()[0].sql)
    con.execute("INSERT INTO schema_version VALUES (1, 'initial', now()::TIMESTAMP)")
    con.close()
    with pytest.raises(ArchiveError, match="schema version 1; open it for writing once"):
        Archive.open(db, read_only=True)
    with Archive.open(db) as archive:
        assert archive.schema_version == latest_version()
        archive.store(hand_made())
        assert archive.table("flags").is_empty() and archive.games().height == 1


def test_files_that_are_not_usable_archives_are_refused(tmp_path: Path) -> None:
    foreign = tmp_path / "foreign.duckdb"
    con = duckdb.connect(str(foreign))
    con.execute("CREATE TABLE games (x INTEGER)")
    con.close()
    with pytest.raises(ArchiveError, match="not a railledger archive"):
        Archive.open(foreign)

    newer = tmp_path / "newer.duckdb"
    Archive.open(newer).close()
    con = duckdb.connect(str(newer))
    con.execute("INSERT INTO schema_version VALUES (99, 'future', now()::TIMESTAMP)")
    con.close()
    with pytest.raises(ArchiveError, match="schema version 99, newer than this railledger"):
        Archive.open(newer, read_only=True)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=25,
)


@settings(max_examples=40, deadline=None)
@given(fields=st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=5), entity=st.integers(0, 10**6) | st.text())
def test_any_json_fields_round_trip(tmp_path_factory: pytest.TempPathFactory, fields: dict, entity: int | str) -> None:
    db = tmp_path_factory.getbasetemp() / "property.duckdb"
    record = hand_made(actions=(Action("bid", Entity("player", entity), 1, 0, fields),))
    with Archive.open(db) as archive:
        archive.store(record)
        assert strict(archive.record("hand-1")) == strict(record)


# ------------------------------------------------------------------------------ files railledger did not make

CRAFTED_TABLE = "x; COPY (SELECT 'pwned') TO '{target}'; UPDATE games SET status = 'pwned'; --"


def test_a_crafted_table_name_is_refused_before_any_sql_of_the_file_runs(db: Path, tmp_path: Path) -> None:
    """The archive once deleted from every table of its own catalog with ``DELETE FROM {table}``:
    a table named with SQL ran that SQL on the next replacement."""
    target = tmp_path / "written-by-the-file.csv"
    with Archive.open(db) as archive:
        archive.store(hand_made())
    con = duckdb.connect(str(db))
    con.execute(f'CREATE TABLE "{CRAFTED_TABLE.format(target=target)}" (game_key VARCHAR)')
    con.close()
    before = dump(db)
    for read_only in (False, True):
        with pytest.raises(ForeignArchive, match="has a table railledger does not make") as caught:
            Archive.open(db, read_only=read_only)
        assert "\n" not in str(caught.value)
    assert not target.exists() and dump(db) == before


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        ("CREATE MACRO lower(x) AS 'pwned'", "holds a macro railledger never makes ('lower')"),
        ("CREATE MACRO duckdb_tables() AS TABLE SELECT 1 AS table_name", "holds a macro railledger never makes ('duckdb_tables')"),
        ("CREATE VIEW games_view AS SELECT * FROM games", "holds a view railledger never makes ('games_view')"),
        ("CREATE SEQUENCE s", "holds a sequence railledger never makes ('s')"),
        ("CREATE TYPE mood AS ENUM ('a')", "holds a type railledger never makes ('mood')"),
        ("CREATE INDEX by_title ON games (title)", "holds an index railledger never makes ('by_title')"),
        ("CREATE SCHEMA elsewhere", "holds a schema railledger never makes ('elsewhere')"),
        # a trigger's SQL would run on the archive's own inserts (DuckDB 2.0 keeps triggers in the file)
        ("CREATE TRIGGER wipe AFTER INSERT ON players FOR EACH STATEMENT UPDATE games SET status = 'pwned'",
         "holds a trigger railledger never makes ('wipe')"),
        ("ALTER TABLE games ADD COLUMN extra VARCHAR DEFAULT 'x'", "the columns or constraints of 'games' differ"),
        ("DROP TABLE flags", "it lacks the table flags"),
        ("INSERT INTO schema_version VALUES (99, 'gap', now()::TIMESTAMP)", "newer than this railledger"),
        ("DELETE FROM schema_version WHERE version = 2", "has schema versions [1, 3, 4, 5"),
    ],
)
def test_a_catalog_railledger_did_not_make_is_refused(db: Path, statement: str, message: str) -> None:
    Archive.open(db).close()
    con = duckdb.connect(str(db))
    con.execute(statement)
    con.close()
    with pytest.raises(ArchiveError, match=re.escape(message)):
        Archive.open(db)


def _kept_for_this_duckdb() -> dict[str, Any]:
    """The kept reference; the test skips, saying why, under a DuckDB other than the one it was
    made by (a fresh install may bring a newer one): archives are then checked the slow way."""
    kept: dict[str, Any] = json.loads(schema.KEPT_REFERENCE.read_text(encoding="utf-8"))
    if kept["duckdb"] != duckdb.__version__:
        pytest.skip(f"{schema.KEPT_REFERENCE.name} was made by DuckDB {kept['duckdb']}, this is {duckdb.__version__}: "
                    "it is not used here (run 'make reference' to keep one for this DuckDB)")
    return kept


def test_the_kept_reference_is_what_the_migrations_build() -> None:
    """Opening an archive compares its catalog with the kept one: it must be the migrations' own."""
    kept = json.loads(schema.KEPT_REFERENCE.read_text(encoding="utf-8"))
    assert kept["migrations"] == schema._migrations_fingerprint(), \
        f"{schema.KEPT_REFERENCE} was made from other migrations: run 'make reference'"
    assert _kept_for_this_duckdb() == schema.reference_document(), f"{schema.KEPT_REFERENCE} is stale: run 'make reference'"


@pytest.fixture
def fresh_reference() -> Iterator[None]:
    """The code's schema found again by the next open, as in a new process, and after the test."""
    found = (schema._reference, schema.table_columns, schema.game_tables)
    for cached in found:
        cached.cache_clear()
    yield
    for cached in found:
        cached.cache_clear()


def test_an_archive_is_checked_without_building_the_schema_in_memory(
        db: Path, monkeypatch: pytest.MonkeyPatch, fresh_reference: None) -> None:
    _kept_for_this_duckdb()
    Archive.open(db).close()

    def built(version: int) -> None:
        raise AssertionError(f"built version {version} in memory")

    monkeypatch.setattr(schema, "_made_by_code", built)
    monkeypatch.setattr(schema, "_verified", {})  # as a new process: nothing checked yet
    with Archive.open(db, read_only=True) as archive:
        assert archive.schema_version == latest_version()


@pytest.mark.parametrize("stale", ["duckdb", "migrations"])
def test_a_reference_kept_for_other_migrations_or_another_duckdb_is_not_used(
        db: Path, monkeypatch: pytest.MonkeyPatch, fresh_reference: None, stale: str) -> None:
    if stale == "duckdb":
        monkeypatch.setattr(duckdb, "__version__", "0.0.1")
    else:
        last = migrations()[-1]
        changed = (*migrations()[:-1], dataclasses.replace(last, sql=last.sql + "\nCREATE TABLE added (x INTEGER);"))
        monkeypatch.setattr(schema, "migrations", lambda: changed)
    assert schema._kept_reference() is None
    assert ("added" in schema.expected_catalog(latest_version()).tables) == (stale == "migrations")
    Archive.open(db).close()  # built from the migrations, as they are now
    monkeypatch.setattr(schema, "_verified", {})
    con = duckdb.connect(str(db))
    con.execute("ALTER TABLE games ADD COLUMN extra VARCHAR")
    con.close()
    with pytest.raises(ForeignArchive, match="the columns or constraints of 'games' differ"):
        Archive.open(db, read_only=True)


def test_per_game_tables_come_from_the_code_schema() -> None:
    """Every table a reader asks for, the per-action states stored as their tables of changes."""
    stored = {table.changes for table in STATE_TABLES.values()}
    assert game_tables() == tuple(sorted(set(ARCHIVE_TABLES) - {"games"} - set(STATE_TABLES) | stored))


# ------------------------------------------------------------------------------ damaged files


@pytest.mark.parametrize("keep", [0.05, 0.3, 0.6], ids=["5%", "30%", "60%"])
def test_a_file_cut_short_is_refused_as_damaged_on_open(db: Path, tmp_path: Path, keep: float) -> None:
    with Archive.open(db) as archive:
        for n in range(30):
            archive.store(hand_made(game_id=f"g{n}", actions=hand_made().actions * 40))
    cut = tmp_path / "cut.duckdb"
    data = db.read_bytes()
    cut.write_bytes(data[: int(len(data) * keep)])
    for read_only in (True, False):
        with pytest.raises(ArchiveDamaged) as caught:
            Archive.open(cut, read_only=read_only)
        assert "damaged" in str(caught.value) and "\n" not in str(caught.value)


# ------------------------------------------------------------------------------ stores without a replay


def test_a_store_without_replay_keeps_the_stored_replay(db: Path) -> None:
    from railledger.pipeline.storing import store_record

    game = notation.read((Path(__file__).parent / "games" / "18ms-short.rln").read_text())
    with Archive.open(db) as archive:
        assert store_record(archive, game) is StoreOutcome.NEW
        steps = archive.table("steps", game.key).height
        assert steps == len(game.actions)
        assert archive.store(game) is StoreOutcome.UNCHANGED  # same content: the states stay
        assert archive.table("steps", game.key).height == steps
        changed = dataclasses.replace(game, status="abandoned")
        with pytest.raises(ReplayWouldBeLost, match="would delete that version's per-action states"):
            archive.store(changed)
        assert archive.table("steps", game.key).height == steps and archive.record(game.key) == game
        assert archive.stored_version(game.key) == (content_hash(game), engine_version(game.title))
        assert archive.stored_version("18xx.games/none") is None


def test_a_fresh_process_check_of_a_file_leaves_tables_readable(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each command is a new process, so its open checks the file; DuckDB 2 kept a result of
    that check unfinished and refused every later table read (``railledger stats`` failed)."""
    with Archive.open(db) as archive:
        archive.store(hand_made())
    monkeypatch.setattr(schema, "_verified", {})  # as a new process: nothing checked yet
    with Archive.open(db, read_only=True) as archive:
        assert archive.table("players")["name"].to_list() == ["Ann", "Bob", "Cleo"]
        assert archive.stored_version("18xx.games/hand-1") is not None
        assert archive.table("games").height == 1


# ------------------------------------------------------------------------------ the text a record was read from


def test_the_text_a_record_was_read_from_is_kept_compressed_and_given_back(db: Path) -> None:
    from railledger.ingest.model import SourceText

    record = hand_made()
    text = json.dumps({"undo history": ["x"] * 500, "name": "Ünïcødé"})
    with Archive.open(db) as archive:
        archive.store(record, source=SourceText("json", text))
        assert archive.source("hand-1") == SourceText("json", text)
        (size, packed), = archive.table("sources").select("size", "text_zlib").rows()
        assert size == len(text.encode()) and len(packed) < size / 10
        assert archive.source("hand-1") is not None
        # The same content again from notation keeps the export; an export replaces kept notation.
        assert archive.store(record, source=SourceText("notation", "[Notation 1]")) is StoreOutcome.UNCHANGED
        assert archive.source("hand-1") == SourceText("json", text)
        archive.store(hand_made(game_id="hand-2"), source=SourceText("notation", "[Notation 1]"))
        assert archive.store(hand_made(game_id="hand-2"), source=SourceText("json", "{}")) is StoreOutcome.UNCHANGED
        assert archive.source("hand-2") == SourceText("json", "{}")
        # A replaced game keeps no text of its old version unless it brings its own.
        assert archive.store(hand_made(status="finished")) is StoreOutcome.REPLACED
        assert archive.source("hand-1") is None


@pytest.mark.fixtures
@pytest.mark.parametrize("fixture", fixture_params())
def test_a_shared_record_keeps_its_envelope_and_its_verdict(db: Path, fixture: Path) -> None:
    from railledger.pipeline.storing import store_record
    from railledger.ingest.model import SourceText

    text = fixture.read_text(encoding="utf-8")
    record = read_export(json.loads(text))
    with Archive.open(db) as archive:
        store_record(archive, record, source=SourceText("json", text))
        stored = archive.stored(record.key)
        back = archive.record(record.key)
        assert archive.source(record.key) == SourceText("json", text)
    assert stored is not None and stored.verdict is not None and stored.verdict.kind in ("valid", "unfinished")
    assert strict(back) == strict(record)
    envelopes = [a.envelope() for a in back.actions if a.envelope()]
    assert envelopes == [a.envelope() for a in record.actions if a.envelope()] and envelopes


def test_copies_hold_every_row_of_their_original_under_a_new_key(db: Path) -> None:
    """``copy_games`` (how the bench grows a large archive) gives each copy every row of its
    original in every per-game table, under the copy's key, cycling through the originals."""
    from railledger.replay import replay_record

    originals = {}
    with Archive.open(db) as archive:
        for name in ("18ms-short", "18texas-short"):
            played = notation.read((Path(__file__).parent / "games" / f"{name}.rln").read_text(encoding="utf-8"))
            # finished with its replay's result, so that its players are ranked and have seat factors to copy
            record = dataclasses.replace(played, status="finished", result=replay_record(played, keep_going=True).result)
            archive.store(record, replay=replay_record(record, keep_going=True, snapshots=True))
            originals[record.key] = record
        assert archive.copy_games(3, batch=2) == 5
        assert archive.copy_games(0) == 5
        games = archive.table("games").sort("key")
        copies = games.filter(pl.col("source_id").str.contains("-copy"))
        first, second = (originals[key].game_id for key in sorted(originals))
        assert copies["source_id"].to_list() == [f"{first}-copy2", f"{first}-copy4", f"{second}-copy3"]
        for copy in copies.iter_rows(named=True):
            original = next(key for key in originals if copy["key"].startswith(f"{key}-copy"))
            assert copy["key"] == f"{copy['source']}/{copy['source_id']}"
            assert archive.record(copy["key"]) == dataclasses.replace(originals[original], game_id=copy["source_id"])
            same = games.filter(pl.col("key") == original).drop("key", "source_id", "origin")
            assert copy == {**same.row(0, named=True), "key": copy["key"], "source_id": copy["source_id"], "origin": None}
            for table in (t for t in ARCHIVE_TABLES if t != "games"):  # the states as rebuilt from the copied changes
                rows = archive.table(table, original).drop("game_key")
                assert archive.table(table, copy["key"]).drop("game_key").equals(rows), table
                assert rows.height or table in ("flags", "programs", "runs", "seat_bots", "seat_runs", "sources"), table  # none here


def game_numbers_out_of_place(db: Path) -> dict[str, tuple[int, int]]:
    """Per table holding games' rows: (rows whose number is not their game's, rows lying after a
    row of a higher-numbered game), and for ``games`` (numbers held twice, 0)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        found = {"games": (con.execute("SELECT count(*) - count(DISTINCT number) FROM games").fetchall()[0][0], 0)}
        for table in game_tables():
            (wrong,), = con.execute(f"SELECT count(*) FROM {table} t LEFT JOIN games g ON g.key = t.game_key "
                                    "WHERE t.game_number IS DISTINCT FROM g.number").fetchall()
            (back,), = con.execute(f"SELECT count(*) FROM (SELECT game_number < lag(game_number) OVER (ORDER BY rowid) AS b "
                                   f"FROM {table}) WHERE b").fetchall()
            found[table] = (wrong, back)
        return found
    finally:
        con.close()


def test_every_row_carries_its_games_number_and_numbers_grow_along_each_table(db: Path) -> None:
    """A game's number (schema 13) is what a read of one game filters on, so that DuckDB skips the
    row groups of other games: every per-game row must carry its game's, and a table's rows must
    lie in the order of their numbers (each row group then spans few numbers). New games take the
    next numbers, a replaced game a new one (its rows go after every other's), copies theirs."""
    from railledger.ingest.model import SourceText
    from railledger.replay import replay_record

    with Archive.open(db) as archive:
        for name in ("18ms-short", "18texas-short"):
            record = notation.read((Path(__file__).parent / "games" / f"{name}.rln").read_text(encoding="utf-8"))
            archive.store(record, replay=replay_record(record, keep_going=True, snapshots=True), source=SourceText("notation", name))
        archive.store(hand_made())
        archive.store(hand_made(game_id="hand-2"))
        assert archive.store(hand_made(status="finished")) is StoreOutcome.REPLACED
        archive.copy_games(4, batch=3)
        numbers = dict(archive._con.execute("SELECT key, number FROM games").fetchall())
    assert sorted(numbers.values()) == [1, 2, 4, 5, 6, 7, 8, 9]  # 3 was the replaced version's
    assert numbers["18xx.games/hand-1"] == 5
    found = game_numbers_out_of_place(db)
    assert set(found) == {"games", *game_tables()}
    assert all(counts == (0, 0) for counts in found.values()), found
    with Archive.open(db) as archive:  # an unchanged game taking a new text keeps its number
        first = notation.read((Path(__file__).parent / "games" / "18ms-short.rln").read_text(encoding="utf-8"))
        assert archive.store(first, source=SourceText("json", "{}")) is StoreOutcome.UNCHANGED
        assert archive.source(first.key) == SourceText("json", "{}")
    assert all(wrong == 0 for wrong, _ in game_numbers_out_of_place(db).values())


def test_game_facts_are_in_play_order_as_duckdb_orders_the_games(db: Path) -> None:
    """``game_facts`` numbers the games in polars (DuckDB's window over the whole sort cost more
    than the rest of the read): its order must be DuckDB's own over the same columns, for ids
    read as numbers and ids that are not, games without a creation day, and text DuckDB and
    polars might collate differently."""
    games = [("10", "2024-01-02"), ("9", "2024-01-02"), ("abc", "2024-01-02"), ("9a", None), ("2", None),
             ("1", "2024-01-03"), ("-3", "2024-01-02"), ("+4", "2024-01-02"), (" 5", "2024-01-02"), ("Z", "2024-01-02"),
             ("é", "2024-01-02"), ("a", "2024-01-02"), ("00", "2024-01-02"), ("0", "2024-01-02")]
    with Archive.open(db) as archive:
        for game_id, created in games:
            archive.store(hand_made(game_id, created=created))
            archive.store(hand_made(game_id, source="other", created=created))
        facts = archive.game_facts()
    con = duckdb.connect(str(db), read_only=True)
    try:
        expected = [key for (key,) in con.execute(
            "SELECT key FROM games ORDER BY created NULLS LAST, try_cast(source_id AS BIGINT) NULLS LAST, source_id, key"
        ).fetchall()]
    finally:
        con.close()
    assert facts["key"].to_list() == expected
    assert facts["order"].to_list() == list(range(1, 2 * len(games) + 1))
