"""Hand-made boards for the optimizer tests: a real game of a title with its map wiped blank,
then stops, track, stations and trains put exactly where a test wants them.

The board stays the engine's own, so every answer the optimizer gives on it is checked by the
engine's ``build_route``/``check_run`` as in a real game.
"""

from __future__ import annotations

from typing import Any

from railledger.ingest.model import Player
from railledger.replay import Game
from railledger.replay.board import Placed
from railledger.replay.geometry import Stop, TileGeometry

BLANK = TileGeometry("blank", "white", None, (), (), (), frozenset())

Revenue = int | dict[str, int]


def _revenue(value: Revenue) -> Any:
    return value if isinstance(value, int) else tuple(sorted(value.items()))


class Canvas:
    """A blank board of ``title``: every hex without track or station, no train owned.

    Each change is made as the engine makes its own, inside ``game.changing()`` (and a tile is
    noted in ``Board.laid``), so what was kept of the game before it is forgotten."""

    def __init__(self, title: str = "18MS", players: int = 3) -> None:
        self.game = Game.start(title, [Player(i, f"P{i}") for i in range(1, players + 1)], seed=1)
        board = self.game.board
        for placed in board.hexes.values():
            placed.geometry, placed.tokens = BLANK, {}
        board.station_hexes.clear()
        for train in self.game.trains.values():
            train.owner = None
        self.count = 0

    def put(self, hex_id: str, *paths: str, cities: tuple[Revenue | tuple[Revenue, int], ...] = (),
            towns: tuple[Revenue, ...] = (), offboards: tuple[Revenue, ...] = ()) -> None:
        """Lay a tile of our own on ``hex_id``: paths like ``"c0-e1"``, ``"e1-e4"``, ``"c0-t0"``;
        a city is a revenue or (revenue, slots) (one slot by default)."""
        city_stops = tuple(
            Stop(_revenue(c[0]), c[1]) if isinstance(c, tuple) else Stop(_revenue(c), 1) for c in cities
        )
        self.count += 1
        geometry = TileGeometry(
            f"hand{self.count}", "yellow", None, city_stops,
            tuple(Stop(_revenue(t)) for t in towns), tuple(Stop(_revenue(o)) for o in offboards),
            frozenset(frozenset(p.split("-")) for p in paths),
        )
        tokens: dict[int, list[str | None]] = {i: [None] * c.slots for i, c in enumerate(city_stops)}
        board = self.game.board
        with self.game.changing():  # as Board.lay notes a tile: what was kept of the hex is forgotten
            board.hexes[hex_id] = Placed(f"hand{self.count}-0", geometry, 0, tokens)
            board.laid.append(hex_id)
            board.changed(hex_id, None)

    def station(self, corporation: str, hex_id: str, city: int = 0) -> None:
        slots = self.game.board.tokens_in(hex_id, city)
        with self.game.changing():
            self.game.board.place_token(hex_id, city, slots.index(None), corporation)

    def train(self, corporation: str, name: str) -> str:
        """Give the company a train of type ``name`` (a variant such as 4D from its card); its id."""
        title = self.game.title
        card = next(
            (t.name for t in title.trains if t.name == name or any(v.name == name for v in t.variants)), name
        )
        for train in self.game.trains.values():
            if train.id.rsplit("-", 1)[0] == card and train.owner is None and not train.rusted and not train.reserved:
                with self.game.changing():
                    train.owner, train.name = corporation, name
                return train.id
        raise LookupError(f"no {name} train left")

    def take(self, train_id: str) -> None:
        """Take a train back from its company."""
        with self.game.changing():
            self.game.trains[train_id].owner = None

    def phase(self, name: str) -> None:
        with self.game.changing():
            self.game.phase_index = [p.name for p in self.game.title.phases].index(name)
