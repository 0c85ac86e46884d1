"""An archive shared between processes: a reader loops while an ingest writes, and an ingest is
killed with SIGKILL at random moments.

Both run here in a short form (a few dozen records, three kills); set RAILLEDGER_LONG_TESTS=1 for
the long one (two hundred records, fifty kills).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path


from railledger.ingest.model import Record
from railledger.ingest.sources import read_record
from railledger.records import Archive
from railledger.records.archive import ARCHIVE_TABLES
from tests.conftest import act, export

REPO = Path(__file__).resolve().parent.parent
LONG = os.environ.get("RAILLEDGER_LONG_TESTS") == "1"
SHORT_GAME = REPO / "tests" / "games" / "18ms-short.rln"


def write_records(folder: Path, small: int, long: int, version: int = 0) -> dict[str, Record]:
    """``small`` two-action games and ``long`` copies of the 18MS test game (69 actions, replayed
    with states), each under its own id; ``version`` > 0 adds that many passes to every game."""
    folder.mkdir(parents=True, exist_ok=True)
    extra = [act(100 + n) for n in range(version)]
    for n in range(small):
        game = export([act(1, "bid", company="AGS", price=30), act(2), *extra], id=5000 + n)
        (folder / f"small-{n}.json").write_text(json.dumps(game))
    text = SHORT_GAME.read_text(encoding="utf-8")
    passes = "".join(f"{2000 + n} p1 pass\n" for n in range(version))
    for n in range(long):
        (folder / f"long-{n}.rln").write_text(text.replace('[Game "test-18ms-short"]', f'[Game "long-{n}"]') + passes)
    return {record.key: record for record in (read_record(str(p)) for p in sorted(folder.iterdir()))}


def ingest(folder: Path, db: Path, *options: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "railledger", "ingest", "--allow-invalid", str(folder), "--db", str(db), "--wait", "120", *options],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


READER = r"""
import json, sys, time
from pathlib import Path
from railledger.records import Archive, ArchiveError

db, stop, expected = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(Path(sys.argv[3]).read_text())
reads = during = last = 0
while True:
    stopping = stop.exists()
    try:
        with Archive.open(db, read_only=True, wait=120) as archive:
            games = archive.games()
            steps = archive.table("steps")
    except (FileNotFoundError, ArchiveError) as exc:  # not created, or not migrated yet
        if "empty" not in str(exc) and "does not exist" not in str(exc) and "schema version" not in str(exc):
            raise
        time.sleep(0.05)
        continue
    for row in games.iter_rows(named=True):
        actions, players = expected[row["key"]]
        assert (row["actions"], len(row["players"])) == (actions, players), (row, actions, players)
    by_game = steps.group_by("game_key").len()
    for key, count in by_game.iter_rows():
        assert count == expected[key][0], (key, count)  # a replayed game's states are all there or not at all
    assert games.height >= last, "a game disappeared"
    last = games.height
    reads += 1
    during += not stopping
    if stopping:
        break
    time.sleep(0.02)
print(json.dumps({"reads": reads, "during": during, "games": last}))
"""


def test_an_ingest_and_a_looping_reader_share_the_archive(tmp_path: Path) -> None:
    records = write_records(tmp_path / "in", small=180 if LONG else 12, long=20 if LONG else 3)
    expected = tmp_path / "expected.json"
    expected.write_text(json.dumps({key: [len(r.actions), len(r.players)] for key, r in records.items()}))
    db, stop = tmp_path / "shared.duckdb", tmp_path / "stop"

    reader = subprocess.Popen([sys.executable, "-c", READER, str(db), str(stop), str(expected)], cwd=REPO,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    writer = ingest(tmp_path / "in", db)
    lister = None
    try:
        time.sleep(3)
        lister = subprocess.run([sys.executable, "-m", "railledger", "games", "--db", str(db), "--wait", "120"],
                                cwd=REPO, capture_output=True, text=True, timeout=300)
        written, writer_errors = writer.communicate(timeout=600)
        stop.write_text("done")
        read, reader_errors = reader.communicate(timeout=300)
    finally:
        for process in (writer, reader):
            if process.poll() is None:
                process.kill()
                process.wait(timeout=10)
    assert writer.returncode == 0, writer_errors
    assert reader.returncode == 0, reader_errors
    # the lister may have to wait for a transaction (it says so when that lasts over half a
    # second, as on a loaded machine), but it gets its turn and lists the games
    assert lister is not None and lister.returncode == 0 and "gave up" not in lister.stderr, lister.stderr
    assert re.search(r"\d+ games? in ", lister.stdout), lister.stdout
    seen = json.loads(read)
    assert seen["during"] >= 2, seen  # the reader got in between the writer's transactions
    assert seen["games"] == len(records)
    with Archive.open(db, read_only=True) as archive:
        assert {key: archive.record(key) for key in records} == records


def check_whole(db: Path, old: dict[str, Record], new: dict[str, Record]) -> int:
    """Every stored game is exactly one version, old or new, with all its rows and nothing else;
    no old game is lost and no row belongs to no game. Returns how many new versions are in."""
    with Archive.open(db) as archive:  # a writable open replays what the killed ingest left in the WAL
        keys = set(archive.games()["key"].to_list())
        assert set(old) <= keys, "a stored game was lost"
        for table in ARCHIVE_TABLES[1:]:
            orphans = set(archive.table(table)["game_key"].to_list()) - keys
            assert not orphans, (table, orphans)
        landed = 0
        for key in keys:
            stored = archive.record(key)
            assert stored in (old.get(key), new.get(key)), key
            landed += stored == new.get(key)
            steps = archive.table("steps", key).height
            assert steps in (0, len(stored.actions)), (key, steps)  # all of a replay's states or none
            assert archive.table("players", key).height == len(stored.players)
    return landed


def test_kill_9_at_any_moment_leaves_whole_games_only(tmp_path: Path) -> None:
    old = write_records(tmp_path / "old", small=4, long=1)
    base = tmp_path / "base.duckdb"
    started = time.monotonic()
    first = ingest(tmp_path / "old", base)
    assert first.wait(timeout=300) == 0, first.stderr.read() if first.stderr else ""
    new = write_records(tmp_path / "new", small=40 if LONG else 8, long=6 if LONG else 2, version=1)  # replaces old, adds more
    duration = (time.monotonic() - started) * len(new) / len(old)  # about how long an ingest of the new ones runs

    chance = random.Random(11)
    trials = 50 if LONG else 3
    partial = 0
    for trial in range(trials):
        db = tmp_path / f"killed-{trial}.duckdb"
        shutil.copy(base, db)
        writer = ingest(tmp_path / "new", db)
        time.sleep(chance.uniform(0.3, 0.95) * duration)
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
        landed = check_whole(db, old, new)
        partial += 0 < landed < len(new)
    again = ingest(tmp_path / "new", db)  # a full run after a kill completes the archive
    assert again.wait(timeout=600) == 0
    assert check_whole(db, old, new) == len(new)
    if LONG:
        assert partial > 0, "no kill landed in the middle of a run"

