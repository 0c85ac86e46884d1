"""The game review's step change, timed as a player meets it: the Next button pressed on the
Game review page, which reruns the page's script on the server (the position replayed from the
record to the new action, the map laid out, the spreadsheet and the log written) with the game's
tables already read, as after its first load.

The archive is the demo's: the bench's records, plus a copy of the first one that has a tile
lay moved off its company's network, so an illegal game is timed too. From a quarter, a half
and three quarters of each game, Next is pressed :data:`PRESSES` times; the section gives each
game's median and slowest step and the median over all of them (the target: under a second).
"""

from __future__ import annotations

import dataclasses
import statistics
import tempfile
import time
from pathlib import Path

from railledger.bench.figures import dashboard_on, machine
from railledger.bench.sections import Section
from railledger.ingest import notation
from railledger.ingest.model import Record
from railledger.ingest.sources import read_record
from railledger.pipeline.ingesting import ingest_paths
from railledger.records import Archive
from railledger.replay import Game

PRESSES = 5
"""Next presses timed from each starting point."""
STARTS = (0.25, 0.5, 0.75)
"""Where in a game (a fraction of its actions) the presses start."""
TARGET_S = 1.0


def review_section(files: list[Path]) -> Section:
    """The step-change section, measured on an archive built from ``files`` in a temporary folder."""
    with tempfile.TemporaryDirectory() as folder:
        records = [read_record(str(path)) for path in files]
        moved = moved_tile_copy(records)
        paths = [str(path) for path in files]
        if moved is not None:
            copy = Path(folder) / "moved.rln"
            copy.write_text(notation.write(moved), encoding="utf-8")
            paths.append(str(copy))
        db = Path(folder) / "demo.duckdb"
        ingest_paths(paths, db)
        with Archive.open(db, read_only=True) as archive:
            games = [(key, archive.table("steps", key)["action_id"].to_list()) for key in archive.game_keys()]
        timed = [(key, len(labels), step_times(db, key, labels)) for key, labels in games if labels]
    section = Section(f"game review: a step change (Next: the page's script rerun on the server), on {machine()}",
                      ("game", "actions", "steps timed", "median s", "slowest s"))
    section.rows += [(key, str(actions), str(len(times)), f"{statistics.median(times):.3f}", f"{max(times):.3f}")
                     for key, actions, times in timed]
    every = [t for _, _, times in timed for t in times]
    if every:
        median = statistics.median(every)
        verdict = "under" if median < TARGET_S else "over"
        section.lines.append(f"median of all {len(every)} steps: {median:.3f} s, {verdict} the {TARGET_S:.0f} s target"
                             + ("" if moved is None else f"; the illegal copy is {moved.key}"))
    return section


def step_times(db: Path, key: str, labels: list[str]) -> list[float]:
    """Seconds each Next press takes on the review of ``key`` (its actions' ``labels`` in order),
    from each of :data:`STARTS`; the page is opened there first (not timed)."""
    from streamlit.testing.v1 import AppTest  # only this benchmark needs Streamlit

    times = []
    with dashboard_on(db) as app_file:
        for start in STARTS:
            app = AppTest.from_file(app_file, default_timeout=120)
            app.query_params.update(game=key, action=labels[int(len(labels) * start)])
            app.switch_page("views/review.py").run()
            for _ in range(PRESSES):
                began = time.perf_counter()
                app.button(key="next").click().run()
                times.append(time.perf_counter() - began)
            if app.exception:
                raise RuntimeError(f"review of {key}: {app.exception[0].message}")
    return times


def moved_tile_copy(records: list[Record]) -> Record | None:
    """A copy of the first record that has a company's tile lay, that lay moved to the first hex
    (in the map's order) where the engine refuses it, under the game id ``<id>-moved``: the game
    up to it is the record's, so the moved lay is the copy's first root cause. None when no record
    has a lay that can be moved so."""
    for record in records:
        found = next(((i, a) for i, a in enumerate(record.actions)
                      if a.type == "lay_tile" and a.entity.kind == "corporation"), None)
        if found is None:
            continue
        index, lay = found
        game = Game.from_record(record)
        for action in record.actions[:index]:
            game.process(action)
        for hex_id in sorted(game.title.map):
            moved = dataclasses.replace(lay, fields={**lay.fields, "hex": hex_id})
            if not game.is_legal(moved):
                return dataclasses.replace(record, game_id=f"{record.game_id}-moved",
                                           actions=(*record.actions[:index], moved, *record.actions[index + 1:]))
    return None
