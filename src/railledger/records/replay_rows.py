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
from typing import Any

from railledger.ingest.model import PlayerId, Record
from railledger.records.codec import Columns
from railledger.replay import Replay
from railledger.replay.snapshot import StateColumns
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
    states = replay.states if replay.states is not None else StateColumns()
    steps: Columns = {"seq": list(range(len(states.rounds))), "action_id": [a.label for a in record.actions[:len(states.rounds)]],
                      "round": states.rounds, "phase": states.phases}
    value: object  # a column's value, in the loops below
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
    return ReplayRows(steps, player_changes(states, seats), company_changes(states, seats), events, standings, flags,
                      encode_runs(runs, seats))


def player_changes(states: StateColumns, seats: Mapping[PlayerId, int]) -> Columns:
    """The ``player_changes`` columns of a replay's states: seats for players, each one's
    certificates as text (``GMO=60,IC=10``)."""
    position, cash, worth, shares = _transposed(states.player_state, 4)
    return {"seq": states.player_seq, "seat": [seats[pid] for pid in states.player], "position": position,
            "cash": cash, "net_worth": worth, "shares": [",".join(f"{c}={p}" for c, p in held) for held in shares]}


def company_changes(states: StateColumns, seats: Mapping[PlayerId, int]) -> Columns:
    """The ``company_changes`` columns of a replay's states: the market cell as row and column,
    trains as text (``2+,3+``), the president as a seat. A president outside the seats (the
    Union Bank of 1871) is stored as none, so a row that then equals the company's previous one
    is dropped, as the table keeps only changes."""
    kept: dict[str, tuple[object, ...]] = {}
    rows = []
    for seq, sym, (position, price, cell, cash, trains, tokens, president, floated, closed) in zip(
            states.company_seq, states.company, states.company_state):
        row, col = cell if cell is not None else (None, None)
        shaped = (position, price, row, col, cash, ",".join(trains), tokens,
                  None if president is None else seats.get(president), floated, closed)
        if kept.get(sym) != shaped:
            kept[sym] = shaped
            rows.append((seq, sym, *shaped))
    return dict(zip(COMPANY_CHANGE_COLUMNS, _transposed(rows, len(COMPANY_CHANGE_COLUMNS))))


COMPANY_CHANGE_COLUMNS = ("seq", "company", "position", "price", "market_row", "market_col", "cash", "trains",
                          "tokens", "president", "floated", "closed")


def _transposed(rows: Sequence[tuple[object, ...]], width: int) -> list[list[Any]]:
    """Rows as ``width`` columns (empty columns without a row)."""
    return [list(column) for column in zip(*rows)] if rows else [[] for _ in range(width)]


def has_ranks(record: Record) -> bool:
    """Whether a game's players are ranked: it is finished and its record holds a result. An
    unfinished game's replay ends with values too (every player near the starting cash), but
    nobody won it, so its standings keep the values with no rank and no winner."""
    return bool(record.result) and record.status == "finished"


RUN_COLUMNS = ("seq", "action_id", "company", "round", "seat", "declared", "engine", "optimum", "proven",
               "declared_routes", "optimal_routes")


def encode_runs(runs: Sequence[RunAudit], seats: Mapping[PlayerId, int]) -> Columns:
    """One row per audited run: the declared routes as the engine read them, and the best run's
    routes where they differ from those (none where the declared run is the best one, as at
    nearly every run: the archive reads them back as the declared ones, records.archive.READ_AS)."""
    table: Columns = {name: [] for name in RUN_COLUMNS}
    for run in runs:
        declared = [{"train": route.get("train"), "revenue": revenue, "stops": [list(stop) for stop in stops],
                     "connections": route.get("connections") or []}
                    for route, revenue, stops in zip(run.routes, run.route_revenues, run.route_stops)]
        optimal = [{"train": r.train, "revenue": r.revenue, "stops": [list(stop) for stop in r.stops],
                    "connections": [list(c) for c in r.connections]} for r in run.optimum.routes]
        declared_text, optimal_text = json.dumps(declared), json.dumps(optimal)
        for name, value in (("seq", run.index), ("action_id", run.action_id), ("company", run.company),
                            ("round", run.round), ("seat", None if run.president is None else seats.get(run.president)), ("declared", run.declared),
                            ("engine", run.engine), ("optimum", run.optimum.revenue), ("proven", run.optimum.proven),
                            ("declared_routes", declared_text),
                            ("optimal_routes", None if optimal_text == declared_text else optimal_text)):
            table[name].append(value)
    return table
