"""An event's games: what the event needs of each (read from the archive, or from an answer a pull
has just kept), and whether each fits its table in the file.

A game fits when it is of one of the event's titles, seats 18xx.games users, and seats the
table's players (a declared substitute in place of the player they replaced); a player sits at
one table a round; rank points cover its table's size; an adjust decision gives a value to each
of its seats. Each misfit is a line naming the file's line and field.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from railledger.events.file import EventFile, Faults
from railledger.events.model import ADJUST, RANK_POINTS, SUBSTITUTE_FOR_PLAYER, Event, EventTable
from railledger.ingest.errors import RecordError
from railledger.ingest.model import PlayerId, Record
from railledger.ingest.sources import read_record
from railledger.pipeline.site import game_key
from railledger.records import Archive
from railledger.replay.verdict import Verdict


@dataclass(frozen=True)
class GameFacts:
    """One game as the event sees it: title, seats (user id and name, in seat order), status,
    verdict (None: not stored yet), the recorded result, the replay's final values, and for each
    player how many of their last actions as a player, in a row, someone else sent."""

    game: int
    title: str
    seats: tuple[tuple[PlayerId, str], ...]
    status: str | None
    verdict: Verdict | None
    recorded: Mapping[PlayerId, int] | None
    replayed: Mapping[PlayerId, int] | None
    sent_by_others: Mapping[PlayerId, int]

    @property
    def users(self) -> list[PlayerId]:
        return [user for user, _ in self.seats]


def facts_of(record: Record, verdict: Verdict | None, replayed: Mapping[PlayerId, int] | None) -> GameFacts:
    """What the event needs of a record."""
    return GameFacts(int(record.game_id), record.title, tuple((p.id, p.name) for p in record.players), record.status,
                     verdict, record.result, replayed, trailing_sent_by_others(record))


def trailing_sent_by_others(record: Record) -> dict[PlayerId, int]:
    """For each player, how many of their last actions as a player (bids, buys, sales, passes),
    counted back from the game's end to their last own one, another user sent (18xx.games' master
    mode writes the sender in ``user``: an id, or on older games a name)."""
    counts: dict[PlayerId, int] = {}
    done: set[PlayerId] = set()
    names = {p.id: p.name for p in record.players}
    for action in reversed(record.actions):
        player = action.entity.id
        if action.entity.kind != "player" or player not in names or player in done:
            continue
        if action.user is None or action.user in (player, names[player]):
            done.add(player)
        else:
            counts[player] = counts.get(player, 0) + 1
    return {p.id: counts.get(p.id, 0) for p in record.players}


def archived_facts(archive: Archive, game_ids: Iterable[int]) -> dict[int, GameFacts]:
    """The facts of those of ``game_ids`` the archive holds."""
    found = {}
    for game_id in game_ids:
        key = game_key(game_id)
        stored = archive.stored(key)
        if stored is None:
            continue
        record = archive.record(key)
        standings = archive.table("standings", key)
        replayed = {record.players[seat - 1].id: value for seat, value in zip(standings["seat"], standings["value"])}
        found[game_id] = facts_of(record, stored.verdict, replayed or None)
    return found


def kept_facts(paths: Iterable[Path]) -> tuple[dict[int, GameFacts], dict[int, str]]:
    """The facts of answers a pull kept (not stored yet: no verdict), and why any kept by an
    earlier pull no longer reads, by game id."""
    found: dict[int, GameFacts] = {}
    unreadable: dict[int, str] = {}
    for path in paths:
        try:
            record = read_record(str(path))
        except RecordError as exc:
            unreadable[int(path.stem)] = f"game {path.stem}: the answer kept earlier does not read: {exc}"
            continue
        found[int(record.game_id)] = facts_of(record, None, None)
    return found, unreadable


@dataclass(frozen=True)
class Seat:
    """One seat of a game at an event table: who sat, and the event player it scores for (None:
    nobody, a substitute's seat when substitutes score for nobody), and the substitute if one sat."""

    user: PlayerId
    name: str
    player: int | None
    substitute: bool


def seats_of(event: Event, table: EventTable, facts: GameFacts | None) -> list[Seat]:
    """The seats of a table: its game's when it has one, else its players' (a game not made yet)."""
    substitutes = {sub.id: sub for sub in table.substitutes}
    listed = facts.seats if facts is not None else tuple((user, event.name_of(user)) for user in table.players)
    seats = []
    for user, name in listed:
        sub = substitutes.get(user) if isinstance(user, int) else None
        if sub is not None:
            scores_for = sub.replaces if event.scoring.substitute_scores == SUBSTITUTE_FOR_PLAYER else None
            seats.append(Seat(user, sub.name, scores_for, True))
            continue
        player = event.player(user) if isinstance(user, int) else None
        seats.append(Seat(user, player.name if player is not None else name, player.id if player is not None else None,
                          False))
    return seats


def check_games(event_file: EventFile, facts: Mapping[int, GameFacts], missing: Mapping[int, str]) -> Faults:
    """Every misfit between the event's tables and their games (``missing``: why a game is not at
    hand, by id)."""
    event = event_file.event
    faults = event_file.faults()
    for round_ in event.rounds:
        seated: dict[PlayerId, str] = {}
        for table in round_.tables:
            found = facts.get(table.game) if table.game is not None else None
            if table.game is not None and found is None:
                faults.add(f"{table.where}.game", missing.get(table.game, f"game {table.game} is not in the archive: "
                                                                          "pull it (event check --pull)"))
                continue
            if found is not None:
                _check_game(event, table, found, faults)
            for seat in seats_of(event, table, found):
                if seat.user in seated:
                    faults.add(table.where, f"{seat.name} ({seat.user}) is also at {seated[seat.user]}: a player plays "
                                            "one table a round")
                seated.setdefault(seat.user, table.where)
                player = event.player(seat.user) if isinstance(seat.user, int) else None
                if player is not None and player.dropped_after is not None and round_.number > player.dropped_after:
                    faults.add(table.where, f"{player.name} ({player.id}) left the event after round "
                                            f"{player.dropped_after} (dropped_after) but plays game {table.game}")
    return faults


def _check_game(event: Event, table: EventTable, facts: GameFacts, faults: Faults) -> None:
    at = f"{table.where}.game"
    if facts.title not in event.titles:
        faults.add(at, f"game {facts.game} is a {facts.title} game; the event's titles are {', '.join(event.titles)}")
    if not all(isinstance(user, int) for user in facts.users):
        faults.add(at, f"game {facts.game} is a hotseat game: its players have no 18xx.games user ids")
        return
    users = set(facts.users)
    substitutes = {sub.id for sub in table.substitutes}
    if table.players:
        expected = (set(table.players) - {sub.replaces for sub in table.substitutes}) | substitutes
        for user in sorted(users - expected, key=str):
            faults.add(at, f"game {facts.game} seats {facts.seats[facts.users.index(user)][1]} ({user}), who is not at "
                           "this table: list them, or declare them a substitute")
        for user in sorted(expected - users, key=str):
            faults.add(at, f"game {facts.game} does not seat {event.name_of(user)} ({user}), whom this table lists")
    else:
        for user, name in facts.seats:
            if event.player(int(user)) is None and user not in substitutes:
                faults.add(at, f"game {facts.game} seats {name} ({user}), who is neither a player of the event nor a "
                               "substitute at this table")
    size = len(facts.seats)
    if event.scoring.system == RANK_POINTS and size not in event.scoring.points:
        faults.add(at, f"game {facts.game} has {size} players, and scoring.points has no points for a table of {size}")
    decision = table.decision
    if decision is not None and decision.ruling == ADJUST and decision.values is not None:
        if set(decision.values) != users:
            faults.add(f"{table.where}.decision.values", f"an adjusted game gives a value to each of its players: "
                                                         f"{', '.join(str(u) for u in facts.users)}")
