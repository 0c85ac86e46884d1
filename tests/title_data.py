"""Shared checks for the title data tests: reading a title's JSON and checking tile geometry.

The data tests check the JSON files on their own terms (not through the engine), so a mistake in
the data and one in the engine's geometry code cannot hide each other.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CATALOGUE = REPO / "src" / "railledger" / "replay" / "tiles" / "catalogue.json"
COLORS = ["yellow", "green", "brown", "gray"]
NODE_KEYS = {"cities": "c", "towns": "t", "offboards": "o"}


def loader(slug: str):  # type: ignore[no-untyped-def]
    """``load(name)`` for the JSON files of ``replay/titles/<slug>/``."""
    folder = REPO / "src" / "railledger" / "replay" / "titles" / slug

    def load(name: str) -> Any:
        with open(folder / name, encoding="utf-8") as f:
            return json.load(f)

    return load


def catalogue_tiles() -> dict[str, Any]:
    with open(CATALOGUE, encoding="utf-8") as f:
        return json.load(f)["tiles"]


def tile_geometry(name: str, manifest: dict, catalogue: dict) -> dict:
    """A tile's geometry: the title's own version first, else the shared catalogue's."""
    return manifest["title_tiles"].get(name) or catalogue[name]


def node_ids(t: dict) -> set[str]:
    return {f"{p}{i}" for key, p in NODE_KEYS.items() for i in range(len(t.get(key, [])))}


def check_geometry(where: str, t: dict) -> set[str]:
    """Assert a geometry is well formed; returns the nodes its paths use."""
    nodes = node_ids(t)
    used = set()
    for path in t["paths"]:
        assert len(path) == 2 and path[0] != path[1], (where, path)
        for ep in path:
            if ep.startswith("e"):
                assert re.fullmatch(r"e[0-5]", ep), (where, ep)
            else:
                assert ep in nodes, (where, ep, nodes)
                used.add(ep)
    assert len({frozenset(p) for p in t["paths"]}) == len(t["paths"]), f"{where}: repeated path"
    for key in NODE_KEYS:
        for node in t.get(key, []):
            rev = node["revenue"]
            assert isinstance(rev, int) or set(rev) == set(COLORS), (where, rev)
    for c in t.get("cities", []):
        assert c["slots"] >= 1, where
    return used


def check_city_id(city_id: str, hexes: dict, counts: dict, where: str) -> None:
    """A record's city id names a printed city (``<hex>-0-<city>``) or a city of a tile copy in
    the manifest (``<tile>-<copy>-<city>``)."""
    tile_or_hex, copy, city = city_id.rsplit("-", 2)
    if tile_or_hex in hexes:
        assert copy == "0" and int(city) < len(hexes[tile_or_hex]["cities"]), where
    else:
        assert tile_or_hex in counts and int(copy) < counts[tile_or_hex], where
