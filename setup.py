"""The build: pure Python, unless RAILLEDGER_MYPYC=1 asks for the compiled engine (docs/fast.md).

Everything else (name, dependencies, packages) is in pyproject.toml; this file only adds, when
asked, the engine's modules compiled to C extensions by mypyc. Building them needs mypy (which
brings mypyc), setuptools and a C compiler with Python's headers in the installing environment,
so the compiled build installs with ``--no-build-isolation`` (``make fast``).
"""

import os
import sys

from setuptools import setup

COMPILED = ("geometry", "hexgrid", "memo", "names", "network", "routes", "shape", "shares", "snapshot")
"""The modules of ``replay/`` mypyc compiles: the ones a replay spends most of its time in whose
classes no Python code subclasses and no code copies or reads through ``vars()``, weak references
or function attributes, which compiled classes do not have (docs/fast.md)."""


METADATA_ONLY = {"egg_info", "dist_info"}
"""The commands pip runs first, for the package's metadata alone: compiling for them would run
mypyc once more for nothing (minutes)."""


def compiled_engine() -> list:
    if os.environ.get("RAILLEDGER_MYPYC") != "1" or METADATA_ONLY & set(sys.argv[1:]):
        return []
    from mypyc.build import mypycify

    return mypycify([f"src/railledger/replay/{name}.py" for name in COMPILED], opt_level="3")


setup(ext_modules=compiled_engine())
