"""Where the strong bot builds: tile lays and stations weighed by the runs they open.

Greedy lays the tile that adds most stops, wherever it is; track laid that way seldom joins two
cities a train could run between. The strong bot tries each lay (and each station) on a copy of
the game and keeps the one after which its company's best run is highest, the run made with the
trains it has and the next the bank sells (track is laid for the trains to come: a company without
a train still lays toward a run). Most lays change no run at once: it takes two or three to reach
the next city. Among those, the bot prefers the lay that brings the company's network nearest to
the stops it does not reach yet (:func:`prospect`), less a tenth of what the lay costs (terrain),
then greedy's rule.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from random import Random

from railledger.ingest.model import Action
from railledger.replay import Game, IllegalAction
from railledger.replay.hexgrid import distance
from railledger.replay.network import fresh_network
from railledger.replay.optimizer import position_of, solve, train_of
from railledger.replay.optimizer.model import Train
from railledger.selfplay.concrete import as_recorded
from railledger.selfplay.evaluation import lasting_trains, next_bank_train

LAY_HEXES = 10
"""Hexes of the network on which lays are listed for the strong bot, those with a stop first
(greedy lists six): on the ladder ten won more seats than six against greedy bots, and twenty
no more than ten, at half as much again in time."""

COST_PER_PROSPECT = 10
"""Dollars a lay may cost for each unit of :func:`prospect` it adds."""

FADING = 0.5
"""What a stop one hex further from the network counts for in :func:`prospect`."""


def best_for_runs(game: Game, sym: str, actions: Sequence[Action], score: Callable[[Action], float],
                  rng: Random) -> Action | None:
    """The action after which company ``sym``'s best run with :func:`planned_trains` is highest,
    then its :func:`prospect` less what the action costs the company, then ``score``; ties by
    ``rng``. None when no action can be played (each is tried on a copy of ``game``)."""
    sandbox = game.copy()
    sandbox.journal.enabled = True
    trains = planned_trains(game, sym)
    stops = revenue_stops(game)
    scored: list[tuple[int, float, float, float, int]] = []
    for n, action in enumerate(actions):
        try:
            sandbox.push(as_recorded(action))
        except IllegalAction:
            continue
        run = solve(dataclasses.replace(position_of(sandbox, sym), trains=trains)).revenue if trains else 0
        cost = game.cash(sym) - sandbox.cash(sym)
        promise = prospect(sandbox, sym, stops) - cost / COST_PER_PROSPECT
        sandbox.pop()
        scored.append((run, promise, score(action), rng.random(), n))
    return actions[max(scored)[-1]] if scored else None


def planned_trains(game: Game, sym: str) -> tuple[Train, ...]:
    """The company's trains that the next bank train would not rust, and, while the phase's
    train limit leaves room, that next train."""
    following = next_bank_train(game)
    trains = [train_of(game, t.id, t.card) for t in lasting_trains(game, sym)]
    if following is not None and len(trains) < game.phase.train_limit:
        trains.append(train_of(game, "planned", following))
    return tuple(trains)


def revenue_stops(game: Game) -> list[tuple[str, int]]:
    """Every hex holding a stop that pays now, with the best of its stops' revenues."""
    colour = game.phase.colour
    found = []
    for hex_id in game.board.hexes:
        tile = game.board.tile(hex_id)
        revenue = max((stop.revenue_in(colour) for stop in (*tile.cities, *tile.towns, *tile.offboards)), default=0)
        if revenue:
            found.append((hex_id, revenue))
    return found


def prospect(game: Game, sym: str, stops: list[tuple[str, int]]) -> float:
    """What the ``stops`` company ``sym`` does not reach yet promise it: each one's revenue, times
    :data:`FADING` for every hex between it and the nearest hex its network's track touches."""
    network = fresh_network(game, sym)
    reached = {hex_id for hex_id, _ in network.nodes}
    near = reached | {hex_id for hex_id, _ in network.sides}
    layout = game.title.layout
    total = 0.0
    for hex_id, revenue in stops:
        if hex_id not in reached and near:
            total += revenue * FADING ** min(distance(hex_id, other, layout) for other in near)
    return total

