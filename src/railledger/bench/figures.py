"""Speed figures for ``make bench``: per-record medians of each ingest stage, the replay beside
18xx.games' engine, the optimizer per operating turn, whole commands and dashboard pages.

Run as its own command, never as a test: timings depend on the machine, so every section names it.
"""

from __future__ import annotations

import json
import logging
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from railledger.bench.sections import Section
from railledger.ingest import notation
from railledger.ingest.export import read_export
from railledger.ingest.schema import check_record
from railledger.ingest.model import Record
from railledger.pipeline.storing import store_record
from railledger.records import Archive
from railledger.records.compaction import archive_bytes
from railledger.replay import Game, engine_build, replay_record
from railledger.replay.optimizer import best_run
from railledger.replay.optimizer.audit import RunAuditor
from railledger.replay.optimizer.engine import process
from railledger.replay.titles import SUPPORTED


@dataclass(frozen=True)
class BenchRow:
    """Median milliseconds of each stage for one record file."""

    name: str
    actions: int
    parse_ms: float  # JSON decode + undo/redo + canonical list
    check_ms: float  # the input schema (ingest/schema.py) over the whole record
    write_notation_ms: float
    read_notation_ms: float
    store_ms: float  # one transaction into a fresh archive
    unchanged_ms: float  # re-ingest of the same record (hash check only)
    replay_ms: float | None  # whole game through the rules engine, routes checked (None: no engine yet)
    replay_states_ms: float | None  # the same, keeping a snapshot after every action
    decisions: Decisions | None  # is_legal and legal_actions() at every position
    reference_ms: float | None  # 18xx.games' engine loading the record, measured now (None: not here)


@dataclass(frozen=True)
class Decisions:
    """What asking the engine costs at a position: ``is_legal`` on the record's next action
    (median and 90th percentile over every position, microseconds) and ``legal_actions()``
    (median milliseconds)."""

    is_legal_us: float
    is_legal_p90_us: float
    legal_actions_ms: float


def machine() -> str:
    """One line naming the machine the figures were measured on, and the engine's build (pure
    Python or compiled with ``make fast``), which changes every replay figure."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {engine_build()} engine"


def median_ms(work: Callable[[], object], repeat: int) -> float:
    return statistics.median(_ms(work) for _ in range(repeat))


def paired_medians_ms(first: Callable[[], object], second: Callable[[], object], repeat: int) -> tuple[float, float]:
    """The median ms of two pieces of work timed in turns (first, second, first...): a slow spell
    of a shared machine then slows both alike, so what the second adds to the first (snapshots
    to a replay) is not the machine's noise, which on a shared 2-core machine is larger than the
    difference measured."""
    firsts, seconds = [], []
    for _ in range(repeat):
        firsts.append(_ms(first))
        seconds.append(_ms(second))
    return statistics.median(firsts), statistics.median(seconds)


def _ms(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return (time.perf_counter() - start) * 1000


def bench_file(path: Path, repeat: int) -> BenchRow:
    text = path.read_text(encoding="utf-8")
    record = read_export(json.loads(text))
    written = notation.write(record)
    with tempfile.TemporaryDirectory() as folder:
        counter = iter(range(10**9))

        def store_fresh() -> None:
            with Archive.open(Path(folder) / f"fresh{next(counter)}.duckdb") as archive:
                archive.store(record)

        with Archive.open(Path(folder) / "warm.duckdb") as archive:
            archive.store(record)
            unchanged_ms = median_ms(lambda: archive.store(record), repeat)
        store_ms = median_ms(store_fresh, max(3, repeat // 4))
    replay_ms = replay_states_ms = None
    decisions = None
    if record.title in SUPPORTED:
        replay_ms, replay_states_ms = paired_medians_ms(lambda: replay_record(record),
                                                        lambda: replay_record(record, snapshots=True), repeat)
        decisions = decision_times(record)
    return BenchRow(
        name=f"{path.parent.name}/{path.stem}",
        actions=len(record.actions),
        parse_ms=median_ms(lambda: read_export(json.loads(text)), repeat),
        check_ms=median_ms(lambda: check_record(record), repeat),
        write_notation_ms=median_ms(lambda: notation.write(record), repeat),
        read_notation_ms=median_ms(lambda: notation.read(written), repeat),
        store_ms=store_ms,
        unchanged_ms=unchanged_ms,
        replay_ms=replay_ms,
        replay_states_ms=replay_states_ms,
        decisions=decisions,
        reference_ms=reference_ms(path, max(3, repeat // 4)),
    )


def decision_times(record: Record) -> Decisions:
    """Time ``is_legal`` and ``legal_actions()`` before every action of a legal record."""
    game = Game.from_record(record)
    checks, listings = [], []
    for action in record.actions:
        start = time.perf_counter()
        game.is_legal(action)
        middle = time.perf_counter()
        sum(1 for _ in game.legal_actions())
        checks.append((middle - start) * 1e6)
        listings.append((time.perf_counter() - middle) * 1000)
        game.process(action)
    return Decisions(statistics.median(checks), statistics.quantiles(checks, n=10)[-1], statistics.median(listings))


REFERENCE_TIMING = """
lib, record, repeat = ARGV[0], ARGV[1], ARGV[2].to_i
$LOAD_PATH.unshift(File.join(lib, 'shim'))
ENV['ENGINE_LOG_LEVEL'] ||= '4'
require 'json'
require 'set' # Ruby 3.1 does not autoload Set, which the engine's titles use
require File.join(lib, 'lib', 'engine')
data = JSON.parse(File.read(record))
times = Array.new(repeat) do
  start = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  Engine::Game.load(data)
  Process.clock_gettime(Process::CLOCK_MONOTONIC) - start
end
puts times.sort[repeat / 2] * 1000
"""
"""Our few lines of Ruby: the median time 18xx.games' engine takes to load a whole record."""


def reference_lib() -> Path | None:
    """The extracted 18xx.games engine ../shared/tools/ref18xx keeps (REF18XX_LIB), if any."""
    lib = Path(os.environ.get("REF18XX_LIB", Path.home() / ".cache" / "ref18xx"))
    return lib if shutil.which("ruby") and (lib / "lib" / "engine.rb").is_file() else None


def reference_named() -> str:
    """One line naming the 18xx.games engine the replay is compared with: Ruby's version and the
    tobymao/18xx commit the ref18xx tools extracted (a ratio moves with both)."""
    lib = reference_lib()
    if lib is None:
        return "18xx.games' engine: not installed here (no ratio measured)"
    ruby = subprocess.run(["ruby", "--version"], capture_output=True, text=True).stdout.split(" (")[0].strip()
    commit = (lib / "COMMIT").read_text().strip()[:12] if (lib / "COMMIT").is_file() else "an unknown commit"
    return f"18xx.games' engine: {ruby}, tobymao/18xx at {commit}"


def load_named() -> str:
    """The machine's load averages now: other work on the machine slows every figure, so a
    results file says how busy the machine was while it ran."""
    one, five, fifteen = os.getloadavg()
    return f"load average at the end of the run (1, 5, 15 minutes): {one:.1f}, {five:.1f}, {fifteen:.1f}"


def reference_ms(path: Path, repeat: int) -> float | None:
    """18xx.games' engine on the same record, timed now on this machine; None where it is absent
    (no figure is ever written down in place of a measurement)."""
    lib = reference_lib()
    if lib is None:
        return None
    run = subprocess.run(["ruby", "-e", REFERENCE_TIMING, str(lib), str(path), str(repeat)],
                         capture_output=True, text=True, check=False, timeout=600)
    try:
        return float(run.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return None


def games_per_second(records: list[Record], replay: bool, games: int = 60) -> float:
    """Ingest throughput into one archive (new games, one transaction each), with or without replay.

    With replay, games of titles with an engine are replayed and stored with their states,
    events, standings and flags, as ``railledger ingest`` does by default.
    """
    with tempfile.TemporaryDirectory() as folder, Archive.open(Path(folder) / "t.duckdb") as archive:
        start = time.perf_counter()
        stored = fill(archive, records, games, replay)
        return stored / (time.perf_counter() - start)


def fill(archive: Archive, records: list[Record], games: int, replay: bool = True) -> int:
    """Store ``games`` games cycling through ``records`` under new ids (``<id>-copy<n>``)."""
    for n in range(games):
        record = records[n % len(records)]
        store_record(archive, replace(record, game_id=f"{record.game_id}-copy{n // len(records)}"), replay=replay)
    return games


@dataclass(frozen=True)
class ScaleFigures:
    """What a large archive costs: building it and storing its ratings, ``railledger stats``,
    ``games --title`` and ``ratings`` each run whole in a new process as a user runs them, and
    every dashboard page (:func:`dashboard_load_times`)."""

    games: int
    replayed: int  # games replayed and stored; the rest are copies of them (Archive.copy_games)
    build_s: float
    ratings_s: float  # rating every game and storing the ratings, as an ingest does at its end
    file_bytes: int
    stats_s: float
    stats_peak_bytes: int  # the stats process's maximum resident set
    listing: str  # the games --title command timed
    listing_s: float
    rated_s: float  # railledger ratings, reading the stored ratings
    pages: list[tuple[str, float, float]]


def scale_figures(folder: Path, records: list[Record], games: int) -> ScaleFigures:
    """Build an archive of ``games`` games in ``folder`` (each record replayed and stored once,
    then copied inside DuckDB up to ``games``: replaying every copy would take hours for the same
    rows), store its ratings as an ingest would (copies are not ingested, and without them every
    reader would rate the games again), and time what a user waits for on it."""
    from railledger.analytics.ratings import store_ratings

    db = folder / "scale.duckdb"
    start = time.perf_counter()
    with Archive.open(db) as archive:
        replayed = fill(archive, records, min(games, len(records)))
        archive.copy_games(games - replayed)
        build_s = time.perf_counter() - start
        store_ratings(archive)
    ratings_s = time.perf_counter() - start - build_s
    stats = command_cost(["stats", "--db", str(db)])
    title = records[0].title
    listing = command_cost(["games", "--title", title, "--db", str(db)])
    rated = command_cost(["ratings", "--db", str(db)])
    return ScaleFigures(games, replayed, build_s, ratings_s, db.stat().st_size, stats.seconds, stats.peak_bytes,
                        f"games --title {title!r}", listing.seconds, rated.seconds, dashboard_load_times(db))


@dataclass(frozen=True)
class CommandCost:
    """One run of a railledger command in a new process."""

    seconds: float  # wall
    cpu_seconds: float  # user and system time of that process
    peak_bytes: int  # its maximum resident set


RAILLEDGER = Path(sys.executable).with_name("railledger")
"""The command as users run it: the console script pip installed beside this interpreter."""


def command_cost(arguments: list[str], program: tuple[str, ...] = (sys.executable, "-m", "railledger")) -> CommandCost:
    """What ``railledger ARGUMENTS`` costs run in a new process (``program`` starting it), its
    output thrown away; RuntimeError with its last line of errors if it fails. The process is
    started by :mod:`railledger.bench.measured`, so that its peak memory is its own and not this
    bench's."""
    measured = (sys.executable, "-m", "railledger.bench.measured")
    with tempfile.TemporaryFile() as errors:
        run = subprocess.run([*measured, *program, *arguments], stdout=subprocess.PIPE, stderr=errors,
                             stdin=subprocess.DEVNULL, text=True)
        if run.returncode:
            errors.seek(0)
            lines = errors.read().decode(errors="replace").strip().splitlines() or ["no output"]
            raise RuntimeError(f"railledger {' '.join(arguments)} failed ({run.returncode}): {lines[-1]}")
    cost = json.loads(run.stdout)
    return CommandCost(cost["seconds"], cost["cpu_seconds"], cost["peak_bytes"])


HELP_RUNS = 11
"""Runs of ``railledger --help`` timed, the median printed: on a machine shared with other work one
run may take half again as long as the next."""


def help_cost(runs: int = HELP_RUNS) -> tuple[float, float]:
    """The median wall and CPU seconds of ``railledger --help`` over ``runs`` runs of the installed
    script, each a new process with Python's own start in it: what a user waits for before any
    command, as typer reads every command's options to list them."""
    costs = [command_cost(["--help"], program=(str(RAILLEDGER),)) for _ in range(runs)]
    return statistics.median(c.seconds for c in costs), statistics.median(c.cpu_seconds for c in costs)


DASHBOARD_PAGES = ("views/archive.py", "views/review.py", "views/players.py", "views/titles.py", "views/rush.py",
                   "views/balance.py", "views/validation.py")


@contextmanager
def dashboard_on(db: Path) -> Iterator[str]:
    """The dashboard's app file, with ``RAILLEDGER_DB`` naming ``db`` while the block runs (as
    ``railledger dashboard`` sets it) and warnings quiet: Streamlit warns of its bare mode at every
    app it starts outside a server, which is how the bench drives it, and sets its loggers' levels
    again whenever it reads its configuration, so only logging's own switch holds them."""
    previous = os.environ.get("RAILLEDGER_DB")
    os.environ["RAILLEDGER_DB"] = str(db)
    logging.disable(logging.WARNING)
    try:
        yield str(Path(__file__).resolve().parent.parent / "dashboard" / "app.py")
    finally:
        logging.disable(logging.NOTSET)
        if previous is None:
            os.environ.pop("RAILLEDGER_DB", None)
        else:
            os.environ["RAILLEDGER_DB"] = previous


def dashboard_load_times(db: Path) -> list[tuple[str, float, float]]:
    """(page, first load s, rerun s) of each dashboard page on an archive, driven as Streamlit runs it.

    The first load includes reading the archive into the page's caches; the rerun is what a user
    waits for when moving a slider or a filter. The app is the real one (AppTest), so the figures
    include Streamlit's own script run, not the browser's rendering.
    """
    from streamlit.testing.v1 import AppTest  # only this benchmark needs Streamlit

    from railledger.dashboard.data import forget

    with dashboard_on(db) as app_file:
        AppTest.from_file(app_file, default_timeout=120).run()  # Streamlit's own start-up, once per server
        times = []
        for page in DASHBOARD_PAGES:
            app = AppTest.from_file(app_file, default_timeout=120)
            if page != DASHBOARD_PAGES[0]:
                app.run()
            forget()  # every page starts cold: nothing read from the archive yet
            start = time.perf_counter()
            if page == DASHBOARD_PAGES[0]:
                app.run()  # the default page
            else:
                app.switch_page(page).run()
            first = time.perf_counter() - start
            start = time.perf_counter()
            app.run()
            rerun = time.perf_counter() - start
            if app.exception:
                raise RuntimeError(f"{page}: {app.exception[0].message}")
            times.append((page.removeprefix("views/").removesuffix(".py"), first, rerun))
        return times


@dataclass(frozen=True)
class OptimizerTurn:
    """One operating turn's run: where it is, how long the proven optimum took, how big it was."""

    where: str  # record, round, company
    ms: float  # median of the repeats: reading the position, the search and the engine's check
    proven: bool
    trains: int
    paths: int
    options: int
    combinations: int


def optimizer_turns(record: Record, repeat: int) -> list[OptimizerTurn]:
    """Every run_routes of a record, timed at the position it was declared in."""
    game = Game.from_record(record)
    turns = []
    for action in record.actions:
        if action.type == "run_routes":
            company = str(action.entity.id)
            optimum = best_run(game, company)
            ms = median_ms(lambda: best_run(game, company), repeat)
            where = f"{record.game_id} {game.round.label} {company}"
            turns.append(OptimizerTurn(where, ms, optimum.proven, len(game.corporation_trains(company)),
                                       optimum.paths, optimum.options, optimum.combinations))
        process(game, action)
    return turns


def audit_section(records: list[Record], repeat: int = 5) -> Section:
    """What the revenue audit adds to an ingest's replay of each record (keep-going, with the
    per-action states, as ingest replays): both timed in turns, medians, and the audit's share of
    the whole."""
    section = Section(f"revenue audit: what it adds to ingest's replay (replay with per-action states, then the same "
                      f"with the audit, in turns, median of {repeat} each)")
    replayed = [r for r in records if r.title in SUPPORTED]
    plain_ms, audited_ms, runs = 0.0, 0.0, 0
    for record in replayed:
        plain, audited = paired_medians_ms(lambda: replay_record(record, keep_going=True, snapshots=True),
                                           lambda: replay_record(record, keep_going=True, snapshots=True,
                                                                 watch=RunAuditor()), repeat)
        plain_ms, audited_ms = plain_ms + plain, audited_ms + audited
        runs += sum(action.type == "run_routes" for action in record.actions)
    if replayed:
        added = audited_ms - plain_ms
        counted = f"{len(replayed)} record{'s' if len(replayed) != 1 else ''}"
        section.lines.append(f"{added / len(replayed):.1f} ms a game ({added / max(runs, 1):.2f} ms a run, {runs} runs in "
                             f"{counted}), {100 * added / audited_ms:.0f}% of the replay with the audit")
    return section


def optimizer_section(records: list[Record], repeat: int = 5) -> Section:
    """Per title: turns proven of all run_routes of the records, median and maximum time to the
    proven optimum, and the densest position (most legal routes) with its routes, branch-and-bound
    nodes and time."""
    section = Section(f"route optimizer: ms to the proven optimum per operating turn (best_run whole: position, "
                      f"search, engine check; median of {repeat} calls each)",
                      ("title", "proven", "median", "max", "densest turn", "paths", "combinations"), left=frozenset({0, 4}))
    by_title: dict[str, list[OptimizerTurn]] = {}
    for record in records:
        if record.title in SUPPORTED:
            by_title.setdefault(record.title, []).extend(optimizer_turns(record, repeat))
    for title, turns in sorted(by_title.items()):
        if not turns:
            continue
        densest = max(turns, key=lambda t: (t.paths, t.options, t.combinations))
        section.rows.append((
            title.removeprefix("The Old Prince "), f"{sum(t.proven for t in turns)}/{len(turns)}",
            f"{statistics.median(t.ms for t in turns):.1f}", f"{max(t.ms for t in turns):.1f}",
            f"{densest.where}, {densest.trains} train{'s' if densest.trains != 1 else ''}, {densest.ms:.1f} ms",
            str(densest.paths), str(densest.combinations),
        ))
    return section


INGEST_TABLES = (("18MS", 3, "greedy,random,random"), ("18Texas", 4, "greedy,random,greedy,random"),
                 ("The Old Prince 1871", 4, "greedy,random,greedy,random"))
"""The bots' games the whole-process ingest is timed on, in turn: each title at its usual table,
greedy and random bots, the table turned one seat a game."""


@dataclass(frozen=True)
class IngestRate:
    """``railledger ingest DIR`` timed whole, as a user runs it, on distinct games."""

    games: int  # stored by the first run
    records: int  # of them, the records given (the rest are bots' games)
    new_per_s: float  # the first run: every game new, replayed in worker processes and stored
    unchanged_per_s: float  # the same DIR again: every game known by its hash, none replayed
    kb_per_game: float  # the archive file's size after both runs, per game stored


def _bots_game(game: int) -> dict[str, object] | None:
    """The ``game``-th bots' game of :data:`INGEST_TABLES` as 18xx.games writes it (seed ``game``:
    no two alike), or None when the bots could not play it to its end."""
    from railledger.pipeline.simulating import seats_for
    from railledger.selfplay.play import SelfPlayError, play_game

    title, players, bots = INGEST_TABLES[game % len(INGEST_TABLES)]
    try:
        return play_game(title, seats_for(title, players, bots, game, rotate=True), seed=game + 1).export
    except SelfPlayError:
        return None


def distinct_games(files: list[Path], games: int, into: Path, workers: int = 2) -> int:
    """Write ``games`` distinct 18xx.games records into ``into``: the files once each, then bots'
    games of every title on seeds of their own (played here by ``workers`` processes). Distinct
    games, not copies: no cache keyed on a record's content can serve one of them. How many of them
    are the files."""
    from concurrent.futures import ProcessPoolExecutor

    given = files[:games]
    for n, path in enumerate(given):
        shutil.copyfile(path, into / f"{n:06d}{path.suffix}")
    with ProcessPoolExecutor(workers) as pool:
        played = [export for export in pool.map(_bots_game, range(games - len(given)), chunksize=8) if export is not None]
    for n, export in enumerate(played, start=len(given)):
        (into / f"{n:06d}.json").write_text(json.dumps(export), encoding="utf-8")
    return len(given)


def ingest_rate(files: list[Path], games: int) -> IngestRate:
    """Write ``games`` distinct games (:func:`distinct_games`) into a folder and time ``railledger
    ingest`` over it in a new process, into a new archive, then again; and measure the archive's
    file then."""
    with tempfile.TemporaryDirectory() as folder:
        records = Path(folder) / "records"
        records.mkdir()
        given = distinct_games(files, games, records)
        db = Path(folder) / "ingested.duckdb"
        command = [sys.executable, "-m", "railledger", "ingest", str(records), "--db", str(db), "--allow-invalid"]
        seconds = []
        for _ in range(2):
            start = time.perf_counter()
            subprocess.run(command, capture_output=True, check=True)
            seconds.append(time.perf_counter() - start)
        with Archive.open(db, read_only=True) as archive:
            stored = int(archive.summary()["games"].sum())
        size = archive_bytes(db)
    return IngestRate(stored, given, stored / seconds[0], stored / seconds[1], size / 1024 / stored)
