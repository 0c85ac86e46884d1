"""``railledger event check``: an event file read, its games pulled when asked, fitted to its tables,
stored, and counted into standings (:func:`check_event`).

Nothing is stored half: the file is read whole first, then the games a pull fetches are kept as
files and fitted to the event's tables before any is ingested; a misfit anywhere (a game of
another title, a player at two tables, a game 18xx.games does not have) stops the check with every
fault named and the archive as it was. Without a pull, the check reads the archive only: a file
someone hands over makes nothing reach the network.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from itertools import combinations
from pathlib import Path

from railledger.events.file import EventError, EventFile, read_event, set_round_tables
from railledger.events.games import GameFacts, archived_facts, check_games, kept_facts
from railledger.events.model import Event
from railledger.events.seating import Proposal, propose
from railledger.events.standings import Standing, TableResult, standings, table_results
from railledger.pipeline.fetching import Fetcher
from railledger.pipeline.progress import Progress, silent
from railledger.pipeline.pulling import DEFAULT_KEEP, Pull, PullOptions, fetch_games, ingest_kept, write_whole
from railledger.records import Archive
from railledger.records.connection import WaitNotice


@dataclass(frozen=True)
class EventCheck:
    """An event counted: its file, each table as counted, the standings, and the pull (if any)."""

    file: EventFile
    results: list[TableResult]
    standings: list[Standing]
    pull: Pull | None = None

    @property
    def event(self) -> Event:
        return self.file.event


def check_event(path: Path, db: Path, *, fetcher: Fetcher | None = None, keep: Path = Path(DEFAULT_KEEP),
                workers: int = 1, wait: float = 0.0, on_wait: WaitNotice | None = None,
                progress: Progress = silent) -> EventCheck:
    """Count the event in ``path`` from the games in the archive at ``db``, pulling first with
    ``fetcher`` when one is given: the games not stored finished (unfinished ones again), kept in
    ``keep`` and replayed by ``workers`` processes once they fit the file.

    Raises :class:`~events.file.EventError` (every fault, one line each) when the file is bad or
    its games do not fit it, and :class:`~railledger.records.ArchiveError` when the archive cannot
    be read."""
    event_file = read_event(path)
    ids = [table.game for _, table in event_file.event.games() if table.game is not None]
    options = PullOptions(db, keep, True, workers, wait, on_wait)
    fetched: Pull | None = None
    missing: dict[int, str] = {}
    kept: dict[int, GameFacts] = {}
    if fetcher is not None:
        fetched = fetch_games(ids, fetcher, options, progress)
        if fetched.stopped is not None:
            raise EventError([f"{path}: the pull stopped: {fetched.stopped}; nothing was stored"])
        missing = {game_id: f"game {game_id}: {why}" for game_id, why in fetched.failed.items()}
        kept, unreadable = kept_facts(fetched.kept)
        missing.update(unreadable)
    stored = _stored_facts(db, ids, wait, on_wait)
    check_games(event_file, {**stored, **kept}, missing).raise_any()
    if fetched is not None:
        ingest_kept(fetched, options, progress)
        stored = _stored_facts(db, ids, wait, on_wait)
        lost = [game_id for game_id in ids if game_id not in stored]
        if lost:
            failures = fetched.ingest.failures if fetched.ingest is not None else []
            raise EventError([f"{path}: game {game_id} could not be stored" for game_id in lost] + failures)
    results = table_results(event_file.event, stored)
    return EventCheck(event_file, results, standings(event_file.event, results), fetched)


def _stored_facts(db: Path, ids: list[int], wait: float, on_wait: WaitNotice | None) -> dict[int, GameFacts]:
    if not db.exists():
        return {}
    with Archive.open(db, read_only=True, wait=wait, on_wait=on_wait) as archive:
        return archived_facts(archive, ids)


@dataclass(frozen=True)
class Seated:
    """A round seated: the proposal, the standings before it, and the event file's new text."""

    proposal: Proposal
    before: list[Standing]
    text: str


def seat_round(path: Path, db: Path, number: int, *, top: int | None = None, fetcher: Fetcher | None = None,
               keep: Path = Path(DEFAULT_KEEP), workers: int = 1, wait: float = 0.0, on_wait: WaitNotice | None = None,
               progress: Progress = silent) -> Seated:
    """Propose round ``number``'s tables (:mod:`events.seating`) from the rounds before it, for
    every player still in the event (the ``top`` of the standings only, when given), and write
    them into the event file. Raises :class:`~events.file.EventError` as :func:`check_event` does,
    and for a round that cannot be seated."""
    checked = check_event(path, db, fetcher=fetcher, keep=keep, workers=workers, wait=wait, on_wait=on_wait,
                          progress=progress)
    event = checked.event
    earlier = replace(event, rounds=event.rounds[:number - 1])
    results = [result for result in checked.results if result.round.number < number]
    before = standings(earlier, results)
    playing = [line.player.id for line in before
               if line.player.dropped_after is None or number <= line.player.dropped_after]
    if top is not None:
        playing = playing[:top]
    met: Counter[frozenset[int]] = Counter()
    for result in results:
        users = [seat.seat.user for seat in result.seats if isinstance(seat.seat.user, int)]
        met.update(frozenset(pair) for pair in combinations(users, 2))
    places = {line.player.id: line.place for line in before}
    try:
        proposal = propose(playing, event.seating.sizes, met, places, event.seed, number, event.seating.prefer)
    except ValueError as exc:
        raise EventError([f"{path}: round {number}: {exc} (seating.sizes)"]) from None
    note = (f"proposed by railledger event seat: {proposal.repeats} repeat pairing{'' if proposal.repeats == 1 else 's'}"
            f"{'' if proposal.exact else ' (the best a search found; not proven the fewest)'}; add each table's game id "
            "(game = ...) once it is made")
    text = set_round_tables(checked.file, number, proposal.tables, note)
    write_whole(path, text.encode("utf-8"))
    return Seated(proposal, before, text)
