"""Seating a round: tables of the sizes the event allows, chosen by three things in order.

1. As few repeat pairings as possible: each two players at one table count once for every earlier
   table of the event they shared.
2. Then players of similar standing together (Swiss-like): each two players at one table count
   the distance between their places in the standings before the round.
3. Then a draw seeded by the event's seed and the round: each two players count a number drawn
   for them, so that equal seatings are settled the same way on every run and by nobody's choice.

Each is a sum over the pairs at each table, so a seating's cost is one sum over pairs, the three
kept apart as one integer's high, middle and low bits (:func:`pair_cost`). The table sizes come
first: as many tables of the preferred size as the players allow, then sizes nearest it, then
as few tables as possible. Up to :data:`EXACT_LIMIT` players the seating is the proven optimum
(a search over every way to fill the tables, sharing the work of equal remainders); above it, the
best of several local searches, each swapping two players of two tables while that lowers the cost.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

EXACT_LIMIT = 16
"""Players up to which a seating is the proven optimum; the search over more grows too fast."""

RESTARTS = 24
"""Seeded starts of the local search above :data:`EXACT_LIMIT`, besides the standings' order."""

REPEATS, STANDING = 96, 48
"""Bit offsets of the repeat pairings and the standing distance in a pair's cost; the draw takes
the low 24 bits, so that no sum of a round's pairs carries into the next field."""


@dataclass(frozen=True)
class Proposal:
    """Tables of players (user ids), with what they cost: repeat pairings, standing distance, and
    whether the seating is proven best."""

    tables: tuple[tuple[int, ...], ...]
    repeats: int
    distance: int
    exact: bool


def table_sizes(players: int, sizes: Sequence[int], prefer: int | None = None) -> list[int]:
    """The table sizes for ``players``, largest first (see the module); ValueError when no
    combination of ``sizes`` seats exactly that many."""
    preferred = prefer if prefer is not None else max(sizes)
    best: tuple[tuple[int, int, int], list[int]] | None = None

    def fill(left: int, allowed: list[int], chosen: list[int]) -> None:
        nonlocal best
        if left == 0:
            key = (-chosen.count(preferred), sum(abs(size - preferred) for size in chosen), len(chosen))
            if best is None or key < best[0]:
                best = (key, sorted(chosen, reverse=True))
            return
        for n, size in enumerate(allowed):
            if size <= left:
                fill(left - size, allowed[n:], [*chosen, size])

    fill(players, sorted(set(sizes), reverse=True), [])
    if best is None:
        raise ValueError(f"{players} player{'s' if players != 1 else ''} cannot sit at tables of "
                         f"{' or '.join(map(str, sorted(set(sizes))))}")
    return best[1]


def draw(seed: int, round_number: int, a: int, b: int) -> int:
    """The seeded draw of a pair for a round: the same on every run, 24 bits."""
    low, high = sorted((a, b))
    digest = hashlib.sha256(f"railledger seating {seed} {round_number} {low} {high}".encode()).digest()
    return int.from_bytes(digest[:3], "big")


def pair_cost(met: int, distance: int, drawn: int) -> int:
    """The cost of seating two players together: times they met before, then their distance in
    the standings, then their draw, as one integer compared as those three in order."""
    return (met << REPEATS) | (distance << STANDING) | drawn


def propose(players: Sequence[int], sizes: Sequence[int], met: Mapping[frozenset[int], int], places: Mapping[int, int],
            seed: int, round_number: int, prefer: int | None = None) -> Proposal:
    """The seating of ``players`` (user ids; ``met``: times each pair shared a table; ``places``:
    each player's place in the standings) at tables of ``sizes``."""
    people = sorted(players)
    cost = [[pair_cost(met.get(frozenset((a, b)), 0), abs(places.get(a, 0) - places.get(b, 0)),
                       draw(seed, round_number, a, b)) if a != b else 0 for b in people] for a in people]
    chosen = table_sizes(len(people), sizes, prefer)
    exact = len(people) <= EXACT_LIMIT
    order = [people.index(p) for p in sorted(people, key=lambda p: (places.get(p, 0), p))]
    seating = _exact(cost, chosen) if exact else _local(cost, chosen, order, seed * 1000 + round_number)
    tables = tuple(tuple(sorted((people[i] for i in table), key=lambda p: (places.get(p, 0), p))) for table in seating)
    total = sum(table_cost(cost, table) for table in seating)
    return Proposal(tables, total >> REPEATS, (total >> STANDING) & ((1 << (REPEATS - STANDING)) - 1), exact)


def table_cost(cost: Sequence[Sequence[int]], table: Sequence[int]) -> int:
    return sum(cost[a][b] for a, b in combinations(table, 2))


def _exact(cost: list[list[int]], sizes: list[int]) -> list[tuple[int, ...]]:
    """The cheapest seating: the lowest player left takes a seat at a table of each size still to
    fill with each choice of the others; equal remainders (players and sizes left) are solved once."""
    n = len(cost)

    @functools.cache
    def best(left: int, sizes_left: tuple[int, ...]) -> tuple[int, tuple[tuple[int, ...], ...]]:
        if not left:
            return 0, ()
        first = (left & -left).bit_length() - 1
        others = [i for i in range(first + 1, n) if left >> i & 1]
        found: tuple[int, tuple[tuple[int, ...], ...]] | None = None
        for size in sorted(set(sizes_left)):
            rest_sizes = list(sizes_left)
            rest_sizes.remove(size)
            for mates in combinations(others, size - 1):
                table = (first, *mates)
                rest = left
                for seat in table:
                    rest &= ~(1 << seat)
                below, tables = best(rest, tuple(rest_sizes))
                option = (table_cost(cost, table) + below, (table, *tables))
                if found is None or option < found:
                    found = option
        assert found is not None
        return found

    return list(best((1 << n) - 1, tuple(sizes))[1])


def _local(cost: list[list[int]], sizes: list[int], order: list[int], seed: int) -> list[tuple[int, ...]]:
    """A good seating of many players: the cheapest of local searches from the standing order and
    from :data:`RESTARTS` seeded shuffles of it."""
    shuffler = random.Random(f"railledger seating {seed}")
    starts = [order] + [shuffler.sample(order, len(order)) for _ in range(RESTARTS)]
    found = [_improved(cost, sizes, start) for start in starts]
    return min(found, key=lambda tables: (sum(table_cost(cost, table) for table in tables), tables))


def _improved(cost: list[list[int]], sizes: list[int], order: list[int]) -> list[tuple[int, ...]]:
    """Tables filled in ``order``, then any swap of two players of two tables that lowers the
    cost, until none does."""
    tables: list[list[int]] = []
    at = 0
    for size in sizes:
        tables.append(order[at:at + size])
        at += size
    improved = True
    while improved:
        improved = False
        for a, b in combinations(range(len(tables)), 2):
            for i in range(len(tables[a])):
                for j in range(len(tables[b])):
                    x, y = tables[a][i], tables[b][j]
                    change = (sum(cost[y][p] - cost[x][p] for p in tables[a] if p != x)
                              + sum(cost[x][p] - cost[y][p] for p in tables[b] if p != y))
                    if change < 0:
                        tables[a][i], tables[b][j] = y, x
                        improved = True
    return [tuple(sorted(table)) for table in tables]
