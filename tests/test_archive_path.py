"""The archive path (``--db``) is opened only when it is a regular DuckDB file or nothing yet.

A FIFO, a device, a socket, a directory, an empty file or a file of another format is refused
by every command at once with a line saying what the path is; DuckDB is never given it. DuckDB
itself opens every file with extension loading off and its configuration locked, so a file it
could read through an extension (SQLite) never makes it load or download one.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from railledger.cli.app import app
from railledger.records import Archive, ArchiveBusy, ArchiveError
from railledger.records.connection import SETTINGS, archive_failure, open_duckdb
from railledger.records.errors import ArchiveDamaged, NotAnArchive
from tests.conftest import act, export

runner = CliRunner()
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "18ms-opening.rln"

COMMANDS = {
    "ingest": ["ingest", str(EXAMPLE)],
    "games": ["games"],
    "show": ["show", "1"],
    "report": ["report", "1"],
    "stats": ["stats"],
    "ratings": ["ratings"],
    "audit": ["audit", "1"],
    "export": ["export", "{out}"],
    "dashboard": ["dashboard"],
    "simulate": ["simulate", "--title", "18MS", "--players", "3", "--games", "1"],
}
"""Every command that takes --db, with arguments that would otherwise do some work."""


def _fifo(folder: Path) -> Path:
    os.mkfifo(folder / "fifo.duckdb")
    return folder / "fifo.duckdb"


def _socket(folder: Path) -> Path:
    path = folder / "s.duckdb"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))  # left bound: the file stays a socket for the test
    return path


def _directory(folder: Path) -> Path:
    (folder / "dir.duckdb").mkdir()
    return folder / "dir.duckdb"


def _empty(folder: Path) -> Path:
    (folder / "empty.duckdb").write_bytes(b"")
    return folder / "empty.duckdb"


def _sqlite(folder: Path) -> Path:
    path = folder / "games.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE games (id INTEGER)")
    con.commit()
    con.close()
    return path


def _parquet(folder: Path) -> Path:
    path = folder / "games.parquet"
    pl.DataFrame({"id": [1, 2]}).write_parquet(path)
    return path


def _csv(folder: Path) -> Path:
    path = folder / "games.csv"
    path.write_text("id,title\n1,18MS\n")
    return path


PATHS: dict[str, tuple[Callable[[Path], Path], str]] = {
    "fifo": (_fifo, "is a FIFO (named pipe), not an archive file"),
    "device": (lambda folder: Path("/dev/null"), "/dev/null is a character device, not an archive file"),
    "socket": (_socket, "is a socket, not an archive file"),
    "directory": (_directory, "is a directory, not an archive file"),
    "empty": (_empty, "is an empty file, not a DuckDB archive"),
    "sqlite": (_sqlite, "is not a DuckDB file (it is a SQLite database)"),
    "parquet": (_parquet, "is not a DuckDB file (it is a Parquet file)"),
    "csv": (_csv, "is not a DuckDB file (it is text)"),
}


@pytest.mark.parametrize("kind", PATHS)
@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_refuses_a_path_that_is_no_archive_at_once(kind: str, command: str, tmp_path: Path,
                                                                  fifo_guard: None) -> None:
    make, said = PATHS[kind]
    path = make(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    args = [arg.format(out=tmp_path / "out") for arg in COMMANDS[command]]
    started = time.monotonic()
    result = runner.invoke(app, [*args, "--db", str(path), "--wait", "0"])
    assert time.monotonic() - started < 5
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # a clean exit, no traceback
    (line,) = result.stderr.strip().splitlines()
    assert said in line and str(path) in line, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written beside it


@pytest.mark.parametrize("kind", ["fifo", "directory", "sqlite"])
def test_the_dashboards_loaders_refuse_it_too(kind: str, tmp_path: Path, fifo_guard: None) -> None:
    from railledger.dashboard import data

    path = PATHS[kind][0](tmp_path)
    with pytest.raises(NotAnArchive, match=PATHS[kind][1].replace("(", r"\(").replace(")", r"\)")):
        data.overview(str(path))


def test_a_write_ahead_log_that_is_not_a_file_is_refused(tmp_path: Path, fifo_guard: None) -> None:
    db = tmp_path / "a.duckdb"
    assert runner.invoke(app, ["ingest", str(EXAMPLE), "--db", str(db)]).exit_code == 0
    os.mkfifo(f"{db}.wal")
    result = runner.invoke(app, ["games", "--db", str(db), "--wait", "0"])
    assert result.exit_code == 1
    assert "the archive's write-ahead log" in result.stderr and "is a FIFO" in result.stderr


def test_a_missing_folder_is_said_as_such(tmp_path: Path) -> None:
    db = tmp_path / "no" / "such" / "a.duckdb"
    for args in (["ingest", str(EXAMPLE)], ["games"]):
        result = runner.invoke(app, [*args, "--db", str(db)])
        assert result.exit_code == 1
        (line,) = result.stderr.strip().splitlines()
        assert line.endswith(f"the folder {db.parent} does not exist"), result.stderr
    assert not (tmp_path / "no").exists()


def test_a_missing_archive_in_a_folder_that_exists_is_created_by_a_write_only(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    assert "no archive here" in runner.invoke(app, ["games", "--db", str(db)]).stderr
    assert not db.exists()
    assert runner.invoke(app, ["ingest", str(EXAMPLE), "--db", str(db)]).exit_code == 0
    assert db.exists()


def test_permission_denied_is_said_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test runs as root in CI, which no file mode stops: the refusal is made to happen."""
    db = tmp_path / "a.duckdb"
    assert runner.invoke(app, ["ingest", str(EXAMPLE), "--db", str(db)]).exit_code == 0
    from railledger.records import archive_file

    def refused(*args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(archive_file.os, "open", refused)
    result = runner.invoke(app, ["games", "--db", str(db)])
    assert result.exit_code == 1
    assert result.stderr.strip() == f"archive {db}: permission denied (this user may not read it or its folder)"


@pytest.mark.parametrize(
    ("error", "kind", "said"),
    [
        (duckdb.Error("Corrupt database file: computed checksum 1 does not match stored checksum 2"), ArchiveDamaged,
         "is damaged: Corrupt database file"),
        (duckdb.SerializationException("Serialization Error: Failed to deserialize"), ArchiveDamaged, "is damaged"),
        (duckdb.IOException('IO Error: Could not set lock on file "a.duckdb": Conflicting lock is held in x (PID 7)'),
         ArchiveBusy, "is in use by another process (PID 7, x)"),
        (duckdb.IOException('IO Error: Cannot open file "a.duckdb": Permission denied'), ArchiveError, "permission denied"),
        (duckdb.ConstraintException("Constraint Error: NOT NULL constraint failed"), ArchiveError, "Constraint Error"),
        (duckdb.IOException("IO Error: Trying to read a database file with version number 99, but we can only read "
                            "version 65.\nThe database file was created with a newer version of DuckDB."), ArchiveError,
         "was written by a DuckDB this railledger cannot read (IO Error: Trying to read a database file with version number 99"),
    ],
)
def test_duckdbs_failures_are_said_for_what_they_mean(error: duckdb.Error, kind: type, said: str) -> None:
    failure = archive_failure(Path("a.duckdb"), error)
    assert type(failure) is kind and said in str(failure) and "\n" not in str(failure)


def test_a_failure_of_a_statement_is_no_damage_but_any_failure_while_opening_is() -> None:
    error = duckdb.ConversionException("Conversion Error: could not convert")
    assert type(archive_failure(Path("a.duckdb"), error)) is ArchiveError
    assert type(archive_failure(Path("a.duckdb"), error, opening=True)) is ArchiveDamaged


# ------------------------------------------------------------------------------ DuckDB's own configuration


def test_every_connection_has_extension_loading_off_and_its_configuration_locked(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    with Archive.open(db) as archive:
        con = archive._con
        settings = dict(con.execute(
            "SELECT name, value FROM duckdb_settings() WHERE name IN ('autoinstall_known_extensions', "
            "'autoload_known_extensions', 'allow_community_extensions', 'lock_configuration', 'enable_progress_bar')"
        ).fetchall())
        assert settings == {"autoinstall_known_extensions": "false", "autoload_known_extensions": "false",
                            "allow_community_extensions": "false", "lock_configuration": "true",
                            "enable_progress_bar": "false"}
        with pytest.raises(duckdb.InvalidInputException, match="locked"):
            con.execute("SET autoload_known_extensions = true")
        with pytest.raises(duckdb.Error):
            con.execute("INSTALL sqlite")
    assert set(SETTINGS) == {"autoinstall_known_extensions", "autoload_known_extensions", "allow_community_extensions"}


_OPEN_IN_A_CLEAN_HOME = """
import sys, time
from railledger.records.connection import open_duckdb
started = time.monotonic()
try:
    open_duckdb(sys.argv[1], read_only=True)
except Exception as exc:
    print(type(exc).__name__, time.monotonic() - started)
else:
    print("opened", time.monotonic() - started)
"""


@pytest.mark.parametrize("make", [_sqlite, _parquet, _csv], ids=["sqlite", "parquet", "csv"])
def test_duckdb_itself_handed_another_format_loads_and_fetches_nothing(make: Callable[[Path], Path], tmp_path: Path) -> None:
    """Past the path check, DuckDB opened with railledger's settings: a SQLite file, which DuckDB
    reads through its sqlite extension, is refused without loading or downloading it (before the
    settings it spent seconds trying, and made ~/.duckdb/extensions/); nothing appears in the home
    folder or beside the file."""
    path = make(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"), "http_proxy": "http://127.0.0.1:9",
           "https_proxy": "http://127.0.0.1:9"}
    done = subprocess.run([sys.executable, "-c", _OPEN_IN_A_CLEAN_HOME, str(path)], env=env, capture_output=True,
                          text=True, timeout=60, check=True)
    outcome, seconds = done.stdout.split()
    assert outcome != "opened" and float(seconds) < 1.0, done.stdout
    assert list(home.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_the_reference_schema_is_built_with_the_same_settings() -> None:
    con = open_duckdb(":memory:")
    try:
        assert con.execute("SELECT current_setting('autoload_known_extensions')").fetchone() == (False,)
    finally:
        con.close()


def test_a_records_text_never_reaches_duckdbs_configuration(tmp_path: Path) -> None:
    """A record naming DuckDB settings and extensions is stored as data, and the archive's
    connections stay as they were."""
    record = tmp_path / "r.json"
    record.write_text(json.dumps(export([act(1, "bid", company="AGS", price=30)], id="x'; INSTALL sqlite; --",
                                        players=[{"id": 10, "name": "SET autoload_known_extensions=1"},
                                                 {"id": 20, "name": "LOAD sqlite"}])))
    db = tmp_path / "a.duckdb"
    assert runner.invoke(app, ["ingest", "--allow-invalid", str(record), "--db", str(db)]).exit_code == 0
    with Archive.open(db, read_only=True) as archive:
        assert archive._con.execute("SELECT current_setting('autoload_known_extensions')").fetchall() == [(False,)]
        assert set(archive.games()["players"][0]) == {"SET autoload_known_extensions=1", "LOAD sqlite"}
