"""Versioned schema migrations for the archive.

Migrations are the files ``records/migrations/NNNN_name.sql``, numbered from 0001 without gaps.
The ``schema_version`` table lists the versions applied to a file; opening an archive for writing
applies each missing version in order, each in its own transaction together with its
``schema_version`` row, so a file is always at one whole version. Applied migrations are never
edited: a schema change is a new file.

Before anything else runs on a file, :func:`prepare` holds its catalog to the schema the code's
own migrations make (applied to an in-memory database, or as :data:`KEPT_REFERENCE` keeps it):
the same tables with the same columns and constraints, and no view, macro, sequence, type,
index, schema or trigger besides. A file that differs is refused, because the archive runs SQL against
that catalog (a macro in a file even shadows DuckDB's own functions), and the identifiers the
archive uses come from the code, never from the file. A file shorter than its own block count
says (a copy cut short) is refused as damaged.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import cache
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

import duckdb

from railledger.records import verified
from railledger.records.connection import one_row, open_duckdb, transaction
from railledger.records.errors import ArchiveDamaged, ArchiveError, ForeignArchive

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
    if "schema_version" not in _catalog(con).tables:
        return 0
    (version,) = one_row(con, "SELECT coalesce(max(version), 0) FROM schema_version")  # type: ignore[misc]
    return int(version)


Fill = Callable[[duckdb.DuckDBPyConnection], None]
"""Rows a migration derives from those already stored, written in the migration's transaction."""


def prepare(con: duckdb.DuckDBPyConnection, path: Path, read_only: bool, *, fills: Mapping[int, Fill]) -> None:
    """Bring a freshly opened file to the latest version, or explain why it cannot be used.

    ``fills`` holds, by migration version, what fills the tables that migration adds from the
    games already stored (the per-game summaries of schema 10): the archive passes its own, so
    that this module, which they read their columns from, does not import them.

    The file's catalog is checked first (see the module's docstring), before any query that
    calls a function. Checking costs tens of milliseconds (DuckDB lists its thousands of own
    functions, and writes out each table's definition), and an ingest opens the archive for every
    record, so a file is checked once per process for as long as it stays as it was checked or as
    this process wrote it (:func:`mark_verified`), and once for every process while nobody writes
    it (:mod:`records.verified`). A read-only open never changes the file, so an archive behind this
    railledger must first be opened for writing (any ``railledger ingest`` does it).
    """
    latest = latest_version()
    version = _verified_version(path)
    if version is None:
        version = verified.recall(path, _code_identity())
    if version is None:
        started = time.time_ns()
        _refuse_foreign_objects(con, path)
        found = _catalog(con)
        version = _applied_version(con, path, found)
        expected = expected_catalog(version)
        if found != expected:
            raise ForeignArchive(f"{path} is not an archive as railledger makes it, so it is not used: {found.difference(expected)}")
        _refuse_short_file(con, path, expected.tables)
        verified.remember(path, version, _code_identity(), started)
    mark_verified(path, version)
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
        _apply(con, migration, fills.get(migration.version))


def _apply(con: duckdb.DuckDBPyConnection, migration: Migration, fill: Fill | None) -> None:
    with transaction(con):
        con.execute(_VERSION_TABLE)
        con.execute(migration.sql)
        if fill is not None:
            fill(con)
        con.execute(
            "INSERT INTO schema_version VALUES (?, ?, ?)",
            [migration.version, migration.name, datetime.now(timezone.utc).replace(tzinfo=None)],
        )


def _applied_version(con: duckdb.DuckDBPyConnection, path: Path, found: Catalog) -> int:
    """The file's version: 0 for an empty file, else n when its schema_version rows are 1, 2, ... n.

    The schema_version table is read only once its columns are those railledger makes.
    """
    if not found.tables:
        return 0
    # Every version makes schema_version alike: the latest's definition (which an open of an
    # up-to-date file reads anyway) spares building version 1's schema in memory too.
    if found.definitions.get("schema_version") != expected_catalog(latest_version()).definitions["schema_version"]:
        raise ForeignArchive(f"{path} is a DuckDB file but not a railledger archive (it has no schema_version table of railledger's)")
    versions = [v for (v,) in con.execute("SELECT version FROM schema_version ORDER BY version").fetchall()]
    latest = latest_version()
    if versions and versions[-1] > latest:
        raise ArchiveError(
            f"archive {path} has schema version {versions[-1]}, newer than this railledger knows ({latest}); upgrade railledger"
        )
    if versions != list(range(1, len(versions) + 1)):
        raise ForeignArchive(f"{path} has schema versions {versions[:10]}, not 1, 2, 3...: not an archive railledger made")
    return len(versions)


# ------------------------------------------------------------------------------ the file's catalog

_OTHER_OBJECTS = (
    ("a macro", "SELECT function_name FROM system.main.duckdb_functions() WHERE NOT internal"),
    ("a view", "SELECT view_name FROM system.main.duckdb_views() WHERE NOT internal"),
    ("a sequence", "SELECT sequence_name FROM system.main.duckdb_sequences()"),
    ("a type", "SELECT type_name FROM system.main.duckdb_types() WHERE NOT internal"),
    ("an index", "SELECT index_name FROM system.main.duckdb_indexes()"),
    ("a schema", "SELECT schema_name FROM system.main.duckdb_schemas() WHERE NOT internal"),
    ("a trigger", "SELECT trigger_name FROM system.main.duckdb_triggers()"),
)
"""Objects an archive never holds. The queries name DuckDB's catalog functions by their full
name and call no other function, so nothing a file defines can stand in for them. A trigger is
kept in the file (DuckDB 2.0.1 makes them) and its SQL would run on the archive's own inserts;
no table's definition shows it."""

_verified: dict[tuple[int, int], tuple[int, int, int]] = {}
"""(device, inode) -> (size, modification time in ns, schema version) of each file this process
has found to be a whole railledger archive, as it was then (or as this process last wrote it)."""


def _verified_version(path: Path) -> int | None:
    """The schema version of a file checked by this process and not changed since; else None."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    found = _verified.get((info.st_dev, info.st_ino))
    return found[2] if found is not None and found[:2] == (info.st_size, info.st_mtime_ns) else None


def mark_verified(path: Path, version: int) -> None:
    """Record that ``path`` as it is now is a whole archive at ``version``: it was checked, or
    this process wrote it after checking it."""
    try:
        info = os.stat(path)
    except OSError:
        return
    _verified[(info.st_dev, info.st_ino)] = (info.st_size, info.st_mtime_ns, version)


def _refuse_foreign_objects(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    """Refuse a file holding a view, macro, sequence, type, index, trigger or extra schema."""
    for kind, query in _OTHER_OBJECTS:
        names = [name for (name,) in con.execute(query).fetchall()]
        if names:
            listed = ", ".join(repr(n) for n in names[:3]) + (" ..." if len(names) > 3 else "")
            raise ForeignArchive(f"{path} holds {kind} railledger never makes ({listed}), so it is not used")


_HEADER_BYTES = 3 * 4096
"""DuckDB's file header and its two database headers come before the first block."""


def _refuse_short_file(con: duckdb.DuckDBPyConnection, path: Path, tables: frozenset[str]) -> None:
    """Refuse a file that ends before the last block its tables or its catalog use: a copy or a
    download cut short, whose missing blocks would fail some later read in the middle of a command.

    ``tables`` are the code's own names (the catalog has been compared with them already). A file
    holding every block DuckDB has numbered (``total_blocks``: no block id reaches it) is whole
    without listing the blocks its tables use, which costs seconds for 100,000 games; only a
    shorter file, which DuckDB leaves when the blocks at its end are free, is checked block by block.
    """
    block_size, total = one_row(con, "SELECT block_size, total_blocks FROM system.main.pragma_database_size()")  # type: ignore[misc]
    size = os.path.getsize(path)
    if size >= _HEADER_BYTES + int(total) * int(block_size):
        return
    (last,) = one_row(con, "SELECT max(block_id) FROM system.main.pragma_metadata_info()")  # type: ignore[misc]
    last = -1 if last is None else int(last)
    for table in sorted(tables):
        row = one_row(
            con, "SELECT max(block_id), max(list_max(additional_block_ids)) FROM system.main.pragma_storage_info(?)", [table]
        )
        last = max([last, *(int(value) for value in row or () if value is not None)])
    needed = _HEADER_BYTES + (last + 1) * int(block_size)
    if size < needed:
        raise ArchiveDamaged(
            f"archive {path} is damaged: the file is {size:,} bytes but its data reaches byte {needed:,} "
            "(cut short?); restore it from a copy, or ingest the records into a new archive"
        )


@dataclass(frozen=True)
class Catalog:
    """The tables of a database, each with the CREATE statement DuckDB writes for it from its
    catalog (columns, types, defaults and constraints: everything that runs on an insert)."""

    definitions: Mapping[str, str]

    @property
    def tables(self) -> frozenset[str]:
        return frozenset(self.definitions)

    def difference(self, expected: Catalog) -> str:
        """How this catalog differs from ``expected``, in one short sentence."""
        extra = sorted(self.tables - expected.tables)
        if extra:
            return f"it has a table railledger does not make ({', '.join(repr(t) for t in extra[:3])})"
        missing = sorted(expected.tables - self.tables)
        if missing:
            return f"it lacks the table{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
        changed = sorted(t for t in self.tables if self.definitions[t] != expected.definitions[t])
        return f"the columns or constraints of {', '.join(repr(t) for t in changed[:3])} differ from railledger's"


def _catalog(con: duckdb.DuckDBPyConnection) -> Catalog:
    """The catalog of the connection's database (its only one that is not DuckDB's own)."""
    rows = con.execute(
        "SELECT t.schema_name, t.table_name, t.sql FROM system.main.duckdb_tables() t "
        "JOIN system.main.duckdb_databases() d ON d.database_name = t.database_name WHERE NOT d.internal"
    ).fetchall()
    return Catalog({(table if schema_name == "main" else f"{schema_name}.{table}"): sql for schema_name, table, sql in rows})


@contextmanager
def _made_by_code(version: int) -> Iterator[duckdb.DuckDBPyConnection]:
    """An in-memory database with the code's migrations 1..version applied: the reference schema."""
    con = open_duckdb(":memory:")
    try:
        for migration in migrations()[:version]:
            con.execute(_VERSION_TABLE)
            con.execute(migration.sql)
        yield con
    finally:
        con.close()


def expected_catalog(version: int) -> Catalog:
    """The catalog the code's own migrations 1..version make."""
    return _reference(version)[0]


Reference = tuple[Catalog, Mapping[str, Mapping[str, str]]]
"""The catalog of the code's own schema, and each of its tables' columns with their types, in order."""


@cache
def _reference(version: int) -> Reference:
    """The code's own schema at ``version``: opening an archive reads it, so a reader's column
    check costs nothing more. The latest one comes from :data:`KEPT_REFERENCE` when that file was
    made from these migrations by this DuckDB, any other from the migrations themselves."""
    if version == latest_version():
        kept = _kept_reference()
        if kept is not None:
            return kept
    return _built_reference(version)


def _built_reference(version: int) -> Reference:
    """The code's own schema at ``version``, from one in-memory database the migrations build."""
    with _made_by_code(version) as con:
        catalog = _catalog(con)
        rows = con.execute(
            "SELECT table_name, list(column_name ORDER BY column_index), list(data_type ORDER BY column_index) "
            "FROM system.main.duckdb_columns() GROUP BY table_name"
        ).fetchall()
        return catalog, {name: dict(zip(columns, types)) for name, columns, types in rows if name in catalog.tables}


KEPT_REFERENCE = MIGRATIONS_DIR / "reference.json"
"""The latest schema the migrations build (:func:`_built_reference`), kept with the fingerprint of
the migrations and the DuckDB version it was built from: building it costs a process that opens
an archive a tenth of a second (a second DuckDB database, every migration, its catalog written
out), more than the rest of the check. The definitions are DuckDB's own text, which another
version may write differently, so the file stands for the migrations only under the DuckDB and
the migrations it names; otherwise they are built. Written by :func:`keep_reference` (``make
reference``); a test fails while it was made from other migrations, or, under its own DuckDB,
is not what they build."""


@cache
def _code_identity() -> str:
    """What a check of a file depends on besides the file: DuckDB's version and the migrations."""
    return f"duckdb {duckdb.__version__} migrations {_migrations_fingerprint()}"


def _migrations_fingerprint() -> str:
    """A digest of everything the code's schema is built from: the version table and every migration."""
    digest = hashlib.sha256(_VERSION_TABLE.encode())
    for migration in migrations():
        digest.update(f"\0{migration.version}\0{migration.name}\0{migration.sql}".encode())
    return digest.hexdigest()


def reference_document() -> dict[str, Any]:
    """What :data:`KEPT_REFERENCE` holds: the latest schema built from the migrations now, with
    what it was built from."""
    catalog, columns = _built_reference(latest_version())
    return {"duckdb": duckdb.__version__, "migrations": _migrations_fingerprint(),
            "definitions": dict(sorted(catalog.definitions.items())),
            "columns": {table: dict(columns[table]) for table in sorted(columns)}}


def keep_reference() -> None:
    """Write :data:`KEPT_REFERENCE` from the migrations, for this DuckDB."""
    KEPT_REFERENCE.write_text(json.dumps(reference_document(), indent=1) + "\n", encoding="utf-8")


def _kept_reference() -> Reference | None:
    """The schema :data:`KEPT_REFERENCE` holds, when it was built from these migrations by this
    DuckDB version; else None (the file is part of the code, like the migrations: its names are
    the code's own)."""
    try:
        kept = json.loads(KEPT_REFERENCE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if kept.get("duckdb") != duckdb.__version__ or kept.get("migrations") != _migrations_fingerprint():
        return None
    return Catalog(kept["definitions"]), kept["columns"]


WHOLE_ARCHIVE_TABLES = frozenset({"rating_history", "rating_table", "rating_basis", "ladder_standings"})
"""Tables holding a result of every game together (the stored ratings), or of no stored game (the
ladders' standings, whose games were played and not stored), not rows of one game,
although ``rating_history`` names a game per row: copying a game must not copy them (a copy's
ratings are not its original's, they depend on every game before it), and deleting one must not
delete part of them. They say what they were computed from, so a change to the games leaves
them out of date, and readers see it."""


@cache
def game_tables() -> tuple[str, ...]:
    """Tables holding rows of one game (they have a ``game_key`` column), besides ``games`` itself
    and :data:`WHOLE_ARCHIVE_TABLES`: read from the code's own schema, so no name in a file ever
    reaches a statement."""
    return tuple(sorted(name for name, columns in table_columns().items()
                        if "game_key" in columns and name not in WHOLE_ARCHIVE_TABLES))


@cache
def table_columns() -> Mapping[str, tuple[str, ...]]:
    """Each table's columns in the code's own schema, so a reader naming columns is checked
    against them and no name from a file or a caller reaches a statement unchecked."""
    return {table: tuple(columns) for table, columns in _reference(latest_version())[1].items()}


NUMBER = "number"
"""The column of ``games`` numbering the games 1, 2, 3... in the order they were stored (schema 13)."""
GAME_NUMBER = "game_number"
"""The column of every per-game table holding its game's number: a read of one game filters on it,
and DuckDB skips every row group whose lowest and highest number leave the game out."""


def number_column(table: str) -> str:
    """The column of ``table`` holding the number of a row's game: ``number`` in ``games``,
    ``game_number`` in a per-game table (KeyError for a table with neither)."""
    if table == "games":
        return NUMBER
    if table in game_tables():
        return GAME_NUMBER
    raise KeyError(f"table {table} holds no game's rows")


@cache
def shown_columns() -> Mapping[str, tuple[str, ...]]:
    """Each table's columns as readers see them: without the games' numbers, which are how the
    archive finds one game's rows, not part of what it stores of a game (readers, exports and
    statistics see the tables as they were before the numbers came)."""
    return {table: tuple(c for c in columns if (table, c) != ("games", NUMBER) and c != GAME_NUMBER)
            for table, columns in table_columns().items()}


def column_types() -> Mapping[str, Mapping[str, str]]:
    """Each table's columns and their SQL types in the code's own schema: rows read before they
    are stored (a batch of games being summarised) are typed as the table would type them."""
    return _reference(latest_version())[1]
