"""The ``railledger`` command: a thin front door that wires ingest, records and the dashboard."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import polars as pl
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import dashboard as dashboard_package
from analytics.balance import winner_correlations
from analytics.rush import train_rush_distribution
from analytics.validation import validation_summary
from cli.audit import audit
from cli.storing import store_record
from ingest import notation
from ingest.errors import RecordError
from ingest.export import write_export
from ingest.model import Record
from ingest.sources import Loaded, expand, load, read_record
from replay import Replay, replay_record
from replay.conformance import check
from records import Archive, ArchiveError
from records.archive import ARCHIVE_TABLES

DEFAULT_DB = "railledger.duckdb"
REFERENCE_REPLAY_MS = {
    "18MS": 280, "18Texas/65394": 238, "18Texas/hs_hqrmcntr_1641188459": 45,
    "1871/1871_game_end_bankrupt": 295, "1871/1871_game_end_final_phase": 308,
}
"""18xx.games' Ruby engine loading a whole record (median of 5), by record or title folder, measured
on these 2-core machines: 18MS 0.25-0.31 s."""

app = typer.Typer(
    help="railledger: archive, replay and statistics for 18xx games.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
out = Console()
err = Console(stderr=True)

DbOption = Annotated[
    Path,
    typer.Option("--db", envvar="RAILLEDGER_DB", help="DuckDB archive file (env RAILLEDGER_DB).", show_default=True),
]


def _fail(message: str) -> typer.Exit:
    err.print(message, markup=False, highlight=False, soft_wrap=True)
    return typer.Exit(code=1)


def _open(db: Path, read_only: bool = False) -> Archive:
    try:
        return Archive.open(db, read_only=read_only)
    except ArchiveError as exc:  # busy, or not a railledger archive
        raise _fail(str(exc)) from None
    except FileNotFoundError:
        raise _fail(f"{db}: no archive here; run 'railledger ingest' first") from None


@app.command()
def ingest(
    paths: Annotated[list[str], typer.Argument(help="Record files, directories (searched recursively) or - for stdin.")],
    db: DbOption = Path(DEFAULT_DB),
    replay: Annotated[bool, typer.Option(help="Replay titles with an engine and store states, events, standings and flags.")] = True,
) -> None:
    """Read game records and store them in the archive, one transaction per game.

    Takes 18xx.games JSON exports (.json), JSON Lines of them (.jsonl), and railledger notation
    (.rln). Games of a title with a rules engine are replayed and stored with their state after
    every action, events, standings and any illegal actions found. A record already archived
    unchanged is left alone; a changed one replaces the old.

    Example: railledger ingest ../shared/fixtures examples/ --db games.duckdb
    """
    files = expand(paths)
    outcomes: Counter[str] = Counter()
    failures: list[str] = []
    with _open(db) as archive, Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as progress:
        task = progress.add_task("ingesting", total=len(files))
        for origin in files:
            for loaded in load(origin):
                outcome, failure = _store(archive, loaded, replay)
                outcomes[outcome] += 1
                if failure is not None:
                    failures.append(failure)
            progress.advance(task)
    _print_ingest_summary(outcomes, failures, db)
    if failures:
        raise typer.Exit(code=1)


def _store(archive: Archive, loaded: Loaded, replay: bool) -> tuple[str, str | None]:
    """(outcome, one-line failure or None) of storing one loaded record, replayed when its title has an engine."""
    if loaded.record is None:
        return "failed", str(loaded.error)
    try:
        return store_record(archive, loaded.record, loaded.origin, replay).name.lower(), None
    except (ArchiveError, ValueError) as exc:
        return "failed", f"{loaded.origin}: not stored: {exc}"


def _print_ingest_summary(outcomes: Counter[str], failures: list[str], db: Path) -> None:
    table = Table(title=f"ingest into {db}")
    for column in ("new", "unchanged", "replaced", "failed"):
        table.add_column(column, justify="right")
    table.add_row(*(str(outcomes[c]) for c in ("new", "unchanged", "replaced", "failed")))
    out.print(table)
    for failure in failures:
        err.print(f"failed: {failure}", markup=False, highlight=False, soft_wrap=True)


@app.command()
def games(
    title: Annotated[Optional[str], typer.Option(help="Only games of this title, e.g. 18MS.")] = None,
    player: Annotated[Optional[str], typer.Option(help="Only games with this player (name or id).")] = None,
    db: DbOption = Path(DEFAULT_DB),
) -> None:
    """List the archived games.

    Example: railledger games --title 18MS --player "Player 2"
    """
    with _open(db, read_only=True) as archive:
        frame = archive.games(title=title, player=player)
    table = Table(title=f"{frame.height} game{'' if frame.height == 1 else 's'} in {db}")
    table.add_column("key", no_wrap=True)
    for column in ("title", "players", "status", "actions"):
        table.add_column(column)
    for row in frame.iter_rows(named=True):
        players = row["players"] if isinstance(row["players"], str) else ", ".join(row["players"])
        table.add_row(row["key"], row["title"], players, str(row["status"] or ""), str(row["actions"]))
    out.print(table)


@app.command()
def show(
    game: Annotated[str, typer.Argument(help="Archive key (18xx.games/14375) or source id (14375).")],
    db: DbOption = Path(DEFAULT_DB),
) -> None:
    """Print an archived game in railledger notation: header, then one action per line.

    Example: railledger show 14375 > game.rln
    """
    with _open(db, read_only=True) as archive:
        try:
            record = archive.record(game)
        except KeyError as exc:
            raise _fail(str(exc.args[0] if exc.args else exc)) from None
    sys.stdout.write(notation.write(record))


@app.command()
def convert(
    source: Annotated[str, typer.Argument(help="Record to read (.json, .rln, or - for stdin).")],
    target: Annotated[str, typer.Argument(help="File to write, or - for stdout.")],
    to: Annotated[
        Optional[str], typer.Option("--to", help="Output format: json or notation (default: by TARGET's extension).")
    ] = None,
) -> None:
    """Convert one record between 18xx.games JSON and railledger notation.

    Example: railledger convert ../shared/fixtures/18MS/14375.json 14375.rln
    """
    fmt = to or ("notation" if target.endswith(notation.EXTENSION) else "json" if target.endswith(".json") else None)
    if fmt not in ("json", "notation"):
        raise _fail(f"{target}: say --to json or --to notation (or use a .json / {notation.EXTENSION} name)")
    try:
        record = read_record(source)
    except RecordError as exc:
        raise _fail(str(exc)) from None
    text = notation.write(record) if fmt == "notation" else json.dumps(write_export(record), indent=1) + "\n"
    if target == "-":
        sys.stdout.write(text)
    else:
        Path(target).write_text(text, encoding="utf-8")


@app.command()
def dashboard(
    db: DbOption = Path(DEFAULT_DB),
    port: Annotated[int, typer.Option(help="Port on localhost.")] = 8501,
) -> None:
    """Open the dashboard (Streamlit) on the archive, read-only, at http://localhost:PORT.

    Example: railledger dashboard --db games.duckdb --port 8502
    """
    if not db.exists():
        raise _fail(f"{db}: no archive here; run 'railledger ingest' first")
    app_file = Path(dashboard_package.__file__).parent / "app.py"
    env = {**os.environ, "RAILLEDGER_DB": str(db.resolve())}
    command = [sys.executable, "-m", "streamlit", "run", str(app_file), "--server.address", "localhost",
               "--server.port", str(port), "--server.headless", "true", "--browser.gatherUsageStats", "false"]
    raise typer.Exit(subprocess.call(command, env=env))


def _replay_json(replay: Replay, states: bool) -> dict[str, Any]:
    """The ``--json`` object of one replayed game (see README)."""
    record = replay.record
    payload: dict[str, Any] = {
        "game": record.key,
        "title": record.title,
        "actions": len(record.actions),
        "flags": [{"index": f.index, "action_id": f.action_id, "rule": f.rule, "message": f.message} for f in replay.flags],
        "result": {str(pid): value for pid, value in replay.result.items()},
        "recorded_result": {str(pid): value for pid, value in (record.result or {}).items()},
    }
    if states:
        payload["states"] = [
            {"index": i, "action_id": action.label, **snapshot.as_dict()}
            for i, (action, snapshot) in enumerate(zip(record.actions, replay.snapshots))
        ]
    return payload


@app.command("replay")
def replay_command(
    records: Annotated[list[str], typer.Argument(help="Record files or directories (.json, .jsonl, .rln).")],
    keep_going: Annotated[bool, typer.Option("--keep-going", help="Flag illegal actions, skip them and go on.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per game on stdout.")] = False,
    states: Annotated[bool, typer.Option("--states", help="With --json: the state after every action.")] = False,
) -> None:
    """Replay records through the rules: every illegal action is flagged with the rule it breaks.

    Prints per game the number of actions, each flag (action index, rule, message) and the final
    values against the recorded result. Exits 1 when any game has a flag or a different result.

    Example: railledger replay ../shared/fixtures/18MS --keep-going
    """
    failed = False
    for origin in expand(records):
        for loaded in load(origin):
            if loaded.record is None:
                err.print(str(loaded.error), markup=False, highlight=False, soft_wrap=True)
                failed = True
                continue
            try:
                outcome = replay_record(loaded.record, keep_going=keep_going, snapshots=states)
            except NotImplementedError as exc:
                err.print(f"{loaded.origin}: {exc}", markup=False)
                failed = True
                continue
            failed |= not outcome.matches_record
            if as_json:
                sys.stdout.write(json.dumps(_replay_json(outcome, states)) + "\n")
            else:
                _print_replay(loaded.origin, outcome)
    if failed:
        raise typer.Exit(code=1)


def _print_replay(origin: str, outcome: Replay) -> None:
    record = outcome.record
    out.print(f"[bold]{record.key}[/bold] ({record.title}) from {origin}: {len(record.actions)} actions, "
              f"{len(outcome.flags)} flag{'s' if len(outcome.flags) != 1 else ''}")
    for flag in outcome.flags:
        out.print(f"  action {flag.action_id} (#{flag.index}) {flag.rule}: {flag.message}", markup=False, highlight=False)
    table = Table(show_header=True, box=None, padding=(0, 2))
    for column in ("player", "replayed", "recorded"):
        table.add_column(column, justify="left" if column == "player" else "right")
    recorded = record.result or {}
    for player in record.players:
        table.add_row(player.name, str(outcome.result.get(player.id, "")), str(recorded.get(player.id, "-")))
    out.print(table)


@app.command()
def conformance(
    paths: Annotated[list[str], typer.Argument(help="Record files or directories, e.g. ../shared/fixtures.")],
) -> None:
    """Replay every record and compare with its recorded result: one PASS/FAIL row each.

    Exits 1 when a record of a supported title fails; titles without an engine show NO ENGINE.

    Example: railledger conformance ../shared/fixtures
    """
    table = Table(title="conformance (values in seat order)")
    for column in ("record", "title", "actions", "flags", "recorded", "replayed", "status"):
        table.add_column(column, justify="right" if column in ("actions", "flags") else "left", overflow="fold")
    failed = False
    for origin in expand(paths):
        for loaded in load(origin):
            if loaded.record is None:
                table.add_row(loaded.origin, "?", "-", "-", "-", "-", "FAIL")
                err.print(str(loaded.error), markup=False)
                failed = True
                continue
            row = check(loaded.origin, loaded.record)
            failed |= row.status == "FAIL"
            recorded = loaded.record.result or {}
            table.add_row(
                Path(loaded.origin).name,
                loaded.record.title,
                str(len(loaded.record.actions)),
                str(len(row.replay.flags)) if row.replay else "-",
                _values(recorded, loaded.record),
                _values(row.replayed, loaded.record),
                row.status,
            )
    out.print(table)
    if failed:
        raise typer.Exit(code=1)


def _values(values: dict | None, record: Record) -> str:
    if not values:
        return "-"
    return "/".join(f"{values.get(p.id, '?')}" for p in record.players)


@app.command()
def bench(
    paths: Annotated[list[str], typer.Argument(help="18xx.games JSON records or directories.")],
    repeat: Annotated[int, typer.Option(help="Timed repetitions per stage (medians are reported).")] = 20,
    dashboard_games: Annotated[
        int, typer.Option("--dashboard-games", help="Also time every dashboard page on an archive of this many games (0: skip).")
    ] = 0,
) -> None:
    """Print speed figures: per-record medians of each ingest stage, and games stored per second.

    Example: railledger bench ../shared/fixtures --repeat 50
    """
    from cli import bench as benchmarks  # only this command needs it

    files = [Path(p) for p in expand(paths) if p.endswith(".json")]
    if not files:
        raise _fail("bench: no .json records found in " + " ".join(paths))
    rows = [benchmarks.bench_file(path, repeat) for path in files]
    table = Table(title=f"ingest medians (ms) on {benchmarks.machine()}")
    for column in ("record", "actions", "parse", "write rln", "read rln", "store in new db", "re-store unchanged"):
        table.add_column(column, justify="right" if column != "record" else "left", no_wrap=column == "record")
    for row in rows:
        table.add_row(row.name, str(row.actions), *(f"{v:.2f}" for v in (
            row.parse_ms, row.write_notation_ms, row.read_notation_ms, row.store_ms, row.unchanged_ms)))
    out.print(table)
    replay = Table(title="replay medians (whole game, every route checked; vs Ruby = 18xx.games' engine)")
    for column in ("record", "actions", "ms", "actions/s", "+snapshots ms", "vs Ruby"):
        replay.add_column(column, justify="right" if column != "record" else "left", no_wrap=column == "record")
    for row in rows:
        if row.replay_ms is None:
            replay.add_row(row.name, str(row.actions), "no engine", "", "", "")
            continue
        reference = REFERENCE_REPLAY_MS.get(row.name, REFERENCE_REPLAY_MS.get(row.name.split("/")[0]))
        replay.add_row(row.name, str(row.actions), f"{row.replay_ms:.1f}", f"{row.actions / row.replay_ms * 1000:,.0f}",
                       f"{row.replay_states_ms:.1f}", f"{reference / row.replay_ms:.0f}x" if reference else "")
    out.print(replay)
    records = [read_record(str(path)) for path in files]
    out.print(benchmarks.optimizer_table(records))
    out.print(f"ingest throughput: {benchmarks.games_per_second(records, replay=True):.1f} games/s with replay "
              f"and per-action states, {benchmarks.games_per_second(records, replay=False):.1f} games/s records only")
    if dashboard_games:
        _bench_dashboard(benchmarks, records, dashboard_games)


def _bench_dashboard(benchmarks: Any, records: list[Record], games: int) -> None:
    """Build an archive of ``games`` games (the records again under new ids) and time each page."""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "large.duckdb"
        with Archive.open(db) as archive:
            start = time.perf_counter()
            benchmarks.fill(archive, records, games)
            built = time.perf_counter() - start
        out.print(f"dashboard archive: {games} games built in {built:.0f} s")
        table = Table(title=f"dashboard pages on {games} games (s)")
        for column in ("page", "first load", "rerun"):
            table.add_column(column, justify="left" if column == "page" else "right")
        for page, first, rerun in benchmarks.dashboard_load_times(db):
            table.add_row(page, f"{first:.2f}", f"{rerun:.2f}")
        out.print(table)


@app.command()
def stats(
    title: Annotated[
        Optional[str], typer.Option(help="Only this title, e.g. 18MS (default: each title, then all pooled).")
    ] = None,
    db: DbOption = Path(DEFAULT_DB),
) -> None:
    """Print statistics of the replayed games: what goes with winning, the train rush, broken rules.

    Win rates come with their sample size (n) and a 95% Wilson interval: a few games prove little.
    Train rush rows count games by the operating round (1st, 2nd... OR of the game) in which a
    train type was first bought or rusted.

    Example: railledger stats --db games.duckdb --title 18MS
    """
    with _open(db, read_only=True) as archive:
        correlations = _of_title(winner_correlations(archive), "scope", title)
        rush = _of_title(train_rush_distribution(archive), "title", title)
        flags = _of_title(validation_summary(archive), "title", title)
    out.print(_stats_table(
        "winner correlations (games with standings)",
        ("scope", "factor", "value", "n", "wins", "win rate", "95% CI", "mean rank"),
        [(r["scope"], r["factor"], r["value"], str(r["games"]), str(r["wins"]), f"{r['win_rate']:.2f}",
          f"{r['ci_low']:.2f}-{r['ci_high']:.2f}", f"{r['mean_rank']:.2f}")
         for r in correlations.iter_rows(named=True)],
        numbers=5,
    ))
    out.print(_stats_table(
        "train rush (games by operating round)",
        ("title", "train", "event", "OR #", "games"),
        [(r["title"], r["train_type"], r["event"], str(r["or_ordinal"]), str(r["games"]))
         for r in rush.iter_rows(named=True)],
        numbers=2,
    ))
    out.print(_stats_table(
        "validation flags",
        ("title", "rule", "flags", "games"),
        [(r["title"], r["rule"], str(r["flags"]), str(r["games"])) for r in flags.iter_rows(named=True)],
        numbers=2,
    ))


def _of_title(frame: pl.DataFrame, column: str, title: str | None) -> pl.DataFrame:
    """The rows of one title (ignoring case, as ``games --title`` does), or all rows without one."""
    return frame if title is None else frame.filter(pl.col(column).str.to_lowercase() == title.lower())


def _stats_table(title: str, columns: tuple[str, ...], rows: list[tuple[str, ...]], numbers: int) -> Table:
    """A table whose last ``numbers`` columns are right-aligned numbers; text folds rather than
    losing letters in a narrow terminal. The title says "none" when there are no rows."""
    table = Table(title=title if rows else f"{title}: none")
    for i, column in enumerate(columns):
        number = i >= len(columns) - numbers
        table.add_column(column, justify="right" if number else "left", no_wrap=number,
                         overflow="ellipsis" if number else "fold")
    for row in rows:
        table.add_row(*row)
    return table


class ExportFormat(str, Enum):
    parquet = "parquet"
    csv = "csv"


@app.command()
def export(
    out_dir: Annotated[Path, typer.Argument(help="Directory to write one file per table into (created if missing).")],
    fmt: Annotated[
        ExportFormat, typer.Option("--format", help="parquet, or csv (list columns as JSON text).")
    ] = ExportFormat.parquet,
    db: DbOption = Path(DEFAULT_DB),
) -> None:
    """Write every archive table to OUT_DIR/<table>.parquet (or .csv) for other tools.

    Example: railledger export --format csv exported/ --db games.duckdb
    """
    with _open(db, read_only=True) as archive:
        out_dir.mkdir(parents=True, exist_ok=True)
        for name in ARCHIVE_TABLES:
            frame = archive.table(name)
            path = out_dir / f"{name}.{fmt.value}"
            if fmt is ExportFormat.csv:
                _csv_ready(frame).write_csv(path)
            else:
                frame.write_parquet(path)
            rows = f"{frame.height} row{'' if frame.height == 1 else 's'}"
            out.print(f"{path}: {rows}", markup=False, highlight=False, soft_wrap=True)


def _csv_ready(frame: pl.DataFrame) -> pl.DataFrame:
    """CSV holds no lists (games.optional_rules): write them as JSON text, which reads back exactly."""
    lists = [name for name, dtype in frame.schema.items() if isinstance(dtype, pl.List)]
    return frame.with_columns(
        pl.col(name).map_elements(lambda v: json.dumps(v.to_list()), return_dtype=pl.Utf8) for name in lists
    )


app.command()(audit)


def main() -> None:
    app()
