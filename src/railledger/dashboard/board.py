"""The map as a plotly figure: hexes at their doubled coordinates, track, stations, towns.

Drawn from :class:`analytics.review.BoardView`. Hex size is 1 (centre to corner). On a pointy
map a doubled column step is sqrt(3)/2 wide and a row 1.5 high; on a flat map (1871) a column
is 1.5 wide and a doubled row sqrt(3)/2 high; y points down so the first row is on top.
Track runs from an edge's midpoint to the stop it serves, or between two edges as a curve bent
through the centre (a quadratic Bezier), which reads like the printed tiles' curves. Hexes of a
colour are one trace (polygons separated by gaps), so a full map is a dozen traces, not hundreds.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import plotly.graph_objects as go

from railledger.analytics.review import BoardView, HexView
from railledger.replay.hexgrid import OFFSETS

HEX_COLOURS = {
    "white": "#f4f1e8", "yellow": "#f3dc4b", "green": "#72b86b", "brown": "#b98a5e",
    "gray": "#b4b4b4", "red": "#d9564a",
}
TRACK = "#222222"
GRID = {"pointy": (math.sqrt(3) / 2, 1.5, 30), "flat": (1.5, math.sqrt(3) / 2, 0)}
"""Layout -> (x step, y step, angle of the first corner in degrees)."""
CURVE_POINTS = 9

Point = tuple[float, float]


def centre(hex_: HexView) -> Point:
    step_x, step_y, _ = GRID[hex_.layout]
    return hex_.x * step_x, -hex_.y * step_y


def edge_midpoint(edge: int, hex_: HexView) -> Point:
    """Midpoint of side ``edge``: half way to the neighbour across it."""
    step_x, step_y, _ = GRID[hex_.layout]
    dx, dy = OFFSETS[hex_.layout][edge]
    at = centre(hex_)
    return at[0] + dx * step_x / 2, at[1] - dy * step_y / 2


def corners(hex_: HexView) -> list[Point]:
    """The six corners of the hex, closed (first corner repeated)."""
    at, first = centre(hex_), GRID[hex_.layout][2]
    return [(at[0] + math.cos(math.radians(first + 60 * k)), at[1] + math.sin(math.radians(first + 60 * k)))
            for k in range(7)]


def stop_positions(hex_: HexView) -> dict[str, Point]:
    """Where each city/town/offboard of a hex sits: the centre when alone, else pulled toward
    the edges its track leaves by, so two stops of one hex do not overlap."""
    at = centre(hex_)
    nodes = [f"c{i}" for i in range(len(hex_.cities))] + [f"t{i}" for i in range(hex_.towns)] + \
        [f"o{i}" for i in range(hex_.offboards)]
    if len(nodes) <= 1:
        return {node: at for node in nodes}
    positions: dict[str, Point] = {}
    for index, node in enumerate(nodes):
        edges = [int(end[1:]) for path in hex_.paths if node in path for end in path if end.startswith("e")]
        if edges:
            mids = [edge_midpoint(e, hex_) for e in edges]
            mx, my = sum(p[0] for p in mids) / len(mids), sum(p[1] for p in mids) / len(mids)
            positions[node] = (at[0] + (mx - at[0]) * 0.6, at[1] + (my - at[1]) * 0.6)
        else:
            angle = math.radians(90 - 360 * index / len(nodes))
            positions[node] = (at[0] + 0.45 * math.cos(angle), at[1] + 0.45 * math.sin(angle))
    return positions


def _end(end: str, hex_: HexView, stops: dict[str, Point]) -> Point:
    return edge_midpoint(int(end[1:]), hex_) if end.startswith("e") else stops[end]


def _track(hex_: HexView) -> list[Point | None]:
    """Polyline points of every path of a hex, each followed by a gap (None)."""
    at = centre(hex_)
    stops = stop_positions(hex_)
    points: list[Point | None] = []
    for a, b in hex_.paths:
        start, stop = _end(a, hex_, stops), _end(b, hex_, stops)
        if a.startswith("e") and b.startswith("e"):
            for i in range(CURVE_POINTS):
                t = i / (CURVE_POINTS - 1)
                points.append((
                    (1 - t) ** 2 * start[0] + 2 * (1 - t) * t * at[0] + t * t * stop[0],
                    (1 - t) ** 2 * start[1] + 2 * (1 - t) * t * at[1] + t * t * stop[1],
                ))
        else:
            points += [start, stop]
        points.append(None)
    return points


def _xy(points: list[Point | None]) -> tuple[np.ndarray, np.ndarray]:
    """x and y of ``points`` as arrays, a gap (None) as NaN: plotly validates an array at once but
    a list element by element, and a map has thousands of points."""
    xs = np.array([p[0] if p else np.nan for p in points], dtype=float)
    ys = np.array([p[1] if p else np.nan for p in points], dtype=float)
    return xs, ys


MAP_WIDTH = 1000
"""Pixels the map is drawn for: the page's width in Streamlit's wide layout on a laptop screen."""
HEIGHTS = (420, 900)


def map_scale(view: BoardView) -> tuple[int, float]:
    """(height in pixels, pixels per hex unit) that fit the whole map in :data:`MAP_WIDTH`: a wide
    map (1871) gets a low figure, not a tall one with the hexes shrunk to dots."""
    points = [centre(h) for h in view.hexes] or [(0.0, 0.0)]
    span_x = max(p[0] for p in points) - min(p[0] for p in points) + 2.2
    span_y = max(p[1] for p in points) - min(p[1] for p in points) + 2.2
    height = int(min(max(MAP_WIDTH * span_y / span_x, HEIGHTS[0]), HEIGHTS[1]))
    return height, min(MAP_WIDTH / span_x, height / span_y)


def map_figure(view: BoardView, colours: dict[str, str]) -> go.Figure:
    """The whole map at one step. Traces: one per hex colour, then track, hover spots, stations,
    towns, offboards and names, each named so a legend or a test can find it. ``colours`` maps
    company symbols to their colours (see :mod:`dashboard.colours`). Markers and labels scale
    with the hexes, so a station stays inside its city and above the city's name."""
    height, unit = map_scale(view)
    by_colour: dict[str, list[Point | None]] = {}
    for hex_ in view.hexes:
        by_colour.setdefault(hex_.colour, []).extend([*corners(hex_), None])
    traces = []
    for colour, points in by_colour.items():
        xs, ys = _xy(points)
        traces.append(go.Scatter(x=xs, y=ys, mode="lines", fill="toself", fillcolor=HEX_COLOURS.get(colour, "#dddddd"),
                                 line={"color": "#8a8a8a", "width": 1}, name=f"{colour} hexes", hoverinfo="skip"))
    xs, ys = _xy([p for hex_ in view.hexes for p in _track(hex_)])
    traces.append(go.Scatter(x=xs, y=ys, mode="lines", line={"color": TRACK, "width": max(2.0, unit * 0.12)}, name="track",
                             hoverinfo="skip"))
    traces += [
        _hover_spots(view, unit),
        _stations(view, colours, unit),
        _stops(view, "t", "towns", {"symbol": "circle", "size": max(5.0, unit * 0.25), "color": TRACK}),
        _stops(view, "o", "offboards", {"symbol": "diamond", "size": max(6.0, unit * 0.3), "color": "#7a1f17"}),
        _names(view, unit),
    ]
    return go.Figure(data=traces, layout={  # made whole: plotly validates a figure again on every update
        "showlegend": False, "height": height, "margin": {"l": 0, "r": 0, "t": 0, "b": 0},
        "plot_bgcolor": "white", "paper_bgcolor": "white", "dragmode": "pan",
        "xaxis": {"visible": False, "scaleanchor": "y", "scaleratio": 1},
        "yaxis": {"visible": False},
    })


SLOT_SPACING = 0.5
"""Hex units between the centres of two station slots of one city."""


def _hover_spots(view: BoardView, unit: float) -> go.Scatter:
    """An invisible spot over each hex, so hovering anywhere on it names the hex, its location,
    its tile and its stations."""
    hovers = []
    for hex_ in view.hexes:
        tile = f"tile {hex_.tile}, rotation {hex_.rotation}" if hex_.tile else "as printed"
        stations = ", ".join(company or "free" for slots in hex_.cities for company in slots)
        hovers.append(f"<b>{hex_.hex}</b> {hex_.location or ''}<br>{tile}" + (f"<br>stations: {stations}" if stations else ""))
    xs, ys = _xy([centre(h) for h in view.hexes])
    return go.Scatter(x=xs, y=ys, mode="markers", name="hexes", hovertext=hovers, hoverinfo="text",
                      marker={"size": unit * 1.5, "color": "rgba(0,0,0,0)"})


def _stations(view: BoardView, colours: dict[str, str], unit: float) -> go.Scatter:
    """One marker per station slot, side by side in its city; a filled slot shows its company."""
    xs, ys, labels, fills, hovers = [], [], [], [], []
    for hex_ in view.hexes:
        stops = stop_positions(hex_)
        for index, slots in enumerate(hex_.cities):
            cx, cy = stops[f"c{index}"]
            for slot, company in enumerate(slots):
                xs.append(cx + (slot - (len(slots) - 1) / 2) * SLOT_SPACING)
                ys.append(cy)
                labels.append(company or "")
                fills.append(colours.get(company, "#555555") if company else "white")
                hovers.append(f"{hex_.hex} {hex_.location or ''}: {company or 'free slot'}")
    size = min(max(unit * SLOT_SPACING * 0.92, 9.0), 26.0)
    return go.Scatter(
        x=xs, y=ys, mode="markers+text", name="stations", text=labels, hovertext=hovers, hoverinfo="text",
        textfont={"size": min(max(size * 0.38, 6.0), 10.0), "color": "white"},
        marker={"size": size, "color": fills, "line": {"color": TRACK, "width": 1.5}},
    )


def _stops(view: BoardView, kind: str, name: str, marker: dict[str, object]) -> go.Scatter:
    points = [stop_positions(h)[f"{kind}{i}"] for h in view.hexes
              for i in range(h.towns if kind == "t" else h.offboards)]
    xs, ys = _xy(points)  # type: ignore[arg-type]
    return go.Scatter(x=xs, y=ys, mode="markers", name=name, marker=marker, hoverinfo="skip")


def _names(view: BoardView, unit: float) -> go.Scatter:
    """Location names in the lower part of each hex, below its stations; a long name is broken
    over two lines so it stays within its hex instead of running over the neighbours'."""
    xs, ys, names = [], [], []
    for hex_ in view.hexes:
        x, y = centre(hex_)
        xs.append(x)
        ys.append(y - 0.62)
        names.append(_wrapped(hex_.location or ""))
    return go.Scatter(x=xs, y=ys, mode="text", name="names", text=names, hoverinfo="skip",
                      textfont={"size": min(max(unit * 0.22, 6.0), 11.0), "color": "#333333"})


WRAP = 11
"""Characters after which a name is broken at a space."""


def _wrapped(name: str) -> str:
    if len(name) <= WRAP or " " not in name:
        return name
    middle = len(name) // 2
    cut = min((i for i, c in enumerate(name) if c == " "), key=lambda i: abs(i - middle))
    return f"{name[:cut]}<br>{name[cut + 1:]}"


def add_routes(figure: go.Figure, view: BoardView, routes: list[dict[str, Any]], name: str, colour: str,
               dash: str, shift: float = 0.0) -> None:
    """Draw a run's routes over the map, as the audit stores them (``stops``: [hex, node] pairs,
    ``connections``: the hexes each leg crosses): each leg a line through the centres of the
    hexes it crosses, starting and ending at its stops, with the train and revenue on hover.
    ``shift`` moves the lines up (a fraction of a hex) so two runs over the same track both show."""
    hexes = {h.hex: h for h in view.hexes}
    points: list[Point | None] = []
    hovers: list[str | None] = []
    for route in routes:
        stops = {hex_id: node for hex_id, node in route.get("stops", ())}
        for chain in route.get("connections", ()):
            for hex_id in (h for h in chain if h in hexes):
                node = stops.get(hex_id)
                points.append(stop_positions(hexes[hex_id]).get(node, centre(hexes[hex_id])) if node else centre(hexes[hex_id]))
                hovers.append(f"{name}: {route.get('train')} earns {route.get('revenue')}")
            points.append(None)
            hovers.append(None)
    xs, ys = _xy([None if p is None else (p[0], p[1] + shift) for p in points])
    figure.add_scatter(x=xs, y=ys, mode="lines+markers", name=name, hovertext=hovers, hoverinfo="text",
                       line={"color": colour, "width": 5, "dash": dash}, marker={"size": 7, "color": colour},
                       opacity=0.85)
