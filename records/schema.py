"""Versioned schema migrations for the archive.

Migrations are the files ``records/migrations/NNNN_name.sql``, numbered from 0001 without gaps.
The ``schema_version`` table lists the versions applied to a file; opening an archive for writing
applies each missing version in order, each in its own transaction together with its
``schema_version`` row, so a file is always at one whole version. Applied migrations are never
edited: a schema change is a new file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import cache
from pathlib import Path

import duckdb

from records.connection import transaction
from records.errors import ArchiveError

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
_MIGRATION_FILE = re.compile(r"(?P<version>\d{4})_(?P<name>\w+)\.sql")

_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER   PRIMARY KEY,
    name       VARCHAR   NOT NULL,
    applied_at TIMESTAMP NOT NULL
)
"""


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


@cache
def migrations() -> tuple[Migration, ...]:
    """The migrations shipped with this railledger, in version order."""
    found = []
    for path in MIGRATIONS_DIR.glob("*.sql"):
        match = _MIGRATION_FILE.fullmatch(path.name)
        if match is None:
            raise RuntimeError(f"migration file {path.name} is not named NNNN_name.sql")
        found.append(Migration(int(match["version"]), match["name"], path.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations in {MIGRATIONS_DIR} must be numbered 0001, 0002... without gaps")
    return tuple(found)


def latest_version() -> int:
    return len(migrations())


def current_version(con: duckdb.DuckDBPyConnection) -> int:
    """The highest version applied to the open file; 0 for a file without a ``schema_version`` table."""
    if not _table_names(con) >= {"schema_version"}:
        return 0
    (version,) = con.execute("SELECT coalesce(max(version), 0) FROM schema_version").fetchone()
    return version


def prepare(con: duckdb.DuckDBPyConnection, path: Path, read_only: bool) -> None:
    """Bring a freshly opened file to the latest version, or explain why it cannot be used.

    A read-only open never changes the file, so an archive behind this railledger must first be
    opened for writing (any ``railledger ingest`` does it).
    """
    version = current_version(con)
    latest = latest_version()
    if version > latest:
        raise ArchiveError(
            f"archive {path} has schema version {version}, newer than this railledger knows ({latest}); upgrade railledger"
        )
    if version == 0 and _table_names(con):
        raise ArchiveError(f"{path} is a DuckDB file but not a railledger archive (it has no schema_version table)")
    if version == latest:
        return
    if read_only:
        if version == 0:
            raise ArchiveError(f"{path} is empty, not a railledger archive yet; run 'railledger ingest' to fill it")
        raise ArchiveError(
            f"archive {path} has schema version {version}; open it for writing once (e.g. railledger ingest) "
            f"to upgrade it to {latest}"
        )
    for migration in migrations()[version:]:
        _apply(con, migration)


def _apply(con: duckdb.DuckDBPyConnection, migration: Migration) -> None:
    with transaction(con):
        con.execute(_VERSION_TABLE)
        con.execute(migration.sql)
        con.execute(
            "INSERT INTO schema_version VALUES (?, ?, ?)",
            [migration.version, migration.name, datetime.now(timezone.utc).replace(tzinfo=None)],
        )


def _table_names(con: duckdb.DuckDBPyConnection) -> set[str]:
    rows = con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main'"
    ).fetchall()
    return {name for (name,) in rows}


def game_tables(con: duckdb.DuckDBPyConnection) -> tuple[str, ...]:
    """Tables holding rows of one game (they have a ``game_key`` column), besides ``games`` itself."""
    rows = con.execute(
        "SELECT DISTINCT table_name FROM duckdb_columns() "
        "WHERE database_name = current_database() AND schema_name = 'main' AND column_name = 'game_key' "
        "ORDER BY table_name"
    ).fetchall()
    return tuple(name for (name,) in rows)
