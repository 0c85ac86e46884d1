"""railledger's undo and redo beside 18xx.games' own: the actions left standing by each.

18xx.games decides what an undo takes back when it loads a game (``filtered_actions`` of its
engine's base game); :mod:`railledger.ingest.undo` must keep exactly the same actions, and refuse
exactly the games that make it fail. :func:`reference_outcomes` asks the reference engine (the
ref18xx tools' copy, run by ``undo_filter.rb``) about each case; :func:`railledger_outcome` is
railledger's answer in the same form. Only an optional target runs the reference
(``make crosscheck-undo``); the tests hold its answers as recorded expectations.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from railledger.crosscheck import DEFAULT_TOOLS, TOOLS_ENV
from railledger.crosscheck.reference import extracted_engine, find_tools
from railledger.ingest.errors import RecordError
from railledger.ingest.undo import RawAction, standing_actions

FILTER = Path(__file__).parent / "undo_filter.rb"

Outcome = dict[str, Any]
"""``{"standing": [ids]}``: the ids of the actions left standing, chat included, in order; or
``{"refused": why}``: the game cannot be loaded."""


def railledger_outcome(actions: list[RawAction]) -> Outcome:
    """What railledger keeps of ``actions`` after their undos and redos, or that it refuses them."""
    try:
        return {"standing": [action["id"] for action in standing_actions(actions)]}
    except RecordError as exc:
        return {"refused": str(exc)}


def tools_folder() -> Path:
    """The ref18xx tools: ``$RAILLEDGER_REF18XX``, else beside the project's checkout."""
    return Path(os.environ.get(TOOLS_ENV) or DEFAULT_TOOLS)


def reference_outcomes(cases: Mapping[str, list[RawAction]], tools: Path) -> dict[str, Outcome] | str:
    """18xx.games' engine's outcome of each case, or why the engine cannot be run here."""
    found = find_tools(tools)
    if isinstance(found, str):
        return found
    engine = extracted_engine(found)
    if isinstance(engine, str):
        return engine
    done = subprocess.run(["ruby", str(FILTER), str(engine)], input=json.dumps(cases), capture_output=True, text=True)
    if done.returncode != 0:
        return f"the reference engine failed: {done.stderr.strip().splitlines()[-1:]}"
    outcomes: dict[str, Outcome] = json.loads(done.stdout)
    return outcomes
