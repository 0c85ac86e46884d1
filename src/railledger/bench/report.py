"""The whole of ``railledger bench``: every figure gathered into sections, in the order they are
measured, and the dated results file that ``make bench`` keeps for the docs to cite."""

from __future__ import annotations

import datetime
import os
import re
import statistics
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from railledger.bench import figures
from railledger.bench.review import review_section
from railledger.bench.search import search_section
from railledger.bench.sections import Section, markdown
from railledger.ingest.model import Record
from railledger.ingest.sources import read_record


def run_bench(files: list[Path], repeat: int, scale_games: int = 0, selfplay_games: int = 0,
              ingest_games: int = 0, predict: bool = False) -> Iterator[Section]:
    """The bench's sections, each as soon as it is measured: the ingest stages and the replay of
    every record (beside 18xx.games' engine where it is installed), the route optimizer, what the
    revenue audit adds to a replay, a search's
    push, pop and copy, ingest throughput, the game review's step change, ``railledger --help``, and as asked the ingest of
    copies, the bots' games, how often each bot predicts the records' people, and a large archive's
    commands and pages."""
    rows = [figures.bench_file(path, repeat) for path in files]
    yield _stages(rows)
    yield _replay(rows)
    records = [read_record(str(path)) for path in files]
    yield figures.optimizer_section(records)
    yield figures.audit_section(records)
    yield search_section(records)
    throughput = Section("ingest throughput, in this process (one transaction a game)")
    throughput.lines.append(f"{figures.games_per_second(records, replay=True):.1f} games/s with replay and per-action "
                            f"states, {figures.games_per_second(records, replay=False):.1f} games/s records only")
    yield throughput
    yield review_section(files)
    help_s, help_cpu_s = figures.help_cost()
    start = Section(f"railledger --help, whole process (the installed script, median of {figures.HELP_RUNS} runs)")
    start.lines.append(f"{help_s:.3f} s wall, {help_cpu_s:.3f} s CPU")
    yield start
    if ingest_games:
        rate = figures.ingest_rate(files, ingest_games)
        whole = Section(f"railledger ingest DIR of {rate.games} distinct games ({rate.records} records given, "
                        f"{rate.games - rate.records} bots' games of the three titles on seeds of their own), whole process")
        whole.lines.append(f"{rate.new_per_s:.1f} games/s new (replayed in worker processes), {rate.unchanged_per_s:.1f} "
                           f"games/s unchanged (known by their hash, not replayed); the archive file: "
                           f"{rate.kb_per_game:.1f} KB per game")
        yield whole
    if selfplay_games:
        from railledger.bench.selfplay import selfplay_section

        yield selfplay_section(selfplay_games)
    if predict:
        from railledger.bench.predict import predict_section

        yield predict_section(records)
    if scale_games:
        yield from _scale(records, scale_games)


def _stages(rows: list[figures.BenchRow]) -> Section:
    section = Section("ingest medians (ms)", ("record", "actions", "parse", "schema", "write rln", "read rln",
                                              "store in new db", "re-store unchanged"))
    section.rows += [(row.name, str(row.actions), *(f"{v:.2f}" for v in (
        row.parse_ms, row.check_ms, row.write_notation_ms, row.read_notation_ms, row.store_ms, row.unchanged_ms)))
        for row in rows]
    return section


def _replay(rows: list[figures.BenchRow]) -> Section:
    reference = figures.reference_lib() is not None
    note = "" if reference else " (vs Ruby not measured: needs ruby and the engine ../shared/tools/ref18xx extracts)"
    section = Section(f"replay medians (whole game, every route checked; vs Ruby = 18xx.games' engine on the same "
                      f"record, timed in the same run){note}",
                      ("record", "actions", "ms", "actions/s", "vs Ruby", "+snapshots ms", "vs Ruby", "is_legal µs", "p90 µs",
                       "legal_actions ms"))
    for row in rows:
        if row.replay_ms is None or row.decisions is None:
            section.rows.append((row.name, str(row.actions), "no engine", "", "", "", "", "", "", ""))
            continue
        versus, versus_states = (_times(row.reference_ms, ms) if row.reference_ms else "failed" if reference else ""
                                 for ms in (row.replay_ms, row.replay_states_ms))
        section.rows.append((row.name, str(row.actions), f"{row.replay_ms:.1f}", f"{row.actions / row.replay_ms * 1000:,.0f}",
                             versus, f"{row.replay_states_ms:.1f}", versus_states, f"{row.decisions.is_legal_us:.0f}",
                             f"{row.decisions.is_legal_p90_us:.0f}", f"{row.decisions.legal_actions_ms:.2f}"))
    replayed = [(row.replay_ms, row.replay_states_ms, row.actions) for row in rows
                if row.replay_ms is not None and row.replay_states_ms is not None and row.actions]
    if replayed:
        per_action = statistics.median(states * 1000 / actions for _, states, actions in replayed)
        extra = [states / alone - 1 for alone, states, _ in replayed]
        section.lines.append(f"replay with per-action snapshots: median {per_action:.0f} µs per action over the records; "
                             f"snapshots add {min(extra):.0%} to {max(extra):.0%} to replay alone")
    both = [row for row in rows if row.reference_ms and row.replay_ms and row.replay_states_ms]
    if both:
        ruby = sum(row.reference_ms or 0.0 for row in both)
        alone = sum(row.replay_ms or 0.0 for row in both)
        states = sum(row.replay_states_ms or 0.0 for row in both)
        section.lines.append(f"summed medians over the {len(both)} record{'s' if len(both) > 1 else ''} both engines replayed: 18xx.games' engine "
                             f"{ruby:,.0f} ms; railledger {alone:,.0f} ms replay alone ({_times(ruby, alone)} faster), "
                             f"{states:,.0f} ms with per-action snapshots ({_times(ruby, states)} faster)")
    return section


def _times(reference_ms: float, ms: float | None) -> str:
    """How many times faster than 18xx.games' engine a railledger time is."""
    return f"{reference_ms / ms:.1f}x" if ms else ""


def _scale(records: list[Record], games: int) -> Iterator[Section]:
    """An archive of ``games`` games built in a temporary folder, and what it costs a user."""
    with tempfile.TemporaryDirectory() as folder:
        found = figures.scale_figures(Path(folder), records, games)
    archive = Section(f"an archive of {found.games:,} games ({found.replayed} replayed and stored, the rest copies of them)")
    archive.lines += [
        f"built in {found.build_s:.0f} s, its ratings rated and stored (as an ingest does at its end) in "
        f"{found.ratings_s:.1f} s, {found.file_bytes / 1e9:.2f} GB",
        f"railledger stats on it, whole process: {found.stats_s:.2f} s, peak memory {found.stats_peak_bytes / 1e6:,.0f} MB; "
        f"railledger {found.listing}: {found.listing_s:.2f} s; railledger ratings (stored): {found.rated_s:.2f} s",
    ]
    yield archive
    pages = Section(f"dashboard pages on {found.games:,} games (s)", ("page", "first load", "rerun"))
    pages.rows += [(page, f"{first:.2f}", f"{rerun:.2f}") for page, first, rerun in found.pages]
    pages.lines.append("(the players and titles pages load the ratings stored after building, as after an ingest)")
    yield pages


def write_results(sections: list[Section], folder: Path, command: str) -> Path:
    """Write the sections as ``folder/<date>-<machine>.md``, the machine and the code's commit
    named in it, and return its path (a second run on the same day and machine replaces it)."""
    machine = figures.machine()
    today = datetime.date.today().isoformat()
    slug = re.sub(r"[^a-z0-9]+", "-", machine.split(",")[0].lower()).strip("-")
    preamble = [f"Measured on {today} on {machine}, at commit {_commit()}, by `{command}`.",
                f"{figures.reference_named()}; {figures.load_named()} on {os.cpu_count()} cores.",
                "Every figure below was measured in this run; none is copied from an earlier one."]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{today}-{slug}.md"
    path.write_text(markdown(sections, f"railledger bench, {today}", preamble), encoding="utf-8")
    return path


def _commit() -> str:
    """The checkout's commit (with "+changes" when its files differ from it), or "unknown"."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True,
                              timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True,
                               check=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head + ("+changes" if dirty else "")
