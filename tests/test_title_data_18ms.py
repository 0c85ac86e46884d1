"""Structural checks of the 18MS title data (replay/titles/g18ms/) and the shared tile catalogue.

Standard library only (plus pytest). The fixture test needs the shared 18xx.games records:
``$RAILLEDGER_FIXTURES/18MS/*.json`` or ``<repo>/../shared/fixtures/18MS/*.json``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from tests.title_data import CATALOGUE, COLORS, check_city_id, check_geometry, loader, node_ids, tile_geometry

REPO = Path(__file__).resolve().parents[1]
TITLE = REPO / "src" / "railledger" / "replay" / "titles" / "g18ms"
RULEBOOK = REPO.parent / "shared" / "rules" / "18MS.txt"



load = loader("g18ms")


def edge_signature(t: dict, rot: int = 0) -> set:
    """Connectivity of a tile as a set of frozensets: edge-edge track and edge->node groups."""
    sig = set()
    for a, b in t["paths"]:
        ends = []
        for ep in (a, b):
            ends.append(f"e{(int(ep[1]) + rot) % 6}" if ep.startswith("e") else ep[0])  # node kind only
        sig.add(frozenset(ends))
    return sig


def test_all_json_loads():
    for name in ["tiles.json", "map.json", "market.json", "trains.json", "phases.json", "companies.json", "game.json"]:
        load(name)
    json.loads(CATALOGUE.read_text(encoding="utf-8"))


def test_catalogue_geometry(catalogue):
    for name, t in catalogue.items():
        assert t["color"] in COLORS, name
        assert "upgrades_to" not in t or all(isinstance(x, str) for x in t["upgrades_to"])
        used = check_geometry(f"catalogue {name}", t)
        assert used == node_ids(t), f"tile {name}: every node must be on a path"


def test_manifest_tiles_exist(manifest, catalogue):
    for name, count in manifest["counts"].items():
        assert isinstance(count, int) and count > 0, name
        assert name in manifest["title_tiles"] or name in catalogue, f"tile {name} has no geometry"
    for name, t in manifest["title_tiles"].items():
        assert name in manifest["counts"], name
        assert t["color"] in COLORS
        check_geometry(f"title tile {name}", t)
    assert sum(manifest["counts"].values()) == manifest["total"] == 93  # rulebook section 1: 93 tiles


def test_manifest_upgrades_are_geometrically_valid(manifest, catalogue):
    counts = manifest["counts"]
    for src, targets in manifest["upgrades"].items():
        assert src in counts, src
        s = tile_geometry(src, manifest, catalogue)
        for dst in targets:
            assert dst in counts, (src, dst)
            d = tile_geometry(dst, manifest, catalogue)
            assert COLORS.index(d["color"]) == COLORS.index(s["color"]) + 1, (src, dst)
            assert len(s.get("cities", [])) == len(d.get("cities", [])), (src, dst)
            assert len(s.get("towns", [])) == len(d.get("towns", [])), (src, dst)
            dsig = edge_signature(d)
            assert any(edge_signature(s, r) <= dsig for r in range(6)), f"{src} -> {dst} loses track"


def rulebook_text() -> str:
    if not RULEBOOK.exists():
        pytest.skip(f"rulebook not found at {RULEBOOK}")
    return RULEBOOK.read_text(encoding="utf-8")


def test_manifest_matches_rulebook_table(manifest):
    rows = re.findall(r"^\| (\w+) \| (Yellow|Green|Brown|Gray) \| (\d+) \| ([^|]*)\|", rulebook_text(), re.M)
    assert len(rows) >= 26
    for name, color, qty, ups in rows:
        assert manifest["counts"][name] == int(qty), name
        want = [] if ups.strip() == "None" else [u.split()[0] for u in ups.split(",")]
        want = ["X31b" if u == "X31" else u for u in want]
        assert manifest["upgrades"][name] == want, name


def neighbour(coord: str, edge: int, offsets: dict) -> str | None:
    m = re.fullmatch(r"([A-Z])(\d+)", coord)
    x, y = int(m.group(2)) - 1, ord(m.group(1)) - ord("A")
    dx, dy = offsets[str(edge)]
    nx, ny = x + dx, y + dy
    if nx < 0 or ny < 0:
        return None
    return f"{chr(ord('A') + ny)}{nx + 1}"


def test_map_hexes(hexes):
    m = load("map.json")
    assert m["layout"] == "pointy"
    offsets = m["neighbour_offsets"]
    for coord, h in hexes.items():
        mm = re.fullmatch(r"([A-Z])(\d+)", coord)
        assert mm, coord
        assert (int(mm.group(2)) - 1 + ord(mm.group(1)) - ord("A")) % 2 == 0, f"{coord} off the hex grid"
        assert h["color"] in {"white", "yellow", "green", "brown", "gray", "red", "blue", "empty"}, coord
        check_geometry(f"hex {coord}", h)
        for path in h["paths"]:
            for ep in path:
                if ep.startswith("e"):
                    nb = neighbour(coord, int(ep[1]), offsets)
                    assert nb in hexes and hexes[nb]["color"] != "empty", f"{coord} track leaves the map at {ep}"
                    back = f"e{(int(ep[1]) + 3) % 6}"
                    if hexes[nb]["color"] in ("red", "gray"):
                        assert any(back in p for p in hexes[nb]["paths"]), f"{coord}:{ep} meets a blank side of {nb}"
    names = {h.get("location") for h in hexes.values()}
    for city in ["Memphis", "Jackson", "Mobile", "Birmingham", "Montgomery", "New Orleans", "Chattanooga", "Atlanta", "Tallahassee"]:
        assert city in names, city
    assert hexes["E1"]["no_tiles"] is True and hexes["E1"]["cities"][0]["slots"] == 2  # 5, 11.4.1
    assert sum(1 for h in hexes.values() if h["color"] == "white") == 36  # reference map.rb: 36 buildable hexes


def test_corporation_homes(hexes):
    comp = load("companies.json")
    syms = [c["sym"] for c in comp["corporations"]]
    assert syms == ["GMO", "IC", "L&N", "Fr", "WRA"]
    for c in comp["corporations"]:
        h = hexes[c["home"]["hex"]]
        assert c["home"]["city"] < len(h.get("cities", [])), c["sym"]
        assert {"corporation": c["sym"], "city": c["home"]["city"]} in h["home"]
        assert c["tokens"] == len(c["token_costs"])
        assert c["token_costs"][:3] == [0, 40, 100]
    tokens = {c["sym"]: c["tokens"] for c in comp["corporations"]}
    assert tokens == {"GMO": 4, "IC": 3, "L&N": 3, "Fr": 3, "WRA": 3}  # section 1: 3 station markers, 4 for GM&O


def test_privates_match_rulebook():
    privates = load("companies.json")["privates"]
    got = [(p["number"], p["name"], p["value"], p["revenue"]) for p in privates]
    assert got == [
        (1, "Alabama Great Southern Railroad", 30, 15),
        (2, "Birmingham Southern Railroad", 40, 10),
        (3, "Meridian & Memphis Railway", 50, 15),
        (4, "Mississippi Central Railway", 60, 5),
        (5, "Mobile and Ohio Railway", 70, 5),
    ]
    assert [p["sym"] for p in privates] == ["AGS", "BS", "M&M", "MC", "M&O"]


def test_market():
    mk = load("market.json")
    rows = mk["rows"]
    pars = sorted(c["price"] for r in rows for c in r if c.get("par"))
    assert pars == [70, 75, 80, 90]  # 10.3
    assert mk["par_values"] == [70, 75, 80, 90]
    for price, (r, c) in mk["par_cells"].items():
        assert rows[r][c]["price"] == int(price) and rows[r][c].get("par")
    for r in rows:
        ylw = [bool(c.get("yellow")) for c in r]
        assert ylw == sorted(ylw, reverse=True), "yellow zone must be the leftmost part of each row"  # section 6
        for left, right in zip(r, r[1:]):
            assert left["price"] < right["price"]
    for r in range(1, len(rows)):
        assert len(rows[r]) <= len(rows[r - 1])


def test_trains_match_rulebook():
    tr = {t["name"]: t for t in load("trains.json")["trains"]}
    table = {"2+": (4, 80, 20), "3+": (4, 180, 30), "4+": (3, 300, 60), "5": (2, 500, None),
             "6": (2, 550, None), "2D": (4, 500, None), "5D": (1, 850, None)}  # 11.8 table
    assert set(tr) == set(table)
    for name, (n, price, salvage) in table.items():
        assert (tr[name]["count"], tr[name]["price"], tr[name]["salvage"]) == (n, price, salvage), name
    assert tr["2D"]["variants"][0]["name"] == "4D" and tr["2D"]["variants"][0]["price"] == 750
    assert {n: tr[n].get("obsolete_after_or") for n in ("2+", "3+", "4+")} == {"2+": 4, "3+": 6, "4+": 8}  # 11.9
    for n in ("2D", "5D"):
        assert tr[n]["revenue_multiplier"] == 2
    for n in ("2+", "3+", "4+"):
        assert tr[n]["counts_towns"] is False
    for n in ("5", "6", "2D", "5D"):
        assert tr[n]["counts_towns"] is True


def test_phases_and_game():
    ph = load("phases.json")
    assert [p["name"] for p in ph["phases"]] == ["2", "3", "6", "D"]
    assert [p["tiles"][-1] for p in ph["phases"]] == COLORS
    assert all(p["train_limit"] == 3 for p in ph["phases"])
    ors = [r["round"] for r in ph["round_of_play"] if r["round"].startswith("OR")]
    assert ors == [f"OR {i}" for i in range(1, 11)]
    g = load("game.json")
    assert g["starting_cash"] == {"2": 900, "3": 625, "4": 525}  # 3
    assert g["cert_limit"] == {"2": 20, "3": 14, "4": 10}  # 10.4
    assert g["share_limits"]["max_ownership_percent"] == 70
    assert g["share_limits"]["float_percent"] == 60
    assert g["game_end"]["after_or"] == 10


# ---------------------------------------------------------------- fixtures


def fixture_dir() -> Path | None:
    env = os.environ.get("RAILLEDGER_FIXTURES")
    candidates = [Path(env)] if env else []
    candidates.append(REPO.parent / "shared" / "fixtures")
    for base in candidates:
        for d in (base / "18MS", base):
            if d.is_dir() and any(d.glob("*.json")) and d.name == "18MS":
                return d
    return None


@pytest.mark.fixtures
def test_fixture_ids_exist_in_data(manifest, catalogue, hexes):
    d = fixture_dir()
    if d is None:
        pytest.skip("18MS fixtures not found (set RAILLEDGER_FIXTURES or provide ../shared/fixtures/18MS)")
    counts = manifest["counts"]
    trains = {t["name"]: t for t in load("trains.json")["trains"]}
    train_ids = {f"{n}-{i}" for n, t in trains.items() for i in range(t["count"])} | {trains["2+"]["extra_copy"]["id"]}
    variants = set(trains) | {v["name"] for t in trains.values() for v in t.get("variants", [])}
    comp = load("companies.json")
    corps = {c["sym"] for c in comp["corporations"]}
    privates = {p["sym"]: p for p in comp["privates"]}
    mk = load("market.json")
    offsets = load("map.json")["neighbour_offsets"]
    files = sorted(d.glob("*.json"))
    assert files
    for f in files:
        game = json.loads(f.read_text(encoding="utf-8"))
        assert game["title"] == "18MS"
        assert 2 <= len(game["players"]) <= 4
        for a in game["actions"]:
            t, where = a["type"], f"{f.name}#{a.get('id')}"
            ent = a.get("entity")
            if a.get("entity_type") == "corporation":
                assert ent in corps, where
            if a.get("entity_type") == "company":
                assert ent in privates, where
            if t == "lay_tile":
                name, _, copy = a["tile"].rpartition("-")
                assert name in counts and int(copy) < counts[name], where
                base = hexes[a["hex"]]
                assert base["color"] == "white", where
                geo = tile_geometry(name, manifest, catalogue)
                for key in ("cities", "towns"):  # 11.4.2: city tiles only on cities, towns on towns, plain track elsewhere
                    assert len(geo.get(key, [])) == len(base.get(key, [])), (where, key)
                if "only_hexes" in geo:
                    assert a["hex"] in geo["only_hexes"], where
                assert a["rotation"] in range(6), where
            elif t == "place_token":
                check_city_id(a["city"], hexes, counts, where)
            elif t == "buy_train":
                assert a["train"] in train_ids, where
                if "variant" in a:
                    assert a["variant"] in variants, where
            elif t in ("par",):
                assert a["corporation"] in corps, where
                price, r, c = (int(x) for x in a["share_price"].split(","))
                cell = mk["rows"][r][c]
                assert cell["price"] == price and cell.get("par"), where
            elif t in ("buy_shares", "sell_shares"):
                for s in a["shares"]:
                    sym, _, idx = s.rpartition("_")
                    assert sym in corps and 0 <= int(idx) <= 8, where
            elif t in ("bid", "buy_company"):
                p = privates[a["company"]]
                if t == "bid":
                    assert a["price"] == p["value"], where
                else:
                    assert p["value"] // 2 <= a["price"] <= p["value"] * 3 // 2, where
            elif t == "run_routes":
                for route in a["routes"]:
                    assert route["train"] in train_ids, where
                    for conn in route.get("connections", []):
                        for h in conn:
                            assert h in hexes, where
                        for h1, h2 in zip(conn, conn[1:]):
                            assert any(neighbour(h1, e, offsets) == h2 for e in range(6)), (where, h1, h2)
