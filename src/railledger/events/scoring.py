"""A table's scores from its players' final values, by the event's scoring system.

Places come from the values: a player's place is one more than the number of players with a
higher value, so equal values share a place (1, 2, 2, 4). An abandoned seat, when the event
places it last, counts a value of 0 and is placed after every other seat; the others are placed
and scored among themselves as if it had finished with nothing.

* ``rank points``: the points of the place, from the event's table for that table size; tied
  players get the mean of the points of the places they cover (``ties = "share"``), the best of
  them (``"higher"``) or the worst (``"lower"``);
* ``winner share``: 100 times the value over the table winner's value (a negative value scores 0,
  and so does every seat when the winner's value is not above 0);
* ``margin``: the value less the best value among the other players: the winner's lead over the
  runner-up, every other player's (negative) distance to the winner;
* ``value``: the final value itself, as a league keeping dollar scores does.

Scores are exact fractions (a share of 3,685 is 100 * 3,259 / 3,685 exactly), so that sums and
ties in the standings are exact; they are rounded only when shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from railledger.events.model import MARGIN, RANK_POINTS, VALUE, WINNER_SHARE, Scoring


@dataclass(frozen=True)
class Scored:
    """One seat scored: the value counted, its place at the table, its score."""

    value: int
    place: int
    score: Fraction


def score_table(values: Sequence[int], abandoned: Sequence[bool], scoring: Scoring) -> list[Scored]:
    """The seats of one table scored, in the order given (``abandoned``: which seats count as
    abandoned under the event's rule, already decided)."""
    counted = [0 if gone else value for value, gone in zip(values, abandoned)]
    playing = [value for value, gone in zip(counted, abandoned) if not gone]
    placed = [len(playing) + 1 if gone else 1 + sum(other > value for other in playing)
              for value, gone in zip(counted, abandoned)]
    scores = [_score(n, counted, placed, scoring) for n in range(len(counted))]
    return [Scored(value, place, score) for value, place, score in zip(counted, placed, scores)]


def _score(seat: int, values: list[int], placed: list[int], scoring: Scoring) -> Fraction:
    value = values[seat]
    if scoring.system == RANK_POINTS:
        return rank_points(placed[seat], placed.count(placed[seat]), scoring.points[len(values)], scoring.ties)
    if scoring.system == WINNER_SHARE:
        best = max(values)
        return Fraction(100 * max(value, 0), best) if best > 0 else Fraction(0)
    if scoring.system == MARGIN:
        others = values[:seat] + values[seat + 1:]
        return Fraction(value - max(others)) if others else Fraction(0)
    assert scoring.system == VALUE
    return Fraction(value)


def rank_points(place: int, tied: int, points: Sequence[Fraction], ties: str) -> Fraction:
    """The points of ``place`` shared by ``tied`` players (places ``place`` to ``place + tied - 1``)."""
    covered = points[place - 1: place - 1 + tied]
    if ties == "higher":
        return max(covered)
    if ties == "lower":
        return min(covered)
    return Fraction(sum(covered), len(covered))


def shown(score: Fraction) -> str:
    """A score as a person reads it: whole numbers as such, others to two decimals."""
    if score.denominator == 1:
        return str(score.numerator)
    return f"{float(score):.2f}"
