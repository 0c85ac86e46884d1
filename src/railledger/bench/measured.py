"""Run one command and report what that process alone cost: ``python -m railledger.bench.measured
COMMAND...`` prints its wall time, CPU time and peak resident set as one JSON line.

Linux starts a child's peak resident set (``ru_maxrss``) at its parent's resident set at the moment
of the fork, and keeps that figure through ``exec``. The bench, holding a thousand games' figures,
would then report its own memory as the peak of every command it starts. Started from this small
interpreter instead, the command inherits this module's few megabytes, far below any railledger
command's own peak.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time


def main(command: list[str]) -> int:
    """Run ``command`` with no input and its output thrown away (its errors pass through), print
    its cost as JSON on standard output, and return its exit code."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    cost = {"seconds": time.perf_counter() - start,
            "cpu_seconds": usage.ru_utime + usage.ru_stime,
            "peak_bytes": usage.ru_maxrss * 1024}  # Linux counts kilobytes
    print(json.dumps(cost))
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
