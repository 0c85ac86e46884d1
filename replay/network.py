"""A corporation's network: the track, cities and hex sides it can reach from its stations.

Track is followed from each station along paths; a route may pass through a town or a city
with a free or own station circle, but not through a city filled by other companies' stations
nor through an off-board area. Tile lays must touch the network and stations go in cities on
it (11.4.1, 11.5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from replay.hexgrid import neighbour, opposite

if TYPE_CHECKING:
    from replay.game import Game


@dataclass(frozen=True)
class Network:
    nodes: frozenset[tuple[str, str]]  # (hex, node) reachable
    sides: frozenset[tuple[str, int]]  # (hex, edge) whose track the network uses
    layout: str = "pointy"

    def touches(self, hex_id: str, edges: frozenset[int]) -> bool:
        """Whether track through these sides of ``hex_id`` would join the network."""
        for edge in edges:
            other = neighbour(hex_id, edge, self.layout)
            if other is not None and (other, opposite(edge)) in self.sides:
                return True
        return any(h == hex_id for h, _ in self.nodes) or any(h == hex_id for h, _ in self.sides)


def network_of(game: Game, corporation: str) -> Network:
    """Everything reachable along track from the corporation's stations (cached until the board changes)."""
    cached = game.board.networks.get(corporation)
    if cached is not None and cached[0] == game.board.version:
        return cached[1]
    network = _walk(game, corporation)
    game.board.networks[corporation] = (game.board.version, network)
    return network


def _walk(game: Game, corporation: str) -> Network:
    board = game.board
    start = [(hex_id, f"c{index}") for hex_id, index in board.tokened(corporation)]
    nodes: set[tuple[str, str]] = set(start)
    sides: set[tuple[str, int]] = set()
    visited: set[tuple[str, str]] = set(start)
    queue = list(start)
    while queue:
        hex_id, end = queue.pop()
        for path in board.tile(hex_id).paths:
            if end not in path:
                continue
            other = next(iter(path - {end}), end)
            if other.startswith("e"):
                edge = int(other[1:])
                sides.add((hex_id, edge))
                target = _across(game, hex_id, edge)
                if target is None:
                    continue
                sides.add(target)
                entry = (target[0], f"e{target[1]}")
            else:
                nodes.add((hex_id, other))
                if not _passable(game, corporation, hex_id, other):
                    continue
                entry = (hex_id, other)
            if entry not in visited:
                visited.add(entry)
                queue.append(entry)
    return Network(frozenset(nodes), frozenset(sides), game.title.layout)


def _across(game: Game, hex_id: str, edge: int) -> tuple[str, int] | None:
    """The side of the neighbouring hex that track leaving ``hex_id`` over ``edge`` runs into."""
    other = neighbour(hex_id, edge, game.title.layout)
    if other is None or other not in game.board.hexes:
        return None
    back = opposite(edge)
    return (other, back) if back in game.board.tile(other).edges else None


def _passable(game: Game, corporation: str, hex_id: str, node: str) -> bool:
    """Whether a route may go on through this node (not an off-board, not a blocked city)."""
    if node.startswith("o"):
        return False
    if node.startswith("c"):
        slots = game.board.tokens_in(hex_id, int(node[1:]))
        return any(s is None or s == corporation for s in slots)
    return True
