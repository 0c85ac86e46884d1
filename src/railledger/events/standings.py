"""An event's tables as counted, and its players in order: the standings.

A table counts when its game is ``valid`` or the organizer accepted or adjusted it; a voided one
counts for nobody; any other game is set apart, not counted, with its verdict, until a decision.
Players are ordered by the last stage they reached (a finalist above every semifinalist), then by
their score in that stage's rounds (in an event of one stage, their total), then by the event's
tie-breaks in order, each applied among the players still tied (head-to-head among just them);
players tied after every tie-break share their place.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from railledger.events.games import GameFacts, Seat, seats_of
from railledger.events.model import (ABANDONED_LAST, ACCEPT, ADJUST, BEST_FINISHES, HEAD_TO_HEAD, LOT, TOTAL_VALUE, VOID,
                                     WINS, Event, EventPlayer, EventTable, Round)
from railledger.events.scoring import score_table, shown
from railledger.ingest.model import PlayerId
from railledger.replay.verdict import VALID, Verdict

COUNTED = "counted"
VOIDED = "void"
PENDING = "not counted"
TO_PLAY = "to play"
MARKS = {VOIDED: "void", PENDING: "not counted", TO_PLAY: "to play"}
"""What a player's line shows for a round whose table is not counted."""


@dataclass(frozen=True)
class SeatResult:
    """A seat of a table as counted: its value, place and score (None for a table not counted),
    and whether it counted as abandoned."""

    seat: Seat
    value: int | None = None
    place: int | None = None
    score: Fraction | None = None
    abandoned: bool = False


@dataclass(frozen=True)
class TableResult:
    """One table of a round: counted, void, not counted (and why) or still to play."""

    round: Round
    table: EventTable
    state: str
    why: str
    verdict: Verdict | None
    seats: tuple[SeatResult, ...]

    def seat_of(self, player: int) -> SeatResult | None:
        return next((seat for seat in self.seats if seat.seat.player == player), None)


def table_results(event: Event, facts: Mapping[int, GameFacts]) -> list[TableResult]:
    """Every table of the event, in round order, as counted."""
    return [table_result(event, round_, table, facts.get(table.game) if table.game is not None else None)
            for round_ in event.rounds for table in round_.tables]


def table_result(event: Event, round_: Round, table: EventTable, facts: GameFacts | None) -> TableResult:
    seats = seats_of(event, table, facts)
    if facts is None:
        return TableResult(round_, table, TO_PLAY, "the game is not made yet", None, tuple(SeatResult(s) for s in seats))
    decision = table.decision
    if decision is not None and decision.ruling == VOID:
        return TableResult(round_, table, VOIDED, decision.reason, facts.verdict, tuple(SeatResult(s) for s in seats))
    values: Mapping[PlayerId, int] | None
    if decision is not None and decision.ruling == ADJUST:
        values = {user: value for user, value in (decision.values or {}).items()}
    elif decision is not None and decision.ruling == ACCEPT:
        values = facts.recorded or facts.replayed
    elif facts.verdict is not None and facts.verdict.kind == VALID:
        values = facts.recorded
    else:
        why = f"{facts.verdict.kind}: {facts.verdict.detail}" if facts.verdict else "not replayed yet"
        return TableResult(round_, table, PENDING, why, facts.verdict, tuple(SeatResult(s) for s in seats))
    if not values or any(seat.user not in values for seat in seats):
        return TableResult(round_, table, PENDING, "accepted, but the game has no final value for every player "
                           "(no recorded result, no replay): adjust it instead", facts.verdict,
                           tuple(SeatResult(s) for s in seats))
    abandoned = [_abandoned(event, facts, seat.user) and not (decision is not None and decision.ruling == ADJUST)
                 for seat in seats]
    counted_abandoned = [gone and event.scoring.abandoned == ABANDONED_LAST for gone in abandoned]
    scored = score_table([values[seat.user] for seat in seats], counted_abandoned, event.scoring)
    why = decision.reason if decision is not None else "valid"
    return TableResult(round_, table, COUNTED, why, facts.verdict, tuple(
        SeatResult(seat, s.value, s.place, s.score, gone) for seat, s, gone in zip(seats, scored, abandoned)))


def _abandoned(event: Event, facts: GameFacts, user: PlayerId) -> bool:
    after = event.scoring.abandoned_after
    return after is not None and facts.sent_by_others.get(user, 0) >= after


@dataclass(frozen=True)
class Standing:
    """A player's line: place (shared with others when ``tied``), the stage reached and its score,
    the total of every round, each round's mark, the tie-breaks that placed them, and notes."""

    player: EventPlayer
    place: int
    tied: bool
    stage: int
    stage_score: Fraction
    total: Fraction
    rounds: tuple[str, ...]
    tie_breaks: str
    notes: tuple[str, ...]


def standings(event: Event, results: Sequence[TableResult]) -> list[Standing]:
    """The event's players in order (see the module)."""
    marks = {player.id: _marks(event, player, results) for player in event.players}
    stage = {pid: max((r.round.stage for r in results if r.seat_of(pid) is not None), default=0) for pid in marks}
    counted = {pid: [(r, seat) for r in results if r.state == COUNTED and (seat := r.seat_of(pid)) is not None
                     and seat.score is not None] for pid in marks}
    stage_score = {pid: sum((seat.score for r, seat in counted[pid] if r.round.stage == stage[pid] and seat.score),
                            Fraction(0)) for pid in marks}
    total = {pid: sum((seat.score for _, seat in counted[pid] if seat.score), Fraction(0)) for pid in marks}
    applied: dict[int, list[str]] = {pid: [] for pid in marks}
    groups: dict[tuple[int, Fraction], list[int]] = {}
    for pid in marks:
        groups.setdefault((stage[pid], stage_score[pid]), []).append(pid)
    ordered: list[list[int]] = []
    for key in sorted(groups, reverse=True):
        ordered += _break_ties(groups[key], list(event.scoring.tie_breaks), counted, event.seed, applied)
    lines = []
    place = 1
    for group in ordered:
        for pid in group:
            player = event.player(pid)
            assert player is not None
            lines.append(Standing(player, place, len(group) > 1, stage[pid], stage_score[pid], total[pid],
                                  tuple(mark for mark, _ in marks[pid]),
                                  "; ".join(applied[pid]), tuple(note for _, note in marks[pid] if note)))
        place += len(group)
    return lines


def _marks(event: Event, player: EventPlayer, results: Sequence[TableResult]) -> list[tuple[str, str]]:
    """Per round, what the player's line shows (a score, void, not counted, to play, -) and a note."""
    marks = []
    for round_ in event.rounds:
        mine = [(r, r.seat_of(player.id)) for r in results if r.round is round_]
        found = next(((r, s) for r, s in mine if s is not None), None)
        replaced = next((sub for r in results if r.round is round_ for sub in r.table.substitutes
                         if sub.replaces == player.id), None)
        note = f"round {round_.number}: played by {replaced.name} ({replaced.id}), a substitute" if replaced else ""
        if found is None:
            left = player.dropped_after
            dropped = left is not None and round_.number > left
            first = dropped and round_.number == (left or 0) + 1
            marks.append(("left" if dropped else "-", note or (f"left the event after round {left}" if first else "")))
            continue
        result, seat = found
        if result.state == COUNTED and seat.score is not None:
            gone = f"round {round_.number}: seat counted as abandoned" if seat.abandoned else ""
            marks.append((shown(seat.score), "; ".join(filter(None, (note, gone)))))
        else:
            marks.append((MARKS.get(result.state, result.state), note))
    return marks


Counted = Mapping[int, list[tuple[TableResult, SeatResult]]]


def _break_ties(group: list[int], breaks: list[str], counted: Counted, seed: int,
                applied: dict[int, list[str]]) -> list[list[int]]:
    """``group`` (tied so far) split by the tie-breaks in order, each among those still tied."""
    if len(group) < 2 or not breaks:
        return [sorted(group)]
    name, rest = breaks[0], breaks[1:]
    keys = {pid: TIE_BREAK_KEYS[name](pid, group, counted, seed) for pid in group}
    for pid in group:
        applied[pid].append(f"{name} {keys[pid][1]}".rstrip())
    split: dict[Any, list[int]] = {}
    for pid in group:
        split.setdefault(keys[pid][0], []).append(pid)
    ordered: list[list[int]] = []
    for key in sorted(split, reverse=True):
        ordered += _break_ties(split[key], rest, counted, seed, applied)
    return ordered


TieBreak = Callable[[int, list[int], Counted, int], tuple[Any, str]]
"""(the key a tie-break sorts by, higher first; how it is shown) of a player among a tied group."""


def _head_to_head(pid: int, group: list[int], counted: Counted, _seed: int) -> tuple[Fraction, str]:
    points = Fraction(0)
    for result, seat in counted[pid]:
        for other in group:
            theirs = result.seat_of(other) if other != pid else None
            if theirs is not None and theirs.place is not None and seat.place is not None:
                points += 1 if seat.place < theirs.place else Fraction(1, 2) if seat.place == theirs.place else 0
    return points, shown(points)


def _wins(pid: int, _group: list[int], counted: Counted, _seed: int) -> tuple[int, str]:
    wins = sum(1 for _, seat in counted[pid] if seat.place == 1)
    return wins, str(wins)


def _best_finishes(pid: int, _group: list[int], counted: Counted, _seed: int) -> tuple[tuple[int, ...], str]:
    finishes = sorted(seat.place for _, seat in counted[pid] if seat.place is not None)
    most = max(finishes, default=0)
    counts = tuple(finishes.count(place) for place in range(1, most + 1))
    return counts + (0,) * (64 - len(counts)), ", ".join(map(_ordinal, finishes)) or "none"


def _total_value(pid: int, _group: list[int], counted: Counted, _seed: int) -> tuple[int, str]:
    value = sum(seat.value or 0 for _, seat in counted[pid])
    return value, f"{value:,}"


def _lot(pid: int, _group: list[int], _counted: Counted, seed: int) -> tuple[int, str]:
    draw = int.from_bytes(hashlib.sha256(f"railledger lot {seed} {pid}".encode()).digest()[:8], "big")
    return draw, ""


TIE_BREAK_KEYS: dict[str, TieBreak] = {HEAD_TO_HEAD: _head_to_head, WINS: _wins, BEST_FINISHES: _best_finishes,
                                       TOTAL_VALUE: _total_value, LOT: _lot}


def _ordinal(place: int) -> str:
    return f"{place}{'th' if 10 <= place % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th')}"
