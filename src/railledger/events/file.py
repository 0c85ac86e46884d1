"""Event files: read into an :class:`~events.model.Event`, every fault a line naming its line and
field; tables written back with tomlkit, so that the organizer's comments and layout survive.

Reading refuses rather than guesses: an unknown key (a misspelt ``tie_breaks`` would otherwise
be ignored in silence), a value of the wrong kind, a player seated twice in a round, a table size
the scoring does not cover. Checks that need the games themselves are :mod:`events.games`'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import TOMLKitError

from railledger.events.lines import Lines
from railledger.events.model import (ABANDONED, ADJUST, RANK_POINTS, RULINGS, SUBSTITUTE_SCORES, SYSTEMS, TIE_BREAKS, TIES,
                                     Decision, Event, EventPlayer, EventTable, Round, Scoring, Seating, Substitute)
from railledger.ingest.titles import PLAYER_COUNTS, counts_text

MAX_SIZE = 4 * 1024 * 1024
"""The largest event file read: a season of a large league is a few hundred KB."""


class EventError(Exception):
    """An event file that cannot be used; ``lines`` holds one line per fault, each naming the
    file, the line and the field (``event.toml:12: rounds[0].tables[1].game: ...``)."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


@dataclass
class Faults:
    """The faults found in one file, each located by its path in the file."""

    path: Path
    lines: Lines
    found: list[str] = field(default_factory=list)

    def add(self, where: str, message: str) -> None:
        line = self.lines.line(where)
        self.found.append(f"{self.path}{'' if line is None else f':{line}'}: {where}: {message}" if where
                          else f"{self.path}: {message}")

    def raise_any(self) -> None:
        if self.found:
            raise EventError(self.found)


@dataclass(frozen=True)
class EventFile:
    """An event as read, with its text's lines (to place faults found later) and its document."""

    event: Event
    path: Path
    lines: Lines
    document: tomlkit.TOMLDocument

    def faults(self) -> Faults:
        return Faults(self.path, self.lines)


def read_event(path: Path) -> EventFile:
    """The event in ``path``; raises :class:`EventError` naming every fault found."""
    text = _text(path)
    try:
        document = tomlkit.parse(text)
        data = document.unwrap()
    except TOMLKitError as exc:
        raise EventError([f"{path}: not TOML: {exc}"]) from None
    except (RecursionError, ValueError, OverflowError) as exc:  # nesting past the parser's depth, a date out of range
        raise EventError([f"{path}: not TOML railledger reads: {type(exc).__name__}: {exc}"]) from None
    faults = Faults(path, Lines(text))
    event = _Reader(faults).event(data)
    faults.raise_any()
    assert event is not None
    return EventFile(event, path, faults.lines, document)


def _text(path: Path) -> str:
    try:
        if not path.is_file():
            raise EventError([f"{path}: not an event file: {'no such file' if not path.exists() else 'not a regular file'}"])
        if path.stat().st_size > MAX_SIZE:
            raise EventError([f"{path}: larger than {MAX_SIZE:,} bytes: not an event file"])
        return path.read_bytes().decode("utf-8").removeprefix("\ufeff")
    except OSError as exc:
        raise EventError([f"{path}: cannot read: {exc.strerror or exc}"]) from None
    except UnicodeDecodeError as exc:
        raise EventError([f"{path}: not UTF-8 text (byte {exc.start:,})"]) from None


_TOP = ("name", "title", "titles", "seed", "scoring", "seating", "players", "rounds")
_SCORING = ("system", "points", "ties", "tie_breaks", "abandoned_after", "abandoned", "substitute_scores")
_SEATING = ("sizes", "prefer")
_PLAYER = ("id", "name", "dropped_after")
_ROUND = ("name", "stage", "tables")
_TABLE = ("game", "players", "substitutes", "decision")
_SUBSTITUTE = ("id", "name", "replaces")
_DECISION = ("ruling", "reason", "values")


class _Reader:
    """Reads a decoded event file, noting each fault in ``faults`` and going on where it can."""

    def __init__(self, faults: Faults) -> None:
        self.faults = faults

    def fault(self, where: str, message: str) -> None:
        self.faults.add(where, message)

    def known(self, data: Mapping[str, Any], where: str, keys: tuple[str, ...]) -> None:
        for key in data:
            if key not in keys:
                self.fault(f"{where}.{key}" if where else key, f"unknown key {key!r}; the keys here are {', '.join(keys)}")

    def value(self, data: Mapping[str, Any], where: str, key: str, test: Callable[[Any], bool], kind: str,
              default: Any = None, required: bool = False) -> Any:
        path = f"{where}.{key}" if where else key
        if key not in data:
            if required:
                self.fault(where or key, f"{key} is missing: give {kind}")
            return default
        found = data[key]
        if not test(found):
            self.fault(path, f"must be {kind}, not {found!r}")
            return default
        return found

    def table(self, data: Mapping[str, Any], where: str, key: str) -> Mapping[str, Any]:
        return self.value(data, where, key, lambda v: isinstance(v, dict), "a table", {})

    def event(self, data: Mapping[str, Any]) -> Event | None:
        self.known(data, "", _TOP)
        name = self.value(data, "", "name", _text_value, "a name", "", required=True)
        titles = self.titles(data)
        seed = self.value(data, "", "seed", _whole, "a whole number", 0)
        players = self.players(data)
        ids = {player.id for player in players}
        scoring = self.scoring(self.table(data, "", "scoring"))
        seating = self.seating(self.table(data, "", "seating"), titles, scoring)
        rounds = self.rounds(data, ids)
        self.check_sizes(scoring, seating, rounds)
        self.check_seated(players, rounds)
        return Event(name, titles, scoring, seating, players, rounds, seed)

    def titles(self, data: Mapping[str, Any]) -> tuple[str, ...]:
        if "title" in data and "titles" in data:
            self.fault("titles", "give title or titles, not both")
        if "title" in data:
            given = [self.value(data, "", "title", _text_value, "a title's name", "")]
            where = "title"
        else:
            given = self.value(data, "", "titles", lambda v: isinstance(v, list) and bool(v) and all(map(_text_value, v)),
                               "a list of titles' names", [], required=True)
            where = "titles"
        for title in given:
            if title and title not in PLAYER_COUNTS:
                self.fault(where, f"railledger has no engine for {title!r}; it knows {', '.join(PLAYER_COUNTS)}")
        return tuple(title for title in given if title in PLAYER_COUNTS)

    def players(self, data: Mapping[str, Any]) -> tuple[EventPlayer, ...]:
        given = self.value(data, "", "players", _list_of_tables, "a list of players ([[players]])", [], required=True)
        players: list[EventPlayer] = []
        for n, entry in enumerate(given):
            where = f"players[{n}]"
            self.known(entry, where, _PLAYER)
            user = self.value(entry, where, "id", _user_id, "an 18xx.games user id (a whole number)", None, required=True)
            name = self.value(entry, where, "name", _text_value, "the name to show", "", required=True)
            dropped = self.value(entry, where, "dropped_after", _positive, "a round number", None)
            if user is None:
                continue
            if any(player.id == user for player in players):
                self.fault(f"{where}.id", f"player {user} is listed twice")
                continue
            players.append(EventPlayer(user, name or f"user {user}", dropped))
        return tuple(players)

    def scoring(self, data: Mapping[str, Any]) -> Scoring:
        where = "scoring"
        self.known(data, where, _SCORING)
        system = self.value(data, where, "system", lambda v: v in SYSTEMS, f"one of {_choices(SYSTEMS)}", RANK_POINTS,
                            required=True)
        ties = self.value(data, where, "ties", lambda v: v in TIES, f"one of {_choices(TIES)}", "share")
        points: dict[int, tuple[Fraction, ...]] = {}
        given = self.value(data, where, "points", lambda v: isinstance(v, dict), "a table of points by table size", {},
                           required=system == RANK_POINTS)
        if system != RANK_POINTS and "points" in data:
            self.fault(f"{where}.points", f"points are for the rank points system, not {system!r}")
        for size, row in given.items():
            at = f"{where}.points.{size}"
            if not (size.isdigit() and int(size) >= 1):
                self.fault(at, f"{size!r} is not a table size (a whole number of players)")
            elif not (isinstance(row, list) and all(_number(v) for v in row)):
                self.fault(at, f"must be a list of points, place 1 first, not {row!r}")
            elif len(row) != int(size):
                self.fault(at, f"a table of {size} has {size} places, but {len(row)} points are given")
            else:
                points[int(size)] = tuple(Fraction(str(v)) for v in row)
        tie_breaks = self.value(data, where, "tie_breaks", lambda v: isinstance(v, list) and all(b in TIE_BREAKS for b in v),
                                f"a list of tie-breaks, each one of {_choices(TIE_BREAKS)}", [])
        if len(set(tie_breaks)) != len(tie_breaks):
            self.fault(f"{where}.tie_breaks", "a tie-break is listed twice")
        return Scoring(
            system, points, ties, tuple(dict.fromkeys(tie_breaks)),
            self.value(data, where, "abandoned_after", _positive, "a number of actions", None),
            self.value(data, where, "abandoned", lambda v: v in ABANDONED, f"one of {_choices(ABANDONED)}", ABANDONED[0]),
            self.value(data, where, "substitute_scores", lambda v: v in SUBSTITUTE_SCORES,
                       f"one of {_choices(SUBSTITUTE_SCORES)}", SUBSTITUTE_SCORES[0]),
        )

    def seating(self, data: Mapping[str, Any], titles: tuple[str, ...], scoring: Scoring) -> Seating:
        where = "seating"
        self.known(data, where, _SEATING)
        allowed = sorted(set.intersection(*(set(PLAYER_COUNTS[t]) for t in titles))) if titles else []
        if scoring.system == RANK_POINTS and "sizes" not in data:
            allowed = [size for size in allowed if size in scoring.points]  # the sizes the points cover
        sizes = self.value(data, where, "sizes", lambda v: isinstance(v, list) and bool(v) and all(map(_positive, v)),
                           "a list of table sizes", allowed)
        for size in sizes:
            if titles and size not in allowed:
                self.fault(f"{where}.sizes", f"{' and '.join(titles)} {'is' if len(titles) == 1 else 'are'} played by "
                                             f"{counts_text(tuple(allowed)) if allowed else 'no common number of'} players, not {size}")
        prefer = self.value(data, where, "prefer", _positive, "a table size", None)
        if prefer is not None and prefer not in sizes:
            self.fault(f"{where}.prefer", f"{prefer} is not one of the sizes {', '.join(map(str, sizes))}")
        return Seating(tuple(sorted(set(sizes))), prefer)

    def rounds(self, data: Mapping[str, Any], ids: set[int]) -> tuple[Round, ...]:
        given = self.value(data, "", "rounds", _list_of_tables, "a list of rounds ([[rounds]])", [])
        rounds = []
        games: dict[int, str] = {}
        for n, entry in enumerate(given):
            where = f"rounds[{n}]"
            self.known(entry, where, _ROUND)
            name = self.value(entry, where, "name", _text_value, "a name", f"Round {n + 1}")
            stage = self.value(entry, where, "stage", _positive, "a stage number (1, 2...)", 1)
            tables = self.value(entry, where, "tables", _list_of_tables, "a list of tables ([[rounds.tables]])", [])
            read = tuple(self.event_table(table, f"{where}.tables[{t}]", ids, games) for t, table in enumerate(tables))
            rounds.append(Round(n + 1, name, stage, read))
            self.check_round(rounds[-1])
        return tuple(rounds)

    def event_table(self, data: Mapping[str, Any], where: str, ids: set[int], games: dict[int, str]) -> EventTable:
        self.known(data, where, _TABLE)
        game = self.value(data, where, "game", _user_id, "an 18xx.games game id (a whole number)", None)
        if game is not None:
            if game in games:
                self.fault(f"{where}.game", f"game {game} is also at {games[game]}")
            games.setdefault(game, where)
        players = self.value(data, where, "players", lambda v: isinstance(v, list) and all(map(_user_id, v)),
                             "a list of user ids", [])
        for n, user in enumerate(players):
            if user not in ids:
                self.fault(f"{where}.players[{n}]", f"{user} is not a player of the event ([[players]])")
        if len(set(players)) != len(players):
            self.fault(f"{where}.players", "a player is listed twice")
        if game is None and not players:
            self.fault(where, "a table needs its game's id (game = ...) or, until the game is made, its players")
        substitutes = []
        for n, sub in enumerate(self.value(data, where, "substitutes", _list_of_tables, "a list of substitutes", [])):
            at = f"{where}.substitutes[{n}]"
            self.known(sub, at, _SUBSTITUTE)
            user = self.value(sub, at, "id", _user_id, "an 18xx.games user id", None, required=True)
            name = self.value(sub, at, "name", _text_value, "the name to show", "", required=True)
            replaces = self.value(sub, at, "replaces", _user_id, "the user id of the player replaced", None, required=True)
            if replaces is not None and (replaces not in ids or (players and replaces not in players)):
                self.fault(f"{at}.replaces", f"{replaces} is not a player {'at this table' if players else 'of the event'}")
            elif user is not None and replaces is not None:
                substitutes.append(Substitute(user, name or f"user {user}", replaces))
        decision = self.decision(data, where) if "decision" in data else None
        return EventTable(where, game, tuple(players), tuple(substitutes), decision)

    def decision(self, data: Mapping[str, Any], where: str) -> Decision | None:
        at = f"{where}.decision"
        given = self.table(data, where, "decision")
        self.known(given, at, _DECISION)
        ruling = self.value(given, at, "ruling", lambda v: v in RULINGS, f"one of {_choices(RULINGS)}", None, required=True)
        reason = self.value(given, at, "reason", lambda v: _text_value(v) and v.strip(), "the reason, shown with it", "",
                            required=True)
        values = self.value(given, at, "values", lambda v: isinstance(v, dict), "a table of final values by user id", None)
        if (values is not None) != (ruling == ADJUST):
            self.fault(f"{at}.values" if values is not None else at,
                       "values are given with an adjust ruling, and only with it" if values is not None
                       else "an adjust ruling gives the final values: values = { 1234 = 5000, ... }")
            return None
        read: dict[int, int] = {}
        for user, value in (values or {}).items():
            if not (user.isdigit() and _whole(value)):
                self.fault(f"{at}.values.{user}", f"must be a user id = a whole final value, not {user} = {value!r}")
            else:
                read[int(user)] = value
        if ruling is None or not reason:
            return None
        return Decision(ruling, reason.strip(), read if values is not None else None)

    def check_round(self, round_: Round) -> None:
        """No one at two tables of a round (a substitute included)."""
        seated: dict[int, str] = {}
        for table in round_.tables:
            for user in (*table.players, *(sub.id for sub in table.substitutes)):
                if user in seated and seated[user] != table.where:
                    self.fault(table.where, f"{user} is also at {seated[user]}: a player plays one table a round")
                seated.setdefault(user, table.where)

    def check_seated(self, players: tuple[EventPlayer, ...], rounds: tuple[Round, ...]) -> None:
        """A player who left the event is seated in no later round."""
        for player in players:
            if player.dropped_after is None:
                continue
            for round_ in rounds[player.dropped_after:]:
                for table in round_.tables:
                    if player.id in table.players:
                        self.fault(table.where, f"{player.name} ({player.id}) left the event after round "
                                                f"{player.dropped_after} (dropped_after) but is seated here")

    def check_sizes(self, scoring: Scoring, seating: Seating, rounds: tuple[Round, ...]) -> None:
        """Rank points cover every table size the event seats."""
        if scoring.system != RANK_POINTS or not scoring.points:
            return
        for size in seating.sizes:
            if size not in scoring.points:
                self.fault("scoring.points", f"no points for a table of {size} (seating.sizes)")
        for round_ in rounds:
            for table in round_.tables:
                if table.players and len(table.players) not in scoring.points:
                    self.fault(f"{table.where}.players", f"no points for a table of {len(table.players)} (scoring.points)")


def _choices(options: tuple[str, ...]) -> str:
    return ", ".join(repr(option) for option in options)


def _text_value(value: Any) -> bool:
    return isinstance(value, str)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _positive(value: Any) -> bool:
    return _whole(value) and value >= 1


def _user_id(value: Any) -> bool:
    return _positive(value)


def _number(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)) and value == value and abs(value) != float("inf")


def _list_of_tables(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(entry, dict) for entry in value)


def set_round_tables(event_file: EventFile, number: int, tables: Sequence[Sequence[int]], note: str) -> str:
    """The event file's text with round ``number``'s tables (players only: their games are not made
    yet) set to ``tables``, the players' names beside each in a comment; a new last round is added
    as ``Round N``. Everything else in the file stays as it was written, comments included.
    Raises :class:`EventError` for a round that is neither in the file nor the next one, or whose
    games are made."""
    event = event_file.event
    document = event_file.document
    if not 1 <= number <= len(event.rounds) + 1:
        raise EventError([f"{event_file.path}: round {number} cannot be seated: the event has {len(event.rounds)} "
                          f"round{'' if len(event.rounds) == 1 else 's'}; seat one of them, or round {len(event.rounds) + 1}"])
    if number <= len(event.rounds):
        made = [table for table in event.rounds[number - 1].tables if table.game is not None]
        if made:
            faults = event_file.faults()
            faults.add(f"{made[0].where}.game", f"round {number} already has its games; only a round whose games are "
                                                "not made yet is seated")
            faults.raise_any()
        entry = document["rounds"][number - 1]
    else:
        if "rounds" not in document:
            document.append("rounds", tomlkit.aot())
        elif len(document["rounds"]):
            _blank_line_after(document["rounds"][-1])
        entry = tomlkit.table()
        entry.add("name", f"Round {number}")
        document["rounds"].append(entry)
    seated = tomlkit.aot()
    for players in tables:
        table = tomlkit.table()
        listed = tomlkit.array()
        listed.extend(players)
        listed.comment(", ".join(event.name_of(user) for user in players))
        table.add("players", listed)
        seated.append(table)
    if "tables" in entry:
        del entry["tables"]
    entry.add(tomlkit.comment(note))
    entry.add("tables", seated)
    return tomlkit.dumps(document)


def _blank_line_after(entry: Any) -> None:
    """End a round's table (its last table of players, when it has some) with a blank line, as
    the organizer's own rounds are, before a round is added after it."""
    tables = entry.get("tables")
    last = tables[-1] if tables is not None and len(tables) else entry
    if not last.as_string().endswith("\n\n"):
        last.add(tomlkit.nl())
