"""railledger stats and export on an archive of the repository's own games.

``tests/games`` and ``examples`` hold two replayed 18MS games with the same draft (Ada BS,
Brunel AGS, Cugnot M&O), neither finished: the opening example and the short game. Beside them
the short game once more, finished with its replay's result as its recorded one (Ada, seat 1,
wins; Brunel is 2nd and Cugnot 3rd): the one valid game, the only one stats count by default, and
the only 18MS game that ranks its players whatever the scope. The 18Texas and 1871 games are
unfinished too.
"""

from __future__ import annotations

import dataclasses
from functools import partial
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from railledger.cli.app import app
from railledger.ingest import notation
from railledger.pipeline.exporting import PART_FILE, archive_tables, folder_name
from railledger.records import Archive
from railledger.records.archive import ARCHIVE_TABLES
from railledger.replay import replay_record
from tests.conftest import REPO

runner = CliRunner()
FINISHED_KEY = "railledger/test-18ms-finished"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("stats")
    short = notation.read((REPO / "tests" / "games" / "18ms-short.rln").read_text(encoding="utf-8"))
    finished = dataclasses.replace(short, game_id="test-18ms-finished", status="finished",
                                   result=replay_record(short, keep_going=True).result)
    (folder / "18ms-finished.rln").write_text(notation.write(finished), encoding="utf-8")
    path = str(folder / "archive.duckdb")
    result = runner.invoke(app, ["ingest", "--allow-invalid", str(REPO / "tests" / "games"), str(REPO / "examples"),
                                 str(folder / "18ms-finished.rln"), "--db", path])
    assert result.exit_code == 0, result.output
    return path


def table_rows(output: str) -> list[list[str]]:
    """The body cells of every rich table in the output."""
    lines = [line for line in output.splitlines() if line.startswith("│")]
    return [[cell.strip() for cell in line.strip("│ ").split("│")] for line in lines]


def test_stats_prints_win_rates_with_sample_size_and_interval(db: str) -> None:
    result = runner.invoke(app, ["stats", "--db", db, "--title", "18ms"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    rows = table_rows(result.output)
    factors = [r for r in rows if len(r) == 8]
    assert {r[0] for r in factors} == {"18MS"}  # --title drops the pooled rows
    by_key = {(r[1], r[2]): r[3:] for r in factors}
    assert by_key[("seat", "1")] == ["1", "1", "1.00", "0.21-1.00", "1.00"]
    assert by_key[("seat", "2")] == ["1", "0", "0.00", "0.00-0.79", "2.00"]
    assert by_key[("seat", "3")] == ["1", "0", "0.00", "0.00-0.79", "3.00"]
    assert by_key[("private", "BS")] == ["1", "1", "1.00", "0.21-1.00", "1.00"]
    assert not any(factor == "first_permanent" for factor, _ in by_key)  # no permanent train bought
    # the short game's 2+ trains: first bought in its 1st OR; the record stops before they rust
    assert ["18MS", "2+", "bought", "1", "1"] in rows and not any(r[:3] == ["18MS", "2+", "gone"] for r in rows)
    assert "validation flags (every game): none" in " ".join(result.output.split())


def test_stats_count_only_valid_games_by_default_and_say_what_they_left_out(db: str) -> None:
    result = runner.invoke(app, ["stats", "--db", db, "--title", "18ms"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert ("18MS, 3 players: 1 people's valid finished game; left out: 2 unfinished (--every-verdict counts them)."
            in result.output)


def test_every_verdict_counts_the_unfinished_games_but_they_rank_nobody(db: str) -> None:
    result = runner.invoke(app, ["stats", "--db", db, "--title", "18ms", "--every-verdict"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "18MS, 3 players: 3 people's games of every verdict." in result.output
    rows = table_rows(result.output)
    assert [r[3:5] for r in rows if len(r) == 8 and r[1:3] == ["seat", "1"]] == [["1", "1"]]  # the finished game alone
    assert ["18MS", "2+", "bought", "1", "2"] in rows  # the train rush counts both short games (no train in the opening)


def test_stats_pools_titles_without_a_filter(db: str) -> None:
    result = runner.invoke(app, ["stats", "--db", db], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert result.output.startswith("All titles, 3 players: 1 people's valid finished game; left out: 6 unfinished")
    scopes = {r[0] for r in table_rows(result.output) if len(r) == 8}
    assert scopes == {"18MS", "all titles"}


@pytest.mark.parametrize("option", [["--games", "bots"], ["--games", "people"], ["--games", "all"]])
def test_stats_say_whose_games_they_count(db: str, option: list[str]) -> None:
    result = runner.invoke(app, ["stats", "--db", db, *option], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first.startswith({"bots": "All titles: 0 bots' valid finished games; 7 people's games not counted (--games all",
                             "people": "All titles, 3 players: 1 people's valid finished game;",
                             "all": "All titles, 3 players: 1 people's and bots' valid finished game;"}[option[1]])


def test_stats_refuse_an_unknown_kind_of_games(db: str) -> None:
    result = runner.invoke(app, ["stats", "--db", db, "--games", "robots"])
    assert result.exit_code == 2 and "people" in result.output


EVERY_GAME = ["--games", "all", "--every-verdict"]


def test_csv_export_writes_every_table(db: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(app, ["export", "--format", "csv", str(out), "--db", db, *EVERY_GAME])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("All titles, 3 and 4 players: 7 people's and bots' games of every verdict.")
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{name}.csv" for name in ARCHIVE_TABLES)
    read = partial(pl.read_csv, infer_schema_length=None)  # phases: "2", "2H"
    with Archive.open(db, read_only=True) as archive:
        for name in ARCHIVE_TABLES:
            expected = archive.table(name)
            assert read(out / f"{name}.csv").height == expected.height, name
            assert f"{out / name}.csv: {expected.height} row" in result.output
    assert read(out / "games.csv").height == 7  # tests/games (3), examples (3) and the finished game


def test_an_export_holds_the_games_stats_count_and_never_ranks_a_game_without_a_result(db: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(app, ["export", "--format", "csv", str(out), "--db", db])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("All titles, 3 players: 1 people's valid finished game; left out: 6 unfinished")
    assert pl.read_csv(out / "games.csv")["key"].to_list() == [FINISHED_KEY]
    standings = pl.read_csv(out / "standings.csv").sort("seat")
    assert standings.select("rank", "winner", "source", "bot").rows() == [
        (1, True, "railledger", None), (2, False, "railledger", None), (3, False, "railledger", None)]
    assert set(pl.read_csv(out / "actions.csv")["game_key"]) == {FINISHED_KEY}  # every table cut to the same games
    every = tmp_path / "every"
    assert runner.invoke(app, ["export", "--format", "csv", str(every), "--db", db, "--every-verdict"]).exit_code == 0
    unfinished = pl.read_csv(every / "standings.csv").filter(pl.col("game_key") != FINISHED_KEY)
    assert unfinished.height > 0 and unfinished["value"].null_count() == 0
    assert unfinished["rank"].null_count() == unfinished["winner"].null_count() == unfinished.height


def _rows(frame: pl.DataFrame) -> list[str]:
    """A frame's rows in a fixed order, comparable whatever order they were read in."""
    return sorted(map(repr, frame.rows()))


def test_parquet_export_is_a_dataset_by_title_that_duckdb_reads_back_as_the_archive(db: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(app, ["export", "--format", "parquet", str(out), "--db", db, *EVERY_GAME])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == sorted(ARCHIVE_TABLES)
    with Archive.open(db, read_only=True) as archive:
        frames = archive_tables(archive)  # the standings with each seat's source and bot
        assert all(frames[name].equals(archive.table(name)) for name in ARCHIVE_TABLES if name != "standings")
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
    result = runner.invoke(app, ["export", "--format", "parquet", str(out), "--db", db, *EVERY_GAME])
    assert result.exit_code == 0, result.output
    assert not stale.exists()
    assert duckdb.execute("SELECT count(*) FROM read_parquet($files, hive_partitioning = true)",
                          {"files": str(out / "games" / "*" / PART_FILE)}).fetchone() == (7,)


def test_a_partition_folder_name_escapes_what_would_name_another_path() -> None:
    assert folder_name("18MS") == "title=18MS"
    assert folder_name("The Old Prince 1871") == "title=The Old Prince 1871"
    assert folder_name("../x=y") == "title=..%2Fx%3Dy"
    assert folder_name(None) == "title=__HIVE_DEFAULT_PARTITION__"


def test_export_refuses_an_unknown_format(db: str, tmp_path: Path) -> None:
    result = runner.invoke(app, ["export", "--format", "xml", str(tmp_path), "--db", db])
    assert result.exit_code == 2 and not list(tmp_path.iterdir())
