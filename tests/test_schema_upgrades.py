"""Archives written at an older schema version convert, on their first writable open, to the rows
a fresh archive holds, and give every reader the same answers: the per-game tables' rows in
their order (the review steps through them), the games list, the statistics and the ratings.

Version 12 makes the per-game tables again without their primary keys (schema.md); the other
conversions have tests of their own (test_state_changes for version 9)."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest
from polars.testing import assert_frame_equal

from railledger.analytics.balance import winner_correlations
from railledger.analytics.ratings import Refresh, ratings, store_ratings
from railledger.analytics.review import archive_overview, game_tables
from railledger.analytics.rush import train_rush_distribution
from railledger.analytics.scope import BOTH, Population, counted_games
from railledger.analytics.titles import title_statistics
from railledger.analytics.validation import shortfalls_by_player
from railledger.ingest import notation
from railledger.records import Archive
from railledger.records.archive import ARCHIVE_TABLES
from railledger.records.schema import latest_version, migrations, table_columns
from railledger.replay import replay_record
from railledger.replay.optimizer.audit import audit_record
from tests.test_ratings import RATED

TESTS = Path(__file__).parent
GAMES = sorted([*(TESTS / "games").glob("*.rln"), *(TESTS / "selfplay_games").glob("*.rln")])


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An archive made at the latest version: the short games and the bots' games replayed with
    their revenue audit, the rated games of the ratings' tests, and their ratings stored."""
    db = tmp_path_factory.mktemp("fresh") / "fresh.duckdb"
    with Archive.open(db) as archive:
        for path in GAMES:
            record = notation.read(path.read_text(encoding="utf-8"))
            archive.store(record, replay=replay_record(record, keep_going=True, snapshots=True), runs=audit_record(record))
        for record, replay in RATED:
            archive.store(record, replay=replay)
        store_ratings(archive)
    return db


UNRANKED = next(migration.version for migration in migrations() if migration.name == "unranked")
"""The version from which a game without a result ranks nobody (rank and winner NULL)."""
RANKED_BEFORE = {
    "rank": 'coalesce("rank", CAST(rank() OVER (PARTITION BY game_key ORDER BY "value" DESC) AS SMALLINT))',
    "winner": 'coalesce("winner", "value" = max("value") OVER (PARTITION BY game_key))',
}
"""The standings' rank and winner as versions before :data:`UNRANKED` stored them for every game:
by value, ties sharing the best rank, the best value winning."""
BEST_WHEN_OTHER = next(migration.version for migration in migrations() if migration.name == "runs_best_when_other")
"""The version from which a run's best routes are stored only where they differ from the declared ones."""
STORED_BEFORE = {
    **{("standings", column): (UNRANKED, expression) for column, expression in RANKED_BEFORE.items()},
    ("runs", "optimal_routes"): (BEST_WHEN_OTHER, 'coalesce("optimal_routes", "declared_routes")'),
}
"""(table, column) -> (the version that changed how it is stored, the column as earlier versions stored it)."""


def written_at(version: int, source: Path, target: Path) -> None:
    """``target``: the archive ``source`` as schema ``version`` held it, each table's rows (those
    of its columns at that version) in the order ``source`` holds them. Only for versions whose
    tables hold the same rows as the latest's (from 10 on), but for the stored ratings: before
    version 15 they were kept for the default count only (the games ended by hand left out); and
    for the standings: before :data:`UNRANKED` a game without a result ranked its players too; and
    for the runs: before :data:`BEST_WHEN_OTHER` every run kept its best routes."""
    con = duckdb.connect(str(target))
    try:
        con.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, applied_at TIMESTAMP NOT NULL)")
        for migration in migrations()[:version]:
            con.execute(migration.sql)
            con.execute("INSERT INTO schema_version VALUES (?, ?, now()::TIMESTAMP)", [migration.version, migration.name])
        con.execute(f"ATTACH '{source}' AS source (READ_ONLY)")
        tables = [t for (t,) in con.execute("SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()"
                                            " AND table_name <> 'schema_version'").fetchall()]
        for table in tables:
            names = [c for (c,) in con.execute(
                "SELECT column_name FROM duckdb_columns() WHERE database_name = current_database() AND table_name = ? "
                "ORDER BY column_index", [table]).fetchall()]
            columns = ", ".join(f'"{c}"' for c in names)
            source_names = {c for (c,) in con.execute(
                "SELECT column_name FROM duckdb_columns() WHERE database_name = 'source' AND table_name = ?", [table]).fetchall()}
            one_count = "WHERE NOT manual_ends" if "manual_ends" in source_names and "manual_ends" not in names else ""
            selected = ", ".join(stored[1] if (stored := STORED_BEFORE.get((table, c))) and version < stored[0] else f'"{c}"'
                                 for c in names)
            con.execute(f"INSERT INTO {table} ({columns}) SELECT {selected} FROM source.{table} {one_count} ORDER BY rowid")
        con.execute("DETACH source")
    finally:
        con.close()


def per_game_rows(db: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table but the migrations' own, in the order the file holds them."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {table: con.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY rowid").fetchall()
                for table, columns in table_columns().items() if table not in ("schema_version", "rating_basis")}
    finally:
        con.close()


FLAG_WORDS = ("round", "sentence")
"""The flags' columns of version 16: written by a replay, so empty in an archive converted from
an older version until its next ingest replays its games again (a new engine version)."""


def without_flag_words(fresh: Path, target: Path) -> Path:
    """A copy of ``fresh`` as a converted archive holds it before that ingest."""
    shutil.copy(fresh, target)
    con = duckdb.connect(str(target))
    try:
        con.execute(f"UPDATE flags SET {', '.join(f'{c} = NULL' for c in FLAG_WORDS)}")
    finally:
        con.close()
    return target


def test_a_version_11_archive_converts_to_the_same_rows_and_answers(fresh: Path, tmp_path: Path) -> None:
    old = tmp_path / "v11.duckdb"
    written_at(11, fresh, old)
    fresh = without_flag_words(fresh, tmp_path / "fresh-before-ingest.duckdb")
    con = duckdb.connect(str(old), read_only=True)
    keyed = con.execute("SELECT count(*) FROM duckdb_constraints() WHERE constraint_type = 'PRIMARY KEY'").fetchone()
    con.close()
    assert keyed is not None and keyed[0] > 3  # the per-game keys of version 11 are there to drop
    with Archive.open(old) as converted:
        assert converted.schema_version == latest_version()
        assert converted.rating_basis() is None  # version 14 drops ratings stored without the games' digest
        assert store_ratings(converted)[0] is Refresh.RECOMPUTED  # as the ingest that converts it does at its end
    assert per_game_rows(old) == per_game_rows(fresh)
    with Archive.open(old, read_only=True) as converted, Archive.open(fresh, read_only=True) as expected:
        for table in ARCHIVE_TABLES:
            assert_frame_equal(converted.table(table), expected.table(table))
        assert_frame_equal(archive_overview(converted), archive_overview(expected))
        for key in expected.game_keys():
            found, wanted = game_tables(converted, key), game_tables(expected, key)
            assert found.record == wanted.record
            for part in ("players", "steps", "player_states", "company_states", "flags", "runs", "events"):
                assert_frame_equal(getattr(found, part), getattr(wanted, part))
        every = Population(BOTH, every_verdict=True)
        assert converted.table("standings")["rank"].null_count() > 0  # the unfinished games' ranks are gone
        assert_frame_equal(winner_correlations(converted, counted_games(converted, every)),
                           winner_correlations(expected, counted_games(expected, every)))
        assert_frame_equal(train_rush_distribution(converted), train_rush_distribution(expected))
        assert_frame_equal(shortfalls_by_player(converted), shortfalls_by_player(expected))
        found_titles, wanted_titles = title_statistics(converted), title_statistics(expected)
        for part in ("summary", "values", "endings", "leaders"):
            assert_frame_equal(getattr(found_titles, part), getattr(wanted_titles, part))
        rated, wanted_ratings = ratings(converted), ratings(expected)
        assert rated.games > 0
        assert_frame_equal(rated.table, wanted_ratings.table)
        for player in wanted_ratings.table["player"]:
            assert_frame_equal(rated.of_player(converted, player).history, wanted_ratings.of_player(expected, player).history)


def test_the_per_game_tables_have_no_primary_key(fresh: Path) -> None:
    """Only ``games`` (looked up by key), the ratings' history and the migrations' own table keep
    an index: the per-game tables' keys were a third of a small archive's file, rewritten at every
    checkpoint, and no read used them."""
    con = duckdb.connect(str(fresh), read_only=True)
    try:
        keyed = {table for (table,) in con.execute(
            "SELECT table_name FROM duckdb_constraints() WHERE constraint_type IN ('PRIMARY KEY', 'UNIQUE')").fetchall()}
    finally:
        con.close()
    assert keyed == {"games", "rating_history", "schema_version"}
