"""railledger installed as users install it: one name in site-packages, beside others' ``records`` and ``cli``.

The wheel is built from a copy of the project (the build writes into the tree it builds), with
the test environment's setuptools, then installed with its console script into a new virtual
environment that already holds two unrelated packages named ``records`` and ``cli``. The new
environment reaches railledger's dependencies through a path line to this environment's
site-packages, placed after its own, so nothing is fetched and its own packages come first.
"""

from __future__ import annotations

import shutil
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "src" / "railledger"
DATA_SUFFIXES = (".json", ".sql", ".md", ".rb")


def _pip(env: Path, *arguments: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", "--python", str(env / "bin" / "python"), "--disable-pip-version-check",
                    "install", "--quiet", "--no-deps", "--no-index", "--no-build-isolation", *arguments],
                   check=True, capture_output=True, timeout=300)


def _other_package(folder: Path, name: str) -> Path:
    """A project installing one module named ``name``, which says whose it is."""
    (folder / name).mkdir(parents=True)
    (folder / name / "__init__.py").write_text("OWNER = 'not railledger'\n")
    (folder / "pyproject.toml").write_text(
        f'[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n'
        f'[project]\nname = "other-{name}"\nversion = "1.0"\n[tool.setuptools]\npackages = ["{name}"]\n')
    return folder


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("source")
    shutil.copy(REPO / "pyproject.toml", source)
    shutil.copy(REPO / "README.md", source)
    shutil.copytree(PACKAGE, source / "src" / "railledger", ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("wheels")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index", "--no-build-isolation",
                    "--wheel-dir", str(out), str(source)], check=True, capture_output=True, timeout=300)
    (built,) = out.glob("railledger-*.whl")
    return built


@pytest.fixture(scope="module")
def environment(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    env = tmp_path_factory.mktemp("env")
    venv.create(env, with_pip=False)
    (own,) = (env / "lib").glob("python3*/site-packages")
    (own / "zz-railledger-dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    others = tmp_path_factory.mktemp("others")
    _pip(env, str(_other_package(others / "records", "records")), str(_other_package(others / "cli", "cli")))
    _pip(env, str(wheel))
    return env


def test_the_wheel_holds_one_top_level_name_with_its_types_and_data(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == {"railledger"}
    assert "railledger/py.typed" in names
    data = sorted(str(p.relative_to(PACKAGE.parent)) for p in PACKAGE.rglob("*")
                  if p.suffix in DATA_SUFFIXES and "__pycache__" not in p.parts)
    assert data and [name for name in data if name not in names] == []


def test_both_kinds_of_import_work_side_by_side(environment: Path) -> None:
    probe = ("import records, cli, railledger, railledger.records, railledger.cli.app\n"
             "from railledger.records import Archive\n"
             "print(records.OWNER, cli.OWNER, railledger.__file__, Archive.__module__, sep='\\n')")
    run = subprocess.run([str(environment / "bin" / "python"), "-c", probe], capture_output=True, text=True,
                         check=True, cwd=environment)
    owner_of_records, owner_of_cli, where, archive_module = run.stdout.splitlines()
    assert owner_of_records == owner_of_cli == "not railledger"
    assert where.startswith(str(environment)) and not where.startswith(str(REPO))
    assert archive_module == "railledger.records.archive"


def test_the_installed_command_ingests_and_lists(environment: Path, tmp_path: Path) -> None:
    db = tmp_path / "installed.duckdb"
    command = environment / "bin" / "railledger"
    ingest = subprocess.run([str(command), "ingest", str(REPO / "examples"), "--db", str(db), "--workers", "1"],
                            capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert ingest.returncode == 0, ingest.stderr
    listed = subprocess.run([str(command), "games", "--db", str(db)], capture_output=True, text=True, check=True,
                            cwd=tmp_path)
    assert f"{len(list((REPO / 'examples').glob('*.rln')))} games" in listed.stdout


def test_the_development_install_exposes_railledger_alone(tmp_path: Path) -> None:
    """The editable install's path line names src/, which holds railledger only: the project's
    rooms and its tests are not importable by a bare name (run from elsewhere than the checkout)."""
    probe = ("import importlib.util\n"
             "print([n for n in ('cli', 'records', 'replay', 'ingest', 'tests', 'railledger') if importlib.util.find_spec(n)])")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert run.stdout.strip() == "['railledger']"
