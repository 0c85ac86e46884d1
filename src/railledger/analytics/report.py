"""The facts of one game's report (``railledger report``): what an organizer sends the players.

Everything here is read from the record, the text it was read from (an 18xx.games export keeps
every undo, redo and the server's envelope of each action) and one replay of it; the revenue
audit's shortfalls come from the archive's ``runs`` table or from auditing the replay. A report
is built the same way from a file or from the archive alone, which keeps each record's text.
Rendering lives in :mod:`reports.game`.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterable, Mapping

import polars as pl

from railledger.ingest.identity import labels, seat_labels
from railledger.ingest.model import Action, PlayerId, Record, SourceText
from railledger.ingest.undo import RawAction, source_actions, undo_history, undo_remarks
from railledger.records import Archive
from railledger.replay.optimizer.audit import RunAudit
from railledger.replay.optimizer.naming import run_name
from railledger.replay.replayer import Flag, Replay
from railledger.replay.sentences import Line, narrate
from railledger.replay.titles import title_named
from railledger.replay.verdict import ILLEGAL, MISMATCH, VALID, Verdict, acting_name, judge, manual_end

LONGEST = 3
"""How many of each player's longest waits a report lists."""


@dataclass(frozen=True)
class FlagLine:
    """A root-cause flag: the action by its id and round, in words; the rule broken, its rulebook
    section and text; what the engine says; and how many later flags follow from it."""

    action_id: str
    round: str
    sentence: str
    rule: str
    section: str
    rule_text: str
    message: str
    followers: int

    @property
    def where(self) -> str:
        return f"{self.action_id} ({self.round})" if self.round else self.action_id


@dataclass(frozen=True)
class Placing:
    """A player's place (ties share one), name and the values the result table shows."""

    place: int
    player: str
    value: int | None
    recorded: int | None


@dataclass(frozen=True)
class Result:
    """What the game's result is, in words (``summary``), and the players in order of the values
    it rests on (``basis``): ``replayed`` for a valid game or one whose recorded values differ;
    ``ended``, the replay's values where an unfinished record ends; ``recorded``, the record's own
    values for an illegal game (or one not replayed), not confirmed; ``none``."""

    summary: str
    basis: str
    placings: tuple[Placing, ...]


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
    ran: str  # the declared routes, named (railledger.replay.optimizer.naming)
    better: str  # the best run's routes, named

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
    result: Result
    flags: tuple[FlagLine, ...]
    undos: tuple[UndoCount, ...] | None
    undo_remarks: tuple[str, ...]
    """Each undo or redo that changed nothing, or pointed at a chat message or a later action."""
    on_behalf: tuple[OnBehalf, ...]
    times: tuple[PlayerTime, ...]
    manual_end: str | None
    runs_audited: int
    shortfalls: tuple[Shortfall, ...] | None


NOT_A_PLAYER = "(not a player)"
"""How a report marks someone who acted without being one of the record's players."""


def player_name(record: Record, player: PlayerId | None) -> str:
    """Who someone is, in one policy for every name a report shows (docs/identity.md): a player by
    the name shown for them (:func:`ingest.identity.seat_labels`: with a short id where two names
    compare equal), found by id, or by the record's name, as older exports write ``user``; anyone
    else as the record names them (a name, or an 18xx.games account number), marked as not a
    player: the record does not say who of the table they are."""
    shown = seat_labels(record)
    for seated in record.players:
        if player in (seated.id, seated.name):
            return shown[seated.id]
    if player is None:
        return "unattributed"
    return f"{player} {NOT_A_PLAYER}" if isinstance(player, str) else f"account {player} {NOT_A_PLAYER}"


def build_report(record: Record, source: SourceText | None, replay: Replay | None, engine: str | None,
                 runs_audited: int, shortfalls: Iterable[Shortfall] | None) -> GameReport:
    """The report of a record, given its text, its replay (with snapshots: the presidents say who
    acted for a company) and its audited runs."""
    actors = _Actors(record, replay)
    ended = manual_end(record)
    verdict = judge(record, replay, source)
    flags = replay.flags if replay is not None else []
    return GameReport(
        record=record,
        engine=engine,
        verdict=verdict,
        result=_result(record, verdict, replay),
        flags=tuple(_flag_line(actors, flag, sum(1 for f in flags if f.follows == flag.index)) for flag in flags if flag.root),
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
    names = seat_labels(record)
    return tuple(
        Shortfall(run.round, run.company, names.get(run.president, str(run.president)) if run.president is not None else "-",
                  run.engine, run.optimum.revenue, run.optimum.proven, run.declared_run, run.better_run)
        for run in runs if run.engine is not None and run.shortfall
    )


def stored_shortfalls(archive: Archive, key: str) -> tuple[int, tuple[Shortfall, ...]]:
    """(runs audited, those below the optimum) of an archived game, from its ``runs`` rows."""
    runs = archive.table("runs", key).sort("seq")
    players = archive.table("players", key)
    shown = labels(zip(players["identity"], players["name"]), within_game=True)
    names = players.select("seat", president=pl.col("identity").replace_strict(shown, return_dtype=pl.Utf8))
    short = (runs.join(names, on="seat", how="left")
             .filter(pl.col("engine").is_not_null() & (pl.col("optimum") > pl.col("engine"))))
    return runs.height, tuple(
        Shortfall(r["round"], r["company"], r["president"] or "-", r["engine"], r["optimum"], r["proven"],
                  _stored_run(r["declared_routes"]), _stored_run(r["optimal_routes"]))
        for r in short.iter_rows(named=True)
    )


def _stored_run(routes: str) -> str:
    """A run stored in the archive's ``runs`` (JSON: train, revenue, stops), named."""
    return run_name((route["train"], route["stops"], route["revenue"]) for route in json.loads(routes))


class _Actors:
    """Who answers for each action: a player acting, or a company's president just before it."""

    def __init__(self, record: Record, replay: Replay | None) -> None:
        self.record = record
        self.snapshots = replay.snapshots if replay is not None else []
        self.ids = [action.id for action in record.actions]  # ascending, as the server numbers them
        self.lines: list[Line] | None = narrate(record) if replay is not None else None

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

    def said(self, index: int) -> str:
        """Action ``index`` by its id and round, in words (by its id and type where the title has
        no engine to read it with)."""
        action = self.record.actions[index]
        if self.lines is None:
            return f"{action.label}: {action.type.replace('_', ' ')}"
        line = self.lines[index]
        return f"{line.action_id} ({line.round}): {line.text}"


def _flag_line(actors: _Actors, flag: Flag, followers: int) -> FlagLine:
    return FlagLine(flag.action_id, flag.round, flag.sentence, flag.rule, flag.section, _rule_text(actors.record.title, flag),
                    flag.message, followers)


def _result(record: Record, verdict: Verdict, replay: Replay | None) -> Result:
    """The result a verdict allows: the replay's values only where the rules let the game reach
    them (a valid game, or one without a flag whose recorded values differ); for an illegal game
    where it stopped being one, and the record's values as not confirmed."""
    recorded = dict(record.result or {})
    if replay is not None and verdict.kind in (VALID, MISMATCH):
        values = dict(replay.result)
        placings = _placings(record, values, recorded)
        best = [p.player for p in placings if p.place == 1]
        summary = f"{' and '.join(best)} {'win' if len(best) > 1 else 'wins'} with ${placings[0].value}."
        if verdict.kind == MISMATCH:
            summary += " The record's values differ from the replay's: the replay follows the rules."
        return Result(summary, "replayed", placings)
    if verdict.kind == ILLEGAL and replay is not None:
        first = replay.flags[0]
        summary = (f"No result: action {first.action_id} ({first.round}) breaks a rule, so the game the record holds is no "
                   "game the rules allow from there on; the replay stops counting at it.")
    else:
        summary = f"No result: {verdict.kind} ({verdict.detail})."
    if replay is not None and not replay.flags:  # unfinished, every action legal: the values it stopped at
        return Result(summary + " The values where the record ends, as the replay reaches them:", "ended",
                      _placings(record, replay.result, recorded))
    if not recorded:
        return Result(summary, "none", ())
    return Result(summary + " The values below are the record's own, not confirmed by a replay.", "recorded",
                  _placings(record, recorded, recorded))


def _placings(record: Record, values: Mapping[PlayerId, int], recorded: Mapping[PlayerId, int]) -> tuple[Placing, ...]:
    """The players from the highest value down; equal values share a place."""
    ordered = sorted(record.players, key=lambda p: -values.get(p.id, 0))
    shown = seat_labels(record)
    return tuple(Placing(1 + sum(1 for other in record.players if values.get(other.id, 0) > values.get(p.id, 0)),
                         shown[p.id], values.get(p.id), recorded.get(p.id)) for p in ordered)


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
    counts: dict[str, list[Any]] = {name: [0, 0, []] for name in seat_labels(actors.record).values()}
    for step in undo_history(raw):
        who = actors.name(step.action.get("user") or _raw_sender(actors, step.action, step.after))
        count = counts.setdefault(who, [0, 0, []])
        count[1 if step.is_redo else 0] += 1
        if not step.is_redo:
            count[2].extend(f"{a.get('id')} ({str(a.get('type')).replace('_', ' ')})" for a in step.batch)
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
        found.append(OnBehalf(actors.name(action.user), whom, _when(action.created_at), actors.said(index)))
    return tuple(found)


def _times(actors: _Actors) -> tuple[PlayerTime, ...]:
    """Each player's time to act: the seconds between the previous standing action and each of
    theirs, so time spent on actions later undone counts for the action that stood (automatic
    actions are the server's, not a player's). An action of a private company, whose owner the
    replay's snapshot does not name, is ``unattributed``."""
    waits: dict[str, list[tuple[int, str]]] = defaultdict(list)
    seated = list(seat_labels(actors.record).values())
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
        for name in [*seated, *sorted(set(waits) - set(seated))]
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
