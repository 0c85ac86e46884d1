"""Archives checked by one process are known to the next (records.verified) while nobody has
changed them, and only then: any write, a write-ahead log, another DuckDB or other migrations, a
file changed just before its check, or a damaged memory make the next open check the file again."""

from __future__ import annotations

import os
import time
from pathlib import Path

import duckdb
import pytest

from railledger.records import Archive, schema, verified
from railledger.records.errors import ForeignArchive
from tests.test_records import hand_made


@pytest.fixture
def memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A memory of its own, remembering files however recently they changed, for one test."""
    monkeypatch.setenv("RAILLEDGER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(verified, "SETTLED_NS", 0)
    return verified.cache_file()


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    db = tmp_path / "kept.duckdb"
    with Archive.open(db) as opened:
        opened.store(hand_made())
    return db


class Checks:
    """Counts the checks of a file's catalog, each open as in a new process."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        self._monkeypatch = monkeypatch
        check = schema._refuse_foreign_objects

        def counted(con: duckdb.DuckDBPyConnection, path: Path) -> None:
            self.count += 1
            check(con, path)

        monkeypatch.setattr(schema, "_refuse_foreign_objects", counted)

    def open(self, db: Path) -> int:
        """Open ``db`` read-only as a new process would; how many checks that took."""
        self._monkeypatch.setattr(schema, "_verified", {})
        before = self.count
        with Archive.open(db, read_only=True) as opened:
            assert opened.count_games() == 1
        return self.count - before


def test_a_file_checked_once_is_not_checked_again_until_written(
        memory: Path, archive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    checks = Checks(monkeypatch)
    assert checks.open(archive) == 1
    assert memory.is_file() and oct(memory.stat().st_mode & 0o777) == oct(0o600)
    assert checks.open(archive) == 0
    assert checks.open(archive) == 0
    with Archive.open(archive) as opened:  # a write: the file's times change
        opened.store(hand_made(status="abandoned"))
    assert checks.open(archive) == 1


def test_a_macro_added_behind_the_archives_back_is_refused_although_the_file_was_checked(
        memory: Path, archive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    checks = Checks(monkeypatch)
    assert checks.open(archive) == 1
    con = duckdb.connect(str(archive))
    con.execute("CREATE MACRO lower(x) AS x")
    con.close()
    monkeypatch.setattr(schema, "_verified", {})
    with pytest.raises(ForeignArchive, match="a macro"):
        Archive.open(archive, read_only=True)


def test_a_write_ahead_log_beside_the_file_makes_it_checked_again(
        memory: Path, archive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    checks = Checks(monkeypatch)
    assert checks.open(archive) == 1
    assert verified.recall(archive, schema._code_identity()) is not None
    Path(f"{archive}.wal").write_bytes(b"")
    assert verified.recall(archive, schema._code_identity()) is None


def test_another_duckdb_or_other_migrations_check_the_file_again(memory: Path, archive: Path) -> None:
    verified.remember(archive, 14, "duckdb 2.0.1 migrations a", checked_at_ns=0 + 10**19)
    assert verified.recall(archive, "duckdb 2.0.1 migrations a") == 14
    assert verified.recall(archive, "duckdb 2.0.1 migrations b") is None
    assert verified.recall(archive, "duckdb 2.0.2 migrations a") is None


def test_a_file_changed_just_before_its_check_is_not_remembered(tmp_path: Path, archive: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAILLEDGER_CACHE_DIR", str(tmp_path / "cache"))
    written = os.stat(archive).st_ctime_ns
    verified.remember(archive, 14, "code", checked_at_ns=written + verified.SETTLED_NS - 1)
    assert verified.recall(archive, "code") is None
    verified.remember(archive, 14, "code", checked_at_ns=written + verified.SETTLED_NS)
    assert verified.recall(archive, "code") == 14


@pytest.mark.parametrize("kept", ["{not json", "[1, 2]", '{"1:2": 3}', ""])
def test_a_damaged_memory_is_ignored_and_replaced(memory: Path, archive: Path, monkeypatch: pytest.MonkeyPatch,
                                                  kept: str) -> None:
    memory.parent.mkdir(parents=True, exist_ok=True)
    memory.write_text(kept)
    checks = Checks(monkeypatch)
    assert checks.open(archive) == 1
    assert checks.open(archive) == 0


def test_an_unwritable_memory_only_costs_the_check(tmp_path: Path, archive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setenv("RAILLEDGER_CACHE_DIR", str(blocked))
    monkeypatch.setattr(verified, "SETTLED_NS", 0)
    checks = Checks(monkeypatch)
    assert checks.open(archive) == 1
    assert checks.open(archive) == 1


def test_the_memory_keeps_the_most_recently_checked_files(memory: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verified, "KEPT", 2)
    files = []
    for n in range(3):
        path = tmp_path / f"f{n}"
        path.write_text(str(n))
        verified.remember(path, n, "code", checked_at_ns=10**19)
        files.append(path)
    assert [verified.recall(path, "code") for path in files] == [None, 1, 2]


def test_a_file_written_again_with_its_old_size_and_modification_time_is_checked_again(
        memory: Path, tmp_path: Path) -> None:
    """Only the change time, which no program can set back, tells this file from the one checked."""
    path = tmp_path / "same-size"
    path.write_text("abc")
    verified.remember(path, 14, "code", checked_at_ns=10**19)
    assert verified.recall(path, "code") == 14
    before = os.stat(path)
    time.sleep(0.05)  # past the file clock's tick
    path.write_text("xyz")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (os.stat(path).st_size, os.stat(path).st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert verified.recall(path, "code") is None
