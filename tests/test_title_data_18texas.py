"""Structural checks of the 18Texas title data (replay/titles/g18texas/) and its shared catalogue tiles.

Standard library only (plus pytest). The fixture tests need the shared 18xx.games records:
``$RAILLEDGER_FIXTURES/18Texas/*.json`` or ``<repo>/../shared/fixtures/18Texas/*.json``; the rulebook
checks need ``<repo>/../shared/rules/18Texas.txt``. Both are skipped with a message when absent.

18Texas is a pointy map like 18MS, but its hex ids have odd parity (x + y odd in doubled
coordinates, see map.json); the neighbour maths below works for either parity.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from tests.title_data import CATALOGUE, COLORS, NODE_KEYS, check_city_id, check_geometry, loader, node_ids, tile_geometry

REPO = Path(__file__).resolve().parents[1]
TITLE = REPO / "src" / "railledger" / "replay" / "titles" / "g18texas"
RULEBOOK = REPO.parent / "shared" / "rules" / "18Texas.txt"

CORPORATION_ORDER = ["T&P", "MKT", "SP", "MP", "SSW", "SAA"]
DATA_FILES = ["tiles.json", "map.json", "market.json", "trains.json", "phases.json", "companies.json", "game.json", "rules.json"]


load = loader("g18texas")


# ---------------------------------------------------------------- geometry helpers (no engine imports)


def turned(t: dict, rot: int) -> list[tuple[str, str]]:
    def turn(ep: str) -> str:
        return f"e{(int(ep[1:]) + rot) % 6}" if ep.startswith("e") else ep

    return [(turn(a), turn(b)) for a, b in t["paths"]]


def connectivity(paths: list[tuple[str, str]]) -> tuple[set[int], set[frozenset], dict[str, set[int]]]:
    """Edges used, edge-edge links, node -> edges running straight into it."""
    edges, links, node_edges = set(), set(), {}
    for a, b in paths:
        es = [int(p[1:]) for p in (a, b) if p.startswith("e")]
        edges.update(es)
        if len(es) == 2:
            links.add(frozenset(es))
        elif len(es) == 1:
            node = b if a.startswith("e") else a
            node_edges.setdefault(node, set()).add(es[0])
        else:
            node_edges.setdefault(a, set())
            node_edges.setdefault(b, set())
    return edges, links, node_edges


def keeps_track(old_paths: list[tuple[str, str]], new: dict, rot: int) -> bool:
    """Does ``new`` at ``rot`` keep every old edge, edge-edge link, and edge-into-stop of ``old_paths``?
    Several old cities may go into one new city (D9's two cities merge into 511)."""
    o_edges, o_links, o_nodes = connectivity(old_paths)
    n_edges, n_links, n_nodes = connectivity(turned(new, rot))
    if not (o_edges <= n_edges and o_links <= n_links):
        return False
    for node, es in o_nodes.items():
        same_kind = [n for n in n_nodes if n[0] == node[0]]
        if es and not any(es <= n_nodes[n] for n in same_kind):
            return False
    return True


def hex_xy(coord: str) -> tuple[int, int]:
    m = re.fullmatch(r"([A-Z])(\d+)", coord)
    assert m, coord
    return int(m.group(2)) - 1, ord(m.group(1)) - ord("A")


def neighbour(coord: str, edge: int, offsets: dict) -> str | None:
    x, y = hex_xy(coord)
    dx, dy = offsets[str(edge)]
    nx, ny = x + dx, y + dy
    if nx < 0 or ny < 0 or ny > 25:
        return None
    return f"{chr(ord('A') + ny)}{nx + 1}"


def shared_edge(a: str, b: str, offsets: dict) -> int | None:
    return next((e for e in range(6) if neighbour(a, e, offsets) == b), None)


# ---------------------------------------------------------------- data-only tests


def test_all_json_loads():
    for name in DATA_FILES:
        load(name)
    json.loads(CATALOGUE.read_text(encoding="utf-8"))
    assert (TITLE / "README.md").exists() and (TITLE / "notes.md").exists()


def test_catalogue_geometry_of_texas_tiles(manifest, catalogue):
    for name in manifest["counts"]:
        t = tile_geometry(name, manifest, catalogue)
        assert t["color"] in COLORS, name
        used = check_geometry(f"tile {name}", t)
        assert used == node_ids(t), f"tile {name}: every node must be on a path"


def test_manifest(manifest, catalogue):
    counts = manifest["counts"]
    for name, count in counts.items():
        assert isinstance(count, int) and count > 0, name
        assert name in manifest["title_tiles"] or name in catalogue, f"tile {name} has no geometry"
    assert set(manifest["title_tiles"]) == {"511"}
    assert "511" not in catalogue, "511 is an 18Texas tile (map.rb), not a standard one"
    assert sum(counts.values()) == manifest["total"] == 125  # rulebook section 1: 125 track tiles
    per_colour = {c: sum(n for k, n in counts.items() if tile_geometry(k, manifest, catalogue)["color"] == c) for c in COLORS}
    assert per_colour == {"yellow": 56, "green": 40, "brown": 28, "gray": 1}
    y_tiles = sorted(k for k in counts if tile_geometry(k, manifest, catalogue).get("label") == "Y")
    assert y_tiles == sorted(manifest["labels"]["Y"]) == ["202", "216", "511", "512"]
    assert set(manifest["upgrades"]) == set(counts)


def rulebook_text() -> str:
    if not RULEBOOK.exists():
        pytest.skip(f"18Texas rulebook not found at {RULEBOOK}")
    return RULEBOOK.read_text(encoding="utf-8")


def test_manifest_matches_rulebook_table(manifest):
    text = rulebook_text()
    chart = text[text.rindex("Tile Manifest and Upgrade Chart"):]
    rows = re.findall(r"^(\w+)\t(\d+)\t(.+)$", chart, re.M)
    assert len(rows) >= 8, "the rulebook chart has (at least) rows 5 .. 14"
    for name, qty, ups in rows:
        assert manifest["counts"][name] == int(qty), name
        assert manifest["rulebook_chart"][name] == [u.strip() for u in ups.split(",")], name
    assert sorted(r[0] for r in rows) == sorted(manifest["rulebook_chart"]) == sorted(manifest["upgrades_source"]["rulebook"])


def test_chart_differences_are_documented(manifest):
    """upgrades (what records do) contains the printed rows; every extra is listed in upgrades_source."""
    diffs = manifest["upgrades_source"]["differences"]
    for name, printed in manifest["rulebook_chart"].items():
        assert set(printed) <= set(manifest["upgrades"][name]), name
        if printed != manifest["upgrades"][name]:
            assert diffs[name]["rulebook"] == printed and diffs[name]["reference_and_records"] == manifest["upgrades"][name]
    assert set(diffs) == {"6"}


def test_manifest_upgrades_are_geometrically_valid(manifest, catalogue):
    counts = manifest["counts"]
    for src, targets in manifest["upgrades"].items():
        s = tile_geometry(src, manifest, catalogue)
        for dst in targets:
            assert dst in counts, (src, dst)
            d = tile_geometry(dst, manifest, catalogue)
            assert COLORS.index(d["color"]) == COLORS.index(s["color"]) + 1, (src, dst)
            assert len(s.get("cities", [])) == len(d.get("cities", [])), (src, dst)
            assert len(s.get("towns", [])) == len(d.get("towns", [])), (src, dst)
            assert s.get("label") == d.get("label"), (src, dst)
            assert any(keeps_track([tuple(p) for p in s["paths"]], d, r) for r in range(6)), f"{src} -> {dst} loses track"


def test_upgrades_are_the_generic_rule(manifest, catalogue):
    """Every row lists exactly the tiles the generic rule allows (how the reference decides upgrades)."""
    counts = manifest["counts"]
    for src in counts:
        s = tile_geometry(src, manifest, catalogue)
        want = []
        for dst in counts:
            d = tile_geometry(dst, manifest, catalogue)
            if d["color"] not in COLORS[COLORS.index(s["color"]) + 1:][:1]:
                continue
            if (s.get("label"), len(s.get("cities", [])), len(s.get("towns", []))) != (
                d.get("label"), len(d.get("cities", [])), len(d.get("towns", []))
            ):
                continue
            if any(keeps_track([tuple(p) for p in s["paths"]], d, r) for r in range(6)):
                want.append(dst)
        assert manifest["upgrades"][src] == want, src


def test_map_hexes(mapdata, hexes):
    assert mapdata["layout"] == "pointy" and mapdata["parity"] == 1
    offsets = mapdata["neighbour_offsets"]
    assert offsets == {"0": [-1, 1], "1": [-2, 0], "2": [-1, -1], "3": [1, -1], "4": [2, 0], "5": [1, 1]}
    assert len(hexes) == 94
    for coord, h in hexes.items():
        x, y = hex_xy(coord)
        assert (x + y) % 2 == mapdata["parity"], f"{coord} is off the 18Texas hex grid"
        assert h["color"] in {"white", "yellow", "red", "gray"}, coord
        check_geometry(f"hex {coord}", h)
        for ep in {ep for path in h["paths"] for ep in path if ep.startswith("e")}:
            nb = neighbour(coord, int(ep[1]), offsets)
            assert nb in hexes, f"{coord} track leaves the map at {ep}"
            back = f"e{(int(ep[1]) + 3) % 6}"
            if hexes[nb]["color"] in ("red", "gray"):
                assert any(back in p for p in hexes[nb]["paths"]), f"{coord}:{ep} meets a blank side of {nb}"
        for t in h.get("terrain", []):
            assert t["type"] in ("water", "desert") and t["cost"] in (40, 60), coord  # section 3
    colours = {}
    for h in hexes.values():
        colours[h["color"]] = colours.get(h["color"], 0) + 1
    assert colours == {"white": 83, "yellow": 2, "red": 6, "gray": 3}
    by_name = {h.get("location"): c for c, h in hexes.items() if h.get("location")}
    assert by_name["Fort Worth & Dallas"] == "D9" and by_name["Houston"] == "I14" and by_name["Galveston"] == "J15"
    assert by_name["San Antonio"] == "J5"  # section 5 (NOPR) / 12.3
    for tan in ("Piedras Negras", "Galveston", "Corpus Christi"):  # 12.3: no stations there
        h = hexes[by_name[tan]]
        assert h["color"] == "gray" and h["tan"] and h["no_tokens"] and not h.get("cities"), tan
        assert set(h["towns"][0]["revenue"]) == set(COLORS)
        assert by_name[tan] in mapdata["no_token_hexes"]
    for red in (c for c, h in hexes.items() if h["color"] == "red"):
        rev = hexes[red]["offboards"][0]["revenue"]
        assert rev["yellow"] == rev["green"] < rev["brown"] == rev["gray"], red  # 9: lower in 2-4, higher in 5-8
    for y in ("D9", "I14", "H7", "J5"):
        assert hexes[y]["label"] == "Y", y
    assert len(hexes["D9"]["cities"]) == 2  # 12.1: the two D/FW cities are separate
    assert ["c0", "c1"] in hexes["D9"]["paths"]
    blocked = {b["hex"]: b["company"] for b in mapdata["blocked_hexes"]}
    assert blocked == {"J13": "BBBCRC", "D13": "IGN", "E12": "IGN"}  # section 5 (+ REF for I&GN)
    assert all(hexes[h]["color"] == "white" and not hexes[h].get("cities") for h in blocked)


def test_corporations(hexes):
    comp = load("companies.json")
    corps = comp["corporations"]
    assert [c["sym"] for c in corps] == CORPORATION_ORDER  # the Jay Gould draw indexes this order
    fees = {c["sym"]: (c["tokens"], c["token_fee"]) for c in corps}
    # section 6 table: stations and token fee
    assert fees == {"T&P": (5, 140), "SP": (5, 140), "MKT": (4, 100), "MP": (4, 100), "SSW": (3, 60), "SAA": (3, 60)}
    for c in corps:
        h = hexes[c["home"]["hex"]]
        assert c["home"]["city"] < len(h.get("cities", [])), c["sym"]
        assert {"corporation": c["sym"], "city": c["home"]["city"]} in h["home"]
        assert c["token_costs"] == [0] * c["tokens"]  # 12.3: placement is free
    assert sum(c["tokens"] for c in corps) + 2 * len(corps) == 36  # section 1: 36 company tokens
    homes = [(h, r["corporation"]) for h, x in hexes.items() for r in x.get("home", [])]
    assert len(homes) == 6


def test_corporation_names_match_rulebook():
    text = rulebook_text()
    table = dict(re.findall(r"^([A-Z][^\t\n]+)\t(\w+)\t\d\t\$\d+$", text, re.M))
    names = [c["name"] for c in load("companies.json")["corporations"]]
    assert sorted(names) == sorted(table), (names, table)


def test_privates():
    comp = load("companies.json")
    privates = comp["privates"]
    got = [(p["number"], p["sym"], p["value"], p["revenue"], p["min_players"]) for p in privates]
    assert got == [  # section 5
        (1, "BBBCRC", 50, 10, 3),
        (2, "GRRRC", 80, 20, 3),
        (3, "JG", 200, 5, 3),
        (4, "IGN", 210, 30, 4),
        (5, "NOPR", 240, 40, 5),
    ]
    text = rulebook_text()
    for p in privates:
        assert f"P{p['number']} {p['name']}. Cost ${p['value']}, Revenue ${p['revenue']}." in text, p["sym"]
        assert p["buyable_by_corporation"] is False
        assert p["closes"] == "start of phase 5"


def test_market():
    mk = load("market.json")
    rows = mk["rows"]
    assert [len(r) for r in rows] == [17, 14, 11, 8, 6, 5, 4]
    pars = sorted(c["price"] for r in rows for c in r if c.get("par"))
    assert pars == mk["par_values"] == [70, 75, 82, 90, 100]  # section 4: five pink areas
    for price, (r, c) in mk["par_cells"].items():
        assert rows[r][c]["price"] == int(price) and rows[r][c].get("par")
    for r, row in enumerate(rows):
        for left, right in zip(row, row[1:]):
            assert left["price"] < right["price"]
        for c, cell in enumerate(row):
            if r + 1 < len(rows) and c < len(rows[r + 1]):
                assert rows[r + 1][c]["price"] < cell["price"]
                assert not cell.get("ledge")
            else:
                assert cell.get("ledge"), (r, c)
            assert not cell.get("yellow")
    assert rows[0][-1]["price"] == 400


def test_trains_and_phases():
    tr = {t["name"]: t for t in load("trains.json")["trains"]}
    assert list(tr) == ["2", "3", "4", "5", "6", "8"]
    counts = {n: t["count"] for n, t in tr.items()}
    assert counts == {"2": 5, "3": 4, "4": 3, "5": 2, "6": 2, "8": 4}  # 12.6 table
    assert sum(counts.values()) == 20  # section 1: 20 train cards
    assert {n: t["price"] for n, t in tr.items()} == {"2": 100, "3": 200, "4": 300, "5": 500, "6": 600, "8": 800}
    assert {n: t.get("rusts_on") for n, t in tr.items()} == {"2": "4", "3": "6", "4": "8", "5": None, "6": None, "8": None}
    for n, t in tr.items():
        assert t["distance"] == {"all_stops": int(n)} and t["counts_towns"] is True
        assert t["permanent"] is (t.get("rusts_on") is None)
    ph = load("phases.json")
    phases = ph["phases"]
    assert [p["name"] for p in phases] == ["2", "3", "4", "5", "6", "8"]
    assert [p["train_limit"] for p in phases] == [4, 4, 3, 2, 2, 2]  # section 9
    assert [p["tiles"][-1] for p in phases] == ["yellow", "green", "green", "brown", "brown", "gray"]
    assert [p["operating_rounds"] for p in phases] == [1, 2, 2, 3, 3, 3]  # sections 8, 9
    assert ph["ors_per_set"] == {p["name"]: p["operating_rounds"] for p in phases}
    assert [p["offboard_value"] for p in phases] == ["yellow"] * 3 + ["brown"] * 3
    for p in phases[1:]:
        assert p["trigger"] == f"purchase of the first {p['name']}-train" and p["name"] in tr
    assert any("private companies close" in e for e in phases[3]["events"])
    for rusting, phase in (("2", "4"), ("3", "6"), ("4", "8")):
        assert any(f"{rusting}-trains rust" in e for e in next(p for p in phases if p["name"] == phase)["events"])


def test_game():
    g = load("game.json")
    assert g["players"] == {"min": 3, "max": 5}
    assert g["starting_cash"] == {"3": 500, "4": 430, "5": 400}  # section 7
    assert g["cert_limit"] == {"3": 15, "4": 12, "5": 10}  # 11.1
    assert g["bank"]["cash"] == 8000 and g["bank"]["breaks_game"] is True  # sections 1, 13
    lim = g["share_limits"]
    assert (lim["max_ownership_percent"], lim["market_pool_max_percent"], lim["float_percent"]) == (60, 50, 50)
    assert lim["treasury_max_percent_after_redeem"] == 50
    assert g["capitalization"]["type"] == "incremental"
    assert g["par_values"] == load("market.json")["par_values"]
    assert g["operating_round"]["dividends"]["kinds"] == ["payout", "half", "withhold"]
    assert g["game_end"]["after_or"] is None and g["game_end"]["reason"] == "bank"
    assert g["ors_per_set"] == load("phases.json")["ors_per_set"]
    assert g["train_limit"] == load("trains.json")["train_limit"]


def test_rules_keys():
    rules = load("rules.json")
    ms = json.loads((REPO / "src" / "railledger" / "replay" / "titles" / "g18ms" / "rules.json").read_text(encoding="utf-8"))["rules"]
    assert set(ms) == (set(rules["rules"]) & set(ms)) | set(rules["not_applicable"])
    assert not set(rules["rules"]) & set(rules["not_applicable"])
    text = rulebook_text()
    sections = set(re.findall(r"^(\d+(?:\.\d+)?)\. ", text, re.M)) | set(re.findall(r"^(\d+\.\d+) ", text, re.M))
    for key, entry in rules["rules"].items():
        assert entry["section"] in sections, (key, entry["section"])
        assert entry["text"], key


# ---------------------------------------------------------------- Jay Gould draw

RAND_A, RAND_C, RAND_M = 1_103_515_245, 12_345, 2**31


def jay_gould_company(seed: int) -> str:
    state = (RAND_A * (seed % RAND_M) + RAND_C) % RAND_M
    return CORPORATION_ORDER[state % len(CORPORATION_ORDER)]


def record_seed(game: dict) -> int:
    seed = (game.get("settings") or {}).get("seed")
    if seed not in (None, ""):
        return int(seed)
    digits = re.findall(r"\d+", str(game["id"]))
    return int(digits[0]) if digits else 0


def test_jay_gould_documented_checks():
    jg = load("companies.json")["jay_gould"]["reference_draw"]
    assert jg["order"] == CORPORATION_ORDER
    assert jay_gould_company(65394) == "MP"
    assert jay_gould_company(1641188459) == "T&P"


# ---------------------------------------------------------------- fixtures


def fixture_files() -> list[Path]:
    env = os.environ.get("RAILLEDGER_FIXTURES")
    base = Path(env) if env else REPO.parent / "shared" / "fixtures"
    d = base / "18Texas"
    if d.is_dir() and any(d.glob("*.json")):
        return sorted(d.glob("*.json"))
    pytest.skip(f"18Texas fixtures not found in {d} (set RAILLEDGER_FIXTURES to the folder holding 18Texas/)")


def all_actions(game: dict):
    for a in game["actions"]:
        yield a
        for auto in a.get("auto_actions") or []:
            yield auto


@pytest.fixture(scope="module")
def games() -> list[tuple[str, dict]]:
    return [(f.name, json.loads(f.read_text(encoding="utf-8"))) for f in fixture_files()]


@pytest.mark.fixtures
def test_fixture_ids_exist_in_data(games, manifest, hexes):
    counts = manifest["counts"]
    trains = {t["name"]: t for t in load("trains.json")["trains"]}
    train_ids = {f"{n}-{i}" for n, t in trains.items() for i in range(t["count"])}
    comp = load("companies.json")
    corps = {c["sym"] for c in comp["corporations"]}
    privates = {p["sym"]: p for p in comp["privates"]}
    rows = load("market.json")["rows"]
    for name, game in games:
        assert game["title"] == "18Texas"
        n_players = len(game["players"])
        assert 3 <= n_players <= 5
        in_play = {s for s, p in privates.items() if p["min_players"] <= n_players}
        for a in all_actions(game):
            t, where = a["type"], f"{name}#{a.get('id')}"
            ent = a.get("entity")
            if a.get("entity_type") == "corporation":
                assert ent in corps, where
            if a.get("entity_type") == "company":
                assert ent in in_play, where
            if t == "lay_tile":
                tile, _, copy = a["tile"].rpartition("-")
                assert tile in counts and int(copy) < counts[tile], where
                assert a["hex"] in hexes and a["rotation"] in range(6), where
            elif t == "place_token":
                check_city_id(a["city"], hexes, counts, where)
                if "tokener" in a:
                    assert a["tokener"] in corps, where
            elif t == "buy_train":
                assert a["train"] in train_ids, where
                if "variant" in a:
                    assert a["variant"] in trains and a["train"].startswith(a["variant"] + "-"), where
            elif t == "par":
                assert a["corporation"] in corps, where
                price, r, c = (int(x) for x in a["share_price"].split(","))
                cell = rows[r][c]
                assert cell["price"] == price and cell.get("par"), where
            elif t in ("buy_shares", "sell_shares"):
                for s in a["shares"]:
                    sym, _, idx = s.rpartition("_")
                    assert sym in corps and 0 <= int(idx) <= 8, where
                    if a.get("entity_type") == "corporation":  # issue / redeem: own shares only (12.7)
                        assert sym == ent, where
            elif t == "bid":
                p = privates[a["company"]]
                assert a["company"] in in_play, where
                assert a["price"] >= p["value"] and a["price"] % 5 == 0, where  # section 10
            elif t == "dividend":
                assert a["kind"] in ("payout", "half", "withhold"), where
            elif t == "run_routes":
                for route in a["routes"]:
                    assert route["train"] in train_ids, where
                    for h in route.get("hexes", []):
                        assert h in hexes, where
                    for conn in route.get("connections", []):
                        for h in conn:
                            assert h in hexes, where


@pytest.mark.fixtures
def test_fixture_routes_step_between_neighbours(games, mapdata, hexes):
    """Consecutive hexes of every run_routes connection are neighbours under map.json's pointy offsets."""
    offsets = mapdata["neighbour_offsets"]
    steps = 0
    for name, game in games:
        for a in all_actions(game):
            if a["type"] != "run_routes":
                continue
            for route in a["routes"]:
                for conn in route.get("connections", []):
                    for h1, h2 in zip(conn, conn[1:]):
                        assert shared_edge(h1, h2, offsets) is not None, (name, a.get("id"), h1, h2)
                        steps += 1
    assert steps > 50


@pytest.mark.fixtures
def test_fixture_jay_gould(games):
    """The reference draw (companies.json jay_gould) picks the company the JG winner pars, and the
    I&GN / NOPR winners hold its certificates _1 / _2."""
    for name, game in games:
        jg = jay_gould_company(record_seed(game))
        winners = {a["company"]: a["entity"] for a in game["actions"] if a["type"] == "bid"}
        first_par = next(a for a in game["actions"] if a["type"] == "par")
        assert (first_par["entity"], first_par["corporation"]) == (winners["JG"], jg), name
        for sym, share in (("IGN", f"{jg}_1"), ("NOPR", f"{jg}_2")):
            if sym not in winners:
                continue
            bought = {s for a in all_actions(game) if a["type"] == "buy_shares" for s in a["shares"]}
            sold_by = [a["entity"] for a in all_actions(game) if a["type"] == "sell_shares" and share in a["shares"]]
            assert share not in bought or sold_by, (name, share)
            if sold_by:  # the first seller of that certificate must be its original holder
                assert sold_by[0] == winners[sym], (name, share)


@pytest.mark.fixtures
def test_fixture_tile_lays_follow_manifest_and_chart(games, manifest, catalogue, mapdata, hexes):
    """Replay just the tiles: supply, phase colours (from first train purchases), the upgrade chart,
    Y labels, kept track at the recorded rotation, and exits onto the map (not into blank red/gray sides)."""
    counts = manifest["counts"]
    chart = manifest["upgrades"]
    offsets = mapdata["neighbour_offsets"]
    phases = {p["name"]: p for p in load("phases.json")["phases"]}
    blocked = {b["hex"]: b["company"] for b in mapdata["blocked_hexes"]}
    for name, game in games:
        board = {h: (None, [tuple(p) for p in x["paths"]]) for h, x in hexes.items()}  # hex -> (tile id, paths)
        on_board: dict[str, str] = {}
        phase = "2"
        privates_open = True
        for a in all_actions(game):
            where = f"{name}#{a.get('id')}"
            if a["type"] == "buy_train" and a["train"].rsplit("-", 1)[0] in phases:
                kind = a["train"].rsplit("-", 1)[0]
                if int(kind) > int(phase):
                    phase = kind
                    privates_open = privates_open and int(phase) < 5
            if a["type"] != "lay_tile":
                continue
            tile_id, hex_id, rot = a["tile"], a["hex"], a["rotation"]
            tile = tile_id.rsplit("-", 1)[0]
            geo = tile_geometry(tile, manifest, catalogue)
            spec = hexes[hex_id]
            assert spec["color"] in ("white", "yellow"), where  # 12.2: no tiles on red or tan hexes
            assert tile_id not in on_board, f"{where}: {tile_id} is already on {on_board.get(tile_id)}"
            assert geo["color"] in phases[phase]["tiles"], f"{where}: {geo['color']} tile in phase {phase}"
            if privates_open and hex_id in blocked:
                assert a.get("entity") == blocked[hex_id] == "IGN", f"{where}: {hex_id} is blocked by {blocked[hex_id]}"
            old_tile, old_paths = board[hex_id]
            if old_tile is None and spec["color"] == "white":
                if a.get("entity") == "NOPR" and tile == "511":
                    assert hex_id == "J5", where  # section 5: NOPR may build the empty J5 straight to 511
                else:
                    assert geo["color"] == "yellow", where
                    for key in ("cities", "towns"):
                        assert len(geo.get(key, [])) == len(spec.get(key, [])), (where, key)
                    assert geo.get("label") == spec.get("label"), where
            elif old_tile is None:  # the printed yellow Y hexes D9 and I14
                assert tile in manifest["printed_hex_upgrades"][hex_id], where
            else:
                assert tile in chart[old_tile.rsplit("-", 1)[0]], f"{where}: {old_tile} -> {tile} not in the chart"
            assert keeps_track(old_paths, geo, rot), f"{where}: {tile} at rotation {rot} loses track of {hex_id}"
            new_paths = turned(geo, rot)
            for e in connectivity(new_paths)[0]:
                nb = neighbour(hex_id, e, offsets)
                assert nb in hexes, f"{where}: {tile} on {hex_id} runs off the map at e{e}"
                if hexes[nb]["color"] in ("red", "gray"):
                    back = f"e{(e + 3) % 6}"
                    assert any(back in p for p in hexes[nb]["paths"]), f"{where}: {tile} runs into a blank side of {nb}"
            if old_tile is not None:
                del on_board[old_tile]
            on_board[tile_id] = hex_id
            board[hex_id] = (tile_id, new_paths)
            in_use = sum(1 for t in on_board if t.rsplit("-", 1)[0] == tile)
            assert in_use <= counts[tile], where


def test_map_versions(mapdata, hexes):
    """Hexes that changed in the reference on 2024-11-15 keep their older form for older records."""
    key = mapdata["map_versions"]["key"]
    changed = {h for h, x in hexes.items() if key in x}
    assert changed == {"M8", "H5", "H19"}
    assert hexes["M8"][key]["towns"][0]["revenue"] == {"yellow": 20, "green": 20, "brown": 40, "gray": 40}
    offsets = mapdata["neighbour_offsets"]
    for h in changed:
        old = {**hexes[h], **hexes[h][key]}
        check_geometry(f"{h} before 2024-11-15", old)
        for path in old["paths"]:
            for ep in path:
                if ep.startswith("e"):
                    assert neighbour(h, int(ep[1]), offsets) in hexes, (h, ep)


def record_is_old(game: dict) -> bool:
    """Created before the reference's 2024-11-15 map update (1731628800 = 2024-11-15 00:00 UTC)."""
    created = game.get("created_at")
    if isinstance(created, str):
        return created < "2024-11-15"
    return created is None or created < 1_731_628_800


@pytest.mark.fixtures
def test_fixture_route_revenues_match_map_and_tiles(games, manifest, catalogue, mapdata, hexes):
    """Every declared route revenue equals the sum of its stops' values: tiles as laid so far, printed
    hexes (red off-boards and tan hexes by phase colour), with the map version of the record's date."""
    phases = {p["name"]: p for p in load("phases.json")["phases"]}
    key = mapdata["map_versions"]["key"]
    checked = 0
    for name, game in games:
        printed = {h: ({**x, **x[key]} if key in x and record_is_old(game) else x) for h, x in hexes.items()}
        tile_on: dict[str, str] = {}
        phase = "2"
        for a in all_actions(game):
            if a["type"] == "buy_train" and int(a["train"].rsplit("-", 1)[0]) > int(phase):
                phase = a["train"].rsplit("-", 1)[0]
            elif a["type"] == "lay_tile":
                tile_on[a["hex"]] = a["tile"].rsplit("-", 1)[0]
            elif a["type"] == "run_routes":
                colour = phases[phase]["tiles"][-1]
                for route in a["routes"]:
                    totals = {0}
                    seen: dict[str, int] = {}
                    for h in route["hexes"]:
                        seen[h] = seen.get(h, 0) + 1
                        if h in tile_on:
                            stops = [s["revenue"] for k in NODE_KEYS for s in tile_geometry(tile_on[h], manifest, catalogue).get(k, [])]
                        else:
                            stops = [s["revenue"] for k in NODE_KEYS for s in printed[h].get(k, [])]
                        values = {v if isinstance(v, int) else v[colour] for v in stops}
                        if len(stops) > 1 and route["hexes"].count(h) == len(stops):  # D9: both cities, once each
                            values = {sorted(v if isinstance(v, int) else v[colour] for v in stops)[seen[h] - 1]}
                        totals = {t + v for t in totals for v in values}
                    assert route["revenue"] in totals, (name, a.get("id"), route["train"], route["hexes"], totals)
                    checked += 1
    assert checked >= 80
