"""Rows of what a replay found: per-action states, events, standings and flags of one game.

Like :mod:`records.codec` this shapes rows and writes no SQL. Players are stored by seat (1, 2...)
so rows stay narrow; the ``players`` table maps seats to names and ids.

A player's or a company's state is stored only at the actions after which it differs from its
previous one (``player_changes``, ``company_changes``; every one at the first action): most
actions change one or two of them, and a row per company per action was most of an archive. Its
state after any action is its latest row at or before it, and the round-end tables are those
states at each round's last action (:mod:`records.states` reads them so); ``position`` keeps its
place among the snapshot's players or companies.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from railledger.ingest.model import PlayerId, Record
from railledger.records.codec import Columns
from railledger.replay import Replay
from railledger.replay.optimizer.audit import RunAudit


@dataclass(frozen=True, slots=True)
class ReplayRows:
    steps: Columns
    player_changes: Columns
    company_changes: Columns
    events: Columns
    standings: Columns
    flags: Columns
    runs: Columns


def encode_replay(replay: Replay, runs: Sequence[RunAudit] = ()) -> ReplayRows:
    record = replay.record
    seats = {p.id: seat for seat, p in enumerate(record.players, start=1)}
    steps: Columns = {"seq": [], "action_id": [], "round": [], "phase": []}
    players = _Changes("seq", "seat", "position", "cash", "net_worth", "shares")
    companies = _Changes("seq", "company", "position", "price", "market_row", "market_col", "cash", "trains",
                         "tokens", "president", "floated", "closed")
    value: object  # a column's value, in the loops below
    shaped_players: dict[PlayerId, tuple[int, object]] = {}  # the position and view each last row came from
    shaped_companies: dict[str, tuple[int, object]] = {}
    for seq, (action, snap) in enumerate(zip(record.actions, replay.snapshots)):
        steps["seq"].append(seq)
        steps["action_id"].append(action.label)
        steps["round"].append(snap.round)
        steps["phase"].append(snap.phase)
        for position, (pid, view) in enumerate(snap.players):
            # a snapshot keeps the very view of what did not change, so its row would be the last one
            last = shaped_players.get(pid)
            if last is not None and last[1] is view and last[0] == position:
                continue
            shaped_players[pid] = (position, view)
            players.add(seq, seats[pid], (position, view.cash, view.value, ",".join(f"{c}={p}" for c, p in view.shares)))
        for position, (sym, company) in enumerate(snap.corporations):
            last = shaped_companies.get(sym)
            if last is not None and last[1] is company and last[0] == position:
                continue
            shaped_companies[sym] = (position, company)
            row, col = company.cell if company.cell else (None, None)
            president = None if company.president is None else seats.get(company.president)
            companies.add(seq, sym, (position, company.price, row, col, company.cash, ",".join(company.trains),
                                     company.tokens, president, company.floated, company.closed))
    events: Columns = {"seq": [], "ordinal": [], "kind": [], "subject": [], "amount": [], "detail": []}
    for ordinal, event in enumerate(replay.events):
        for name, value in (("seq", event.index), ("ordinal", ordinal), ("kind", event.kind),
                            ("subject", event.subject), ("amount", event.amount), ("detail", event.detail)):
            events[name].append(value)
    ranked = sorted(replay.result.values(), reverse=True)
    best = ranked[0] if ranked else None
    has_result = has_ranks(record)
    standings: Columns = {"seat": [], "value": [], "rank": [], "winner": []}
    for pid, value in replay.result.items():
        standings["seat"].append(seats[pid])
        standings["value"].append(value)
        standings["rank"].append(ranked.index(value) + 1 if has_result else None)
        standings["winner"].append(value == best if has_result else None)
    flags: Columns = {"seq": [], "action_id": [], "round": [], "sentence": [], "rule": [], "section": [], "message": [],
                      "follows": []}
    for flag in replay.flags:
        for name, value in (("seq", flag.index), ("action_id", flag.action_id), ("round", flag.round),
                            ("sentence", flag.sentence), ("rule", flag.rule), ("section", flag.section),
                            ("message", flag.message), ("follows", flag.follows)):
            flags[name].append(value)
    return ReplayRows(steps, players.columns, companies.columns, events, standings, flags,
                      encode_runs(runs, seats))


def has_ranks(record: Record) -> bool:
    """Whether a game's players are ranked: it is finished and its record holds a result. An
    unfinished game's replay ends with values too (every player near the starting cash), but
    nobody won it, so its standings keep the values with no rank and no winner."""
    return bool(record.result) and record.status == "finished"


class _Changes:
    """The rows of one kind of entity's states, each kept only when it differs from that entity's
    previous state."""

    def __init__(self, *names: str) -> None:
        self.names = names
        self.columns: Columns = {name: [] for name in names}
        self.last: dict[object, tuple[object, ...]] = {}

    def add(self, seq: int, entity: object, values: tuple[object, ...]) -> None:
        if self.last.get(entity) == values:
            return
        self.last[entity] = values
        for name, value in zip(self.names, (seq, entity, *values)):
            self.columns[name].append(value)


RUN_COLUMNS = ("seq", "action_id", "company", "round", "seat", "declared", "engine", "optimum", "proven",
               "declared_routes", "optimal_routes")


def encode_runs(runs: Sequence[RunAudit], seats: Mapping[PlayerId, int]) -> Columns:
    """One row per audited run: the declared routes as the engine read them, and the best run."""
    table: Columns = {name: [] for name in RUN_COLUMNS}
    for run in runs:
        declared = [{"train": route.get("train"), "revenue": revenue, "stops": [list(stop) for stop in stops],
                     "connections": route.get("connections") or []}
                    for route, revenue, stops in zip(run.routes, run.route_revenues, run.route_stops)]
        optimal = [{"train": r.train, "revenue": r.revenue, "stops": [list(stop) for stop in r.stops],
                    "connections": [list(c) for c in r.connections]} for r in run.optimum.routes]
        for name, value in (("seq", run.index), ("action_id", run.action_id), ("company", run.company),
                            ("round", run.round), ("seat", None if run.president is None else seats.get(run.president)), ("declared", run.declared),
                            ("engine", run.engine), ("optimum", run.optimum.revenue), ("proven", run.optimum.proven),
                            ("declared_routes", json.dumps(declared)), ("optimal_routes", json.dumps(optimal))):
            table[name].append(value)
    return table
