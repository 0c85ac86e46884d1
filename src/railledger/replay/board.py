"""The map in play: which tile lies on each hex at which rotation, and the station tokens.

Tile ids follow 18xx.games: a copy of tile 57 is ``57-0``, ``57-1``...; a printed hex's own tile
is ``<hex>-0``. A city is named ``<tile id>-<city index>`` (``619-0-0``), so its name changes
when its tile is upgraded; the board keeps the hex of every tile id on the map to find it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Mapping

from railledger.replay.errors import Violation
from railledger.replay.geometry import TileGeometry, legal_rotations
from railledger.replay.hexgrid import neighbour, opposite
from railledger.replay.journal import APPLYING

if TYPE_CHECKING:
    from railledger.replay.data import TitleData

COLOURS = ("white", "yellow", "green", "brown", "gray")


@dataclass
class Placed:
    """What lies on one hex: a tile id and its geometry already turned to its rotation."""

    tile_id: str
    geometry: TileGeometry
    rotation: int = 0
    tokens: dict[int, list[str | None]] = field(default_factory=dict)  # city index -> slots


class Board:
    """Tiles and tokens on the map, with the supply of tiles not on it."""

    def __init__(self, title: TitleData, printed: Mapping[str, TileGeometry]) -> None:
        self.title = title
        self.hexes: dict[str, Placed] = {}
        for hex_id, geometry in printed.items():
            if title.map[hex_id].get("color") == "empty":
                continue
            placed = Placed(f"{hex_id}-0", geometry)
            placed.tokens = {i: [None] * city.slots for i, city in enumerate(geometry.cities)}
            self.hexes[hex_id] = placed
        self.hex_of_tile: dict[str, str] = {p.tile_id: h for h, p in self.hexes.items()}
        self.supply: dict[str, int] = dict(title.tiles.counts)
        self.terrain_paid: set[str] = set()
        self.changes: list[tuple[str, str | None]] = []  # (hex, corporation placing a station) of each tile and station
        self.laid: list[str] = []  # hexes in the order tiles went on them
        self.station_hexes: set[str] = set()  # hexes with a station, so lookups skip the empty map
        self.open_sides: dict[str, frozenset[int]] = {}  # hex -> :meth:`open_edges`, found once

    def tile(self, hex_id: str) -> TileGeometry:
        return self.hexes[hex_id].geometry

    def city(self, city_id: str) -> tuple[str, int]:
        """(hex, city index) of a city id such as ``619-0-0`` or ``I1-0-0``."""
        tile_id, _, index = city_id.rpartition("-")
        if tile_id not in self.hex_of_tile or not index.isdigit():
            raise Violation("token-city", f"there is no city {city_id} on the map")
        return self.hex_of_tile[tile_id], int(index)

    def tokens_in(self, hex_id: str, city: int) -> list[str | None]:
        """The city's slots (None: free), made empty when first asked (the network walk asks
        of every city it passes, so the empty slots are built only then)."""
        placed = self.hexes[hex_id]
        slots = placed.tokens.get(city)
        if slots is None:
            slots = placed.tokens[city] = [None] * placed.geometry.cities[city].slots
        return slots

    # ------------------------------------------------------------------ laying tiles

    def check_lay(
        self, hex_id: str, tile_id: str, rotation: int, colours: tuple[str, ...], as_if: str | None = None
    ) -> TileGeometry:
        """The geometry a lay would put down, or a Violation saying which rule it breaks.

        ``as_if`` treats the hex's current tile as that colour (a special ability that skips one).
        """
        name = tile_id.rsplit("-", 1)[0]
        spec = self.title.map.get(hex_id)
        if spec is None or hex_id not in self.hexes:
            raise Violation("tile-hex", f"{hex_id} is not a hex of the map")
        if spec.get("no_tiles") or spec.get("color") in ("red", "gray"):
            raise Violation("tile-hex", f"no tile may be laid on {hex_id} ({spec.get('location', spec['color'])})")
        geometry = self.title.tiles.tiles.get(name)
        if geometry is None or name not in self.supply:
            raise Violation("tile-manifest", f"tile {name} is not in the {self.title.name} tile manifest")
        if tile_id in self.hex_of_tile:
            raise Violation("tile-manifest", f"copy {tile_id} of tile {name} is already on the map at {self.hex_of_tile[tile_id]}")
        index = tile_id.rsplit("-", 1)[1] if "-" in tile_id else ""
        if not index.isdigit() or int(index) >= self.title.tiles.counts[name] or self.supply[name] <= 0:
            raise Violation("tile-manifest", f"no tile {name} is left in the supply")
        if geometry.color not in colours:
            raise Violation("tile-colour", f"{geometry.color} tiles are not available yet (now: {', '.join(colours)})")
        if geometry.only_hexes and hex_id not in geometry.only_hexes:
            raise Violation("tile-special", f"tile {name} may only be laid on {', '.join(sorted(geometry.only_hexes))}")
        old = self.hexes[hex_id].geometry
        if as_if is not None:
            old = replace(old, color=as_if)
        label = self.label_for(hex_id, geometry.color) or old.label
        if rotation not in legal_rotations(old, geometry, label):
            what = "upgrade" if old.color != "white" else "lay"
            raise Violation(
                "tile-upgrade",
                f"tile {name} at rotation {rotation} is no legal {what} of {hex_id} ({old.name}, {old.color})",
            )
        turned = geometry.rotated(rotation)
        if turned.edges <= self.open_edges(hex_id):
            return turned
        for edge in turned.edges:  # which side is not open, for the message
            other = neighbour(hex_id, edge, self.title.layout)
            if other is None or other not in self.hexes:
                raise Violation("tile-edge", f"tile {name} on {hex_id} would run track off the map")
            if self.blank_side(other, opposite(edge)):
                raise Violation("tile-edge", f"tile {name} on {hex_id} runs track into a blank side of {other}")
        return turned

    def blank_side(self, hex_id: str, edge: int) -> bool:
        """Whether track may not run into this side of a board hex: a red or gray hex (whose
        tile never changes) without track out of it."""
        return self.title.map[hex_id].get("color") in ("red", "gray") and edge not in self.tile(hex_id).edges

    def open_edges(self, hex_id: str) -> frozenset[int]:
        """The sides of a board hex a tile may run track out of (:meth:`check_lay` refuses any
        other): those facing a board hex, but not a blank side of a red or gray one. They never
        change (the board's hexes are fixed, red and gray ones take no tile), so each hex's are
        found once: every tile lay listed or checked asks."""
        known = self.open_sides.get(hex_id)
        if known is None:
            known = self.open_sides[hex_id] = frozenset(
                edge for edge in range(6)
                if (other := neighbour(hex_id, edge, self.title.layout)) is not None and other in self.hexes
                and not self.blank_side(other, opposite(edge))
            )
        return known

    def label_for(self, hex_id: str, colour: str) -> str | None:
        """The label a tile of ``colour`` on this hex must carry (printed, or from a colour on)."""
        spec = self.title.map[hex_id]
        future = spec.get("future_label")
        if future and COLOURS.index(colour) >= COLOURS.index(future["color"]):
            return str(future["label"])
        label = spec.get("label")
        return str(label) if label is not None else None

    def free_copy(self, name: str) -> str | None:
        """The lowest-numbered copy of a tile that is not on the map, as 18xx.games hands them out."""
        for number in range(self.title.tiles.counts.get(name, 0)):
            tile_id = f"{name}-{number}"
            if tile_id not in self.hex_of_tile:
                return tile_id
        return None

    def neighbour(self, hex_id: str, edge: int) -> str | None:
        """The board hex across ``edge`` of a board hex, or None (the title's table)."""
        return self.title.neighbours[hex_id][edge]

    def terrain_cost_of(self, hex_id: str) -> int:
        """River (or other terrain) cost due for a tile on ``hex_id``: only the first tile pays."""
        if hex_id in self.terrain_paid:
            return 0
        return sum(t.get("cost", 0) for t in self.title.map[hex_id].get("terrain", ()))

    def was_upgrade(self, hex_id: str) -> bool:
        """Whether the tile now on ``hex_id`` replaced a tile (rather than a blank or printed hex)."""
        return self.hexes[hex_id].geometry.color not in ("white", "yellow")

    def lay(self, hex_id: str, tile_id: str, rotation: int, turned: TileGeometry) -> int:
        """Put a checked tile down, moving stations onto it; returns the terrain cost due."""
        self.before_change()
        cost = self.terrain_cost_of(hex_id)
        self.terrain_paid.add(hex_id)
        placed = self.hexes[hex_id]
        old_name = placed.tile_id.rsplit("-", 1)[0]
        del self.hex_of_tile[placed.tile_id]
        if placed.tile_id != f"{hex_id}-0":
            self.supply[old_name] += 1
        self.supply[tile_id.rsplit("-", 1)[0]] -= 1
        moved: dict[int, list[str | None]] = {i: [None] * c.slots for i, c in enumerate(turned.cities)}
        for index, slots in placed.tokens.items():
            target = index if index < len(turned.cities) else 0
            for corp in slots:
                if corp is not None:
                    moved[target][moved[target].index(None)] = corp
        self.hexes[hex_id] = Placed(tile_id, turned, rotation, moved)
        self.hex_of_tile[tile_id] = hex_id
        self.laid.append(hex_id)
        self.changed(hex_id, None)
        return cost

    def place_token(self, hex_id: str, city: int, slot: int, corporation: str) -> None:
        self.set_slot(hex_id, city, slot, corporation)
        self.station_hexes.add(hex_id)
        self.changed(hex_id, corporation)

    def remove_token(self, hex_id: str, city: int, corporation: str) -> None:
        """A station leaves the game (1871: the PEIR's, where a company has its home)."""
        self.set_slot(hex_id, city, self.tokens_in(hex_id, city).index(corporation), None)

    def set_slot(self, hex_id: str, city: int, slot: int, corporation: str | None) -> None:
        """A new :class:`Placed` for the hex with the slot filled or freed: a placed hex is never
        changed in place, so the undo journal restores the board by its containers alone."""
        self.before_change()
        placed = self.hexes[hex_id]
        tokens = {index: list(slots) for index, slots in placed.tokens.items()}
        tokens.setdefault(city, [None] * placed.geometry.cities[city].slots)[slot] = corporation
        self.hexes[hex_id] = Placed(placed.tile_id, placed.geometry, placed.rotation, tokens)

    # ------------------------------------------------------------------ taking an action back

    def before_change(self) -> None:
        """An action is about to change the board: the undo journal keeps its containers as
        they are (once per action; the hexes' :class:`Placed` are replaced, never changed)."""
        journal = APPLYING.journal
        if journal is not None:
            journal.save(self, {"hexes": dict(self.hexes), "hex_of_tile": dict(self.hex_of_tile),
                                "supply": dict(self.supply), "terrain_paid": self.terrain_paid.copy(),
                                "station_hexes": self.station_hexes.copy()})

    def restore(self, saved: dict[str, Any]) -> None:
        """Put back containers :meth:`before_change` kept. Each hex that differs counts as a
        change (``changes`` and ``laid`` only grow), so what was computed of it is found again."""
        for hex_id, placed in saved["hexes"].items():
            now = self.hexes[hex_id]
            if now is not placed:
                for slots in (*now.tokens.values(), *placed.tokens.values()):
                    for corporation in set(slots) - {None}:
                        self.changed(hex_id, corporation)
                self.changed(hex_id, None)
                self.laid.append(hex_id)
        for name, value in saved.items():
            container = getattr(self, name)
            container.clear()
            container.update(value)

    @property
    def version(self) -> int:
        """How many tiles and stations went down: what was computed of the map holds until it changes."""
        return len(self.changes)

    def changed(self, hex_id: str, corporation: str | None) -> None:
        """A tile or a station (of ``corporation``) changed ``hex_id``: a new version."""
        self.changes.append((hex_id, corporation))

    def unchanged_since(self, version: int, hexes: frozenset[str], corporation: str) -> bool:
        """Whether no change after ``version`` touched these hexes or placed a station of the
        corporation: what was read of them then still holds."""
        return not any(hex_id in hexes or placer == corporation for hex_id, placer in self.changes[version:])

    def tokened(self, corporation: str) -> list[tuple[str, int]]:
        """Cities (hex, index) holding one of the corporation's stations."""
        return [
            (hex_id, index)
            for hex_id in sorted(self.station_hexes)
            for index, slots in self.hexes[hex_id].tokens.items()
            if corporation in slots
        ]
