"""A revenue audit of a record: for every declared run, what the engine says it earns and the best
the company could have run at that moment.

The record is replayed action by action; just before each ``run_routes`` the optimum is computed
for the acting company on the position the run was declared in, and the declared routes are valued
by the engine on the same position. An illegal action is kept out, as a ``--keep-going`` replay
does, and the audit goes on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from railledger.ingest.model import Action, PlayerId, Record
from railledger.replay.errors import Violation
from railledger.replay.optimizer import engine
from railledger.replay.optimizer.model import Node
from railledger.replay.optimizer.naming import run_name
from railledger.replay.optimizer.solve import DEFAULT_BUDGET, Budget, Optimum, RunSolver


@dataclass(frozen=True)
class RunAudit:
    """One declared run beside the best run."""

    index: int  # position of the action in the record's canonical list
    action_id: str
    company: str
    round: str  # the engine's round label, "OR 2.1"
    trains: tuple[tuple[str, str], ...]  # (train id, type) of every train the company could run
    routes: tuple[dict[str, Any], ...]  # the declared routes as recorded
    declared: int | None  # the record's own total; None when its routes carry no revenue
    engine: int | None  # the engine's total for the declared routes; None when it refuses them
    error: str | None  # why the engine refuses the declared run
    route_revenues: tuple[int, ...]  # the engine's revenue of each declared route
    route_stops: tuple[tuple[Node, ...], ...]  # the engine's stops of each declared route
    president: PlayerId | None  # who decided the run
    optimum: Optimum

    @property
    def shortfall(self) -> int | None:
        """What the run left on the table: optimum minus the engine's revenue of the declared run."""
        return None if self.engine is None else self.optimum.revenue - self.engine

    @property
    def declared_run(self) -> str:
        """The declared routes as people read them (stops as the engine read them); the record's
        trains and connections alone when the engine refuses the run."""
        if self.error is not None:
            return "; ".join(f"{r.get('train')} (refused)" for r in self.routes) or "no route"
        return run_name((str(r.get("train")), stops, revenue)
                        for r, stops, revenue in zip(self.routes, self.route_stops, self.route_revenues))

    @property
    def better_run(self) -> str:
        """The best run's routes as people read them."""
        return run_name((route.train, route.stops, route.revenue) for route in self.optimum.routes)

    def as_dict(self) -> dict[str, Any]:
        """The ``railledger audit --json`` object of this run."""
        revenues: list[int | None] = list(self.route_revenues) or [None] * len(self.routes)
        return {
            "index": self.index,
            "action_id": self.action_id,
            "company": self.company,
            "round": self.round,
            "trains": [{"id": i, "type": t} for i, t in self.trains],
            "declared": self.declared,
            "engine": self.engine,
            "error": self.error,
            "optimum": self.optimum.revenue,
            "proven": self.optimum.proven,
            "shortfall": self.shortfall,
            "declared_run": self.declared_run,
            "optimal_run": self.better_run,
            "routes": [
                {"train": r.get("train"), "connections": r.get("connections"), "declared": r.get("revenue"), "revenue": v}
                for r, v in zip(self.routes, revenues)
            ],
            "optimal_routes": [
                {**route.as_record(), "stops": [list(stop) for stop in route.stops]} for route in self.optimum.routes
            ],
            "paths": self.optimum.paths,
            "combinations": self.optimum.combinations,
        }


class RunAuditor:
    """Watches a replay (``replay_record(..., watch=auditor)``) and audits every ``run_routes``:
    the optimum and the engine's reading of the declared routes on the position just before it,
    the round label just after it. A refused run is audited too (its ``error`` says why)."""

    def __init__(self, budget: Budget = DEFAULT_BUDGET) -> None:
        self.solver = RunSolver(budget)
        self.runs: list[RunAudit] = []
        self._pending: dict[str, Any] | None = None

    def before(self, game: engine.Game, index: int, action: Action) -> None:
        if action.type != "run_routes":
            return
        company = str(action.entity.id)
        routes = [dict(r) for r in action.fields.get("routes") or [] if isinstance(r, dict)]
        built: list[engine.Route] = []
        error = None
        try:
            built = engine.engine_routes(game, company, routes)
        except Violation as violation:
            error = violation.message
        declared_each = [r.get("revenue") for r in routes]
        self._pending = dict(
            index=index, action_id=action.label, company=company, trains=engine.trains_of(game, company),
            routes=tuple(routes), declared=sum(declared_each) if all(isinstance(v, int) for v in declared_each) else None,
            engine=None if error else sum(r.revenue for r in built), error=error,
            route_revenues=tuple(r.revenue for r in built), route_stops=tuple(r.stops for r in built),
            president=engine.president_of(game, company), optimum=self.solver.best_run(game, company),
        )

    def after(self, game: engine.Game, index: int, action: Action) -> None:
        if self._pending is None or self._pending["index"] != index:
            return
        self.runs.append(RunAudit(round=engine.round_label(game), **self._pending))
        self._pending = None


def audit_record(record: Record, budget: Budget = DEFAULT_BUDGET) -> list[RunAudit]:
    """Every ``run_routes`` of the record with its engine revenue and the optimum (an illegal
    action is left out and the replay goes on, as ``--keep-going`` does)."""
    auditor = RunAuditor(budget)
    engine.replay(record, auditor)
    return auditor.runs
