"""Tile and hex geometry, rotation, and the generic 18xx upgrade rule.

The JSON format is described in ``replay/tiles/README.md``. Everything here is parsed once and
precomputed, because the replay asks "may this tile go here at this rotation?" for every tile lay
and route check, so those questions must be a few set operations.

Endpoints keep the JSON spelling: ``"e0"``..``"e5"`` for edges, ``"c0"``, ``"t0"``, ``"o0"`` for
cities, towns and offboards. A path is a ``frozenset`` of its two endpoints, so ``["c0", "e3"]`` and
``["e3", "c0"]`` are the same path.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

REPLAY = Path(__file__).resolve().parent

NEXT_COLOUR: Mapping[str, str] = MappingProxyType(
    {"white": "yellow", "yellow": "green", "green": "brown", "brown": "gray"}
)
"""The only colour each colour may be upgraded to. ``white`` is a buildable blank or printed hex."""

NODE_KINDS = ("c", "t", "o")
"""Node id prefixes: city, town, offboard."""

Revenue = int | tuple[tuple[str, int], ...]
"""A fixed revenue, or (phase colour, revenue) pairs; a tuple so geometries stay hashable."""

PathEnds = frozenset[str]
"""A path: its two endpoints, unordered."""


@dataclass(frozen=True, slots=True)
class Stop:
    """A city, town or offboard: what a route may stop at."""

    revenue: Revenue
    slots: int = 0
    """Station slots; 0 for towns and offboards."""

    def revenue_in(self, colour: str) -> int:
        """Revenue when ``colour`` is the newest tile colour of the phase (see the tiles README)."""
        if isinstance(self.revenue, int):
            return self.revenue
        return dict(self.revenue)[colour]


@dataclass(frozen=True)
class TileGeometry:
    """One tile (or printed hex) as laid at one rotation.

    Equality is geometric: name, colour, label, stops and paths. Tile 63 turned by one sixth equals
    tile 63, which is right, since a record may use either rotation.
    """

    name: str
    color: str
    label: str | None
    cities: tuple[Stop, ...]
    towns: tuple[Stop, ...]
    offboards: tuple[Stop, ...]
    paths: frozenset[PathEnds]
    only_hexes: frozenset[str] = frozenset()
    """Hexes the tile is restricted to; empty means anywhere."""

    # Derived from the fields above in __post_init__, so left out of equality.
    edges: frozenset[int] = field(init=False, compare=False, repr=False)
    """Every edge some path touches."""
    edge_links: frozenset[frozenset[int]] = field(init=False, compare=False, repr=False)
    """Plain track: pairs of edges joined directly."""
    node_edges: Mapping[str, frozenset[int]] = field(init=False, compare=False, repr=False)
    """Node id -> edges with track straight into it (every node is present, perhaps with none)."""
    paths_at: Mapping[str, tuple[PathEnds, ...]] = field(init=False, compare=False, repr=False)
    """Endpoint ("e2", "c0") -> the paths touching it (the network walk asks at every step)."""
    ends_of: Mapping[PathEnds, tuple[tuple[int, ...], tuple[str, ...]]] = field(init=False, compare=False, repr=False)
    """Path -> (its edges, its nodes), each sorted."""
    edge_paths: tuple[tuple[PathEnds, ...], ...] = field(init=False, compare=False, repr=False)
    """Edge 0..5 -> the paths leaving by it: ``paths_at`` by number, for the network walk."""
    node_ids: Mapping[str | None, tuple[str, ...]] = field(init=False, compare=False, repr=False)
    """Kind prefix ("c", "t", "o"; None for all) -> the node ids of that kind: :meth:`nodes`."""
    _turns: tuple[TileGeometry, ...] = field(init=False, compare=False, repr=False)
    _upgrades: dict[tuple[int, str | None], tuple[TileGeometry, tuple[int, ...]]] = field(
        init=False, compare=False, repr=False)
    """(id of a new tile, label) -> (that tile, the rotations it may replace this one at): the
    answer never changes (both are immutable), and bots and ``legal_actions`` ask it thousands
    of times a game. The tile is kept in the value so that its id is not reused."""
    walks: dict[tuple[str, tuple[str | None, ...]], Any] = field(init=False, compare=False, repr=False)
    """(hex, the hexes across its edges) -> this tile's paths there as the network walk reads
    them (:func:`replay.network.paths_here`), kept by the tile: every game of a title lays the
    same tiles on the same hexes, and the walk meets each again after every station placed."""

    def __post_init__(self) -> None:
        # Set here rather than as the fields' defaults, which the compiled class does not apply
        # to fields left out of __init__ (docs/fast.md).
        object.__setattr__(self, "_turns", ())
        object.__setattr__(self, "_upgrades", {})
        object.__setattr__(self, "walks", {})
        stops = {"c": self.cities, "t": self.towns, "o": self.offboards}
        by_kind: dict[str | None, tuple[str, ...]] = {k: tuple(f"{k}{i}" for i in range(len(stops[k]))) for k in NODE_KINDS}
        by_kind[None] = tuple(node for k in NODE_KINDS for node in by_kind[k])
        object.__setattr__(self, "node_ids", MappingProxyType(by_kind))
        edges: set[int] = set()
        links: set[frozenset[int]] = set()
        node_edges: dict[str, set[int]] = {node: set() for node in self.nodes()}
        for path in self.paths:
            ends = sorted(path)
            for end in ends:
                if not (_is_edge(end) or end in node_edges):
                    raise ValueError(f"tile {self.name}: path {ends} names unknown endpoint {end!r}")
            edge_ends = [int(end[1:]) for end in ends if _is_edge(end)]
            edges.update(edge_ends)
            if len(edge_ends) == 2:
                links.add(frozenset(edge_ends))
            elif len(edge_ends) == 1:
                node_edges[next(end for end in ends if not _is_edge(end))].add(edge_ends[0])
        object.__setattr__(self, "edges", frozenset(edges))
        at: dict[str, list[PathEnds]] = {}
        ends_of: dict[PathEnds, tuple[tuple[int, ...], tuple[str, ...]]] = {}
        for path in sorted(self.paths, key=sorted):
            for end in path:
                at.setdefault(end, []).append(path)
            ends_of[path] = (tuple(sorted(int(e[1:]) for e in path if _is_edge(e))), tuple(sorted(e for e in path if not _is_edge(e))))
        object.__setattr__(self, "paths_at", MappingProxyType({end: tuple(found) for end, found in at.items()}))
        object.__setattr__(self, "edge_paths", tuple(tuple(at.get(f"e{edge}", ())) for edge in range(6)))
        object.__setattr__(self, "ends_of", MappingProxyType(ends_of))
        object.__setattr__(self, "edge_links", frozenset(links))
        object.__setattr__(
            self, "node_edges", MappingProxyType({node: frozenset(e) for node, e in node_edges.items()})
        )

    @classmethod
    def from_json(cls, name: str, data: Mapping[str, Any]) -> TileGeometry:
        """Build from the README's JSON geometry; keys this module does not use are ignored."""
        return cls(
            name=name,
            color=data["color"],
            label=data.get("label"),
            cities=tuple(Stop(_revenue(c["revenue"]), c["slots"]) for c in data.get("cities", ())),
            towns=tuple(Stop(_revenue(t["revenue"])) for t in data.get("towns", ())),
            offboards=tuple(Stop(_revenue(o["revenue"])) for o in data.get("offboards", ())),
            paths=frozenset(frozenset(p) for p in data.get("paths", ())),
            only_hexes=frozenset(data.get("only_hexes", ())),
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> TileGeometry:
        return self  # immutable: a copied game shares its tiles

    def nodes(self, kind: str | None = None) -> list[str]:
        """Node ids (``c0``, ``t0``, ``o0``, ...), all of them or those of one kind prefix
        (named once per tile: upgrade checks and routes ask for them all the time)."""
        return list(self.node_ids[kind])

    def rotated(self, rotation: int) -> TileGeometry:
        """This geometry turned ``rotation`` sixth-turns clockwise: edge e becomes (e + rotation) % 6.

        All six turns are built together on first use and share one cycle, so ``t.rotated(a).rotated(b)``
        is the very object ``t.rotated(a + b)``.
        """
        if not self._turns:
            turns = [self] + [self._turned(r) for r in range(1, 6)]
            for i, turn in enumerate(turns):
                object.__setattr__(turn, "_turns", tuple(turns[(i + r) % 6] for r in range(6)))
        return self._turns[rotation % 6]

    def _turned(self, rotation: int) -> TileGeometry:
        def turn(end: str) -> str:
            return f"e{(int(end[1:]) + rotation) % 6}" if _is_edge(end) else end

        return TileGeometry(
            self.name, self.color, self.label, self.cities, self.towns, self.offboards,
            frozenset(frozenset(turn(end) for end in path) for path in self.paths), self.only_hexes,
        )


def _is_edge(endpoint: str) -> bool:
    return endpoint[0] == "e"


def _revenue(raw: int | Mapping[str, int]) -> Revenue:
    return raw if isinstance(raw, int) else tuple(sorted(raw.items()))


# --- upgrades -------------------------------------------------------------------------------------


def preserves(old: TileGeometry, new: TileGeometry, rotation: int, label: str | None = None) -> bool:
    """May ``new`` laid at ``rotation`` replace ``old`` (as it lies on the board, already rotated)?

    The generic 18xx rule, as the reference engine applies it when a title has no special case:

    * colour: ``new`` is the next colour after ``old`` (a blank ``white`` hex takes yellow);
    * label: ``new.label`` equals the label the hex will carry, ``label`` if given (a hex's
      ``future_label`` that applies to this colour), else ``old.label``;
    * stops: as many towns and offboards; as many cities, or fewer but at least one (a merge);
    * track: every old edge stays an exit; every old edge-to-edge track is still there; and the old
      stops can be matched to new stops of the same kind (one-to-one, except merged cities) so that
      every edge that ran into an old stop runs into its match.

    Connectivity, not the literal path list, is compared: old ``e0-c0, e3-c0`` is kept by new
    ``e0-c0, e1-c0, e3-c0``. Node-to-node track (New Orleans's town) exists only on preprinted red
    hexes, which the colour rule already forbids upgrading.
    """
    return _may_replace(old, new, label) and _keeps_track(old, new, rotation)


def _may_replace(old: TileGeometry, new: TileGeometry, label: str | None) -> bool:
    """:func:`preserves`' colour, label and stop counts, the same at every rotation."""
    if NEXT_COLOUR.get(old.color) != new.color:
        return False
    if new.label != (old.label if label is None else label):
        return False
    if len(new.towns) != len(old.towns) or len(new.offboards) != len(old.offboards):
        return False
    return len(new.cities) == len(old.cities) or 0 < len(new.cities) < len(old.cities)


def _keeps_track(old: TileGeometry, new: TileGeometry, rotation: int) -> bool:
    """:func:`preserves`' track and stops, for ``new`` laid at ``rotation``."""
    laid = new.rotated(rotation)
    if not (old.edges <= laid.edges and old.edge_links <= laid.edge_links):
        return False
    return all(_stops_matched(old, laid, kind) for kind in NODE_KINDS)


def _stops_matched(old: TileGeometry, new: TileGeometry, kind: str) -> bool:
    """Is there a matching of old stops of one kind to new ones that keeps every edge-to-stop track?"""
    old_nodes, new_nodes = old.nodes(kind), new.nodes(kind)
    if len(new_nodes) == len(old_nodes):
        matchings: Iterable[tuple[str, ...]] = itertools.permutations(new_nodes)
    else:  # merged cities: several old cities may go to the same new one
        matchings = itertools.product(new_nodes, repeat=len(old_nodes))
    return any(
        all(old.node_edges[o] <= new.node_edges[n] for o, n in zip(old_nodes, matching))
        for matching in matchings
    )


def legal_rotations(old: TileGeometry, new: TileGeometry, label: str | None = None) -> list[int]:
    """Every rotation (0..5) at which ``new`` may replace ``old``; see :func:`preserves`.

    Symmetric tiles legally repeat: tile 63 is legal at all six. Whether an exit may point off the
    map or into a red area is a board question, left to the caller.
    """
    known = old._upgrades.get((id(new), label))
    if known is None or known[0] is not new:
        known = (new, tuple(r for r in range(6) if _keeps_track(old, new, r)) if _may_replace(old, new, label) else ())
        old._upgrades[(id(new), label)] = known
    return list(known[1])


# --- loading --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Catalogue:
    """A title's tiles: geometry of every tile it has, copies of each, and its upgrade chart."""

    tiles: Mapping[str, TileGeometry]
    counts: Mapping[str, int]
    upgrades: Mapping[str, tuple[str, ...]]
    """The title's printed chart (tile -> tiles it may become); empty when the title has none."""
    by_colour: Mapping[str, tuple[str, ...]]
    """Colour -> the names of its tiles, sorted: listing tile lays asks for one colour a hex takes."""


@functools.cache
def _read_json(path: Path) -> Any:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


@functools.cache
def load_catalogue(title_slug: str) -> Catalogue:
    """The tiles of ``replay/titles/<slug>/tiles.json`` (see :func:`catalogue_from`)."""
    return catalogue_from(title_slug, _read_json(REPLAY / "titles" / title_slug / "tiles.json"))


def catalogue_from(title_slug: str, manifest: Mapping[str, Any]) -> Catalogue:
    """The tiles of a title's tiles.json (``manifest``, as a variant may change it): its
    ``title_tiles`` override the shared catalogue's tiles of the same name (18MS's 446 is not the
    standard 446). Only tiles the title counts are included, so a record naming any other tile
    fails to find it."""
    shared = _read_json(REPLAY / "tiles" / "catalogue.json")["tiles"]
    own = manifest.get("title_tiles", {})
    missing = [name for name in manifest["counts"] if name not in own and name not in shared]
    if missing:
        raise ValueError(f"{title_slug}: no geometry for counted tiles {missing}")
    tiles = {name: TileGeometry.from_json(name, own.get(name) or shared[name]) for name in manifest["counts"]}
    return Catalogue(
        tiles=MappingProxyType(tiles),
        counts=MappingProxyType(dict(manifest["counts"])),
        upgrades=MappingProxyType({k: tuple(v) for k, v in manifest.get("upgrades", {}).items()}),
        by_colour=MappingProxyType({colour: tuple(sorted(name for name, tile in tiles.items() if tile.color == colour))
                                    for colour in {tile.color for tile in tiles.values()}}),
    )


@functools.cache
def load_hexes(title_slug: str) -> Mapping[str, TileGeometry]:
    """The printed map of ``replay/titles/<slug>/map.json``: hex id -> geometry (named by the hex id).
    Hex-only fields (terrain, future_label, homes, ...) stay in the JSON."""
    return hexes_from(_read_json(REPLAY / "titles" / title_slug / "map.json")["hexes"])


def hexes_from(hexes: Mapping[str, Any]) -> Mapping[str, TileGeometry]:
    """The printed map of a map.json's ``hexes``: hex id -> geometry."""
    return MappingProxyType({hex_: TileGeometry.from_json(hex_, data) for hex_, data in hexes.items()})
