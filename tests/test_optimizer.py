"""The route optimizer on small hand-made boards whose best runs are known.

Boards are the engine's own (tests/optimizer_boards.py wipes a title's map and lays tiles of our
own), so each answer is also confirmed by ``build_route``/``check_run``. On the pointy maps
row E runs west to east over edges 1 (W) and 4 (E): E3, E5, E7... on 18MS, E4, E6, E8... on
18Texas. On the flat 1871 map columns run north to south over edges 3 (N) and 0 (S): K13, K15...
"""

from __future__ import annotations

from pathlib import Path

import pytest

from railledger.replay.errors import Violation
from railledger.replay.optimizer import Budget, EngineDisagrees, best_run, engine_revenues, position_of
from railledger.replay.optimizer import engine
from railledger.replay.optimizer.engine import confirm
from railledger.replay.optimizer.solve import RunSolver
from railledger.replay.routes import TileMemo
from tests.optimizer_boards import Canvas
from tests.perft import TEST_GAMES, positions, record_of

ROWS = {"18MS": tuple(f"E{n}" for n in range(3, 14, 2)), "18Texas": tuple(f"E{n}" for n in range(4, 19, 2))}
COLUMN = tuple(f"K{n}" for n in range(13, 22, 2))
LONG_COLUMN = tuple(f"P{n}" for n in range(10, 27, 2))


def line(canvas: Canvas, stops: list[tuple[str, int] | None], hexes: tuple[str, ...] | None = None,
         ends: tuple[int, int] = (1, 4)) -> None:
    """Lay a straight line: each entry a ("c"|"t"|"o", revenue) stop, or None for plain track."""
    west, east = ends
    hexes = hexes or ROWS[canvas.game.title.name]
    assert len(hexes) >= len(stops)
    for position, (hex_id, stop) in enumerate(zip(hexes, stops)):
        sides = ([west] if position > 0 else []) + ([east] if position < len(stops) - 1 else [])
        if stop is None:
            canvas.put(hex_id, f"e{sides[0]}-e{sides[1]}")
            continue
        kind, revenue = stop
        paths = [f"{kind}0-e{side}" for side in sides]
        if kind == "c":
            canvas.put(hex_id, *paths, cities=(revenue,))
        elif kind == "t":
            canvas.put(hex_id, *paths, towns=(revenue,))
        else:
            canvas.put(hex_id, *paths, offboards=(revenue,))


def stops_of(optimum, train: str) -> list[str]:  # type: ignore[no-untyped-def]
    route = next(r for r in optimum.routes if r.train == train)
    return [f"{h}.{n}" for h, n in route.stops]


def hexes_run(optimum, train: str) -> set[str]:  # type: ignore[no-untyped-def]
    route = next(r for r in optimum.routes if r.train == train)
    return {h for h, _ in route.stops}


def test_two_trains_give_up_the_single_best_route() -> None:
    """W2 30 - W1 40 - S 0 - E1 40 - E2 30: a 3-train alone earns most on W1-S-E1 (80), but two
    3-trains earn 140 on W2-W1-S and S-E1-E2; neither runs that single best route."""
    canvas = Canvas("18Texas")
    line(canvas, [("c", 30), ("c", 40), ("c", 0), ("c", 40), ("c", 30)])
    canvas.station("T&P", "E8")
    first = canvas.train("T&P", "3")
    alone = best_run(canvas.game, "T&P")
    assert alone.revenue == 80 and hexes_run(alone, first) == {"E6", "E8", "E10"}
    second = canvas.train("T&P", "3")
    both = best_run(canvas.game, "T&P")
    assert both.revenue == 140 and both.proven
    assert sorted(sorted(hexes_run(both, t)) for t in (first, second)) == [["E10", "E12", "E8"], ["E4", "E6", "E8"]]
    assert sum(engine_revenues(canvas.game, "T&P", both.run_routes())) == 140


def test_a_longer_train_leaves_its_best_route_to_a_shorter_one() -> None:
    """X 60 - S 10 - Y 10 - Z 40: the 3-train's own best is X-S-Y (80), which would leave the
    2-train nothing; the best run gives X-S (70) to the 2-train and S-Y-Z (60) to the 3-train."""
    canvas = Canvas("18Texas")
    line(canvas, [("c", 60), ("c", 10), ("c", 10), ("c", 40)])
    canvas.station("MP", "E6")
    three, two = canvas.train("MP", "3"), canvas.train("MP", "2")
    optimum = best_run(canvas.game, "MP")
    assert optimum.revenue == 130
    assert hexes_run(optimum, two) == {"E4", "E6"} and hexes_run(optimum, three) == {"E6", "E8", "E10"}


def test_plus_trains_stop_at_towns_for_free_and_others_count_them() -> None:
    """S 20 - town 10 - town 10 - C 30: a 2+ takes all four (70); a 2D stops at two (x2)."""
    canvas = Canvas("18MS")
    line(canvas, [("c", 20), ("t", 10), ("t", 10), ("c", 30)])
    canvas.station("GMO", "E3")
    plus = canvas.train("GMO", "2+")
    optimum = best_run(canvas.game, "GMO")
    assert optimum.revenue == 70 and len(stops_of(optimum, plus)) == 4
    canvas.take(plus)
    canvas.phase("D")
    diesel = canvas.train("GMO", "2D")
    optimum = best_run(canvas.game, "GMO")
    assert optimum.revenue == 2 * (20 + 10) and stops_of(optimum, diesel) == ["E3.c0", "E5.t0"]


def test_a_4d_doubles_four_stops() -> None:
    canvas = Canvas("18MS")
    line(canvas, [("c", 20), ("c", 30), ("t", 10), ("c", 40), ("c", 50)])
    canvas.station("IC", "E3")
    canvas.phase("D")
    diesel = canvas.train("IC", "4D")
    optimum = best_run(canvas.game, "IC")
    assert optimum.revenue == 2 * (20 + 30 + 10 + 40)
    assert len(stops_of(optimum, diesel)) == 4


def test_no_route_runs_through_an_off_board() -> None:
    """C 100 - off-board 50 - S 10: the off-board ends routes, so C is out of reach."""
    canvas = Canvas("18Texas")
    line(canvas, [("c", 100), ("o", 50), ("c", 10)])
    canvas.station("SP", "E8")
    canvas.train("SP", "3")
    optimum = best_run(canvas.game, "SP")
    assert optimum.revenue == 60 and optimum.proven


def test_a_city_full_of_other_stations_blocks_but_ends_a_route() -> None:
    """S 10 - B 20 (full of another company's stations) - C 60."""
    canvas = Canvas("18Texas")
    line(canvas, [("c", 10), ("c", 20), ("c", 60)])
    canvas.station("SP", "E4")
    canvas.station("MP", "E6")
    canvas.train("SP", "3")
    assert best_run(canvas.game, "SP").revenue == 30  # S-B only
    canvas.put("E6", "c0-e1", "c0-e4", cities=((20, 2),))  # a second circle, still free
    canvas.station("MP", "E6")
    assert best_run(canvas.game, "SP").revenue == 90  # S-B-C: B has room


def test_every_route_needs_a_station_of_the_company() -> None:
    """A rich line elsewhere that the company's station does not reach earns it nothing."""
    canvas = Canvas("18Texas")
    line(canvas, [("c", 100), ("c", 100)], hexes=("G4", "G6"))
    line(canvas, [("c", 10), ("c", 20)])
    canvas.station("MKT", "E4")
    canvas.train("MKT", "2")
    canvas.train("MKT", "2")
    optimum = best_run(canvas.game, "MKT")
    assert optimum.revenue == 30 and len(optimum.routes) == 1


def test_trains_may_share_a_city_but_not_track() -> None:
    """A 2-train each way from the station; a third has no track left."""
    canvas = Canvas("18Texas")
    line(canvas, [("c", 30), ("c", 10), ("c", 50)])
    canvas.station("SSW", "E6")
    for _ in range(3):
        canvas.train("SSW", "2")
    optimum = best_run(canvas.game, "SSW")
    assert optimum.revenue == (30 + 10) + (10 + 50) and len(optimum.routes) == 2


def test_hex_trains_count_hex_sides_and_every_stop() -> None:
    """1871: S 20, then plain track, a town 10, plain track, C 50 down column K: S-town crosses
    two sides, S-C four. A 2H reaches the town, a 4H the city too."""
    canvas = Canvas("The Old Prince 1871")
    line(canvas, [("c", 20), None, ("t", 10), None, ("c", 50)], hexes=COLUMN, ends=(3, 0))
    canvas.station("So", "K13")
    canvas.phase("4H")
    short = canvas.train("So", "2H")
    assert best_run(canvas.game, "So").revenue == 30
    canvas.take(short)
    canvas.train("So", "4H")
    assert best_run(canvas.game, "So").revenue == 80


def test_1871_plus_seven_and_diesel_trains() -> None:
    """A line of seven cities and two towns from the station: a 2+ takes two cities and the
    towns between and after them, a 7 seven stops, a D everything."""
    canvas = Canvas("The Old Prince 1871")
    stops: list[tuple[str, int] | None] = [("c", 10), ("t", 10), ("c", 20), ("t", 10), ("c", 30), ("c", 40),
                                           ("c", 50), ("c", 60), ("c", 70)]
    line(canvas, stops, hexes=LONG_COLUMN, ends=(3, 0))
    canvas.station("So", "P10")
    canvas.phase("D")
    plus = canvas.train("So", "2+")
    assert best_run(canvas.game, "So").revenue == 10 + 10 + 20 + 10
    canvas.take(plus)
    seven = canvas.train("So", "7")
    assert best_run(canvas.game, "So").revenue == 10 + 10 + 20 + 10 + 30 + 40 + 50
    canvas.take(seven)
    canvas.train("So", "D")
    assert best_run(canvas.game, "So").revenue == sum(s[1] for s in stops if s)


def _off_board_beside_two_cities() -> Canvas:
    """WRA with a 2+ at E5, between Atlanta (E3: 40 in yellow, 80 from brown) and a $50 city (E7)."""
    canvas = Canvas("18MS")
    canvas.put("E3", "o0-e4", offboards=({"yellow": 40, "green": 40, "brown": 80, "gray": 80},))
    canvas.put("E5", "c0-e1", "c0-e4", cities=(20,))
    canvas.put("E7", "c0-e1", cities=(50,))
    canvas.station("WRA", "E5")
    canvas.train("WRA", "2+")
    return canvas


def test_off_board_values_follow_the_phase() -> None:
    canvas = _off_board_beside_two_cities()
    assert best_run(canvas.game, "WRA").revenue == 70  # E5-E7 beats Atlanta's yellow 40 + 20
    canvas.phase("6")
    optimum = best_run(canvas.game, "WRA")
    assert optimum.revenue == 100 and "E3.o0" in stops_of(optimum, optimum.routes[0].train)


def test_the_new_orleans_bonus_decides_between_equal_routes() -> None:
    """18MS pays its New Orleans station holder $10 more for a route to I1 (route_bonus)."""
    canvas = Canvas("18MS")
    canvas.put("I1", "c0-e3", "c0-t0", cities=(20,), towns=(10,))  # NE of I1 is H2
    canvas.put("H2", "c0-e0", "c0-e3", cities=(20,))  # SW to I1, NE to G3
    canvas.put("G3", "c0-e0", cities=(30,))
    canvas.station("GMO", "H2")
    canvas.train("GMO", "2+")
    without = best_run(canvas.game, "GMO")
    with canvas.game.changing():  # as every change to a game: what was kept of the moment before is forgotten
        canvas.game.corporations["GMO"].abilities.add("new_orleans_bonus")
    with_bonus = best_run(canvas.game, "GMO")
    assert without.revenue == 50  # H2-G3, or H2-I1 city-I1 town (the town is free for a 2+)
    assert with_bonus.revenue == 60
    assert "I1" in hexes_run(with_bonus, with_bonus.routes[0].train)


def test_two_stops_in_one_hex_join_inside_it() -> None:
    """A hex whose city and town are joined inside it (New Orleans, Dallas-Fort Worth)."""
    canvas = Canvas("18Texas")
    canvas.put("E6", "c0-c1", "c1-e4", cities=(10, 20))
    canvas.put("E8", "c0-e1", cities=(40,))
    canvas.station("T&P", "E6", 1)
    canvas.train("T&P", "3")
    optimum = best_run(canvas.game, "T&P")
    assert optimum.revenue == 70 and ["E6"] in optimum.run_routes()[0]["connections"]


def test_no_trains_no_run() -> None:
    canvas = Canvas("18Texas")
    line(canvas, [("c", 30), ("c", 10)])
    canvas.station("SAA", "E4")
    optimum = best_run(canvas.game, "SAA")
    assert optimum.revenue == 0 and optimum.routes == () and optimum.proven


def test_a_budget_too_small_returns_a_legal_run_unproven() -> None:
    canvas = Canvas("18Texas")
    line(canvas, [("c", 30), ("c", 40), ("c", 0), ("c", 40), ("c", 30)])
    canvas.station("T&P", "E8")
    canvas.train("T&P", "3")
    canvas.train("T&P", "3")
    rushed = best_run(canvas.game, "T&P", Budget(paths=2, combinations=10))
    assert not rushed.proven and 0 < rushed.revenue <= 140
    assert sum(engine_revenues(canvas.game, "T&P", rushed.run_routes())) == rushed.revenue


def test_the_engine_check_refuses_a_misvalued_answer() -> None:
    canvas = Canvas("18Texas")
    line(canvas, [("c", 30), ("c", 10)])
    canvas.station("SAA", "E4")
    canvas.train("SAA", "2")
    routes = best_run(canvas.game, "SAA").run_routes()
    routes[0]["revenue"] += 10
    with pytest.raises(EngineDisagrees, match="earns 40 by the engine"):
        confirm(canvas.game, "SAA", routes)
    with pytest.raises(Violation):
        engine_revenues(canvas.game, "SAA", routes + routes)  # one train twice


def test_the_position_holds_only_what_the_stations_reach() -> None:
    canvas = Canvas("18Texas")
    line(canvas, [("c", 30), ("c", 10), ("o", 20)])
    line(canvas, [("c", 100), ("c", 100)], hexes=("G4", "G6"))
    canvas.station("SAA", "E4")
    position = position_of(canvas.game, "SAA")
    assert {h for h, _ in position.stops} == {"E4", "E6", "E8"}
    assert position.stops[("E8", "o0")].passable is False and position.stops[("E4", "c0")].station


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in TEST_GAMES])
def test_connections_kept_between_positions_are_those_found_afresh(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each hex's connections are kept from one position to the next until a tile goes on a hex
    their finding looked at: after every action, every company's position equals one built with
    nothing kept."""
    record = record_of(path)
    for index, game in positions(record):
        for sym in game.corporations:
            if not game.board.tokened(sym):
                continue
            kept = position_of(game, sym)
            monkeypatch.setattr(engine, "_KNOWN", TileMemo())
            monkeypatch.setattr(engine, "_SIDES", TileMemo())
            fresh = position_of(game, sym)
            monkeypatch.undo()
            assert (fresh.stops, fresh.connections) == (kept.stops, kept.connections), f"#{index} {sym}"


def test_two_trains_may_not_leave_a_junction_by_the_same_side() -> None:
    """E6 joins its W side to E and to SW, E8 its W side to E and to SE: A (E4) - B (E10) and
    C (F5) - D (F9) use different track in both hexes but both cross from E6 into E8. 18xx.games
    counts that side as track both trains use and refuses the pair (its check_overlap), so the
    engine does, and the best run of two 2-trains is A-B alone (70), not both (110)."""
    canvas = Canvas("18Texas")
    canvas.put("E4", "c0-e4", cities=(30,))
    canvas.put("E6", "e1-e4", "e0-e4")
    canvas.put("F5", "c0-e3", cities=(20,))
    canvas.put("E8", "e1-e4", "e1-e5")
    canvas.put("F9", "c0-e2", cities=(20,))
    canvas.put("E10", "c0-e1", cities=(40,))
    canvas.station("T&P", "E4")
    canvas.station("T&P", "F5")
    first, second = canvas.train("T&P", "2"), canvas.train("T&P", "2")
    routes = [{"train": first, "connections": [["E4", "E6", "E8", "E10"]]},
              {"train": second, "connections": [["F5", "E6", "E8", "F9"]]}]
    assert engine_revenues(canvas.game, "T&P", routes[:1]) == [70]
    assert engine_revenues(canvas.game, "T&P", routes[1:]) == [40]
    with pytest.raises(Violation, match="shares track with another train"):
        engine_revenues(canvas.game, "T&P", routes)
    optimum = best_run(canvas.game, "T&P")
    assert optimum.revenue == 70 and optimum.proven and [r.train for r in optimum.routes] == [first]


def test_a_run_solver_answers_an_unchanged_position_from_its_last_search() -> None:
    """The same position asked again gets the very answer of its last search; a train bought,
    a tile laid or a phase reached makes a new position, searched afresh."""
    canvas = Canvas("18Texas")
    line(canvas, [("c", 30), ("c", 40), ("c", 0), ("c", 40), ("c", 30)])
    canvas.station("T&P", "E8")
    canvas.train("T&P", "3")
    solver = RunSolver()
    alone = solver.best_run(canvas.game, "T&P")
    assert solver.best_run(canvas.game, "T&P") is alone
    canvas.train("T&P", "3")
    both = solver.best_run(canvas.game, "T&P")
    assert (alone.revenue, both.revenue) == (80, 140) and both == best_run(canvas.game, "T&P")
    canvas.put("E12", "c0-e1", cities=(60,))  # a green city where E2 was
    upgraded = solver.best_run(canvas.game, "T&P")
    assert upgraded.revenue == 170 and upgraded == best_run(canvas.game, "T&P")


def test_a_run_solver_follows_the_phase() -> None:
    canvas = _off_board_beside_two_cities()
    solver = RunSolver()
    assert solver.best_run(canvas.game, "WRA").revenue == 70
    canvas.phase("6")
    assert solver.best_run(canvas.game, "WRA").revenue == 100


def test_a_run_solver_searches_again_where_a_title_pays_a_bonus() -> None:
    """18MS's New Orleans bonus reads the company's abilities, which the position does not hold:
    with the same position, the bonus gained since the last run still counts."""
    canvas = Canvas("18MS")
    canvas.put("I1", "c0-e3", "c0-t0", cities=(20,), towns=(10,))
    canvas.put("H2", "c0-e0", "c0-e3", cities=(20,))
    canvas.put("G3", "c0-e0", cities=(30,))
    canvas.station("GMO", "H2")
    canvas.train("GMO", "2+")
    solver = RunSolver()
    without = solver.best_run(canvas.game, "GMO")
    with canvas.game.changing():
        canvas.game.corporations["GMO"].abilities.add("new_orleans_bonus")
    assert position_of(canvas.game, "GMO").stops == solver._last["GMO"][0].stops
    assert (without.revenue, solver.best_run(canvas.game, "GMO").revenue) == (50, 60)
