"""Damage anywhere in an archive is one line from every command, never a traceback.

A small archive is damaged in turn at every 256 KiB (4 KiB of bytes it never held, the size of a
disk's sector run gone bad), and every command that reads or writes it runs on each damaged copy:
it either works (the damage hit a block nothing uses) or exits 1 with one line naming the file.
The commands run in this process (typer's runner), which keeps the whole scan within seconds.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from railledger.analytics.scope import Population
from railledger.cli.app import app
from railledger.dashboard import data
from railledger.records import ArchiveError

runner = CliRunner()
GAMES = Path(__file__).resolve().parent / "games"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
STRIDE = 256 * 1024
DAMAGE = 4096

COMMANDS = (
    ["games"], ["show", "test-18ms-short"], ["report", "test-1871-short"], ["stats"], ["ratings"], ["audit", "test-18texas-short"],
    ["export", "{out}"], ["export", "--format", "json", "test-18ms-short", "-o", "{out}.json"],
    ["ingest", str(EXAMPLES / "18ms-opening.rln")],
)
"""Every command that opens an archive (the dashboard's own loaders are called as its pages call them)."""


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("whole") / "a.duckdb"
    result = runner.invoke(app, ["ingest", str(GAMES), "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


def damaged_copies(archive: Path, folder: Path) -> list[tuple[int, Path]]:
    """(offset, a copy of ``archive`` with :data:`DAMAGE` bytes overwritten there) at every :data:`STRIDE`."""
    whole = archive.read_bytes()
    copies = []
    for offset in range(0, len(whole), STRIDE):
        damage = random.Random(offset).randbytes(DAMAGE)
        copy = folder / f"at{offset}.duckdb"
        copy.write_bytes(whole[:offset] + damage + whole[offset + DAMAGE:])
        copies.append((offset, copy))
    return copies


def test_every_command_on_an_archive_damaged_anywhere_works_or_says_so_in_one_line(archive: Path, tmp_path: Path) -> None:
    copies = damaged_copies(archive, tmp_path)
    assert len(copies) >= 10  # a scan, not a spot check
    refused = 0
    for offset, copy in copies:
        for command in COMMANDS:
            kept = tmp_path / "kept.duckdb"
            shutil.copy(copy, kept)  # each command sees the damage as made, not as an earlier one left it
            args = [arg.format(out=tmp_path / "out") for arg in command]
            result = runner.invoke(app, [*args, "--db", str(kept), "--wait", "0"])
            where = f"{command[0]} on damage at {offset:,}"
            assert result.exception is None or isinstance(result.exception, SystemExit), (where, result.exception)
            if result.exit_code != 0:
                lines = [line for line in result.stderr.splitlines() if str(kept) in line]
                assert len(lines) == 1 and "Traceback" not in result.output, (where, result.stderr)
                refused += 1
        for loader, scope in ((data.overview, ()), (data.validation, ()), (data.rush, (Population(),))):
            try:
                loader(str(copy), *scope)  # type: ignore[operator]
            except ArchiveError as exc:
                assert "\n" not in str(exc) and str(copy) in str(exc), (loader, offset, exc)
            data.forget()
    assert refused  # some damage hit what the commands read
