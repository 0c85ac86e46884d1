"""``railledger pull``: games fetched from 18xx.games, each answer kept byte for byte as a file,
then ingested into the archive as any record file is (:func:`pull_games`).

18xx.games deletes a game's actions when it archives it, so what a league or a player pulled in
time may be the only lasting copy: each answer is written as ``<keep>/<id>.json`` exactly as the
site sent it (the archive keeps that text too), and only once it holds a game railledger reads.
A pull resumes: a game held finished (stored in the archive, or kept by an earlier pull that
stopped before its ingest) is not fetched again, and one held unfinished is fetched again only
when asked (``refresh``), since it may have moved on.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from railledger.ingest.errors import RecordError
from railledger.ingest.jsontext import decode
from railledger.ingest.sources import FileText, parse_file
from railledger.pipeline import site
from railledger.pipeline.fetching import Fetcher, FetchError, SiteUnavailable
from railledger.pipeline.ingesting import Tally, ingest_paths
from railledger.pipeline.progress import Progress, silent
from railledger.records import Archive
from railledger.records.connection import WaitNotice

DEFAULT_KEEP = "pulled"
"""The folder pulled answers are kept in, unless told otherwise."""


@dataclass
class Pull:
    """What a pull did: the files it ingested, what it left alone and why, what failed, and the
    ingest's own tally (None when nothing was to ingest)."""

    kept: list[Path] = field(default_factory=list)
    """The answers ingested: fetched now, or kept by an earlier pull and not stored yet."""
    fetched: int = 0
    notes: list[str] = field(default_factory=list)
    unfinished: list[str] = field(default_factory=list)
    failed: dict[int, str] = field(default_factory=dict)
    """Why each game that failed did, by id."""
    stopped: str | None = None
    """Why the pull stopped before its last game (the site limits or cannot be reached)."""
    ingest: Tally | None = None

    @property
    def failures(self) -> list[str]:
        """One line per game that failed."""
        return [f"game {game_id}: {why}" for game_id, why in self.failed.items()]


@dataclass(frozen=True)
class PullOptions:
    """Where a pull keeps its answers and stores its games, and how it waits for the archive."""

    db: Path
    keep: Path = Path(DEFAULT_KEEP)
    refresh: bool = False
    workers: int = 1
    wait: float = 0.0
    on_wait: WaitNotice | None = None


def pull_games(game_ids: Sequence[int], fetcher: Fetcher, options: PullOptions, progress: Progress = silent) -> Pull:
    """Fetch the games of ``game_ids`` the archive does not hold finished, keep each answer that
    holds a game, and ingest them into ``options.db``; what was done, never an exception for a
    game that fails (a failure is a line in ``failures``)."""
    pull = fetch_games(game_ids, fetcher, options, progress)
    ingest_kept(pull, options, progress)
    return pull


def fetch_games(game_ids: Sequence[int], fetcher: Fetcher, options: PullOptions, progress: Progress = silent) -> Pull:
    """The fetching half of :func:`pull_games`: the answers kept, nothing stored yet (an event
    checks them against its file first, so that a bad file stores nothing)."""
    pull = Pull()
    ids = list(dict.fromkeys(game_ids))
    stored = stored_statuses(ids, options)
    progress("pulling", 0, len(ids))
    for done, game_id in enumerate(ids, start=1):
        if pull.stopped is None:
            _pull_one(game_id, stored, fetcher, options, pull)
        progress("pulling", done, len(ids))
    return pull


def ingest_kept(pull: Pull, options: PullOptions, progress: Progress = silent) -> None:
    """The storing half of :func:`pull_games`: the kept answers ingested, the tally in ``pull``."""
    if pull.kept:
        pull.ingest = ingest_paths([str(path) for path in pull.kept], options.db, workers=options.workers,
                                   wait=options.wait, on_wait=options.on_wait, progress=progress)


def stored_statuses(game_ids: Sequence[int], options: PullOptions) -> dict[str, str | None]:
    """The recorded status of each game of ``game_ids`` the archive holds (none when there is no
    archive yet). Raises :class:`~railledger.records.ArchiveError` for an archive that cannot be read."""
    if not options.db.exists():
        return {}
    with Archive.open(options.db, read_only=True, wait=options.wait, on_wait=options.on_wait) as archive:
        return archive.statuses([site.game_key(game_id) for game_id in game_ids])


def _pull_one(game_id: int, stored: dict[str, str | None], fetcher: Fetcher, options: PullOptions, pull: Pull) -> None:
    """Fetch one game unless it is held (see the module), keeping and noting what happened."""
    kept = options.keep / f"{game_id}.json"
    key = site.game_key(game_id)
    in_archive = key in stored
    held = (stored[key] or "none") if in_archive else kept_status(kept)
    if held == site.FINISHED or (held is not None and not options.refresh):
        if not in_archive:
            pull.kept.append(kept)
        if held == site.FINISHED:
            pull.notes.append(f"game {game_id}: held finished ({'stored' if in_archive else kept}); not fetched again")
        else:
            pull.notes.append(f"game {game_id}: held unfinished (status {held}); --refresh fetches it again")
        return
    try:
        body = fetcher.get(site.game_path(game_id))
    except SiteUnavailable as exc:
        pull.stopped = str(exc)
        pull.failed[game_id] = str(exc)
        return
    except FetchError as exc:
        pull.failed[game_id] = str(exc)
        return
    pull.fetched += 1
    status, problem = checked_game(body, game_id)
    if problem is not None:
        pull.failed[game_id] = f"not kept: {problem}"
        return
    try:
        write_whole(kept, body)
    except OSError as exc:
        pull.failed[game_id] = f"not kept: cannot write {kept}: {exc.strerror or exc}"
        return
    pull.kept.append(kept)
    if status != site.FINISHED:
        pull.unfinished.append(f"game {game_id}: not finished on 18xx.games (status {status}): stored as unfinished; "
                               "pull it again with --refresh once it ends")


def kept_status(path: Path) -> str | None:
    """The status of the game a kept answer holds, or None when there is no such answer to read."""
    try:
        data = decode(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, RecordError):
        return None
    status = data.get("status") if isinstance(data, dict) else None
    return status if isinstance(status, str) else None


def checked_game(body: bytes, game_id: int) -> tuple[str | None, str | None]:
    """(the game's status, None) for an answer that holds a game railledger reads, else (None, why not)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"the answer is not UTF-8 text (byte {exc.start:,})"
    if not text.strip():
        return None, "the answer is empty"
    try:
        data = decode(text.removeprefix("\ufeff"))
    except RecordError as exc:
        return None, f"the answer is not JSON: {exc.message}"
    problem = site.game_problem(data, game_id)
    if problem is not None:
        return None, problem
    for loaded in parse_file(FileText(f"{game_id}.json", f"game {game_id}", text=text)):
        if loaded.error is not None:
            return None, str(loaded.error).removeprefix(f"game {game_id}: ")
    return data.get("status"), None


def write_whole(path: Path, body: bytes) -> None:
    """Write ``body`` to ``path`` in one step: to a hidden file beside it, then renamed over it,
    so that work stopped midway leaves the old file or the new one, never half of one (a kept
    answer, an event file written back)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f".{path.name}.part")
    with open(part, "wb") as out:
        out.write(body)
        out.flush()
        os.fsync(out.fileno())
    os.replace(part, path)


def finished_game_ids(fetcher: Fetcher, title: str, pages: int, progress: Progress = silent) -> list[int]:
    """The ids of ``title``'s finished games on the first ``pages`` pages of the site's list
    (at most :data:`site.ANONYMOUS_PAGES`, and none after a page that is not full), newest
    first, each once. Raises
    :class:`~railledger.pipeline.fetching.FetchError` when a page cannot be had or read."""
    found: dict[int, None] = {}
    wanted = min(pages, site.ANONYMOUS_PAGES)
    progress("listing", 0, wanted)
    for page in range(wanted):
        body = fetcher.get(site.LIST_PATH, site.finished_page(title, page))
        try:
            ids = site.finished_ids(decode(body.decode("utf-8")), title)
        except (UnicodeDecodeError, RecordError, ValueError) as exc:
            raise FetchError(f"page {page} of the finished {title} games: {exc}") from None
        found.update(dict.fromkeys(ids))
        progress("listing", page + 1, wanted)
        if len(ids) < site.GAMES_PER_PAGE:  # the last page: the pages after it are empty
            break
    return list(found)
