"""Where the replays of an ingest or a simulation run: processes on this machine, or a Dask
distributed cluster (``--cluster ADDRESS``, docs/scale.md).

Either way the work goes out as picklable calls and comes back as results in the order it was
given, a bounded number ahead, to the one process that writes the archive. A local pool and a
Dask client are both :class:`concurrent.futures.Executor`s, so the commands do not know which
one runs their work; with one worker and no cluster the work runs in this process.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

R = TypeVar("R")
K = TypeVar("K")

CONNECT_TIMEOUT = 20.0
"""Seconds to wait for a Dask scheduler to answer before the command gives up with one line."""

AHEAD = 4
"""Tasks given out per worker before their results are taken: enough to keep every worker busy
while the writer stores, few enough that memory does not grow with the number of games."""


class ClusterUnavailable(Exception):
    """``--cluster`` cannot be used (Dask missing, scheduler unreachable); ``str()`` is one line."""


@dataclass(frozen=True)
class Workers:
    """An executor (None: this process) and how many tasks it runs at once."""

    executor: Executor | None
    width: int
    where: str  # for the summary: "2 local processes", "the Dask cluster at tcp://..."

    def results(self, work: Callable[..., R], calls: Iterable[tuple[Any, ...]]) -> Iterator[Future[R]]:
        """A future of ``work(*args)`` for each args of ``calls``, in order, submitting each only
        when the one ``width * AHEAD`` before it is taken; in this process each runs when its
        future is taken, so it is done then."""
        if self.executor is None:
            for args in calls:
                done: Future[R] = Future()
                try:
                    done.set_result(work(*args))
                except Exception as exc:  # delivered where the result is read, as an executor does
                    done.set_exception(exc)
                yield done
            return
        waiting: deque[Future[R]] = deque()
        for args in calls:
            waiting.append(self.executor.submit(work, *args))
            if len(waiting) >= self.width * AHEAD:
                yield waiting.popleft()
        yield from waiting


@contextmanager
def worker_pool(count: int, cluster: str | None = None) -> Iterator[Workers]:
    """The workers of one run: the Dask cluster at ``cluster``, else ``count`` local processes
    (one: this process). Raises :class:`ClusterUnavailable` when the cluster cannot be used."""
    if cluster is not None:
        with _dask(cluster) as found:
            yield found
    elif count <= 1:
        yield Workers(None, 1, "this process")
    else:
        with ProcessPoolExecutor(count, initializer=_leave_with, initargs=(os.getpid(),)) as pool:
            yield Workers(pool, count, f"{count} local processes")


COLLECT_SECONDS = 3.0
"""How long the one writer waits for more of the workers' results before it stores what it has.
Storing games costs mostly a fixed price per open and transaction (an open, a statement per
table, the summaries derived once, a checkpoint on close: 32 games cost well under twice one),
so what the workers finish in a few seconds goes to the archive together, and the writer leaves
them more of the machine; waiting longer saves the writer little more. A reader sees new games at
most these seconds later."""


def gathered(work: Iterator[tuple[K, Future[R]]], seconds: float = COLLECT_SECONDS,
             most: int = 256) -> Iterator[list[tuple[K, Future[R]]]]:
    """``work``'s (label, future) pairs in order, grouped: the next one (waited for) and the
    following ones done within ``seconds`` of it, up to ``most``; every future of a group is done."""
    following = next(work, None)
    while following is not None:
        wait([following[1]])
        group = [following]
        until = time.monotonic() + seconds
        following = next(work, None)
        while following is not None and len(group) < most and _done_by(following[1], until):
            group.append(following)
            following = next(work, None)
        yield group


def _done_by(future: Future[R], until: float) -> bool:
    """Whether ``future`` is done, waiting for it until the ``until`` of time.monotonic()."""
    wait([future], timeout=max(0.0, until - time.monotonic()))
    return future.done()


PARENT_CHECK_SECONDS = 1.0


def _leave_with(parent: int) -> None:
    """Start a worker process that ends when the process that started it is gone.

    A pool's workers wait for work on a pipe that each of them holds open too, so when the
    command is killed (SIGKILL, out of memory) they would wait forever; this watch ends them
    within a second instead.
    """
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="railledger-parent-watch", daemon=True).start()


@contextmanager
def _dask(address: str) -> Iterator[Workers]:
    """A client of the Dask scheduler at ``address`` for the length of the run, as an executor.

    Dask is imported here, only for ``--cluster``: the rest of railledger does not need it.
    """
    try:
        from distributed import Client
        from distributed.comm.addressing import get_address_host_port
    except ImportError:
        raise ClusterUnavailable("--cluster needs Dask: pip install 'railledger[cluster]' (dask[distributed])") from None
    try:
        get_address_host_port(address)  # checked first: a Client made of a bad address complains again when collected
        client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise ClusterUnavailable(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        threads = sum(client.nthreads().values())
        if not threads:
            raise ClusterUnavailable(f"the Dask cluster at {address} has no workers")
        with client.get_executor(pure=False) as executor:  # pure=False: equal calls still each run
            yield Workers(executor, threads, f"the Dask cluster at {address} ({threads} worker threads)")
    finally:
        client.close()
