"""``--cluster``: ingest and simulate replaying on a Dask distributed cluster store the archive a
serial run stores, row for row.

The cluster is a ``dask.distributed.LocalCluster`` of two worker processes, as docs/scale.md
describes for a real one: the workers import railledger, replay, and send columns back; this
process alone writes the archive.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from railledger.cli.app import app
from railledger.records import Archive
from railledger.records.archive import ARCHIVE_TABLES
from tests.conftest import REPO, fixture_files, ingest_summary

distributed = pytest.importorskip("distributed", reason="--cluster needs dask[distributed] (pip install -e '.[dev]')")

runner = CliRunner()

WRITTEN_AT = {"games": ("ingested_at",)}
"""Columns a store fills with the moment it wrote, which two runs never share."""


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The scheduler address of a local cluster: two worker processes, one thread each."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local:
        yield local.scheduler_address


def contents(db: Path) -> dict[str, list[str]]:
    """Every archive table's rows in a fixed order (write times left out), comparable between archives."""
    with Archive.open(db, read_only=True) as archive:
        tables = {name: archive.table(name).drop(WRITTEN_AT.get(name, ())) for name in ARCHIVE_TABLES}
    return {name: sorted(map(repr, frame.rows())) for name, frame in tables.items()}


def records() -> list[str]:
    """The repository's own games and, when present, the shared 18xx.games records."""
    return [str(REPO / "tests" / "games"), str(REPO / "examples"), *map(str, fixture_files())]


def test_ingest_on_a_dask_cluster_stores_what_a_serial_ingest_stores(cluster: str, tmp_path: Path) -> None:
    serial, spread = tmp_path / "serial.duckdb", tmp_path / "cluster.duckdb"
    alone = runner.invoke(app, ["ingest", "--allow-invalid", "--workers", "1", *records(), "--db", str(serial)])
    assert alone.exit_code == 0, alone.output
    result = runner.invoke(app, ["ingest", "--allow-invalid", "--cluster", cluster, *records(), "--db", str(spread)])
    assert result.exit_code == 0, result.output
    assert ingest_summary(result.stdout) == ingest_summary(alone.stdout)
    expected, found = contents(serial), contents(spread)
    assert sum(len(rows) for rows in expected.values()) > 1_000 and expected["player_states"]  # replayed games
    for name in ARCHIVE_TABLES:
        assert found[name] == expected[name], name

    again = runner.invoke(app, ["ingest", "--allow-invalid", "--cluster", cluster, *records(), "--db", str(spread)])
    assert again.exit_code == 0, again.output
    assert ingest_summary(again.stdout) == {"new": 0, "unchanged": len(expected["games"]), "replaced": 0, "duplicate": 0, "failed": 0}
    assert contents(spread) == found



def test_simulate_on_a_dask_cluster_stores_what_one_process_stores(cluster: str, tmp_path: Path) -> None:
    serial, spread = tmp_path / "serial.duckdb", tmp_path / "cluster.duckdb"
    args = ["simulate", "--title", "18MS", "--players", "2", "--games", "3", "--bots", "greedy,random", "--rotate"]
    alone = runner.invoke(app, [*args, "--workers", "1", "--db", str(serial)])
    assert alone.exit_code == 0, alone.output
    result = runner.invoke(app, [*args, "--cluster", cluster, "--db", str(spread)])
    assert result.exit_code == 0, result.output
    assert "3 games played" in result.output and f"the Dask cluster at {cluster}" in result.output
    expected, found = contents(serial), contents(spread)
    assert len(expected["games"]) == 3 and expected["company_states"]
    for name in ARCHIVE_TABLES:
        assert found[name] == expected[name], name


def test_an_address_that_is_no_address_is_one_line_to_the_end_of_the_process(tmp_path: Path) -> None:
    """Checked before a Dask client is made: one made of it complains again when it is collected."""
    db = tmp_path / "a.duckdb"
    run = subprocess.run([sys.executable, "-m", "railledger", "ingest", str(REPO / "examples"), "--cluster", "garbage", "--db", str(db)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.splitlines() == ["cannot reach the Dask scheduler at garbage: missing port number in address 'garbage'"]
    assert not db.exists()


def test_a_cluster_that_cannot_be_reached_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    result = runner.invoke(app, ["ingest", str(REPO / "examples"), "--cluster", "nowhere://x:1", "--db", str(db)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    (line,) = result.output.strip().splitlines()
    assert line.startswith("cannot reach the Dask scheduler at nowhere://x:1: unknown address scheme 'nowhere'")
    assert not db.exists()  # refused before the archive was touched
