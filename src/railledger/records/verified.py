"""Archive files this user's railledger has checked, remembered from one process to the next.

Checking a file's catalog (:func:`records.schema.prepare`) costs a process 50 to 70 ms, most of
it DuckDB listing its thousands of own functions to find a macro the file might define. A command
reading an archive nobody has written since the last command read it (``railledger games``, then
``show``, then ``stats``) would pay that every time, so a file found whole is remembered here,
under the user's cache directory, as it was when it was checked.

A file is known by where it lives (device and inode) and by what any change to it changes: its
size, modification time and change time to the nanosecond, the same of its write-ahead log (or
that it had none), and the code that checked it (DuckDB's version and the migrations). No user
program can set a file's change time back: writing to the file, or putting another file in its
place, gives it a new one. File times tick in steps of milliseconds, so a file written twice within
one step could keep the times of the first write; as git does with its "racily clean" entries, a
file is remembered only when it was last changed at least :data:`SETTLED_NS` before it was checked.

The memory is only a shortcut: when it cannot be read or written (no home, a read-only disk, a
damaged file), every file is checked as if it had never been seen.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

SETTLED_NS = 2_000_000_000
"""How long before its check a file must have been changed last for the check to be remembered."""
KEPT = 64
"""Files remembered at most (the most recently checked ones)."""

FileState = list[int]
"""A file's and its write-ahead log's size, modification and change times, as JSON keeps them."""


def cache_file() -> Path:
    """Where the memory is kept: in ``$RAILLEDGER_CACHE_DIR``, else the user's cache directory."""
    folder = os.environ.get("RAILLEDGER_CACHE_DIR")
    if not folder:
        folder = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "railledger")
    return Path(folder) / "verified-archives.json"


def recall(path: Path, code: str) -> int | None:
    """The schema version ``path`` had when ``code`` found it whole, if nothing changed it since."""
    try:
        key, state = _identity(path)
        entry = _read().get(key)
    except (OSError, ValueError):
        return None
    if not isinstance(entry, dict) or entry.get("state") != state or entry.get("code") != code:
        return None
    version = entry.get("version")
    return version if isinstance(version, int) else None


def remember(path: Path, version: int, code: str, checked_at_ns: int) -> None:
    """Keep that ``code`` found ``path`` whole at ``version`` when it checked it at
    ``checked_at_ns`` (``time.time_ns()`` before the check began), unless the file may have
    changed within the same tick of its clock."""
    try:
        key, state = _identity(path)
        if max(state[1:3] + state[4:6]) > checked_at_ns - SETTLED_NS:
            return
        kept = _read()
        kept.pop(key, None)
        kept[key] = {"state": state, "code": code, "version": version}
        _write(dict(list(kept.items())[-KEPT:]))
    except (OSError, ValueError):
        return


def _identity(path: Path) -> tuple[str, FileState]:
    info = os.stat(path)
    try:
        log = os.stat(f"{path}.wal")
        logged = [log.st_size, log.st_mtime_ns, log.st_ctime_ns]
    except FileNotFoundError:
        logged = [-1, -1, -1]
    return f"{info.st_dev}:{info.st_ino}", [info.st_size, info.st_mtime_ns, info.st_ctime_ns, *logged]


def _read() -> dict[str, object]:
    """What is remembered; nothing when there is no memory yet or it is damaged (it is then
    replaced at the next check)."""
    try:
        kept = json.loads(cache_file().read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return {}
    return kept if isinstance(kept, dict) else {}


def _write(kept: dict[str, object]) -> None:
    """Replace the memory in one step, so a process reading it at the same time reads it whole."""
    target = cache_file()
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".verified-", suffix=".json")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(kept, out)
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise
