"""railledger stats and export on an archive of the repository's own games.

``tests/games`` and ``examples`` hold two replayed 18MS games with the same draft (Ada BS,
Brunel AGS, Cugnot M&O): in the opening example all three tie at 625 (all win, rank 1); in the
short game Ada (seat 1) wins, Brunel is 2nd and Cugnot 3rd. The 18Texas and 1871 examples are
stored without a replay. None of them is finished, so by default stats counts none of them; the
tests of the figures ask for --all-games.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from railledger.cli.app import app
from railledger.pipeline.exporting import PART_FILE, folder_name
from railledger.records import Archive
from railledger.records.archive import ARCHIVE_TABLES
from tests.conftest import REPO

runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("stats") / "archive.duckdb")
    result = runner.invoke(app, ["ingest", "--allow-invalid", str(REPO / "tests" / "games"), str(REPO / "examples"), "--db", path])
    assert result.exit_code == 0, result.output
    return path


def table_rows(output: str) -> list[list[str]]:
    """The body cells of every rich table in the output."""
    lines = [line for line in output.splitlines() if line.startswith("│")]
    return [[cell.strip() for cell in line.strip("│ ").split("│")] for line in lines]


def test_stats_prints_win_rates_with_sample_size_and_interval(db: str) -> None:
    result = runner.invoke(app, ["stats", "--db", db, "--title", "18ms", "--all-games"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Counting 2 replayed games." in result.output
    rows = table_rows(result.output)
    factors = [r for r in rows if len(r) == 8]
    assert {r[0] for r in factors} == {"18MS"}  # --title drops the pooled rows
    by_key = {(r[1], r[2]): r[3:] for r in factors}
    assert by_key[("seat", "1")] == ["2", "2", "1.00", "0.34-1.00", "1.00"]
    assert by_key[("seat", "2")] == ["2", "1", "0.50", "0.09-0.91", "1.50"]
    assert by_key[("seat", "3")] == ["2", "1", "0.50", "0.09-0.91", "2.00"]
    assert by_key[("private", "BS")] == ["2", "2", "1.00", "0.34-1.00", "1.00"]
    assert by_key[("private", "M&O")] == ["2", "1", "0.50", "0.09-0.91", "2.00"]
    assert not any(factor == "first_permanent" for factor, _ in by_key)  # no permanent train bought
    # the short game's 2+ trains: first bought in its 1st OR; the record stops before they rust
    assert ["18MS", "2+", "bought", "1", "1"] in rows and not any(r[:3] == ["18MS", "2+", "gone"] for r in rows)
    assert "validation flags (every game): none" in " ".join(result.output.split())


def test_stats_count_only_valid_games_by_default_and_say_what_they_left_out(db: str) -> None:
    result = runner.invoke(app, ["stats", "--db", db, "--title", "18ms"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "Counting 0 valid games; left out: 2 unfinished (--all-games to include them)." in result.output
    assert "winner correlations (games with standings): none" in result.output
    assert not [r for r in table_rows(result.output) if len(r) == 8]


def test_stats_pools_titles_without_a_filter(db: str) -> None:
    result = runner.invoke(app, ["stats", "--db", db, "--all-games"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    scopes = {r[0] for r in table_rows(result.output) if len(r) == 8}
    assert scopes == {"18MS", "18Texas", "The Old Prince 1871", "all titles"}  # the example auctions are replayed too


def test_csv_export_writes_every_table(db: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(app, ["export", "--format", "csv", str(out), "--db", db])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{name}.csv" for name in ARCHIVE_TABLES)
    read = partial(pl.read_csv, infer_schema_length=None)  # phases: "2", "2H"
    with Archive.open(db, read_only=True) as archive:
        for name in ARCHIVE_TABLES:
            expected = archive.table(name)
            assert read(out / f"{name}.csv").height == expected.height, name
            assert f"{out / name}.csv: {expected.height} row" in result.output
    assert read(out / "games.csv").height == 6  # tests/games (3) and examples (3)


def _rows(frame: pl.DataFrame) -> list[str]:
    """A frame's rows in a fixed order, comparable whatever order they were read in."""
    return sorted(map(repr, frame.rows()))


def test_parquet_export_is_a_dataset_by_title_that_duckdb_reads_back_as_the_archive(db: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(app, ["export", "--format", "parquet", str(out), "--db", db])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == sorted(ARCHIVE_TABLES)
    with Archive.open(db, read_only=True) as archive:
        frames = {name: archive.table(name) for name in ARCHIVE_TABLES}
    titles = frames["games"].select(pl.col("key").alias("game_key"), "title")
    assert titles["title"].n_unique() == 3
    compared = 0
    for name, expected in frames.items():
        assert f"{out / name}/: {expected.height} row" in result.output
        titled = expected if name == "games" else expected.join(titles, on="game_key", how="left")
        folders = sorted(p.name for p in (out / name).iterdir())
        assert folders == sorted(folder_name(t) for t in titled["title"].unique())
        if not expected.height:
            continue
        query = "SELECT * FROM read_parquet($files, hive_partitioning = true, hive_types = {'title': VARCHAR})"
        read = pl.from_arrow(duckdb.sql(query, params={"files": str(out / name / "*" / PART_FILE)}).to_arrow_table())
        assert isinstance(read, pl.DataFrame)
        assert sorted(read.columns) == sorted(titled.columns), name
        assert _rows(read.select(titled.columns)) == _rows(titled), name
        compared += 1
    assert compared >= 10  # the replayed games fill the per-action tables


def test_a_second_parquet_export_replaces_the_first(db: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    stale = out / "games" / folder_name("Some Title Gone Since") / PART_FILE
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"not parquet")
    result = runner.invoke(app, ["export", "--format", "parquet", str(out), "--db", db])
    assert result.exit_code == 0, result.output
    assert not stale.exists()
    assert duckdb.execute("SELECT count(*) FROM read_parquet($files, hive_partitioning = true)",
                          {"files": str(out / "games" / "*" / PART_FILE)}).fetchone() == (6,)


def test_a_partition_folder_name_escapes_what_would_name_another_path() -> None:
    assert folder_name("18MS") == "title=18MS"
    assert folder_name("The Old Prince 1871") == "title=The Old Prince 1871"
    assert folder_name("../x=y") == "title=..%2Fx%3Dy"
    assert folder_name(None) == "title=__HIVE_DEFAULT_PARTITION__"


def test_export_refuses_an_unknown_format(db: str, tmp_path: Path) -> None:
    result = runner.invoke(app, ["export", "--format", "xml", str(tmp_path), "--db", db])
    assert result.exit_code == 2 and not list(tmp_path.iterdir())
