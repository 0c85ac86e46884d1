"""The route optimizer: the best run a company's trains could make, proven optimal.

``best_run(game, "GMO")`` reads the position through ``engine`` (the only module that knows the
rules engine), enumerates every legal route once (``paths``), picks the best track-disjoint set
by branch and bound with a proven bound (``combine``), and has the engine confirm the answer.
See docs/optimizer.md for why the answer is exact.
"""

from railledger.replay.optimizer.engine import EngineDisagrees, engine_revenues, position_of, train_of
from railledger.replay.optimizer.solve import DEFAULT_BUDGET, Budget, OptimalRoute, Optimum, best_run, solve

__all__ = [
    "DEFAULT_BUDGET", "Budget", "EngineDisagrees", "OptimalRoute", "Optimum", "best_run", "engine_revenues",
    "position_of", "solve", "train_of",
]
