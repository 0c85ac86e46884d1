"""Compacting an archive: its free blocks given back, every row kept, and the archive untouched
when anything fails (records.compaction, ``railledger compact``, the end of an ingest)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from railledger.pipeline.ingesting import ingest_paths
from railledger.records import Archive, ArchiveBusy, ArchiveError
from railledger.records import archive as archive_module
from railledger.records import compaction, connection
from railledger.records.archive import Blocks
from railledger.cli.app import app
from tests.conftest import REPO, every_row

GAMES = REPO / "tests" / "games"
SELFPLAY_GAMES = REPO / "tests" / "selfplay_games"


def archive_with_free_blocks(path: Path) -> None:
    """An archive of test games ingested in two runs: the second one's checkpoints rewrite the
    tables the first wrote, leaving megabytes of the file free."""
    for folder in (GAMES, SELFPLAY_GAMES):
        assert not ingest_paths([str(folder)], path).failures


def blocks(path: Path) -> Blocks:
    with Archive.open(path, read_only=True) as archive:
        return archive.blocks()


def test_compacting_gives_the_free_blocks_back_and_keeps_every_row(tmp_path: Path) -> None:
    db = tmp_path / "games.duckdb"
    archive_with_free_blocks(db)
    before, rows = db.stat().st_size, every_row(db)
    assert blocks(db).free_bytes > 2 * 1024 * 1024
    done = compaction.compact(db)
    assert done is not None and done.before == before and done.after == db.stat().st_size < before - 2 * 1024 * 1024
    assert blocks(db).free == 0
    assert every_row(db) == rows
    assert sum(len(table) for table in rows.values()) > 1000  # the games are there, not an empty schema
    assert compaction.compact(db) is None  # nothing free: nothing done
    assert [p.name for p in tmp_path.iterdir()] == ["games.duckdb"]  # no copy left beside it


def test_an_ingest_compacts_only_when_the_free_blocks_are_worth_a_copy(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "games.duckdb"
    archive_with_free_blocks(db)
    monkeypatch.setattr(compaction, "WORTH_BYTES", 1024 ** 3)  # a gigabyte free: not here
    assert ingest_paths([str(GAMES)], db).compacted is None
    assert blocks(db).free_bytes > 2 * 1024 * 1024
    monkeypatch.setattr(compaction, "WORTH_BYTES", 1024 * 1024)
    line = ingest_paths([str(GAMES)], db).compacted
    assert line is not None and line.startswith("archive compacted: ") and str(db) in line
    assert blocks(db).free == 0


def test_a_copy_that_differs_is_refused_and_leaves_the_archive_as_it_was(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "games.duckdb"
    archive_with_free_blocks(db)
    before = db.read_bytes()
    copy = archive_module.copy_database

    def losing_events(con: duckdb.DuckDBPyConnection, source: str, target: str) -> None:
        copy(con, source, target)
        con.execute(f"DELETE FROM {target}.main.events")  # a copy that lost one table's rows

    monkeypatch.setattr(archive_module, "copy_database", losing_events)
    with pytest.raises(ArchiveError, match=r"the copy of table events holds 0 rows, not \d+"):
        compaction.compact(db)
    assert db.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["games.duckdb"]


def test_a_busy_archive_is_not_compacted(tmp_path: Path) -> None:
    db = tmp_path / "games.duckdb"
    archive_with_free_blocks(db)
    holder = duckdb.connect(str(db))
    try:
        with pytest.raises(ArchiveBusy):
            compaction.compact(db, wait=0.1)
    finally:
        holder.close()
    assert blocks(db).free > 0


def test_the_command_compacts_and_says_what_it_gave_back(tmp_path: Path) -> None:
    db = tmp_path / "games.duckdb"
    archive_with_free_blocks(db)
    first = CliRunner().invoke(app, ["compact", "--db", str(db)])
    assert first.exit_code == 0 and first.stdout.startswith("archive compacted: ") and " MB -> " in first.stdout
    again = CliRunner().invoke(app, ["compact", "--db", str(db)])
    assert again.exit_code == 0 and "nothing to compact" in again.stdout
    missing = CliRunner().invoke(app, ["compact", "--db", str(tmp_path / "none.duckdb")])
    assert missing.exit_code == 1 and "no archive here" in missing.stderr
    with pytest.raises(FileNotFoundError):
        compaction.compact(tmp_path / "none.duckdb")
    assert not (tmp_path / "none.duckdb").exists()


def games_in(path: Path) -> int:
    with Archive.open(path, read_only=True) as archive:
        return int(archive._con.execute("SELECT count(*) FROM games").fetchall()[0][0])


def test_an_open_that_reached_the_file_a_compaction_replaced_opens_the_new_one(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = tmp_path / "games.duckdb", tmp_path / "new.duckdb"
    assert not ingest_paths([str(GAMES)], old).failures
    assert not ingest_paths([str(SELFPLAY_GAMES)], new).failures
    expected = games_in(new)
    real_open = connection.open_duckdb
    opened: list[int] = []

    def replaced_meanwhile(database: str, read_only: bool = False) -> duckdb.DuckDBPyConnection:
        con = real_open(database, read_only)  # the old file reached and locked...
        if not opened:
            new.replace(old)  # ...while a compaction put another in its place
        opened.append(1)
        return con

    monkeypatch.setattr(connection, "open_duckdb", replaced_meanwhile)
    with Archive.open(old, read_only=True, wait=5) as archive:
        assert int(archive._con.execute("SELECT count(*) FROM games").fetchall()[0][0]) == expected
    assert len(opened) == 2


def test_an_ingest_waiting_for_a_compaction_stores_its_games_in_the_compacted_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "games.duckdb"
    archive_with_free_blocks(db)
    stored = games_in(db)
    copy = archive_module.copy_database
    copying = threading.Event()

    def slow_copy(con: duckdb.DuckDBPyConnection, source: str, target: str) -> None:
        copy(con, source, target)
        copying.set()
        time.sleep(2.0)  # the other process asks for the archive meanwhile

    monkeypatch.setattr(archive_module, "copy_database", slow_copy)
    done: list[compaction.Compaction | None] = []
    compacting = threading.Thread(target=lambda: done.append(compaction.compact(db)))
    compacting.start()
    assert copying.wait(30)
    waiting = subprocess.run([sys.executable, "-m", "railledger", "ingest", str(REPO / "tests" / "sentence_games"),
                              "--db", str(db), "--wait", "30", "--allow-invalid"], capture_output=True, text=True)
    compacting.join()
    assert done and done[0] is not None and waiting.returncode == 0, waiting.stderr
    assert games_in(db) == stored + 2  # the waiting ingest's two games are in the file now in place
