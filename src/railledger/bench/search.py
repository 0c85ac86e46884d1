"""What a search pays per action for ``railledger bench``: ``push``, ``pop`` and ``copy``.

A search (a bot looking ahead, a test trying every action) pushes an action, looks and pops it.
Each record's game is walked action by action: at every position the action is pushed, popped
and pushed again, and every :data:`COPY_EVERY`-th position the game is copied and, for
comparison, taken back the way ``pop`` did before the undo journal (replaying the game from its
start without the action). The measures alternate within one walk, so a load on the machine
weighs on all of them alike: the ratios are the figures to read, the times name the machine.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from railledger.bench.sections import Section
from railledger.ingest.model import Action, Record
from railledger.replay import Game, IllegalAction

COPY_EVERY = 10
"""Copies and replayed takebacks are timed at every tenth position (each costs many pushes)."""


@dataclass
class Costs:
    """Seconds per action of each operation, over a title's records."""

    push: list[float] = field(default_factory=list)
    pop: list[float] = field(default_factory=list)
    copy: list[float] = field(default_factory=list)
    replayed_pop: list[float] = field(default_factory=list)
    actions: int = 0


def measure(record: Record, costs: Costs) -> None:
    """Walk the record's applied actions, timing push, pop, copy and a replayed takeback."""
    game = Game.from_record(record)
    clock = time.perf_counter
    for number, action in enumerate(applied_actions(record)):
        started = clock()
        game.push(action)
        pushed = clock()
        game.pop()
        popped = clock()
        game.push(action)
        costs.push.append(pushed - started)
        costs.pop.append(popped - pushed)
        costs.actions += 1
        if number % COPY_EVERY == 0:
            started = clock()
            game.copy()
            copied = clock()
            _replayed_without_last(record, game.moves)
            costs.copy.append(copied - started)
            costs.replayed_pop.append(clock() - copied)


def applied_actions(record: Record) -> list[Action]:
    """The record's actions the engine applies (a refused one is not pushed)."""
    game, kept = Game.from_record(record), []
    for action in record.actions:
        try:
            game.process(action)
        except IllegalAction:
            continue
        kept.append(action)
    return kept


def _replayed_without_last(record: Record, moves: list[Action]) -> Game:
    """The takeback without a journal: the game set up again and every move but the last replayed."""
    fresh = Game.from_record(record)
    for move in moves[:-1]:
        fresh.process(move)
    return fresh


def search_section(records: Iterable[Record]) -> Section:
    """Per title: median microseconds per action of push, pop and copy, and their ratios."""
    by_title: dict[str, Costs] = {}
    for record in records:
        measure(record, by_title.setdefault(record.title, Costs()))
    section = Section("search: push, pop and copy per action (median µs; ratios from one walk, measured alternately)",
                      ("title", "actions", "push", "pop", "copy", "pop/push", "copy/push", "replayed pop/pop"))
    for title, costs in sorted(by_title.items()):
        push, pop, copied, replayed = (statistics.median(c) * 1e6 for c in
                                       (costs.push, costs.pop, costs.copy, costs.replayed_pop))
        section.rows.append((title.removeprefix("The Old Prince "), str(costs.actions), f"{push:.0f}", f"{pop:.0f}",
                             f"{copied:.0f}", f"{pop / push:.2f}", f"{copied / push:.1f}", f"{replayed / pop:,.0f}"))
    return section
