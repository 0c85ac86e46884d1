"""The best set of routes for all trains together: branch and bound over one choice per train.

Each train either runs one of its legal routes or does not run; two trains of one run may not
share a piece of track (``replay.routes.check_run``), so the chosen routes' track bit sets must be
disjoint. The search fixes trains one after another, trying each train's routes from the richest
down, and keeps the best complete choice found.

The bound. At a search node where trains ``i..k-1`` are still open and ``used`` is the track of
the routes already chosen (earning ``so_far``), every completion earns at most

    so_far + sum over open trains j of  best_j(used)

where ``best_j(used)`` is the richest route of train ``j`` sharing no track with ``used`` (0 when
there is none: not running is always allowed). This is an upper bound because any completion
gives each open train a route disjoint from ``used`` (or none), and dropping the requirement that
the open trains' routes also be disjoint from each other can only raise the maximum. A node whose
bound does not exceed the best total already found cannot lead to a better one and is cut; the
cheaper bound with ``best_j`` taken over all of train ``j``'s routes is larger still, so it may
stop the scan of a train's routes once the next route's revenue cannot beat the best. Nothing is
ever cut for any other reason, so when the search ends within its budget the answer is optimal.

Trains with identical route lists (two 2+ trains) are interchangeable: a choice and the same
choice with their routes swapped earn the same, so only choices whose route positions do not
decrease along such a group are searched.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter


@dataclass(frozen=True)
class Choice:
    """The result: for each train (in the order given) the index of its chosen option, or None."""

    picks: tuple[int | None, ...]
    revenue: int
    proven: bool
    nodes: int  # search nodes visited


class _Budget(Exception):
    pass


def best_choice(options: list[list[tuple[int, int]]], limit: int | None = None) -> Choice:
    """Maximise the summed revenue over one option per train (or none), options' track disjoint.

    ``options[t]`` lists train ``t``'s routes as (revenue, track bits). ``limit`` caps the search
    nodes; if it is reached the best choice so far is returned with ``proven`` False.
    """
    trains = len(options)
    # Richest first (equal revenues in the order given), and trains with the richest routes
    # first: good totals are found early. Routes earning nothing are never better than not
    # running; each entry keeps its index. Two trains of one type have equal options: sorted once.
    sorted_lists: dict[int, list[tuple[int, int, int]]] = {}
    lists_by_train = []
    for t, o in enumerate(options):
        same = next((u for u in range(t) if options[u] == o), t)
        if same == t:
            sorted_lists[t] = sorted([(revenue, track, i) for i, (revenue, track) in enumerate(o) if revenue > 0],
                                     key=itemgetter(0), reverse=True)  # stable, as ascending order of -revenue
        lists_by_train.append(sorted_lists[same])
    # Trains with equal lists (of one type) next to each other, so that their symmetry is used.
    group = [next(u for u in range(trains) if lists_by_train[u] == lists_by_train[t]) for t in range(trains)]
    order = sorted(range(trains), key=lambda t: (-(lists_by_train[t][0][0] if lists_by_train[t] else 0), group[t]))
    lists = [lists_by_train[t] for t in order]
    top = [lst[0][0] if lst else 0 for lst in lists]
    rest_top = [sum(top[i:]) for i in range(trains + 1)]
    same_as_previous = [i > 0 and lists[i] == lists[i - 1] for i in range(trains)]

    best_total = -1
    best_picks: list[int | None] = [None] * trains
    picks: list[int | None] = [None] * trains
    nodes = 0

    def best_free(j: int, used: int) -> int:
        for revenue, track, _ in lists[j]:
            if not track & used:
                return revenue
        return 0

    def search(i: int, used: int, so_far: int, floor: int) -> None:
        nonlocal best_total, best_picks, nodes
        nodes += 1
        if limit is not None and nodes > limit:
            raise _Budget
        if i == trains:
            if so_far > best_total:
                best_total, best_picks = so_far, list(picks)
            return
        bound = so_far
        for j in range(i, trains):
            bound += best_free(j, used)
        if bound <= best_total:
            return
        start = floor if same_as_previous[i] else 0
        after = rest_top[i + 1]
        for position in range(start, len(lists[i])):
            revenue, track, _ = lists[i][position]
            if so_far + revenue + after <= best_total:
                break  # every later route of this train earns no more
            if track & used:
                continue
            picks[i] = position
            search(i + 1, used | track, so_far + revenue, position + 1)  # noqa: F821 (see the del)
        picks[i] = None
        # Not running: in a group of identical trains the rest then run nothing either
        # (any choice where a later one runs is the same as one where this one does).
        search(i + 1, used, so_far, len(lists[i]) if same_as_previous[i + 1:i + 2] == [True] else 0)  # noqa: F821 (see the del)

    proven = True
    try:
        search(0, 0, 0, 0)
    except _Budget:
        proven = False
    finally:
        del search  # it calls itself: a cycle that kept every list above until the collector ran
    result: list[int | None] = [None] * trains
    for slot, t in enumerate(order):
        position = best_picks[slot]
        if position is not None:
            result[t] = lists[slot][position][2]
    return Choice(tuple(result), max(best_total, 0), proven, nodes)
