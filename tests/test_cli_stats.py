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

import polars as pl
import pytest
from typer.testing import CliRunner

from cli.app import app
from records import Archive
from records.archive import ARCHIVE_TABLES
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


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_export_writes_every_table(db: str, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / "out"
    result = runner.invoke(app, ["export", "--format", fmt, str(out), "--db", db])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{name}.{fmt}" for name in ARCHIVE_TABLES)
    read = pl.read_parquet if fmt == "parquet" else partial(pl.read_csv, infer_schema_length=None)  # phases: "2", "2H"
    with Archive.open(db, read_only=True) as archive:
        for name in ARCHIVE_TABLES:
            expected = archive.table(name)
            assert read(out / f"{name}.{fmt}").height == expected.height, name
            assert f"{out / name}.{fmt}: {expected.height} row" in result.output
    assert read(out / f"games.{fmt}").height == 6  # tests/games (3) and examples (3)


def test_export_refuses_an_unknown_format(db: str, tmp_path: Path) -> None:
    result = runner.invoke(app, ["export", "--format", "xml", str(tmp_path), "--db", db])
    assert result.exit_code == 2 and not list(tmp_path.iterdir())
