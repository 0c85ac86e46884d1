"""The ingest pipeline's plumbing: results in order, in batches, and a worker that dies."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

import pytest

from railledger.pipeline.ingesting import batches
from railledger.pipeline.storing import Prepared
from railledger.pipeline.workers import Workers
from tests.conftest import REPO


def die() -> list[Prepared]:
    """A worker killed in the middle of its task (out of memory, a signal)."""
    os._exit(3)


def prepared(origin: str) -> list[Prepared]:
    return [Prepared(origin, error=f"{origin}: a line")]


def done(value: list[Prepared]) -> Future[list[Prepared]]:
    future: Future[list[Prepared]] = Future()
    future.set_result(value)
    return future


def test_results_come_in_the_order_given_whatever_order_they_finish_in() -> None:
    with ProcessPoolExecutor(2) as pool:
        results = Workers(pool, 2, "two").results(prepared, [(f"f{n}",) for n in range(40)])
        origins = [item.origin for batch in batches((f"f{n}", f) for n, f in enumerate(results)) for items in batch
                   for item in items]
    assert origins == [f"f{n}" for n in range(40)]


def test_a_batch_takes_the_results_done_within_its_time_and_stops_at_the_first_not_done() -> None:
    late: Future[list[Prepared]] = Future()
    waiting: Future[list[Prepared]] = Future()
    work = iter([("a", done(prepared("a"))), ("b", late), ("c", waiting), ("d", done(prepared("d")))])
    grouped = batches(work, seconds=0.5)
    timer = threading.Timer(0.05, late.set_result, [prepared("b")])  # done while the batch is collected
    timer.start()
    started = time.monotonic()
    assert [item.origin for items in next(grouped) for item in items] == ["a", "b"]
    assert time.monotonic() - started >= 0.5  # it waited its time for "c", then wrote without it
    timer.join()
    waiting.set_result(prepared("c"))
    assert [[item.origin for items in batch for item in items] for batch in grouped] == [["c", "d"]]


def test_a_worker_that_dies_fails_its_file_in_one_line_and_the_others_still_come() -> None:
    with ProcessPoolExecutor(1) as pool:
        dead = Workers(pool, 1, "one").results(die, [()])
        (batch,) = list(batches(iter([("lost.json", next(dead)), ("fine.json", done(prepared("fine.json")))])))
    (lost,), (fine,) = batch
    assert lost.origin == "lost.json" and lost.key is None
    assert lost.error is not None and lost.error.startswith("lost.json: not stored: its worker failed: BrokenProcessPool")
    assert "\n" not in lost.error
    assert fine.error == "fine.json: a line"


def test_in_this_process_each_task_runs_when_its_result_is_taken() -> None:
    ran: list[int] = []
    results = Workers(None, 1, "this process").results(lambda n: ran.append(n) or prepared(str(n)), [(1,), (2,)])
    assert ran == []
    next(results)
    assert ran == [1]


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid``, from /proc."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")
def test_the_workers_of_a_killed_ingest_end_with_it(tmp_path: Path) -> None:
    """SIGKILL leaves a pool's workers waiting on a pipe each of them holds open; they must end."""
    command = [sys.executable, "-m", "railledger", "ingest", "--allow-invalid", "--workers", "2", str(REPO / "tests" / "games"),
               str(REPO / "examples"), "--db", str(tmp_path / "a.duckdb")]
    ingest = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while len(workers := _children(ingest.pid)) < 2 and ingest.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(workers) == 2, "the ingest ended before its workers were seen"
    ingest.kill()
    ingest.wait()
    deadline = time.monotonic() + 30
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(map(_alive, workers))
