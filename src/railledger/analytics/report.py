"""The facts of one game's report (``railledger report``): what an organizer sends the players.

Everything here is read from the record, the text it was read from (an 18xx.games export keeps
every undo, redo and the server's envelope of each action) and one replay of it; the revenue
audit's shortfalls come from the archive's ``runs`` table or from auditing the replay. A report
is built the same way from a file or from the archive alone, which keeps each record's text.
Rendering lives in :mod:`reports.game`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterable, Mapping

import polars as pl

from railledger.ingest.model import Action, PlayerId, Record, SourceText
from railledger.ingest.notation import write_action
from railledger.ingest.undo import RawAction, source_actions, undo_history, undo_remarks
from railledger.records import Archive
from railledger.replay.optimizer.audit import RunAudit
from railledger.replay.replayer import Flag, Replay
from railledger.replay.titles import title_named
from railledger.replay.verdict import Verdict, acting_name, judge, manual_end

LONGEST = 3
"""How many of each player's longest waits a report lists."""


@dataclass(frozen=True)
class FlagLine:
    """A root-cause flag: the action in notation, the rule broken, its rulebook text."""

    index: int
    action_id: str
    action: str
    rule: str
    section: str
    rule_text: str
    message: str


@dataclass(frozen=True)
class UndoCount:
    """One player's undos and redos and the actions their undos took back (``id type``)."""

    player: str
    undos: int
    redos: int
    taken_back: tuple[str, ...]


@dataclass(frozen=True)
class OnBehalf:
    """An action someone sent for another (18xx.games' ``user``, master mode)."""

    user: str
    for_whom: str
    when: str | None
    action: str


@dataclass(frozen=True)
class PlayerTime:
    """A player's time to act, from ``created_at``: the total and the longest waits (seconds, action)."""

    player: str
    actions: int
    total: int
    longest: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class Shortfall:
    """A run below the best run the company could make."""

    round: str
    company: str
    president: str
    engine: int
    optimum: int
    proven: bool

    @property
    def left(self) -> int:
        return self.optimum - self.engine


@dataclass(frozen=True)
class GameReport:
    """Every section of a report. ``undos`` is None when no export was kept (a record read from
    notation has no undo history); ``shortfalls`` is None when the runs were not audited."""

    record: Record
    engine: str | None
    verdict: Verdict
    replayed: Mapping[PlayerId, int] | None
    flags: tuple[FlagLine, ...]
    undos: tuple[UndoCount, ...] | None
    undo_remarks: tuple[str, ...]
    """Each undo or redo that changed nothing, or pointed at a chat message or a later action."""
    on_behalf: tuple[OnBehalf, ...]
    times: tuple[PlayerTime, ...]
    manual_end: str | None
    runs_audited: int
    shortfalls: tuple[Shortfall, ...] | None


def player_name(record: Record, player: PlayerId | None) -> str:
    """A player's name by id (or by name, as older exports write ``user``); anyone else as text."""
    for seated in record.players:
        if player in (seated.id, seated.name):
            return seated.name
    return "unattributed" if player is None else f"user {player}"


def build_report(record: Record, source: SourceText | None, replay: Replay | None, engine: str | None,
                 runs_audited: int, shortfalls: Iterable[Shortfall] | None) -> GameReport:
    """The report of a record, given its text, its replay (with snapshots: the presidents say who
    acted for a company) and its audited runs."""
    actors = _Actors(record, replay)
    ended = manual_end(record)
    return GameReport(
        record=record,
        engine=engine,
        verdict=judge(record, replay, source),
        replayed=replay.result if replay is not None and replay.stopped_at is None else None,
        flags=tuple(_flag_line(actors, flag) for flag in (replay.flags if replay else ()) if flag.root),
        undos=_undos(actors, source),
        undo_remarks=undo_remarks(source),
        on_behalf=_on_behalf(actors),
        times=_times(actors),
        manual_end=None if ended is None else _ended(actors, ended),
        runs_audited=runs_audited,
        shortfalls=None if shortfalls is None else tuple(shortfalls),
    )


def audited_shortfalls(record: Record, runs: Iterable[RunAudit]) -> tuple[Shortfall, ...]:
    """The runs of an audit that left revenue on the table."""
    names = {p.id: p.name for p in record.players}
    return tuple(
        Shortfall(run.round, run.company, names.get(run.president, str(run.president)) if run.president is not None else "-",
                  run.engine, run.optimum.revenue, run.optimum.proven)
        for run in runs if run.engine is not None and run.shortfall
    )


def stored_shortfalls(archive: Archive, key: str) -> tuple[int, tuple[Shortfall, ...]]:
    """(runs audited, those below the optimum) of an archived game, from its ``runs`` rows."""
    runs = archive.table("runs", key).sort("seq")
    names = archive.table("players", key).select("seat", president="name")
    short = (runs.join(names, on="seat", how="left")
             .filter(pl.col("engine").is_not_null() & (pl.col("optimum") > pl.col("engine"))))
    return runs.height, tuple(
        Shortfall(r["round"], r["company"], r["president"] or "-", r["engine"], r["optimum"], r["proven"])
        for r in short.iter_rows(named=True)
    )


class _Actors:
    """Who answers for each action: a player acting, or a company's president just before it."""

    def __init__(self, record: Record, replay: Replay | None) -> None:
        self.record = record
        self.seats = {p.id: seat for seat, p in enumerate(record.players, start=1)}
        self.snapshots = replay.snapshots if replay is not None else []
        self.ids = [action.id for action in record.actions]  # ascending, as the server numbers them

    def responsible(self, index: int) -> PlayerId | None:
        """The player whose turn action ``index`` was: the acting player, or the president of the
        acting company just before it; None when the replay does not say."""
        entity = self.record.actions[index].entity
        if entity.kind == "player":
            return entity.id
        before = self.snapshots[index - 1] if 0 < index <= len(self.snapshots) else None
        if before is None:
            return None
        return next((view.president for sym, view in before.corporations if sym == entity.id), None)

    def sender(self, index: int) -> PlayerId | None:
        """Who sent action ``index``: its ``user`` when set, else the player responsible."""
        action = self.record.actions[index]
        return action.user if action.user is not None else self.responsible(index)

    def name(self, player: PlayerId | None) -> str:
        return player_name(self.record, player)

    def notation(self, action: Action) -> str:
        return write_action(action, self.seats, envelope=False)


def _flag_line(actors: _Actors, flag: Flag) -> FlagLine:
    return FlagLine(flag.index, flag.action_id, actors.notation(actors.record.actions[flag.index]),
                    flag.rule, flag.section, _rule_text(actors.record.title, flag), flag.message)


def _rule_text(title: str, flag: Flag) -> str:
    """The rulebook text of a flag's rule (ids read ``18MS/10.4-cert-limit``)."""
    key = flag.rule.split("/", 1)[-1]
    if flag.section and key.startswith(flag.section + "-"):
        key = key[len(flag.section) + 1:]
    return title_named(title).rule(key).text


def _undos(actors: _Actors, source: SourceText | None) -> tuple[UndoCount, ...] | None:
    raw = source_actions(source)
    if raw is None:
        return None
    counts: dict[str, list[Any]] = {p.name: [0, 0, []] for p in actors.record.players}
    for step in undo_history(raw):
        who = actors.name(step.action.get("user") or _raw_sender(actors, step.action, step.after))
        count = counts.setdefault(who, [0, 0, []])
        count[1 if step.is_redo else 0] += 1
        if not step.is_redo:
            count[2].extend(f"{a.get('id')} {a.get('type')}" for a in step.batch)
    return tuple(UndoCount(name, undos, redos, tuple(taken)) for name, (undos, redos, taken) in counts.items())


def _raw_sender(actors: _Actors, action: RawAction, after: Any) -> PlayerId | None:
    """The player of a raw undo or redo: its player entity, or the acting company's president
    at that point of the game (after the standing action ``after``, or the last action before it
    that still stands in the canonical record)."""
    if action.get("entity_type") == "player":
        return action.get("entity")
    if not isinstance(after, int):
        return None
    index = bisect_right(actors.ids, after) - 1  # the standing action may be taken back later: its last kept one
    if not 0 <= index < len(actors.snapshots):
        return None
    return next((view.president for sym, view in actors.snapshots[index].corporations if sym == action.get("entity")), None)


def _on_behalf(actors: _Actors) -> tuple[OnBehalf, ...]:
    found = []
    for index, action in enumerate(actors.record.actions):
        responsible = actors.responsible(index) if action.user is not None else None
        if action.user is None or actors.name(action.user) == actors.name(responsible):
            continue
        whom = acting_name(actors.record, action)
        if action.entity.kind != "player" and responsible is not None:
            whom += f" (president {actors.name(responsible)})"
        found.append(OnBehalf(actors.name(action.user), whom, _when(action.created_at), actors.notation(action)))
    return tuple(found)


def _times(actors: _Actors) -> tuple[PlayerTime, ...]:
    """Each player's time to act: the seconds between the previous standing action and each of
    theirs, so time spent on actions later undone counts for the action that stood (automatic
    actions are the server's, not a player's). An action of a private company, whose owner the
    replay's snapshot does not name, is ``unattributed``."""
    waits: dict[str, list[tuple[int, str]]] = defaultdict(list)
    previous: int | None = None
    for index, action in enumerate(actors.record.actions):
        if action.auto or action.created_at is None:
            continue
        if previous is not None:
            waits[actors.name(actors.sender(index))].append((max(0, action.created_at - previous), action.label))
        previous = action.created_at
    return tuple(
        PlayerTime(name, len(waits[name]), sum(s for s, _ in waits[name]),
                   tuple(sorted(waits[name], key=lambda w: -w[0])[:LONGEST]))
        for name in [p.name for p in actors.record.players] + sorted(set(waits) - {p.name for p in actors.record.players})
        if waits.get(name)
    )


def _ended(actors: _Actors, ended: Action) -> str:
    index = actors.record.actions.index(ended)
    when = _when(ended.created_at)
    return (f"ended by hand by {actors.name(actors.sender(index))} at action {ended.label}"
            + (f" ({when})" if when else ""))


def _when(created_at: int | None) -> str | None:
    if created_at is None:
        return None
    return datetime.fromtimestamp(created_at, timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
