"""The bench's figures for a command are that command's own: its peak memory is not the bench's."""

from __future__ import annotations

import sys

from railledger.bench.figures import command_cost

LARGE = 400 * 1024 * 1024


def test_a_command_started_by_a_large_process_reports_its_own_peak() -> None:
    held = bytearray(b"\x01") * LARGE  # resident in this process while the command runs
    cost = command_cost(["-c", "pass"], program=(sys.executable,))
    assert held[-1] == 1
    assert cost.peak_bytes < LARGE / 4, f"{cost.peak_bytes / 1e6:.0f} MB: the bench's own memory was counted"
    assert 0 < cost.cpu_seconds <= cost.seconds * 2 + 0.1


def test_a_failing_command_names_its_last_error_line() -> None:
    try:
        command_cost(["-c", "import sys; sys.exit('no such game')"], program=(sys.executable,))
    except RuntimeError as error:
        assert "no such game" in str(error)
    else:
        raise AssertionError("a failing command was timed as if it had run")
