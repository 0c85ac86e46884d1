"""Seating: for every event of 3 to 12 players the tests generate (earlier rounds drawn at random,
standings drawn at random), the proposal costs exactly the brute-force optimum over every way to
seat the players at the chosen table sizes: fewest repeat pairings, then closest standing, then
the seeded draw."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations

import pytest

from railledger.events.seating import EXACT_LIMIT, draw, pair_cost, propose, table_sizes


def every_seating(players: list[int], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to seat ``players`` at tables of ``sizes`` (a multiset), each once."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for mates in combinations(rest, size - 1):
            others = [p for p in rest if p not in mates]
            for seating in every_seating(others, left):
                yield [(first, *mates), *seating]


def cost(seating: list[tuple[int, ...]], met: Counter[frozenset[int]], places: dict[int, int], seed: int, number: int) -> int:
    return sum(pair_cost(met[frozenset((a, b))], abs(places[a] - places[b]), draw(seed, number, a, b))
               for table in seating for a, b in combinations(table, 2))


def generated(n: int, seed: int) -> tuple[list[int], list[int], Counter[frozenset[int]], dict[int, int]]:
    """An event of ``n`` players: sizes allowed, pairings of up to three earlier rounds, places."""
    rng = random.Random(f"{n}/{seed}")
    players = rng.sample(range(1000, 100_000), n)
    sizes = rng.choice([[3, 4], [3, 4, 5], [2, 3, 4], [4], [3]])
    try:
        table_sizes(n, sizes)
    except ValueError:
        sizes = [2, 3, 4]
    met: Counter[frozenset[int]] = Counter()
    for _ in range(rng.randint(0, 3)):
        order = rng.sample(players, n)
        at = 0
        for size in table_sizes(n, sizes):
            met.update(frozenset(pair) for pair in combinations(order[at:at + size], 2))
            at += size
    scores = {p: rng.randint(0, 6) for p in players}
    places = {p: 1 + sum(s > scores[p] for s in scores.values()) for p in players}
    return players, sizes, met, places


CASES = [(n, seed) for n in range(3, 13) for seed in range(4 if n <= 10 else 2)]


@pytest.mark.parametrize("n, seed", CASES, ids=[f"{n}-players-{seed}" for n, seed in CASES])
def test_the_proposal_is_the_brute_force_optimum(n: int, seed: int) -> None:
    players, sizes, met, places = generated(n, seed)
    proposal = propose(players, sizes, met, places, seed=seed, round_number=3, prefer=4 if 4 in sizes else None)
    chosen = table_sizes(n, sizes, 4 if 4 in sizes else None)
    assert proposal.exact and sorted(map(len, proposal.tables), reverse=True) == chosen
    assert sorted(p for table in proposal.tables for p in table) == sorted(players)
    best = min(cost(seating, met, places, seed, 3) for seating in every_seating(sorted(players), chosen))
    assert cost(list(proposal.tables), met, places, seed, 3) == best


@pytest.mark.parametrize("players, sizes, prefer, expected", [
    (12, [3, 4], 4, [4, 4, 4]), (10, [3, 4], 4, [4, 3, 3]), (13, [3, 4, 5], 4, [5, 4, 4]), (9, [3, 4], None, [3, 3, 3]),
    (7, [3, 4, 5], 5, [4, 3]), (8, [2, 3, 4], 3, [3, 3, 2]),
])
def test_table_sizes_take_as_many_preferred_tables_as_fit(players: int, sizes: list[int], prefer: int | None,
                                                          expected: list[int]) -> None:
    assert table_sizes(players, sizes, prefer) == expected


def test_players_who_cannot_be_seated_are_said() -> None:
    with pytest.raises(ValueError, match="2 players cannot sit at tables of 3 or 4"):
        table_sizes(2, [3, 4])


def test_above_the_exact_limit_the_search_still_avoids_repeats_it_can() -> None:
    """24 players at six tables of four after one round of six tables: a seating with no repeat
    exists (each new table takes one player of four old tables), and the search finds one."""
    players = list(range(1, 25))
    met = Counter(frozenset(pair) for t in range(6) for pair in combinations(players[4 * t:4 * t + 4], 2))
    proposal = propose(players, [4], met, {p: p for p in players}, seed=1, round_number=2)
    assert len(players) > EXACT_LIMIT and not proposal.exact
    assert proposal.repeats == 0
