"""``railledger --help`` loads the command line only: the heavy libraries wait for the command that uses them,
``railledger games`` no more than it reads with, and the installed railledger adds no import hook that every
Python start would pay for."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from railledger.ingest import notation
from railledger.records import Archive

HEAVY = ("duckdb", "polars", "pyarrow", "plotly", "streamlit", "rich.console", "openskill", "distributed", "dask", "httpx",
         "tomlkit", "railledger.events",
         "railledger.replay", "railledger.records", "railledger.analytics", "railledger.dashboard", "railledger.selfplay.simulate",
         # the commands' own work, apart from the modules that declare them
         "railledger.pipeline", "railledger.crosscheck.reference", "railledger.crosscheck.shortfalls", "railledger.bench", "railledger.reports",
         "railledger.cli.ingesting", "railledger.cli.output")


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _run(code: str) -> tuple[set[str], str]:
    """The heavy modules a fresh interpreter holds after running ``code`` (listed on stderr), and
    what ``code`` printed on stdout."""
    probe = f"{code}\nimport sys\nsys.stderr.write('\\n'.join(sys.modules))"
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    modules = set(run.stderr.split())
    return {name for name in HEAVY if name in modules}, run.stdout


def _loaded_after(code: str) -> set[str]:
    return _run(code)[0]


def _command(*argv: str) -> str:
    """Code running ``railledger ARGV`` as the installed command does, asserting that it succeeds."""
    return (f"import sys\nsys.argv = {['railledger', *argv]!r}\nfrom railledger.cli.app import main\n"
            "try:\n    main()\nexcept SystemExit as done:\n    assert done.code in (0, None), done.code")


def test_importing_the_command_line_loads_no_heavy_library() -> None:
    assert _loaded_after("import railledger.cli.app") == set()


def test_help_loads_no_heavy_library() -> None:
    assert _loaded_after(_command("--help")) == set()


def test_listing_games_loads_neither_polars_nor_the_rules_engine(tmp_path: Path) -> None:
    """``railledger games`` prints a few dozen rows read as Python values, in plain columns: importing
    polars (a fifth of a second), the engine, or rich with its table layout (a tenth) would cost
    more than reading them from 100,000 games."""
    db = tmp_path / "archive.duckdb"
    with Archive.open(db) as archive:
        for path in sorted(EXAMPLES.glob("*.rln")):
            archive.store(notation.read(path.read_text(encoding="utf-8")))
    loaded, printed = _run(_command("games", "--title", "18MS", "--db", str(db)))
    assert "railledger/example-18ms-opening" in printed and "1 game in" in printed
    assert loaded >= {"duckdb", "railledger.records"}  # it did read the archive
    assert loaded & {"polars", "pyarrow", "railledger.replay", "railledger.analytics", "plotly", "streamlit", "openskill", "rich"} == set()


def test_the_probe_sees_a_heavy_library_when_one_is_loaded() -> None:
    assert _loaded_after("import railledger.pipeline.storing") >= {"duckdb", "railledger.replay", "railledger.records"}


def test_the_installed_railledger_puts_no_import_hook_in_every_python_start() -> None:
    """An editable install of a flat layout may be a setuptools finder module that the interpreter
    imports at each start, with pathlib, importlib.util and urllib (pyproject.toml names the root
    so that it is a path line instead)."""
    probe = ("import sys\nhooks = [*sys.meta_path, *sys.path_hooks]\n"
             "print(*sorted({getattr(h, '__module__', '') or '' for h in hooks}))")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert not [name for name in run.stdout.split() if name.startswith("__editable__")]


def test_the_command_runs_with_the_collector_on_and_the_start_frozen() -> None:
    """The start's objects are kept out of the garbage collector's walks (cli/__main__.py), and the
    collector is on again for the command's own work."""
    probe = ("import gc, sys\nsys.argv = ['railledger', '--help']\nimport railledger.cli.__main__ as start\n"
             "assert 'typer' not in sys.modules\n"
             "try:\n    start.main()\nexcept SystemExit as done:\n    assert done.code in (0, None), done.code\n"
             "print(gc.isenabled(), gc.get_freeze_count())")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    *helped, last = run.stdout.strip().splitlines()
    assert any("Usage: railledger" in line for line in helped)
    enabled, frozen = last.split()
    assert enabled == "True" and int(frozen) > 10_000
