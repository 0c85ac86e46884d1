"""``best_run``: the maximum-revenue run of all of a company's trains, checked by the engine.

Three steps, each in its own module: the engine's position is read into plain data
(``engine.position_of``), every legal route is enumerated once (``paths``), and the best set of
track-disjoint routes, one per train at most, is found by branch and bound (``combine``). The
answer's routes are then handed back to the engine (``build_route``/``check_run``), so the
optimizer can never report a run the engine would refuse or value differently.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from railledger.replay.optimizer import engine
from railledger.replay.optimizer.combine import best_choice
from railledger.replay.optimizer.model import Node, Position, Train
from railledger.replay.optimizer.paths import REVENUE, SIZE, TRACK, Candidate, connections_of, enumerate_routes, segments_of, stops_of

if TYPE_CHECKING:
    from railledger.replay.game import Game


@dataclass(frozen=True)
class Budget:
    """How much search an answer may cost before it is returned unproven.

    ``paths``: legal routes enumerated; ``combinations``: branch-and-bound nodes. The defaults
    are hundreds of times what the densest operating turn of the shared records needs (664 routes,
    5 nodes; docs/optimizer.md), so that they only stop a pathological position from running for
    minutes or holding gigabytes (a route costs a few hundred bytes).
    """

    paths: int = 250_000
    combinations: int = 2_000_000


DEFAULT_BUDGET = Budget()


@dataclass(frozen=True)
class OptimalRoute:
    """One train's route in the best run."""

    train: str
    stops: tuple[Node, ...]
    connections: tuple[tuple[str, ...], ...]
    revenue: int

    def as_record(self) -> dict[str, Any]:
        """The route as a record's ``run_routes`` writes it (what ``build_route`` reads)."""
        return {"train": self.train, "connections": [list(c) for c in self.connections], "revenue": self.revenue}


@dataclass(frozen=True)
class Optimum:
    """The best run of a company at one position, and how sure and how large the search was."""

    corporation: str
    revenue: int
    routes: tuple[OptimalRoute, ...]
    proven: bool  # every legal route was enumerated and the branch and bound finished
    paths: int  # legal routes enumerated (each once, whatever train may run it)
    options: int  # (route, train) pairs the combination chose among
    combinations: int  # branch-and-bound nodes visited

    def run_routes(self) -> list[dict[str, Any]]:
        """The routes as a ``run_routes`` action's ``routes`` field."""
        return [route.as_record() for route in self.routes]


def best_run(game: Game, corporation: str, budget: Budget = DEFAULT_BUDGET) -> Optimum:
    """The maximum-revenue set of routes for all of ``corporation``'s trains in ``game`` now.

    Each train runs at most one route, the routes share no track, and every route is legal by
    the engine's rules; the result is confirmed by the engine before it is returned.
    """
    return _confirmed(game, corporation, solve(engine.position_of(game, corporation), budget))


class RunSolver:
    """``best_run`` for the runs of one replay, answering a company's run from its last one when
    the position is the same.

    The search is a function of the position alone (its stops, connections in order, trains; the
    budget is the solver's), so a company whose position equals the one its previous run was
    solved on gets that answer again, identical to a fresh search. In the recorded and bots'
    games about a third of the runs meet such a position: track was laid elsewhere, nothing
    bought. A position with a title's route bonus is always searched: the bonus reads the game
    beyond the position. The engine still confirms every answer. Kept for one replay only (one
    answer per company), never across games.
    """

    def __init__(self, budget: Budget = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self._last: dict[str, tuple[Position, Optimum]] = {}

    def best_run(self, game: Game, corporation: str) -> Optimum:
        """:func:`best_run` of the company now."""
        position = engine.position_of(game, corporation)
        last = self._last.get(corporation)
        if last is not None and _same_search(last[0], position):
            return _confirmed(game, corporation, last[1])
        optimum = solve(position, self.budget)
        self._last[corporation] = (position, optimum)
        return _confirmed(game, corporation, optimum)


def _same_search(known: Position, position: Position) -> bool:
    """Whether :func:`solve` answers both positions alike: equal in everything it reads, and no
    bonus (a bonus's answer depends on the game, not only on its arguments)."""
    return (known.bonus is None and position.bonus is None and known.trains == position.trains
            and known.connections == position.connections and known.stops == position.stops)


def _confirmed(game: Game, corporation: str, optimum: Optimum) -> Optimum:
    """The optimum, once the engine accepts its routes and values each as the search did."""
    engine.confirm(game, corporation, optimum.run_routes())
    return optimum


def solve(position: Position, budget: Budget = DEFAULT_BUDGET) -> Optimum:
    """The best run of a position (no engine involved: hand-made positions use this directly)."""
    candidates, complete = enumerate_routes(position, budget.paths)
    owners = [_runnable(candidates, *train.reach) for train in position.trains]
    options = [_earnings(position, train, routes) for train, routes in zip(position.trains, owners)]
    choice = best_choice(options, budget.combinations)
    chosen = []
    for train, routes, mine, pick in zip(position.trains, owners, options, choice.picks):
        if pick is None:
            continue
        candidate = routes[pick]
        chosen.append(OptimalRoute(train.id, stops_of(candidate), tuple(c.chain for c in connections_of(candidate)),
                                   mine[pick][0]))
    return Optimum(
        corporation=position.corporation,
        revenue=choice.revenue,
        routes=tuple(chosen),
        proven=complete and choice.proven,
        paths=len(candidates),
        options=sum(len(o) for o in options),
        combinations=choice.nodes,
    )


def _runnable(candidates: list[Candidate], measure: int, most: int) -> list[Candidate]:
    """The routes a train of this reach may run (``Train.reach``)."""
    return [c for c in candidates if c[SIZE][measure] <= most]


def _earnings(position: Position, train: Train, routes: list[Candidate]) -> list[tuple[int, int]]:
    """(revenue, track bits) of each route, as ``train`` would run it: its stops' revenue times
    the train's multiplier, plus the title's bonus for the route."""
    multiplier, bonus = train.multiplier, position.bonus
    if bonus is None:
        return [(c[REVENUE] * multiplier, c[TRACK]) for c in routes]
    return [(c[REVENUE] * multiplier + bonus(train, stops_of(c), segments_of(c)), c[TRACK]) for c in routes]
