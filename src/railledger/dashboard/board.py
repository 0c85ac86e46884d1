"""The map as a plotly figure: hexes at their doubled coordinates, track, stations, towns, and the
labels a player reads on a printed map: each location's name, each laid tile's number, each
stop's revenue, a hex's letter (OO, B, X: before a laid tile's number, which carries it).

Drawn from :class:`analytics.position.Position`. Hex size is 1 (centre to corner). On a pointy
map a doubled column step is sqrt(3)/2 wide and a row 1.5 high; on a flat map (1871) a column
is 1.5 wide and a doubled row sqrt(3)/2 high; y points down so the first row is on top.
Track runs from an edge's midpoint to the stop it serves, or between two edges as a curve bent
through the centre (a quadratic Bezier), which reads like the printed tiles' curves.

The figure is drawn at a fixed size in pixels (:func:`map_scale`), so that text, whose size is in
pixels, can be placed in pixels too: every label is placed clear of the others and of every
station by :mod:`dashboard.labels`, at :data:`TEXT` pixels or more. Hexes of a colour are one
trace (polygons separated by gaps), so a full map is a dozen traces, not hundreds.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from railledger.analytics.position import HexView, Position
from railledger.dashboard.colours import Look
from railledger.dashboard.labels import (Box, Occupied, Option, Placed, broken, free, label_box, make_room, place,
                                         text_size)
from railledger.replay.hexgrid import OFFSETS

HEX_COLOURS = {
    "white": "#f4f1e8", "yellow": "#f3dc4b", "green": "#72b86b", "brown": "#b98a5e",
    "gray": "#b4b4b4", "red": "#d9564a",
}
TRACK = "#222222"
GRID = {"pointy": (math.sqrt(3) / 2, 1.5, 30), "flat": (1.5, math.sqrt(3) / 2, 0)}
"""Layout -> (x step, y step, angle of the first corner in degrees)."""
CURVE_POINTS = 9
TEXT = 10.0
"""The smallest text on the map, in pixels: what a reader still reads at arm's length."""
MARGIN = 1.1
"""Hex units of white around the outermost hexes."""

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


def nodes(hex_: HexView) -> list[str]:
    """The hex's stops in the engine's node order (cities, towns, offboards), as ``revenues`` lists them."""
    return [f"c{i}" for i in range(len(hex_.cities))] + [f"t{i}" for i in range(hex_.towns)] + \
        [f"o{i}" for i in range(hex_.offboards)]


def stop_positions(hex_: HexView) -> dict[str, Point]:
    """Where each city/town/offboard of a hex sits: the centre when alone, else pulled toward
    the edges its track leaves by, so two stops of one hex do not overlap."""
    at = centre(hex_)
    stops = nodes(hex_)
    if len(stops) <= 1:
        return {node: at for node in stops}
    positions: dict[str, Point] = {}
    for index, node in enumerate(stops):
        edges = [int(end[1:]) for path in hex_.paths if node in path for end in path if end.startswith("e")]
        if edges:
            mids = [edge_midpoint(e, hex_) for e in edges]
            mx, my = sum(p[0] for p in mids) / len(mids), sum(p[1] for p in mids) / len(mids)
            positions[node] = (at[0] + (mx - at[0]) * 0.6, at[1] + (my - at[1]) * 0.6)
        else:
            angle = math.radians(90 - 360 * index / len(stops))
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


MAP_WIDTH, MAP_HEIGHT = 980, 830
"""The most pixels the map may take: its column beside the log and spreadsheet at 1600 x 1000."""
MOST_PER_HEX = 60.0
"""Pixels per hex unit at most: a small map is not blown up past a printed map's size."""


@dataclass(frozen=True, slots=True)
class Frame:
    """Where the map is drawn: its axes' ranges in hex units and pixels per unit."""

    x0: float
    x1: float
    y0: float
    y1: float
    unit: float

    @property
    def size(self) -> tuple[int, int]:
        """Width and height in pixels."""
        return round((self.x1 - self.x0) * self.unit), round((self.y1 - self.y0) * self.unit)

    def pixels(self, point: Point) -> Point:
        return (point[0] - self.x0) * self.unit, (point[1] - self.y0) * self.unit

    def units(self, x: float, y: float) -> Point:
        return x / self.unit + self.x0, y / self.unit + self.y0


def map_scale(view: Position, width: int = MAP_WIDTH, height: int = MAP_HEIGHT) -> Frame:
    """The frame that fits the whole map in ``width`` x ``height`` pixels: a wide map (1871) gets a
    low figure, a tall one (18Texas) a narrow one."""
    points = [centre(h) for h in view.hexes] or [(0.0, 0.0)]
    x0, x1 = min(p[0] for p in points) - MARGIN, max(p[0] for p in points) + MARGIN
    y0, y1 = min(p[1] for p in points) - MARGIN, max(p[1] for p in points) + MARGIN
    unit = min(width / (x1 - x0), height / (y1 - y0), MOST_PER_HEX)
    return Frame(x0, x1, y0, y1, unit)


def map_figure(view: Position, looks: dict[str, Look], frame: Frame | None = None) -> go.Figure:
    """The whole map at one step. Traces: one per hex colour, then track, hover spots, towns,
    offboards, stations, revenues, names, tile numbers and hex letters, each named so a test can
    find it. ``looks`` gives each company's colours (:func:`dashboard.colours.company_looks`)."""
    frame = frame or map_scale(view)
    by_colour: dict[str, list[Point | None]] = {}
    for hex_ in view.hexes:
        by_colour.setdefault(hex_.colour, []).extend([*corners(hex_), None])
    traces = []
    for colour, points in by_colour.items():
        xs, ys = _xy(points)
        traces.append(go.Scatter(x=xs, y=ys, mode="lines", fill="toself", fillcolor=HEX_COLOURS.get(colour, "#dddddd"),
                                 line={"color": "#8a8a8a", "width": 1}, name=f"{colour} hexes", hoverinfo="skip"))
    track = [p for hex_ in view.hexes for p in _track(hex_)]
    xs, ys = _xy(track)
    traces.append(go.Scatter(x=xs, y=ys, mode="lines", line={"color": TRACK, "width": max(2.0, frame.unit * 0.12)},
                             name="track", hoverinfo="skip"))
    layout = Layout(view, looks, frame, track)
    stops, labels = layout.stops(), layout.labels()
    traces += [layout.halos(), layout.leaders(), _hover_spots(view, frame), *stops, *labels]
    width, height = frame.size
    return go.Figure(data=traces, layout={  # made whole: plotly validates a figure again on every update
        "showlegend": False, "width": width, "height": height, "margin": {"l": 0, "r": 0, "t": 0, "b": 0},
        "plot_bgcolor": "white", "paper_bgcolor": "white", "dragmode": "pan",
        "xaxis": {"visible": False, "range": [frame.x0, frame.x1], "scaleanchor": "y", "scaleratio": 1},
        "yaxis": {"visible": False, "range": [frame.y0, frame.y1]},
    })


def _hover_spots(view: Position, frame: Frame) -> go.Scatter:
    """An invisible spot over each hex, so hovering anywhere on it names the hex, its location,
    its tile and its stations."""
    hovers = []
    for hex_ in view.hexes:
        tile = f"tile {hex_.tile}, rotation {hex_.rotation}" if hex_.tile else "as printed"
        stations = ", ".join(company or "free" for slots in hex_.cities for company in slots)
        revenue = ", ".join(f"${r}" for r in hex_.revenues)
        hovers.append(f"<b>{hex_.hex}</b> {hex_.location or ''}<br>{tile}" + (f"<br>revenue {revenue}" if revenue else "")
                      + (f"<br>stations: {stations}" if stations else ""))
    xs, ys = _xy([centre(h) for h in view.hexes])
    return go.Scatter(x=xs, y=ys, mode="markers", name="hexes", hovertext=hovers, hoverinfo="text",
                      marker={"size": frame.unit * 1.5, "color": "rgba(0,0,0,0)"})


LEADER = 0.75
"""Hex units between a name and its hex's stop beyond which a line joins them."""
SLOT = 0.5
"""A station slot's diameter in hex units (at least :data:`SLOT_PIXELS`)."""
SLOT_PIXELS = 20.0
"""Wide enough for a three-letter symbol at :data:`TEXT` pixels; a longer one (1871's PEIR) runs
over its circle's edge, and its city's box takes it in."""


def _in_a_row(count: int) -> tuple[Point, ...]:
    """Slot centres side by side, in slot diameters from the city's centre."""
    return tuple(((number - (count - 1) / 2), 0.0) for number in range(count))


SLOT_PLACES: dict[int, tuple[Point, ...]] = {
    3: ((0.0, 0.5), (-0.5, -0.37), (0.5, -0.37)),
    4: ((-0.5, 0.5), (0.5, 0.5), (-0.5, -0.5), (0.5, -0.5)),
}
"""Slot centres of a three- and a four-slot city in slot diameters: a triangle and a square, as
printed tiles draw them, so a big city is no wider than a two-slot one."""


class Layout:
    """Where the stations, towns and labels of one map go, in pixels: the stops first (they are
    where the track says), then each label where it covers none of them and no other label."""

    def __init__(self, view: Position, looks: dict[str, Look], frame: Frame, track: list[Point | None]) -> None:
        self.view, self.looks, self.frame = view, looks, frame
        width, height = frame.size
        self.bounds = Box(0, 0, width, height)
        self.taken = Occupied()
        for point in track:
            if point is not None:
                self.taken.add_point(*frame.pixels(point))
        self.slot = max(SLOT * frame.unit, SLOT_PIXELS)
        self.dot = max(0.22 * frame.unit, 8.0)
        self._hexes = {hex_.hex: hex_ for hex_ in view.hexes}
        self.spots: dict[tuple[str, str], Box] = {}  # (hex, node) -> the box its marker(s) cover
        self._haloed: list[Box] = []
        self._leaders: list[tuple[Point, Point] | None] = []
        self._stations: list[tuple[Point, str | None, str]] = []  # (pixel centre, company, hover)
        self._towns: list[Point] = []
        self._offboards: list[Point] = []
        for hex_ in view.hexes:
            self._lay_stops(hex_)

    def _lay_stops(self, hex_: HexView) -> None:
        positions = stop_positions(hex_)
        for index, slots in enumerate(hex_.cities):
            x, y = self.frame.pixels(positions[f"c{index}"])
            boxes = []
            for (dx, dy), company in zip(SLOT_PLACES.get(len(slots), _in_a_row(len(slots))), slots):
                at = (x + dx * self.slot, y + dy * self.slot)
                self._stations.append((at, company, f"{hex_.hex} {hex_.location or ''}: {company or 'free slot'}"))
                width = max(self.slot, text_size(company, TEXT)[0] + 2 if company else 0.0)
                boxes.append(Box.around(*at, width + 2, self.slot + 2))
            box = Box(min(b.x0 for b in boxes), min(b.y0 for b in boxes), max(b.x1 for b in boxes), max(b.y1 for b in boxes))
            self.spots[(hex_.hex, f"c{index}")] = box
            for slot_box in boxes:
                self.taken.add(slot_box)
        for kind, count, drawn in (("t", hex_.towns, self._towns), ("o", hex_.offboards, self._offboards)):
            for index in range(count):
                x, y = self.frame.pixels(positions[f"{kind}{index}"])
                drawn.append((x, y))
                box = Box.around(x, y, self.dot + 2, self.dot + 2)
                self.spots[(hex_.hex, f"{kind}{index}")] = box
                self.taken.add(box)

    def stops(self) -> list[go.Scatter]:
        """Towns, offboards and station slots (a company's colour and symbol in a filled one)."""
        towns = self._markers(self._towns, "towns", {"symbol": "circle", "size": self.dot, "color": TRACK})
        offboards = self._markers(self._offboards, "offboards", {"symbol": "diamond", "size": self.dot, "color": "#7a1f17"})
        xs, ys = self._units([at for at, _, _ in self._stations])
        companies = [company for _, company, _ in self._stations]
        stations = go.Scatter(
            x=xs, y=ys, mode="markers+text", name="stations", text=[c or "" for c in companies],
            hovertext=[hover for _, _, hover in self._stations], hoverinfo="text",
            textfont={"size": TEXT, "color": [self.looks[c].text if c in self.looks else "white" for c in companies]},
            marker={"size": self.slot - 2, "color": [self.looks[c].fill if c in self.looks else "#555555" if c else "white"
                                                     for c in companies],
                    "line": {"color": TRACK, "width": 1.5}},
        )
        return [towns, offboards, stations]

    def _units(self, points: list[Point]) -> tuple[np.ndarray, np.ndarray]:
        return _xy([self.frame.units(x, y) for x, y in points])

    def _markers(self, points: list[Point], name: str, marker: dict[str, object]) -> go.Scatter:
        xs, ys = self._units(points)
        return go.Scatter(x=xs, y=ys, mode="markers", name=name, marker=marker, hoverinfo="skip")

    def labels(self) -> list[go.Scatter]:
        """Revenues beside their stops, then hex letters, tile numbers and names, each placed
        clear of what is already there: the short labels that must stay in their hex first."""
        revenues = [self._revenue(hex_, node, revenue) for hex_ in self.view.hexes
                    for node, revenue in zip(nodes(hex_), hex_.revenues) if revenue]
        letters = [self._corner_label(hex_, hex_.label, 2) for hex_ in self.view.hexes if hex_.label and not hex_.tile]
        tiles = [self._corner_label(hex_, f"{hex_.label} {hex_.tile}" if hex_.label else hex_.tile, 5)
                 for hex_ in self.view.hexes if hex_.tile]
        # names last, as they may reach out of their hex; those with the fewest free places first
        options = {hex_.hex: self._name_options(hex_) for hex_ in self.view.hexes if hex_.location}
        size = self._name_size()
        order = sorted(options, key=lambda h: (free(options[h], size, self.taken, self.bounds), -len(options[h][0].text)))
        homes = {h: self._hex_box(self._hexes[h]) for h in order}
        placed = {h: place(options[h], size, self.taken, self.bounds, homes[h]) for h in order}
        for h in order:
            if not placed[h].clear:
                placed.update(make_room(h, placed, options, size, self.taken, self.bounds, homes))
        names = list(placed.values())
        self._leaders = [self._leader(self._hexes[h], placed[h].box) for h in order]
        self._haloed = [p.box for p in (*tiles, *names)]
        return [
            self._text(revenues, "revenues", {"size": TEXT, "color": "#111111"}, circled=True),
            self._text(names, "names", {"size": self._name_size(), "color": "#222222"}),
            self._text(letters, "hex letters", {"size": TEXT, "color": "#111111", "weight": "bold"}),
            self._text(tiles, "tile numbers", {"size": TEXT, "color": "#4d4d4d"}),
        ]

    def _name_size(self) -> float:
        return max(TEXT, min(12.0, self.frame.unit * 0.24))

    def _hex_box(self, hex_: HexView) -> Box:
        x, y = self.frame.pixels(centre(hex_))
        half = self.frame.unit
        return Box(x - half, y - half, x + half, y + half)

    def _revenue(self, hex_: HexView, node: str, revenue: int) -> Placed:
        """A stop's revenue in a small white circle touching the stop: left of it, else right,
        above, below, or diagonally."""
        spot = self.spots[(hex_.hex, node)]
        x, y = (spot.x0 + spot.x1) / 2, (spot.y0 + spot.y1) / 2
        text = str(revenue)
        radius = label_box(text, TEXT, 0, 0, circled=True).x1
        half_w, half_h = (spot.x1 - spot.x0) / 2 + radius + 1, (spot.y1 - spot.y0) / 2 + radius + 1
        options = [Option(text, x + dx * half_w, y + dy * half_h)
                   for dx, dy in ((-1, 0), (1, 0), (0, 1), (0, -1), (-1, 1), (1, 1), (-1, -1), (1, -1))]
        return place(options, TEXT, self.taken, self.bounds, self._hex_box(hex_), circled=True)

    def _name_options(self, hex_: HexView) -> list[Option]:
        """Where a location's name may go: below its stops, else above them, else beside them,
        nearer first, broken over up to three lines when it does not fit whole."""
        size = self._name_size()
        x, y = self.frame.pixels(centre(hex_))
        stops = [box for (at, _), box in self.spots.items() if at == hex_.hex]
        top = max((b.y1 for b in stops), default=y)
        bottom = min((b.y0 for b in stops), default=y)
        left = min((b.x0 for b in stops), default=x)
        right = max((b.x1 for b in stops), default=x)
        options = []
        for lines in (1, 2, 3):
            text = broken(hex_.location or "", lines)
            width, height = text_size(text, size)
            if not stops:
                options.append(Option(text, x, y))
            for gap in (2.0, 0.15 * self.frame.unit, 0.4 * self.frame.unit, 0.7 * self.frame.unit, 1.0 * self.frame.unit):
                below, above = bottom - gap - height / 2, top + gap + height / 2
                aside_left, aside_right = left - gap - width / 2, right + gap + width / 2
                options += [Option(text, x, below), Option(text, x, above), Option(text, aside_left, y),
                            Option(text, aside_right, y), Option(text, aside_left, below), Option(text, aside_right, below),
                            Option(text, aside_left, above), Option(text, aside_right, above)]
        return options

    def _corner_label(self, hex_: HexView, text: str, first: int) -> Placed:
        """A short label in a corner of its hex, trying the corners from ``first`` round, then the
        middles of the sides."""
        x, y = self.frame.pixels(centre(hex_))
        angle0 = GRID[hex_.layout][2]
        width, height = text_size(text, TEXT)
        options = []
        for reach, offset in ((0.62, 0.0), (0.5, 30.0), (0.78, 0.0), (0.72, 30.0), (0.45, 0.0), (0.9, 15.0),
                              (0.9, 45.0), (1.0, 0.0), (0.3, 0.0), (0.3, 30.0), (1.15, 30.0), (1.3, 30.0), (1.2, 15.0),
                              (1.2, 45.0)):
            for k in range(6):
                angle = math.radians(angle0 + offset + 60 * ((first + k) % 6))
                options.append(Option(text, x + math.cos(angle) * (reach * self.frame.unit - width / 2),
                                      y + math.sin(angle) * (reach * self.frame.unit - height / 2)))
        return place(options, TEXT, self.taken, self.bounds, self._hex_box(hex_))

    def _leader(self, hex_: HexView, box: Box) -> tuple[Point, Point] | None:
        """A line from a name that had to go beyond its hex to the hex's first stop (its centre
        without one), so that the reader knows which place it names; None for a name beside it."""
        stops = [b for (at, _), b in self.spots.items() if at == hex_.hex]
        x, y = ((stops[0].x0 + stops[0].x1) / 2, (stops[0].y0 + stops[0].y1) / 2) if stops else self.frame.pixels(centre(hex_))
        near = (min(max(x, box.x0), box.x1), min(max(y, box.y0), box.y1))
        if math.dist(near, (x, y)) <= LEADER * self.frame.unit:
            return None
        return near, (x, y)

    def leaders(self) -> go.Scatter:
        """The lines of :meth:`_leader`, one trace."""
        points: list[Point | None] = []
        for line in self._leaders:
            if line is not None:
                points += [self.frame.units(*line[0]), self.frame.units(*line[1]), None]
        xs, ys = _xy(points)
        return go.Scatter(x=xs, y=ys, mode="lines", line={"color": "#555555", "width": 1}, name="leaders",
                          hoverinfo="skip")

    def halos(self) -> go.Scatter:
        """A pale box under each name and tile number, so that track under them does not cross
        out their letters."""
        corners: list[Point | None] = []
        for box in self._haloed:
            corners += [*(self.frame.units(x, y) for x, y in ((box.x0, box.y0), (box.x1, box.y0), (box.x1, box.y1),
                                                               (box.x0, box.y1), (box.x0, box.y0))), None]
        xs, ys = _xy(corners)
        return go.Scatter(x=xs, y=ys, mode="lines", fill="toself", fillcolor="rgba(255,255,255,0.72)",
                          line={"width": 0}, name="halos", hoverinfo="skip")

    def _text(self, placed: list[Placed], name: str, font: dict[str, Any], circled: bool = False) -> go.Scatter:
        xs, ys = self._units([(p.x, p.y) for p in placed])
        marker = {"size": [p.box.x1 - p.box.x0 for p in placed], "color": "white",
                  "line": {"color": TRACK, "width": 1}} if circled else None
        return go.Scatter(x=xs, y=ys, mode="markers+text" if circled else "text", name=name,
                          text=[p.text for p in placed], textfont=font, hoverinfo="skip", marker=marker,
                          customdata=[p.clear for p in placed])


def unclear(figure: go.Figure) -> Iterator[str]:
    """The text of every label the layout could not place clear of the others (none, on the three
    titles' maps: the tests hold them to it)."""
    for trace in figure.data:
        if trace.customdata is not None and trace.text is not None:
            yield from (text for text, clear in zip(trace.text, trace.customdata) if not clear)


def add_routes(figure: go.Figure, view: Position, routes: list[dict[str, Any]], name: str, colour: str,
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
