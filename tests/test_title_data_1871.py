"""Structural checks of The Old Prince 1871 title data (replay/titles/g1871/) and its catalogue tiles.

Standard library only (plus pytest). Fixture tests need the shared 18xx.games records
``$RAILLEDGER_FIXTURES/1871/*.json`` or ``<repo>/../shared/fixtures/1871/*.json`` and are skipped
with a message when absent.

1871 is a FLAT map: a hex id is a column LETTER and a row NUMBER, doubled coordinates x = letter
index, y = number - 1 (x + y even), and edge e leads to offset map.json ``neighbour_offsets[e]``
(0 S (0,+2), 1 SW (-1,+1), 2 NW (-1,-1), 3 N (0,-2), 4 NE (+1,-1), 5 SE (+1,+1)). The data's offsets
are checked against replay/hexgrid.py's flat grid, whose neighbour maths these tests then use.
"""

from __future__ import annotations

import importlib
import json
import os
import re
from pathlib import Path

import pytest
from railledger.replay.hexgrid import FLAT_OFFSETS, coordinates, neighbour, shared_edge
from tests.title_data import COLORS, check_city_id, check_geometry, loader, tile_geometry

REPO = Path(__file__).resolve().parents[1]
TITLE = REPO / "src" / "railledger" / "replay" / "titles" / "g1871"
RULEBOOK = REPO.parent / "shared" / "rules" / "1871-the-old-prince.txt"

ORDER = ["white", *COLORS]
PEIR_COMPANIES = ["So", "A", "MS", "MR", "S", "Gt", "C"]  # REF CORPORATIONS order (the setup draw indexes it)
BRANCHES = ["CB", "SB", "MB", "BB", "WB", "HRB"]
AUCTION_ORDER = ["MC", "VR", "IB", "RA", "RF", "SB", "HSE", "ML", "SBC", "SL", "UB"]
DATA_FILES = ["tiles.json", "map.json", "market.json", "trains.json", "phases.json", "companies.json", "game.json", "rules.json"]


load = loader("g1871")


def turned(paths, rot: int) -> list[tuple[str, str]]:
    def turn(ep: str) -> str:
        return f"e{(int(ep[1:]) + rot) % 6}" if ep.startswith("e") else ep

    return [(turn(a), turn(b)) for a, b in paths]


def connectivity(paths):
    edges, links, node_edges = set(), set(), {}
    for a, b in paths:
        es = [int(p[1:]) for p in (a, b) if p.startswith("e")]
        edges.update(es)
        if len(es) == 2:
            links.add(frozenset(es))
        elif len(es) == 1:
            node_edges.setdefault(b if a.startswith("e") else a, set()).add(es[0])
    return edges, links, node_edges


def keeps_track(old_paths, new_paths) -> bool:
    o_edges, o_links, o_nodes = connectivity(old_paths)
    n_edges, n_links, n_nodes = connectivity(new_paths)
    if not (o_edges <= n_edges and o_links <= n_links):
        return False
    return all(any(es <= n_nodes[n] for n in n_nodes if n[0] == node[0]) for node, es in o_nodes.items())


# ---------------------------------------------------------------- data-only tests


def test_all_json_loads_and_notes_say_what_was_decided():
    for name in DATA_FILES:
        data = load(name)
        assert "_comment" in data, name
    assert (TITLE / "README.md").exists() and (TITLE / "notes.md").exists()
    assert "Engine decisions" in (TITLE / "notes.md").read_text(encoding="utf-8")


def test_catalogue_has_every_manifest_tile(manifest, catalogue):
    for name, count in manifest["counts"].items():
        assert isinstance(count, int) and count >= 1, name
        t = tile_geometry(name, manifest, catalogue)
        assert t["color"] in COLORS, name
        check_geometry(name, t)
    assert manifest["total"] == sum(manifest["counts"].values())
    for name in manifest["title_tiles"]:
        assert name.startswith("PEI") and name in manifest["counts"], name
    # the PEI tiles as stated in REF tiles.rb
    tt = manifest["title_tiles"]
    assert [tt[f"PEI{i}"]["color"] for i in range(1, 17)] == ["green"] * 8 + ["brown"] * 6 + ["gray"] * 2
    assert tt["PEI15"]["label"] == "CX" and tt["PEI15"]["cities"] == [{"slots": 3, "revenue": 80}]
    assert tt["PEI14"]["cities"] == [{"slots": 3, "revenue": 50}]


def test_upgrades_are_geometrically_valid(manifest, catalogue):
    for table in [manifest["upgrades"], *manifest["label_upgrades"].values()]:
        for frm, tos in table.items():
            a = tile_geometry(frm, manifest, catalogue)
            for to in tos:
                b = tile_geometry(to, manifest, catalogue)
                assert ORDER.index(b["color"]) == ORDER.index(a["color"]) + 1, (frm, to)
                for key in ("cities", "towns"):
                    assert len(a.get(key, [])) == len(b.get(key, [])), (frm, to)
                assert any(keeps_track(a["paths"], turned(b["paths"], r)) for r in range(6)), (frm, to)
    assert manifest["upgrades"]["PEI14"] == ["PEI16"]  # X brown -> X gray; CX only via L16's future label
    assert manifest["label_upgrades"]["CX"]["PEI14"] == ["PEI15"]


def test_map_hexes(mapdata, hexes):
    assert mapdata["layout"] == "flat" and mapdata["parity"] == 0
    offs = mapdata["neighbour_offsets"]
    assert {int(e): tuple(o) for e, o in offs.items()} == FLAT_OFFSETS
    for e in range(6):  # opposite edges are opposite offsets
        assert [-v for v in offs[str(e)]] == offs[str((e + 3) % 6)]
    assert len(hexes) == 110
    for h, g in hexes.items():
        x, y = coordinates(h, "flat")
        assert (x + y) % 2 == 0, h
        check_geometry(h, g)
        assert g["color"] in ("white", "red", "blue", "gray", "yellow", "green"), h
        for t in g.get("terrain", []):
            assert t["type"] in ("water", "mountain") and t["cost"] in (60, 80, 120), h
        if g["color"] == "red":
            assert g.get("offboards") and not g.get("cities"), h
        # every printed track edge leads to a hex on the map
        edges = {int(p[1:]) for path in g["paths"] for p in path if p.startswith("e")}
        for e in edges:
            assert neighbour(h, e, "flat") in hexes, (h, e)
    labels = {h: g.get("label") for h, g in hexes.items() if g.get("label")}
    assert labels == {"D2": "T", "F14": "X", "L16": "X"}
    fut = {h: g["future_label"]["label"] for h, g in hexes.items() if "future_label" in g}
    assert fut == {"M13": "X", "Q21": "X", "D6": "X", "R16": "X", "T12": "X", "V12": "T", "L16": "CX"}
    assert hexes["N18"]["blocked_by"]["private"] == "VR"
    assert hexes["G11"]["location"] == "Malpeque Shipyard" and "neutral_token" in hexes["G11"]
    assert hexes["I17"]["cities"][0]["slots"] == 2 and hexes["I17"]["color"] == "gray"
    blue = sorted(h for h, g in hexes.items() if g["color"] == "blue")
    assert blue == sorted(["B2", "U15", "U17", "H8", "P24", "H10", "F18", "O25", "G9"])


def test_corporations(hexes):
    comp = load("companies.json")
    corps = comp["corporations"]
    assert [c["sym"] for c in corps] == PEIR_COMPANIES
    assert [c["number"] for c in corps] == list(range(1, 8))
    for c in corps:
        h = c["home"]["hex"]
        assert hexes[h]["cities"] and hexes[h]["home"][0]["corporation"] == c["sym"], c["sym"]
        assert c["tokens"] == 4 and c["token_costs"] == [0, 80, 80, 80]
    assert [b["sym"] for b in comp["branches"]] == BRANCHES
    assert all(b["home"] is None for b in comp["branches"])
    privates = {p["sym"]: p for p in comp["privates"]}
    assert list(privates) == AUCTION_ORDER + ["KM"]
    assert privates["IB"]["min_players"] == 4
    assert not privates["KM"]["in_auction_deck"]
    assert sum(p["value"] for p in privates.values()) == 40 * 3 + 110 + 120 + 90 + 110 + 160 + 100 + 160 + 120
    # sym collision: Shipbuilding private vs Stratford Branch
    assert "SB" in privates and "SB" in BRANCHES
    assert comp["peir"]["start_cash"] == 200 and comp["peir"]["start_company"] == "KM"


def test_market():
    m = load("market.json")
    rows = m["rows"]
    assert [len(r) for r in rows] == [15, 13, 11, 7, 6, 5, 4]
    assert rows[0][0] is None and rows[0][1] is None and rows[0][14]["price"] == 400
    assert rows[0][14]["bonus_per_share"] == 40
    assert [rows[r][1]["price"] for r in range(1, 7)] == [92, 86, 80, 74, 65, 58]
    pars = {str(c["price"]): [r, i] for r, row in enumerate(rows) for i, c in enumerate(row) if c and c.get("par")}
    assert pars == m["par_cells"] and sorted(map(int, pars), reverse=True) == m["par_values"]
    assert rows[1][1]["reserved_start"] == "mainline" and rows[2][1]["reserved_start"] == "shortline"
    for row in rows:  # prices rise to the right
        prices = [c["price"] for c in row if c]
        assert prices == sorted(prices)
    avail = m["start_prices_by_phase"]["available"]
    assert avail["2H"] == [80, 74, 65, 58] and avail["5H"] == [74, 65, 58] and avail["3+"] == [65, 58] and avail["7"] == [58]


def test_trains_and_phases():
    tr = load("trains.json")
    ph = load("phases.json")
    names = [t["name"] for t in tr["trains"]]
    assert names == ["2H", "3H", "4H", "5H", "6H", "2+", "3+", "4+", "7", "D"]
    assert [p["name"] for p in ph["phases"]] == names
    assert sum(t["count"] for t in tr["trains"] if t["count"]) + tr["trains"][-1]["physical_count"] == 34  # RB 2
    for t in tr["trains"]:
        if "rusts_on" in t:
            assert names.index(t["rusts_on"]) > names.index(t["name"]), t["name"]
        if t["name"].endswith("H"):
            assert t["distance"] == {"hex_edges": int(t["name"][0])}
    for p in ph["phases"]:
        assert tr["train_limit"][p["name"]] == p["train_limit"]
        assert ph["ors_per_set"][p["name"]] == p["operating_rounds"]
        assert p["tiles"] == COLORS[: len(p["tiles"])]
    g = load("game.json")
    assert g["starting_cash"] == {"3": 580, "4": 480} and g["cert_limit"] == {"3": 20, "4": 16}
    assert g["ors_per_set"] == ph["ors_per_set"] and g["train_limit"] == tr["train_limit"]


def test_rules_keys():
    r = load("rules.json")
    mine = set(r["rules"])
    assert not mine & set(r["not_applicable"])
    others = set()
    for t in ("g18ms", "g18texas"):
        p = REPO / "src" / "railledger" / "replay" / "titles" / t / "rules.json"
        if p.exists():
            others |= set(json.loads(p.read_text(encoding="utf-8"))["rules"])
    assert others <= mine | set(r["not_applicable"]), others - mine - set(r["not_applicable"])
    text = RULEBOOK.read_text(encoding="utf-8") if RULEBOOK.exists() else None
    for key, entry in r["rules"].items():
        assert entry["section"] and entry["text"], key
        if text is not None:
            top = entry["section"].split(".")[0]
            assert re.search(rf"^{re.escape(entry['section'])}", text, re.M) or re.search(rf"^{top}[A-Z]", text, re.M), key


# ---------------------------------------------------------------- setup draws (pure facts, no fixtures)

def setup_draws(seed: int, n_players: int) -> dict:
    """The engine's draws (replay/titles/g1871/draws.py) in the shape the documented facts use."""
    drawn = importlib.import_module("railledger.replay.titles.g1871.draws").draw(seed, None, n_players)
    return {"mainline": drawn.mainline, "shortline": drawn.shortline, "ub_share": f"{drawn.union_bank_company}_8",
            "peir": list(drawn.peir_companies), "piles": [list(p) for p in drawn.piles]}


def test_setup_draws_documented():
    doc = load("companies.json")["setup_draws"]["fixtures"]
    for name, f in doc.items():
        n = len(f["deal"])
        got = setup_draws(f["seed"], n)
        assert got["mainline"] == f["mainline"] and got["shortline"] == f["shortline"], name
        assert got["ub_share"] == f["union_bank_share"], name
        assert got["piles"] == list(f["deal"].values()), name


# ---------------------------------------------------------------- fixtures


def fixture_dir() -> Path:
    env = os.environ.get("RAILLEDGER_FIXTURES")
    return (Path(env) if env else REPO.parent / "shared" / "fixtures") / "1871"


def fixture_files() -> list[Path]:
    d = fixture_dir()
    files = sorted(d.glob("*.json")) if d.is_dir() else []
    if not files:
        pytest.skip(f"no 1871 fixtures in {d} (set RAILLEDGER_FIXTURES)")
    return files


def effective_actions(actions: list[dict]) -> list[dict]:
    """The actions left after undo/redo, as the reference applies them (base.rb filtered_actions)."""
    out: list[dict | None] = [None] * len(actions)
    undos: list[list[tuple[dict, int]]] = []
    for i, a in enumerate(actions):
        t = a["type"]
        if t == "undo":
            target = a.get("action_id")
            if target is not None:
                to = 0 if target == 0 else next(j for j, b in enumerate(actions) if b["id"] == target) + 1
            else:
                live = [j for j, b in enumerate(out) if b and b["type"] != "message"]
                to = live[-1] if live else 0
            undone = []
            for j in range(to, i):
                if out[j] and out[j]["type"] != "message":
                    undone.append((out[j], j))
                    out[j] = None
            undos.append(undone)
        elif t == "redo":
            for b, j in undos.pop():
                out[j] = b
        elif t == "message":
            out[i] = a
        else:
            undos.clear()
            out[i] = a
    return [a for a in out if a]


@pytest.fixture(scope="module")
def games() -> list[tuple[str, dict, list[dict]]]:
    return [(f.name, g, effective_actions(g["actions"])) for f in fixture_files()
            for g in [json.loads(f.read_text(encoding="utf-8"))]]


def seed_of(game: dict) -> int:
    seed = (game.get("settings") or {}).get("seed")
    if seed in (None, ""):
        seed = int(re.search(r"\d+", str(game["id"])).group())
    return int(seed)


@pytest.mark.fixtures
def test_fixture_ids_exist_in_data(games, manifest, hexes):
    counts = manifest["counts"]
    tr = load("trains.json")
    train_names = {t["name"]: t for t in tr["trains"]}
    comp = load("companies.json")
    corps = {c["sym"] for c in comp["corporations"]} | set(BRANCHES) | {"PEIR"}
    privates = {p["sym"]: p for p in comp["privates"]}
    rows = load("market.json")["rows"]
    seen = set()
    for name, game, actions in games:
        assert game["title"] == "The Old Prince 1871"
        n = len(game["players"])
        draws = setup_draws(seed_of(game), n)
        p_syms = {f"P{PEIR_COMPANIES.index(c) + 1}" for c in draws["peir"]}
        companies = {s for s, p in privates.items() if p["min_players"] <= n} | p_syms
        for a in actions:
            t, where = a["type"], f"{name}#{a['id']}"
            seen.add(t)
            if a["entity_type"] == "corporation":
                assert a["entity"] in corps, where
            if a["entity_type"] == "company":
                assert a["entity"] in companies, where
            if "company" in a:
                assert a["company"] in companies, where
            if t == "lay_tile":
                tile, _, copy = a["tile"].rpartition("-")
                assert tile in counts and int(copy) < counts[tile], where
                assert a["hex"] in hexes and a["rotation"] in range(6), where
            elif t == "place_token":
                check_city_id(a["city"], hexes, counts, where)
                assert a["tokener"] in corps, where
            elif t == "buy_train":
                tname, _, idx = a["train"].rpartition("-")
                assert tname in train_names, where
                cnt = train_names[tname]["count"]
                assert cnt is None or int(idx) < cnt, where
                if "variant" in a:
                    assert a["variant"] == tname and a["price"] == train_names[tname]["price"], where
            elif t in ("par", "choose") and ("share_price" in a or re.fullmatch(r"\d+,\d+,\d+", str(a.get("choice")))):
                sp = a.get("share_price") or a["choice"]
                price, r, c = (int(x) for x in sp.split(","))
                assert rows[r][c]["price"] == price and rows[r][c].get("par"), where
            elif t in ("buy_shares", "sell_shares"):
                for s in a["shares"]:
                    sym, _, idx = s.rpartition("_")
                    assert sym in corps and 0 <= int(idx) <= 8, where
            elif t == "split":
                assert a["corporation"] in PEIR_COMPANIES + BRANCHES, where
            elif t == "dividend":
                assert a["kind"] in (("payout", "half", "withhold") if a["entity"] == "PEIR" else ("payout", "withhold")), where
            elif t == "run_routes":
                for route in a["routes"]:
                    tname, _, idx = route["train"].rpartition("-")
                    assert tname in train_names, where
                    for h in route["hexes"]:
                        assert h in hexes, where
                    for conn in route["connections"]:
                        assert all(h in hexes for h in conn), where
                    for node in route.get("nodes", []):
                        h, i = node.rsplit("-", 1)
                        assert h in hexes and int(i) < 3, where
    assert {"offer", "bid", "pass", "par", "buy_shares", "sell_shares", "split", "choose", "lay_tile",
            "place_token", "run_routes", "dividend", "buy_train", "buy_company", "bankrupt"} <= seen


@pytest.mark.fixtures
def test_fixture_routes_step_between_neighbours(games, hexes):
    steps = 0
    for name, _, actions in games:
        for a in actions:
            if a["type"] != "run_routes":
                continue
            for route in a["routes"]:
                for conn in route["connections"]:
                    for h1, h2 in zip(conn, conn[1:]):
                        assert shared_edge(h1, h2, "flat") is not None, (name, a["id"], h1, h2)
                        steps += 1
    assert steps > 200


@pytest.mark.fixtures
def test_fixture_hex_train_lengths(games):
    """A hex train's connections cross at most N hex edges (13.2)."""
    for name, _, actions in games:
        for a in actions:
            if a["type"] != "run_routes":
                continue
            for route in a["routes"]:
                tname = route["train"].rpartition("-")[0]
                if tname.endswith("H"):
                    crossed = sum(len(c) - 1 for c in route["connections"])
                    assert crossed <= int(tname[0]), (name, a["id"], route["train"], crossed)


@pytest.mark.fixtures
def test_fixture_tile_lays_follow_manifest(games, manifest, catalogue, hexes):
    """Every lay is a listed upgrade of what the hex held and keeps its track at the given rotation."""
    printed = {h: p["tiles"] for p in manifest["printed_hex_upgrades"] for h in p["hexes"]}
    lays = 0
    for name, _, actions in games:
        board: dict[str, tuple[str, int]] = {}
        for a in actions:
            if a["type"] != "lay_tile":
                continue
            h, tile, rot = a["hex"], a["tile"].rpartition("-")[0], a["rotation"]
            new = tile_geometry(tile, manifest, catalogue)
            if h in board:
                old_name, old_rot = board[h]
                old_paths = turned(tile_geometry(old_name, manifest, catalogue)["paths"], old_rot)
                fl = hexes[h].get("future_label")
                allowed = list(manifest["upgrades"].get(old_name, []))
                if fl and fl["color"] == new["color"]:
                    allowed = manifest["label_upgrades"][fl["label"]].get(old_name, [])
            else:
                old_paths = hexes[h]["paths"]
                allowed = printed.get(h, [])
            assert tile in allowed, (name, a["id"], h, tile, allowed)
            assert keeps_track(old_paths, turned(new["paths"], rot)), (name, a["id"], h, tile, rot)
            board[h] = (tile, rot)
            lays += 1
    assert lays > 100


@pytest.mark.fixtures
def test_fixture_setup_draws(games):
    """The seeded draws reproduce each record: Mainline, Shortline, Union Bank share, PEIR shares, the deal."""
    comp = load("companies.json")
    privates = {p["sym"] for p in comp["privates"]}
    for name, game, actions in games:
        players = [p["id"] for p in game["players"]]
        d = setup_draws(seed_of(game), len(players))
        ml, sl = d["mainline"], d["shortline"]
        # the deal: each player offers only items of his pile; at most one (auto-offered) is unrecorded
        offers: dict = {p: [] for p in players}
        for a in actions:
            if a["type"] == "offer":
                offers[a["entity"]].append(a["company"])
        for i, p in enumerate(players):
            pile = d["piles"][i]
            assert set(offers[p]) <= set(pile), (name, p, offers[p], pile)
            assert len(set(pile) - set(offers[p])) <= 1, (name, p, offers[p], pile)
        assert actions[0]["type"] == "offer" and actions[0]["entity"] == players[0]
        # every item dealt exactly once
        dealt = [c for pile in d["piles"] for c in pile]
        assert len(dealt) == len(set(dealt)) == (15 if len(players) == 3 else 16)
        assert {c for c in dealt if not c.startswith("P")} <= privates
        # PEIR shares used in the record are the five drawn
        p_used = {a["company"] for a in actions if str(a.get("company", "")).startswith("P")}
        assert p_used <= {f"P{PEIR_COMPANIES.index(c) + 1}" for c in d["peir"]}, (name, p_used)
        # the Mainline operates before anything is started, never pars, and the first OR opens with it
        first_corp = next(a for a in actions if a["entity_type"] == "corporation")
        assert first_corp["entity"] == ml, (name, first_corp, ml)
        pars = {a["corporation"] for a in actions if a["type"] == "par"}
        assert ml not in pars and sl not in pars and pars <= set(d["peir"]), (name, pars)
        # MC/VR/SB exchange for the Shortline's reserved shares 6..8
        ex = [s for a in actions if a["type"] == "buy_shares" and a["entity_type"] == "company" and a["entity"] in ("MC", "VR", "SB")
              for s in a["shares"]]
        assert ex and all(s.rpartition("_")[0] == sl and int(s.rpartition("_")[2]) >= 6 for s in ex), (name, ex, sl)
        # the Union Bank's two shares (Mainline _8 and the third draw's _8) are never bought or sold
        traded = {s for a in actions if a["type"] in ("buy_shares", "sell_shares") for s in a["shares"]}
        assert f"{ml}_8" not in traded and d["ub_share"] not in traded, name


@pytest.mark.fixtures
def test_fixture_start_prices_follow_phase(games):
    """par / split start prices are still available given the trains bought so far (6.7.2)."""
    avail = load("market.json")["start_prices_by_phase"]["available"]
    order = [t["name"] for t in load("trains.json")["trains"]]
    checked = 0
    for name, _, actions in games:
        phase = "2H"
        for a in actions:
            if a["type"] == "buy_train":
                tname = a["train"].rpartition("-")[0]
                if order.index(tname) > order.index(phase):
                    phase = tname
            sp = a.get("share_price") if a["type"] == "par" else (a.get("choice") if a["type"] == "choose" else None)
            if isinstance(sp, str) and re.fullmatch(r"\d+,\d+,\d+", sp):
                assert int(sp.split(",")[0]) in avail[phase], (name, a["id"], sp, phase)
                checked += 1
    assert checked >= 8
