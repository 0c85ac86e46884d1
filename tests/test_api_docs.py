"""docs/api.md cannot go stale: its ``python`` blocks run in order, as a reader would run them from
the repository's root, and every block written as an interactive session (``>>>``) must print what
the page shows.

The blocks run in one namespace in a fresh folder holding copies of the repository's ``examples/``
and ``tests/games/`` records, so the page's paths are the repository's own. A block without
``>>>`` is run as a script. Bots a block registers are forgotten afterwards, so the rest of the
suite sees the built-in ones only.
"""

from __future__ import annotations

import doctest
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from railledger.selfplay import bots

REPO = Path(__file__).resolve().parents[1]
PAGE = REPO / "docs" / "api.md"

_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def python_blocks(text: str) -> Iterator[tuple[int, str]]:
    """Each ``python`` block of a Markdown page, with the line (from 0) of its first line of code."""
    for match in _BLOCK.finditer(text):
        yield text.count("\n", 0, match.start(1)), match.group(1)


def run_page(text: str, name: str) -> list[str]:
    """Run a page's ``python`` blocks in order in one namespace, in the current folder; what went
    wrong, one report per block that failed (empty when every block ran and printed what it shows)."""
    namespace: dict[str, object] = {"__name__": "__main__"}
    parser = doctest.DocTestParser()
    problems = []
    for line, block in python_blocks(text):
        if ">>>" in block:
            runner = doctest.DocTestRunner(optionflags=FLAGS)
            said: list[str] = []
            test = parser.get_doctest(block, namespace, f"{name}:{line + 1}", name, line)
            runner.run(test, out=said.append, clear_globs=False)
            namespace.update(test.globs)  # a doctest runs in a copy of the names it is given
            if runner.failures:
                problems.append("".join(said))
        else:
            try:
                exec(compile("\n" * line + block, name, "exec"), namespace)
            except Exception as exc:  # the report names the page's line
                problems.append(f"{name}:{line + 1}: the block raised {type(exc).__name__}: {exc}")
    return problems


@pytest.fixture
def reader_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder laid out as the repository's root is for the page's paths, made current; the bots
    known before, known again after."""
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    shutil.copytree(REPO / "tests" / "games", tmp_path / "tests" / "games")
    monkeypatch.chdir(tmp_path)
    known = set(bots.bot_names())  # the built-in ones loaded first: they register on import, once
    try:
        yield tmp_path
    finally:
        for name in set(bots.BOTS) - known:
            del bots.BOTS[name]


def test_every_example_of_the_api_page_runs_and_prints_what_it_shows(reader_folder: Path) -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert len(list(python_blocks(text))) >= 10, "the page's examples were not found"
    assert run_page(text, "docs/api.md") == []


def test_a_page_that_shows_what_its_code_does_not_print_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check could fail: a wrong output, and a block that raises, are each reported with their line."""
    monkeypatch.chdir(tmp_path)
    page = "Intro\n\n```python\n>>> 1 + 1\n3\n```\n\n```python\nraise ValueError('no')\n```\n"
    problems = run_page(page, "page.md")
    assert len(problems) == 2
    assert "page.md" in problems[0] and "Expected:\n    3\nGot:\n    2" in problems[0]
    assert problems[1] == "page.md:9: the block raised ValueError: no"
