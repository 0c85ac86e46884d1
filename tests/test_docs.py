"""The docs stay honest: every relative link leads to a file or folder of the repository, every
path and module a page names in code exists, every railledger import in a page's Python works, and
no line speaks of how the work went rather than of the project.

The pages are README.md, everything under docs/ and the titles' notes beside their data. The words
that narrate the work are those the repository's before-stop hook looks for; when the hook is at
hand (``hooks/before-stop`` beside the shared fixtures), a test holds this list to it.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import fixtures_dir

REPO = Path(__file__).resolve().parents[1]
SOURCE = REPO / "src"
PAGES = sorted([REPO / "README.md", *(REPO / "docs").rglob("*.md"), *(SOURCE / "railledger").rglob("*.md")])
HOOK = fixtures_dir().parent / "hooks" / "before-stop"
"""The before-stop hook, in the shared folder that holds the fixtures."""

NARRATION_WORDS = tuple((Path(__file__).parent / "narration-words.txt").read_text(encoding="utf-8").splitlines())
"""What the before-stop hook finds in a line that narrates the work (its ``grep -E`` alternatives),
kept in a text file so that the hook, which reads Markdown and Python, does not find them here."""
NARRATION = re.compile(r"\b(" + "|".join(NARRATION_WORDS) + r")\b|\bbranch `?mypyc|\bmypyc`? branch", re.IGNORECASE)
"""Those words, and the compiled engine's branch, which no repository holds."""

ROOMS = ("ingest", "replay", "records", "selfplay", "analytics", "pipeline", "reports", "dashboard", "crosscheck",
         "bench", "cli")
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_PATH = re.compile(r"(?:src|tests|docs|examples)/[\w.-]+(?:/[\w.-]+)*/?")
_OLD_PATH = re.compile(r"(?:" + "|".join(ROOMS) + r")/[\w.-]+(?:/[\w.-]+)*/?")
_MODULE = re.compile(r"railledger(?:\.(?!duckdb\b)\w+)+")
_PYTHON = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def _name(page: Path) -> str:
    return str(page.relative_to(REPO)) if page.is_relative_to(REPO) else page.name


def prose(text: str) -> str:
    """A page without its fenced code blocks (kept as blank lines, so line numbers hold)."""
    return _FENCE.sub(lambda block: "\n" * block.group(0).count("\n"), text)


def links(page: Path) -> Iterator[str]:
    """The targets of a page's Markdown links outside code."""
    text = _CODE_SPAN.sub("", prose(page.read_text(encoding="utf-8")))
    yield from (match.group(1) for match in _LINK.finditer(text))


def code_spans(page: Path) -> Iterator[str]:
    """The text of every inline code span of a page's prose."""
    yield from (match.group(2).strip() for match in _CODE_SPAN.finditer(prose(page.read_text(encoding="utf-8"))))


def anchors(page: Path) -> set[str]:
    """The places a link may name in a page: its headings as GitHub makes them anchors (lower
    case, punctuation dropped, spaces as hyphens)."""
    headings = re.findall(r"^#+\s+(.*?)\s*$", prose(page.read_text(encoding="utf-8")), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()).replace(" ", "-")
            for heading in headings}


def broken_links(page: Path, root: Path = REPO) -> list[str]:
    """Relative links of a page whose target is not a file or folder inside ``root``, or names a
    heading its Markdown page does not have."""
    broken = []
    for target in links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue  # a web address
        file, _, place = target.partition("#")
        path = (page.parent / file.split("?")[0]).resolve() if file else page
        if not path.exists() or not path.is_relative_to(root):
            broken.append(target)
        elif place and path.suffix == ".md" and place not in anchors(path):
            broken.append(target)
    return broken


def missing_paths(page: Path) -> list[str]:
    """Paths a page names in code (``src/...``, ``tests/...``, ``docs/...``, ``examples/...``) that
    are not in the repository, and paths of the layout before ``src/railledger`` (``records/x.py``)."""
    missing = []
    for span in code_spans(page):
        if _PATH.fullmatch(span) and not (REPO / span).exists():
            missing.append(span)
        elif _OLD_PATH.fullmatch(span) and not (page.parent / span).exists():
            missing.append(f"{span} (write src/railledger/{span})")
    return missing


def _module_file(name: str) -> Path | None:
    base = SOURCE.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def unknown_modules(page: Path) -> list[str]:
    """``railledger.a.b.name`` references in a page's code spans whose module does not exist, or
    whose module does not define or import ``name``."""
    unknown = []
    for span in code_spans(page):
        for reference in _MODULE.findall(span):
            parts = reference.split(".")
            found = next(((n, path) for n in range(len(parts), 0, -1)
                          if (path := _module_file(".".join(parts[:n]))) is not None), None)
            if found is None:
                unknown.append(reference)
                continue
            count, path = found
            if count < len(parts):
                name = parts[count]
                defined = re.compile(rf"(?:def|class)\s+{name}\b|^\s*{name}\s*[:=]|import\b.*\b{name}\b|\"{name}\"",
                                     re.MULTILINE)
                if not defined.search(path.read_text(encoding="utf-8")):
                    unknown.append(reference)
    return unknown


def broken_imports(text: str) -> list[str]:
    """The railledger imports of a page's ``python`` blocks (sessions with ``>>>`` too) that fail:
    a module that does not exist, or a name it does not have."""
    broken = []
    for block in _PYTHON.findall(text):
        source = "\n".join(line[4:] if line.startswith((">>> ", "... ")) else line for line in block.splitlines()
                           if not re.match(r"\s*(Traceback|\.\.\.$)", line))
        try:
            tree = ast.parse(source)
        except SyntaxError:  # a sketch with gaps: its import lines alone
            tree = ast.parse("\n".join(line for line in source.splitlines() if re.match(r"(from|import) ", line)))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("railledger"):
                names = [f"{node.module}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names if alias.name.startswith("railledger")]
            else:
                continue
            broken.extend(name for name in names if not _importable(name))
    return broken


def _importable(name: str) -> bool:
    """Whether ``name`` is a module, or a name a module has."""
    try:
        importlib.import_module(name)
        return True
    except ModuleNotFoundError:
        module, _, attribute = name.rpartition(".")
        try:
            return hasattr(importlib.import_module(module), attribute)
        except ModuleNotFoundError:
            return False


def narrating_lines(page: Path) -> list[str]:
    """The lines of a page (code included) that speak of how the work went, each as ``page:line: text``."""
    return [f"{_name(page)}:{number}: {line.strip()}"
            for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1) if NARRATION.search(line)]


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_relative_link_leads_into_the_repository(page: Path) -> None:
    assert broken_links(page) == []


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_path_named_in_code_exists(page: Path) -> None:
    assert missing_paths(page) == []


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_module_named_in_code_exists(page: Path) -> None:
    assert unknown_modules(page) == []


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_railledger_import_in_a_python_block_works(page: Path) -> None:
    assert broken_imports(page.read_text(encoding="utf-8")) == []


def test_no_page_narrates_how_the_work_went() -> None:
    assert [line for page in PAGES for line in narrating_lines(page)] == []


def test_the_narration_words_are_the_before_stop_hooks() -> None:
    if not HOOK.is_file():
        pytest.skip(f"the before-stop hook is not at {HOOK}")
    pattern = re.search(r"grep -rnE '\\b\(([^)]*)\)\\b'", HOOK.read_text(encoding="utf-8"))
    assert pattern is not None, "the hook's word list was not found"
    assert set(pattern.group(1).split("|")) == set(NARRATION_WORDS)


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """Each check could fail: a page with a broken link, a missing path, a path of the old layout,
    an unknown module, a line of narration and imports that fail is caught on each count; its
    fenced code is not read for links and paths."""
    page = tmp_path / "page.md"
    page.write_text("See [schema](schema.md), [gone](gone.md), [away](../../outside.md) and [web](https://x.org).\n"
                    "See [tables](schema.md#the-tables-railledger-keeps), [no such](schema.md#nothing), [here](#see).\n"
                    "Code in `src/railledger/nothing.py`, `tests/test_docs.py`, `records/verified.py`, "
                    "`railledger.pipeline.workers.COLLECT_SECONDS` and `railledger.cli.workers`.\n"
                    f"Measured before {NARRATION_WORDS[0]} by {NARRATION_WORDS[3]}.\n"
                    "```\n[fenced](nowhere.md) `src/nowhere.py`\n```\n", encoding="utf-8")
    (tmp_path / "schema.md").write_text("# Schema\n\n## The tables `railledger` keeps\n", encoding="utf-8")
    assert broken_links(page, root=tmp_path) == ["gone.md", "../../outside.md", "schema.md#nothing", "#see"]
    assert missing_paths(page) == ["src/railledger/nothing.py", "records/verified.py (write src/railledger/records/verified.py)"]
    assert unknown_modules(page) == ["railledger.cli.workers"]
    assert [line.split(": ", 1)[1] for line in narrating_lines(page)] == [
        f"Measured before {NARRATION_WORDS[0]} by {NARRATION_WORDS[3]}."]
    session = "```python\n>>> from railledger.records import Archive, Nothing\n>>> import railledger.cli.workers\n```\n"
    assert broken_imports(session) == ["railledger.records.Nothing", "railledger.cli.workers"]
