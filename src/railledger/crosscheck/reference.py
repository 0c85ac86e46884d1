"""What ``railledger crosscheck`` runs: 18xx.games' engine (the ref18xx tools) playing and tracing
games, railledger's bots playing them, and railledger's verdict on each against the reference.

Apart from :mod:`railledger.cli.crosscheck`, which declares the command and prints, so that
``railledger --help`` loads none of it.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from railledger.crosscheck import PLAYER_COUNTS, TOOLS_ENV
from railledger.pipeline.progress import Progress, silent

OPAL_SHIM = Path(__file__).parent / "opal_arity.rb"
"""Loaded into the reference engine: where plain Ruby refuses what the site's JavaScript runs."""
BOT_TABLES = (("greedy",), ("random",), ("greedy", "random"), ("strong",), ("strong", "greedy", "random"))
"""The bots of generated games, in turn: all greedy, all random, greedy and random alternating, all
strong, and strong, greedy and random in turn round the table (the strong bot searches by pushing
and popping actions, so its games reach positions the others never do)."""


@dataclass(frozen=True)
class Tools:
    root: Path

    @property
    def refplay(self) -> Path:
        return self.root / "refplay"

    @property
    def reftrace(self) -> Path:
        return self.root / "reftrace"

    @property
    def compare(self) -> Path:
        return self.root / "compare_trace.py"


def find_tools(root: Path) -> Tools | str:
    """The reference tools, or why they cannot run here (the reason the check is skipped)."""
    tools = Tools(root)
    missing = [p.name for p in (tools.refplay, tools.reftrace, tools.compare) if not p.is_file()]
    if missing:
        return f"the reference tools are not in {root} ({', '.join(missing)} missing; set {TOOLS_ENV})"
    if shutil.which("ruby") is None:
        return "ruby is not installed (apt-get install -y ruby)"
    mirror = os.environ.get("TOBYMAO_GIT")
    if not mirror or not Path(mirror).is_dir():
        return "TOBYMAO_GIT does not name a tobymao/18xx git mirror (the search tool's fetch github:tobymao/18xx gives one)"
    return tools


def extracted_engine(tools: Tools) -> Path | str:
    """The folder of 18xx.games' engine as the ref18xx tools extract it from ``TOBYMAO_GIT`` (for
    this project's own drivers of it), or why it could not be extracted."""
    extracted = subprocess.run(["bash", "-c", '. "$here/lib.sh" >&2 && printf %s "$lib"'], capture_output=True,
                               text=True, env={**os.environ, "here": str(tools.root.resolve())}, check=False)
    if extracted.returncode != 0:
        return f"the reference engine could not be extracted: {extracted.stderr.strip()}"
    return Path(extracted.stdout)


@dataclass(frozen=True)
class Batch:
    """Seeds of one title and player count, played by one refplay run."""

    title: str
    players: int
    seeds: range


def batches(games: int | Mapping[str, int], first_seed: int, jobs: int,
            titles: Sequence[str] = tuple(PLAYER_COUNTS)) -> list[Batch]:
    """``games`` seeds per title (one number for every title, or each title's own) spread over its
    player counts, cut into runs that keep ``jobs`` workers busy. Seeds are ``first_seed`` on,
    different for every player count."""
    found = []
    for title in titles:
        counts = PLAYER_COUNTS[title]
        share_of_title = games if isinstance(games, int) else games[title]
        for position, players in enumerate(counts):
            share = share_of_title // len(counts) + (1 if position < share_of_title % len(counts) else 0)
            start = first_seed + 100_000 * players
            size = max(1, -(-share // max(1, jobs // len(counts))))
            for low in range(start, start + share, size):
                found.append(Batch(title, players, range(low, min(low + size, start + share))))
    return found


@dataclass(frozen=True)
class Verdict:
    """What railledger made of one game of the reference engine."""

    record: Path
    actions: int
    finished: bool
    flag: str | None  # the first flag, or None
    result_matches: bool
    states: tuple[int, int] | None  # (matched, compared), None when the reference could not trace it
    divergence: str | None
    reference: str | None = None  # what the reference engine objected to in the record, if anything

    @property
    def ok(self) -> bool:
        return (self.flag is None and self.result_matches and self.reference is None
                and self.states is not None and self.states[0] == self.states[1])


def play(tools: Tools, batch: Batch, into: Path, max_seconds: int) -> list[Path]:
    """Run refplay for the batch's seeds not played into this folder before; the records."""
    stem = batch.title.replace(" ", "_")
    paths = {seed: into / f"{stem}__refplay-{seed}.json" for seed in batch.seeds}
    missing = [seed for seed, path in paths.items() if not path.is_file()]
    if missing:
        subprocess.run(
            [str(tools.refplay), str(into), "--title", batch.title, "--players", str(batch.players),
             "--seeds", f"{missing[0]}-{missing[-1]}", "--max-seconds", str(max_seconds)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
        )
    return [path for path in paths.values() if path.is_file()]


@dataclass(frozen=True)
class SelfplayBatch:
    """Seeds of one title and player count played by railledger's bots, one table of bots each."""

    title: str
    players: int
    seeds: range


def selfplay_batches(games: int, first_seed: int, titles: Sequence[str] = tuple(PLAYER_COUNTS)) -> list[SelfplayBatch]:
    """``games`` generated games per title, spread over its player counts as :func:`batches` does."""
    return [SelfplayBatch(b.title, b.players, b.seeds) for b in batches(games, first_seed, 1, titles)]


def bots_of(seed: int, players: int) -> tuple[str, ...]:
    """The bots of a generated game: :data:`BOT_TABLES` in turn by seed, repeated round the table."""
    table = BOT_TABLES[seed % len(BOT_TABLES)]
    return tuple(table[seat % len(table)] for seat in range(players))


def generate(title: str, players: int, seed: int, into: Path) -> Path | Verdict:
    """Play one game with railledger's bots and write it as 18xx.games writes it: the file, or
    when the bots could not play it (itself a finding) that game's verdict."""
    from railledger.selfplay.play import game_id
    from railledger.selfplay.simulate import simulate

    bots = bots_of(seed, players)
    game = simulate(title, seed, bots)
    path = into / f"{title.replace(' ', '_')}__{game_id(title, seed, bots)}.json"
    if game.played is None:
        return Verdict(path, 0, False, f"the bots could not play it: {game.error}", False, None, None)
    path.write_text(json.dumps(game.played.export))
    return path


def judge(tools: Tools, record_path: Path, traces: Path) -> Verdict:
    """Replay one record, trace it in the reference and compare every state; an engine that
    fails on a record is that record's verdict, not the end of the check."""
    try:
        return _judge(tools, record_path, traces)
    except Exception as crash:  # noqa: BLE001 - every failure is a finding to report
        return Verdict(record_path, 0, False, f"railledger failed: {type(crash).__name__}: {crash}", False, None, None)


def _judge(tools: Tools, record_path: Path, traces: Path) -> Verdict:
    import gzip
    import tempfile

    from railledger.ingest.sources import read_record
    from railledger.replay import replay_record

    raw = json.loads(record_path.read_text())
    record = read_record(str(record_path))
    outcome = replay_record(record, keep_going=True, snapshots=True)
    flag = outcome.roots_first()[0] if outcome.flags else None
    with tempfile.TemporaryDirectory() as scratch:
        replayed = Path(scratch) / "replay.json"
        replayed.write_text(json.dumps(outcome.as_dict(states=True)))
        trace_file = traces / f"{raw['title'].replace(' ', '_')}__{raw['id']}.trace.json.gz"
        if not trace_file.is_file():
            trace(tools, [record_path], traces)
        states, divergence, reference = None, None, None
        if trace_file.is_file():
            compared = subprocess.run([sys.executable, str(tools.compare), str(record_path), str(trace_file), str(replayed)],
                                      capture_output=True, text=True, check=False)
            states, divergence = parse_comparison(compared.stdout)
            reference = objection(raw, json.loads(gzip.decompress(trace_file.read_bytes())))
    return Verdict(record_path, len(record.actions), raw.get("status") == "finished",
                   None if flag is None else f"{flag.where}: {flag.sentence}; {flag.rule}: {flag.message}",
                   outcome.matches_record, states, divergence, reference)


def objection(record: dict[str, Any], trace: dict[str, Any]) -> str | None:
    """What the reference engine made of a record otherwise than the record says: an action it
    refused, or a finished game it did not finish or valued otherwise; None when it agrees."""
    refused = trace.get("error")
    if refused:
        return f"18xx.games refused action {refused.get('id')} ({refused.get('type')}, {refused.get('at')}): {refused.get('message')}"
    if record.get("status") == "finished":
        if not trace.get("finished"):
            return "18xx.games did not reach the game's end"
        if trace.get("result_match") is False:
            return f"18xx.games' result {trace.get('result')} is not the record's"
    return None


def parse_comparison(text: str) -> tuple[tuple[int, int] | None, str | None]:
    """compare_trace.py's ``trace N/M states match`` and its first divergence, if any."""
    counted = re.search(r"trace (\d+)/(\d+) states match", text)
    diverged = re.search(r"first divergence: (.*)", text)
    states = (int(counted.group(1)), int(counted.group(2))) if counted else None
    return states, diverged.group(1) if diverged else None


def run(tools: Tools, planned: list[Batch], generated: list[SelfplayBatch], work: Path, jobs: int,
        max_seconds: int, progress: Progress = silent) -> Iterator[Verdict]:
    """Play the batches (in the reference engine, and with railledger's bots), trace every record
    in the reference, and judge each: the verdicts as they come."""
    from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

    with ThreadPoolExecutor(jobs) as pool:
        playing, total, done = "playing in 18xx.games' engine", sum(len(b.seeds) for b in planned), 0
        progress(playing, done, total)
        records: list[Path] = []
        for batch, played in zip(planned, pool.map(lambda b: play(tools, b, work / "records", max_seconds), planned)):
            records.extend(played)
            done += len(batch.seeds)
            progress(playing, done, total)
        games = [(b.title, b.players, seed) for b in generated for seed in b.seeds]
        bots = "playing with railledger's bots"
        progress(bots, 0, len(games))
        with ProcessPoolExecutor(jobs) as workers:
            made_so_far = 0
            for made in workers.map(generate, *zip(*games), [work / "selfplay"] * len(games)) if games else ():
                made_so_far += 1
                progress(bots, made_so_far, len(games))
                if isinstance(made, Verdict):
                    yield made
                else:
                    records.append(made)
        tracing, traced = "tracing in 18xx.games' engine", 0
        progress(tracing, traced, len(records))
        chunks = [records[i::jobs] for i in range(jobs) if records[i::jobs]]
        for chunk in pool.map(lambda c: trace(tools, c, work / "traces"), chunks):
            traced += chunk
            progress(tracing, traced, len(records))
        checking = "replaying and comparing"
        progress(checking, 0, len(records))
        for checked, verdict in enumerate(pool.map(lambda r: judge(tools, r, work / "traces"), records), 1):
            progress(checking, checked, len(records))
            yield verdict


def trace(tools: Tools, records: list[Path], traces: Path) -> int:
    """Trace records in the reference engine (one run for many: loading it takes seconds), with
    :data:`OPAL_SHIM` loaded; how many records were given."""
    shim = (os.environ.get("RUBYOPT", "") + f" -r{OPAL_SHIM.resolve()}").strip()
    subprocess.run([str(tools.reftrace), str(traces), *map(str, records)], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False, env={**os.environ, "RUBYOPT": shim})
    return len(records)


def title_of(record: Path) -> str:
    return next(t for t in PLAYER_COUNTS if record.name.startswith(t.replace(" ", "_") + "__"))
