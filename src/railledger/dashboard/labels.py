"""Placing a map's labels so that none covers another, nor a station, in pixels as drawn.

Plotly draws text where it is told and never moves it, so the map decides every label's place
itself: each label offers a few places in its order of preference (a name below its city, else
above, else beside, broken over more lines), and :func:`place` takes, label by label, the
preferred place that covers no placed label and no obstacle (a station, a town), covering as
little track as it can. Text is measured with Source Sans' advance widths (the font Streamlit
draws chart text in), rounded up, so what is placed apart here stays apart in the browser; the
browser test measures the drawn text to hold the map to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

_GROUPS = {
    0.22: " ", 0.28: "ijlI.,:;'!|", 0.33: "()[]-", 0.37: 'frt/"', 0.45: "sz?", 0.49: "cvxy*",
    0.52: "aek0123456789$+<=>#^~_FLJY", 0.57: "bdghnopquAESTVXZ", 0.61: "BCKPR", 0.64: "&DG", 0.68: "HNOQU",
    0.75: "Mw", 0.82: "W", 0.86: "m@%",
}
WIDTHS = {c: width for width, chars in _GROUPS.items() for c in chars}
"""Advance widths in ems: Source Sans' own (digits 0.50, ``i`` 0.25, ``m`` 0.83...) rounded up by
about 0.02; a character not listed counts as :data:`WIDE`."""
WIDE = 0.6
LINE = 1.3
"""Plotly's line spacing, in ems."""
HEIGHT = 1.34
"""One line's box (the font's ascent and descent), in ems."""
BREAK = "<br>"


@lru_cache(maxsize=4096)
def text_size(text: str, size: float) -> tuple[float, float]:
    """Width and height in pixels of ``text`` (lines broken at ``<br>``) at font ``size``."""
    lines = text.split(BREAK)
    width = max(sum(WIDTHS.get(c, WIDE) for c in line) for line in lines) * size
    return width, ((len(lines) - 1) * LINE + HEIGHT) * size


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle in pixels: left, bottom, right, top (y up, as the map's axes)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @classmethod
    def around(cls, x: float, y: float, width: float, height: float) -> Box:
        return cls(x - width / 2, y - height / 2, x + width / 2, y + height / 2)

    def meets(self, other: Box) -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1

    def holds(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    def inside(self, other: Box) -> bool:
        return other.x0 <= self.x0 and self.x1 <= other.x1 and other.y0 <= self.y0 and self.y1 <= other.y1


@dataclass(frozen=True, slots=True)
class Option:
    """One place a label may take: its text as broken there, and its centre in pixels."""

    text: str
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Placed:
    """A label where :func:`place` put it: ``clear`` is False when every place it offered was taken,
    so it covers something (the map's tests hold every label of the three titles to clear)."""

    text: str
    x: float
    y: float
    size: float
    box: Box
    clear: bool


CELL = 48.0
"""Pixels per side of the grid that finds what a box may meet without looking at everything."""


class Occupied:
    """Boxes and track points already on the map, found by grid cell."""

    def __init__(self) -> None:
        self.boxes: dict[tuple[int, int], list[Box]] = {}
        self.points: dict[tuple[int, int], list[tuple[float, float]]] = {}

    @staticmethod
    def _cells(box: Box) -> Iterable[tuple[int, int]]:
        for i in range(int(box.x0 // CELL), int(box.x1 // CELL) + 1):
            for j in range(int(box.y0 // CELL), int(box.y1 // CELL) + 1):
                yield i, j

    def add(self, box: Box) -> None:
        for cell in self._cells(box):
            self.boxes.setdefault(cell, []).append(box)

    def remove(self, box: Box) -> None:
        for cell in self._cells(box):
            self.boxes[cell].remove(box)

    def add_point(self, x: float, y: float) -> None:
        self.points.setdefault((int(x // CELL), int(y // CELL)), []).append((x, y))

    def blocked(self, box: Box) -> bool:
        return any(other.meets(box) for cell in self._cells(box) for other in self.boxes.get(cell, ()))

    def track_under(self, box: Box) -> int:
        return sum(box.holds(x, y) for cell in self._cells(box) for x, y in self.points.get(cell, ()))


def label_box(text: str, size: float, x: float, y: float, circled: bool = False) -> Box:
    """The box a label covers centred at (x, y); a ``circled`` one, the square around its circle."""
    width, height = text_size(text, size)
    if circled:
        width = height = max(width, height) + 2
    return Box.around(x, y, width, height)


def place(options: Sequence[Option], size: float, taken: Occupied, bounds: Box, home: Box | None = None,
          circled: bool = False) -> Placed:
    """Put one label at the first of its ``options`` that is inside ``bounds`` and meets nothing
    ``taken`` holds, preferring, among the first few such, one over less track and inside its
    ``home`` (its hex's box); then mark its box taken. When every option is blocked the first one
    is used and the label is not ``clear``."""
    best: tuple[float, Option, Box] | None = None
    for rank, option in enumerate(options):
        box = label_box(option.text, size, option.x, option.y, circled)
        if not box.inside(bounds) or taken.blocked(box):
            continue
        cost = rank + 2 * taken.track_under(box) + (0 if home is None or box.inside(home) else 3)
        if best is None or cost < best[0]:
            best = (cost, option, box)
        if cost == rank:  # nothing better can follow a free place in the preferred order
            break
    if best is None:
        first = options[0]
        box = label_box(first.text, size, first.x, first.y, circled)
        taken.add(box)
        return Placed(first.text, first.x, first.y, size, box, clear=False)
    _, option, box = best
    taken.add(box)
    return Placed(option.text, option.x, option.y, size, box, clear=True)


def make_room(label: str, placed: Mapping[str, Placed], options: Mapping[str, Sequence[Option]], size: float,
              taken: Occupied, bounds: Box, homes: Mapping[str, Box]) -> dict[str, Placed]:
    """Labels moved so that ``label``, which found no free place, gets one: a place of it that
    only one other placed label blocks, that label then moved to another of its places. Returns
    the two labels as moved, or nothing when no such swap clears both."""
    stuck = placed[label]
    taken.remove(stuck.box)
    for option in options[label]:
        box = label_box(option.text, size, option.x, option.y)
        if not box.inside(bounds):
            continue
        blockers = [other for other, at in placed.items() if other != label and at.clear and at.box.meets(box)]
        if len(blockers) != 1:
            continue
        (other,) = blockers
        taken.remove(placed[other].box)
        if not taken.blocked(box):
            taken.add(box)
            moved = place(options[other], size, taken, bounds, homes[other])
            if moved.clear:
                return {label: Placed(option.text, option.x, option.y, size, box, clear=True), other: moved}
            taken.remove(moved.box)
            taken.remove(box)
        taken.add(placed[other].box)
    taken.add(stuck.box)
    return {}


def free(options: Sequence[Option], size: float, taken: Occupied, bounds: Box) -> int:
    """How many of a label's ``options`` are open now: the labels with fewest are placed first,
    before the others take their room."""
    return sum(1 for o in options if (box := label_box(o.text, size, o.x, o.y)).inside(bounds) and not taken.blocked(box))


def broken(text: str, lines: int) -> str:
    """``text`` over ``lines`` lines at spaces, the lines as even as the words allow (fewer
    lines when it has fewer words); a one-letter word ("&") stays on the line before it."""
    words = text.split()
    if lines <= 1 or len(words) <= 1:
        return text
    lines = min(lines, len(words))
    target = len(text) / lines
    out: list[str] = []
    line = ""
    for word in words:
        if line and len(word) > 1 and len(line) + 1 + len(word) / 2 > target and len(out) < lines - 1:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return BREAK.join([*out, line])
