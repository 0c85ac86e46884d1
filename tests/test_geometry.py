"""Tile geometry, rotation, upgrade legality and hex neighbours (replay/geometry.py, replay/hexgrid.py).

The fixture tests replay every standing tile lay of the shared 18MS records through the upgrade
rule and walk every route through the resulting board, which pins down the edge numbering and
the rotation direction against real games (a mirrored rotation fails hundreds of lays).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from railledger.ingest.undo import standing_actions
from railledger.replay.geometry import (
    NEXT_COLOUR,
    TileGeometry,
    legal_rotations,
    load_catalogue,
    load_hexes,
    preserves,
)
from railledger.replay.board import COLOURS
from railledger.replay.hexgrid import POINTY_OFFSETS, coordinates, distance, hex_id, neighbour, opposite, shared_edge
from tests.conftest import REPO, fixtures_dir

SLUG = "g18ms"
CATALOGUE = load_catalogue(SLUG)
TILES = CATALOGUE.tiles
HEXES = load_hexes(SLUG)
MAP = json.loads((REPO / "src" / "railledger" / "replay" / "titles" / SLUG / "map.json").read_text(encoding="utf-8"))
EDGES = st.integers(0, 5)
ROTATIONS = st.integers(-12, 12)


def tile(color: str, paths: list[list[str]], cities: int = 0, towns: int = 0, label: str | None = None,
         name: str = "test") -> TileGeometry:
    """A hand-made tile, for shapes the title does not have."""
    return TileGeometry.from_json(name, {
        "color": color,
        "label": label,
        "cities": [{"slots": 1, "revenue": 20}] * cities,
        "towns": [{"revenue": 10}] * towns,
        "paths": paths,
    })


def hex_label(hex_: str, color: str) -> str | None:
    """The label a hex carries once a tile of ``color`` is laid there (its future_label), else None."""
    future = MAP["hexes"][hex_].get("future_label")
    return future["label"] if future and future["color"] == color else None


def chart_label(new: TileGeometry) -> str | None:
    """The label a chart upgrade to ``new`` gets from the hexes the tile is restricted to."""
    labels = {hex_label(h, new.color) for h in new.only_hexes} or {None}
    assert len(labels) == 1, f"{new.name}: its hexes disagree on the label: {labels}"
    return labels.pop()


# --- geometry and rotation ------------------------------------------------------------------------


@pytest.mark.parametrize("name, gap", [("7", 1), ("8", 2), ("9", 3)])
@pytest.mark.parametrize("rotation", range(6))
def test_plain_track_edges_after_rotation(name: str, gap: int, rotation: int) -> None:
    turned = TILES[name].rotated(rotation)
    ends = {rotation, (rotation + gap) % 6}
    assert turned.edges == ends
    assert turned.edge_links == {frozenset(ends)}
    assert turned.paths == {frozenset(f"e{e}" for e in ends)}


def test_rotation_moves_edges_clockwise_and_keeps_nodes() -> None:
    turned = TILES["57"].rotated(1)  # e0-c0-e3 becomes e1-c0-e4
    assert turned.node_edges == {"c0": frozenset({1, 4})}
    assert turned == tile("yellow", [["c0", "e4"], ["e1", "c0"]], cities=1, name="57")
    assert TILES["5"].rotated(5).node_edges == {"c0": frozenset({5, 0})}


@given(st.sampled_from(sorted(TILES)), ROTATIONS, ROTATIONS)
def test_rotations_compose_and_six_turns_are_identity(name: str, a: int, b: int) -> None:
    t = TILES[name]
    assert t.rotated(a).rotated(b) is t.rotated(a + b)
    turned = t
    for _ in range(6):
        turned = turned.rotated(1)
    assert turned is t and turned == t
    assert t.rotated(a).name == t.name and t.rotated(a).cities == t.cities


def test_path_spelling_and_order_do_not_matter() -> None:
    assert tile("yellow", [["e0", "c0"], ["c0", "e3"]], cities=1) == tile("yellow", [["e3", "c0"], ["c0", "e0"]], cities=1)


def test_unknown_endpoint_is_refused() -> None:
    with pytest.raises(ValueError, match="c1"):
        tile("yellow", [["e0", "c1"]], cities=1)


def test_catalogue_merges_title_tiles_and_counts() -> None:
    manifest = json.loads((REPO / "src" / "railledger" / "replay" / "titles" / SLUG / "tiles.json").read_text(encoding="utf-8"))
    assert set(TILES) == set(CATALOGUE.counts) == set(manifest["counts"])
    assert sum(CATALOGUE.counts.values()) == manifest["total"] == 93
    assert TILES["446"].label == "BM" and TILES["446"].only_hexes == {"C9", "E11"}  # 18MS's own 446
    assert TILES["63"].cities[0].slots == 2 and TILES["63"].edges == set(range(6))
    assert load_catalogue(SLUG) is CATALOGUE


@pytest.mark.parametrize("slug", ["g18ms", "g18texas", "g1871"])
def test_tiles_by_colour_are_the_catalogues_sorted(slug: str) -> None:
    """Listing tile lays reads a colour's tiles from ``Catalogue.by_colour``: every tile of the
    title, under its colour, by name."""
    catalogue = load_catalogue(slug)
    scanned = {colour: tuple(sorted(n for n, t in catalogue.tiles.items() if t.color == colour))
               for colour in COLOURS if any(t.color == colour for t in catalogue.tiles.values())}
    assert dict(catalogue.by_colour) == scanned


@pytest.mark.parametrize("slug", ["g18ms", "g18texas", "g1871"])
def test_node_ids_named_once_are_the_tiles_stops(slug: str) -> None:
    """``TileGeometry.nodes`` reads ids named once per tile: cities, then towns, then offboards,
    each numbered from 0, for every tile and printed hex of the title, turned or not."""
    for tile in [*load_catalogue(slug).tiles.values(), *load_hexes(slug).values()]:
        for turned in (tile, tile.rotated(1)):
            stops = {"c": turned.cities, "t": turned.towns, "o": turned.offboards}
            named = {kind: [f"{kind}{i}" for i in range(len(found))] for kind, found in stops.items()}
            assert {kind: turned.nodes(kind) for kind in stops} == named
            assert turned.nodes() == named["c"] + named["t"] + named["o"]


def test_phase_revenue() -> None:
    memphis = HEXES["A1"].cities[0]
    assert (memphis.revenue_in("yellow"), memphis.revenue_in("brown")) == (40, 50)
    assert TILES["57"].cities[0].revenue_in("gray") == 20


# --- upgrades -------------------------------------------------------------------------------------

CHART = [(old, new) for old, news in CATALOGUE.upgrades.items() for new in news]


@pytest.mark.parametrize("old, new", CHART, ids=[f"{o}->{n}" for o, n in CHART])
def test_every_chart_upgrade_has_a_legal_rotation(old: str, new: str) -> None:
    assert legal_rotations(TILES[old], TILES[new], chart_label(TILES[new]))


def test_generic_rule_matches_the_chart_for_unlabelled_tiles() -> None:
    """The rulebook chart is exactly what the generic rule allows, so the rule is neither too loose
    nor too strict for 18MS (the labelled X31b and 446 are covered by the chart test)."""
    plain = [t for t in TILES.values() if t.label is None]
    allowed = {(o.name, n.name) for o in plain for n in plain if legal_rotations(o, n)}
    charted = {(o, n) for o, n in CHART if TILES[n].label is None}
    assert allowed == charted


@pytest.mark.parametrize("old, new, rotations", [
    ("7", "26", [1]),
    ("23", "41", [3]),
    ("9", "20", [0, 2, 3, 5]),
    ("5", "15", [0, 4, 5]),
    ("14", "63", list(range(6))),
])
def test_known_legal_rotations(old: str, new: str, rotations: list[int]) -> None:
    assert legal_rotations(TILES[old], TILES[new]) == rotations


def test_upgrade_of_a_laid_tile_uses_its_board_orientation() -> None:
    laid = TILES["7"].rotated(1)  # e1-e2
    assert legal_rotations(laid, TILES["26"]) == [2]
    assert legal_rotations(laid, TILES["29"]) == [1]


@pytest.mark.parametrize("old, new, label, why", [
    ("7", "8", None, "same colour"),
    ("7", "39", None, "skips green"),
    ("63", "15", None, "downgrade"),
    ("9", "16", None, "loses the straight track"),
    ("8", "20", None, "loses the curve"),
    ("4", "143", None, "loses the straight through the town"),
    ("3", "14", None, "town becomes a city"),
    ("15", "X31b", None, "Mob tile outside Mobile"),
    ("63", "446", None, "BM tile outside Birmingham/Montgomery"),
    ("63", "446", "Mob", "wrong label"),
])
def test_illegal_upgrades_are_refused(old: str, new: str, label: str | None, why: str) -> None:
    assert legal_rotations(TILES[old], TILES[new], label) == [], why


def test_blank_hexes_take_yellow_with_the_same_stops() -> None:
    assert legal_rotations(HEXES["B4"], TILES["9"]) == list(range(6))
    assert legal_rotations(HEXES["B4"], TILES["57"]) == []  # a city on a blank hex
    assert legal_rotations(HEXES["C7"], TILES["9"]) == []  # Tuscaloosa's city dropped
    assert legal_rotations(HEXES["C7"], TILES["57"]) == list(range(6))
    assert legal_rotations(HEXES["B2"], TILES["58"]) == list(range(6))
    assert legal_rotations(HEXES["A1"], TILES["57"]) == []  # red hexes never take tiles


def test_connectivity_not_literal_paths_is_compared() -> None:
    old = TILES["57"]  # e0-c0, e3-c0
    new = tile("green", [["c0", "e1"], ["e3", "c0"], ["e0", "c0"]], cities=1)
    assert preserves(old, new, 0)
    assert legal_rotations(old, new) == [0, 3]  # the straight through c0 is symmetric
    assert not preserves(old, tile("green", [["e0", "e3"], ["e1", "c0"]], cities=1), 0)


def test_each_old_city_needs_one_new_city_with_all_its_edges() -> None:
    two = tile("yellow", [["e0", "c0"], ["e3", "c1"]], cities=2)
    assert preserves(two, tile("green", [["e0", "c1"], ["e3", "c0"], ["e1", "c0"]], cities=2), 0)
    assert not preserves(two, tile("green", [["e0", "c0"], ["e3", "c0"]], cities=2), 0)  # c1 left bare
    merged = tile("green", [["e0", "c0"], ["e3", "c0"]], cities=1)
    assert preserves(two, merged, 0)
    assert not preserves(merged, two, 0)  # colour aside, a city may not split
    assert not preserves(tile("yellow", [["e0", "c0"], ["e3", "c0"]], cities=1),
                         tile("green", [["e0", "c0"], ["e3", "c1"]], cities=2), 0)


def test_colour_order() -> None:
    assert [NEXT_COLOUR.get(c) for c in ("white", "yellow", "green", "brown", "gray", "red")] == [
        "yellow", "green", "brown", "gray", None, None]


# --- hex neighbours -------------------------------------------------------------------------------

HEX_IDS = st.builds(lambda x, y: hex_id(x + (x + y) % 2, y), st.integers(0, 80), st.integers(0, 60))


@given(HEX_IDS, EDGES)
def test_neighbour_and_shared_edge_are_inverse(hex_: str, edge: int) -> None:
    other = neighbour(hex_, edge)
    if other is None:
        x, y = coordinates(hex_)
        assert x < 2 or y == 0
        return
    assert shared_edge(hex_, other) == edge
    assert shared_edge(other, hex_) == opposite(edge)
    assert neighbour(other, opposite(edge)) == hex_


@given(HEX_IDS, HEX_IDS)
def test_shared_edge_only_for_neighbours(a: str, b: str) -> None:
    edge = shared_edge(a, b)
    assert (edge is not None) == (b in {neighbour(a, e) for e in range(6)})
    assert edge is None or neighbour(a, edge) == b


@given(HEX_IDS)
def test_hex_ids_round_trip(hex_: str) -> None:
    assert hex_id(*coordinates(hex_)) == hex_


def test_hex_id_examples() -> None:
    assert coordinates("A1") == (0, 0) and coordinates("B12") == (11, 1) and coordinates("AA1") == (0, 26)
    assert [neighbour("C7", e) for e in range(6)] == ["D6", "C5", "B6", "B8", "C9", "D8"]
    assert neighbour("A1", 2) is None and shared_edge("A1", "A1") is None and shared_edge("A1", "A5") is None
    assert coordinates("A2") == (1, 0)  # odd parity: 18Texas's grid
    for bad in ("a1", "B0", "12", "B"):
        with pytest.raises(ValueError):
            coordinates(bad)


def test_map_declares_the_same_convention() -> None:
    assert MAP["layout"] == "pointy"
    assert {int(e): tuple(o) for e, o in MAP["neighbour_offsets"].items()} == POINTY_OFFSETS
    assert MAP["edges"] == {"0": "SW", "1": "W", "2": "NW", "3": "NE", "4": "E", "5": "SE"}


def test_every_map_hex_is_on_the_grid() -> None:
    for hex_ in HEXES:
        coordinates(hex_)


@pytest.mark.parametrize("hex_", [h for h, g in HEXES.items() if g.edges])
def test_printed_track_points_at_real_hexes(hex_: str) -> None:
    """Preprinted track leads onto the board; between two printed hexes it meets track coming back."""
    for edge in HEXES[hex_].edges:
        other = neighbour(hex_, edge)
        assert other in HEXES and HEXES[other].color != "empty", f"{hex_} e{edge} leads off the map"
        if HEXES[other].color != "white":
            assert opposite(edge) in HEXES[other].edges, f"{hex_} e{edge} meets no track in {other}"


def _area(hex_: str) -> str | None:
    data = MAP["hexes"][hex_]
    return data.get("part_of") or data.get("location")


@pytest.mark.parametrize("hex_", [h for h, d in MAP["hexes"].items() if d.get("borders")])
def test_offboard_area_borders_join_hexes_of_the_same_area(hex_: str) -> None:
    for edge in MAP["hexes"][hex_]["borders"]:
        other = neighbour(hex_, edge)
        assert other is not None and _area(other) == _area(hex_)
        assert opposite(edge) in MAP["hexes"][other].get("borders", []), f"{hex_} e{edge} vs {other}"


# --- the shared 18MS records ----------------------------------------------------------------------


def _records() -> list:
    files = sorted((fixtures_dir() / "18MS").glob("*.json"))
    if not files:
        return [pytest.param(None, marks=pytest.mark.skip(
            reason=f"no 18MS fixtures in {fixtures_dir()} (set RAILLEDGER_FIXTURES)"))]
    return [pytest.param(f, id=f.stem, marks=pytest.mark.fixtures) for f in files]


def _standing(path: Path) -> list[dict]:
    return standing_actions(json.loads(path.read_text(encoding="utf-8"))["actions"])


@pytest.mark.parametrize("path", _records())
def test_fixture_routes_step_only_between_neighbours(path: Path) -> None:
    steps = 0
    for action in _standing(path):
        for route in action.get("routes", []) if action["type"] == "run_routes" else []:
            for chain in route["connections"]:
                for a, b in zip(chain, chain[1:]):
                    assert shared_edge(a, b) is not None, f"action {action['id']}: {a} and {b} are not neighbours"
                    steps += 1
    assert steps > 0


@pytest.mark.parametrize("path", _records())
def test_fixture_tile_lays_are_legal_and_routes_follow_track(path: Path) -> None:
    """Every standing lay is a legal upgrade at its recorded rotation, and every route step leaves
    and enters on edges that have track on the board built from those lays."""
    board = dict(HEXES)
    lays = 0
    for action in _standing(path):
        if action["type"] == "lay_tile":
            hex_, new = action["hex"], TILES[action["tile"].rsplit("-", 1)[0]]
            rotations = legal_rotations(board[hex_], new, hex_label(hex_, new.color))
            assert action["rotation"] in rotations, f"action {action['id']}: {new.name} on {board[hex_].name}"
            assert not new.only_hexes or hex_ in new.only_hexes
            board[hex_] = new.rotated(action["rotation"])
            lays += 1
        elif action["type"] == "run_routes":
            for route in action["routes"]:
                for chain in route["connections"]:
                    for a, b in zip(chain, chain[1:]):
                        edge = shared_edge(a, b)
                        assert edge in board[a].edges and opposite(edge) in board[b].edges, (
                            f"action {action['id']}: no track {a} e{edge} -> {b}")
    assert lays > 0


def test_flat_layout_numbers_edges_from_the_south() -> None:
    # 1871's island: columns are letters, rows numbers; neighbours in a column are two rows apart.
    assert coordinates("B2", "flat") == (1, 1) and hex_id(1, 1, "flat") == "B2"
    assert [neighbour("F14", e, "flat") for e in range(6)] == ["F16", "E15", "E13", "F12", "G13", "G15"]
    assert shared_edge("F14", "E15", "flat") == 1
    assert (shared_edge("F14", "F16", "flat"), shared_edge("F14", "F16")) == (0, 4)  # S on flat, E on pointy


@pytest.mark.parametrize("layout", ["pointy", "flat"])
def test_distance_counts_the_sides_of_the_shortest_walk(layout: str) -> None:
    """Every hex a walk across neighbours reaches from F8 in k sides at the least is at distance k."""
    seen, frontier = {"F8": 0}, ["F8"]
    for depth in range(1, 7):
        frontier = [n for h in frontier for e in range(6)
                    if (n := neighbour(h, e, layout)) is not None and n not in seen]
        seen.update({h: depth for h in frontier})
    assert len(seen) > 100
    assert all(distance("F8", h, layout) == depth == distance(h, "F8", layout) for h, depth in seen.items())
