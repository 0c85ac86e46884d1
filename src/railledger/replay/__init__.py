"""The validating rules engine: generic 18xx mechanics, with titles as data plus overrides.

The engine's classes load on first use (PEP 562): a reader that only needs a constant of one of
its modules (a verdict's kinds, the titles with an engine) does not import every round and step.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from railledger.replay.errors import IllegalAction, Rule
    from railledger.replay.game import Game
    from railledger.replay.replayer import Flag, Replay, replay_record

_LAZY = {"IllegalAction": "railledger.replay.errors", "Rule": "railledger.replay.errors", "Game": "railledger.replay.game", "Flag": "railledger.replay.replayer",
         "Replay": "railledger.replay.replayer", "replay_record": "railledger.replay.replayer"}

ENGINE_VERSION = "steps-10"
"""The shared engine's version: changes whenever a replay of any title's record could give
different rows (the generic steps, rounds or state changed)."""


def engine_version(title: str, variant: str | None = None) -> str:
    """The version stored with a replayed game of ``title``: the shared engine's version and the
    title's own revision (``steps-4+g18ms.1``), so a change to one title's rules or data replays
    that title's games again at the next ingest, and a change to the shared engine every game.
    A game played with a ``variant`` (its TOML text) adds the variant's hash
    (``steps-4+g18ms.1+variant.3ed96fd94281``): its rows were made from other data than the base
    title's, so no version of the base title ever passes for it, nor it for the base title.

    Raises NotImplementedError for a title without an engine, as :func:`title_named` does.
    """
    from railledger.replay.titles import title_named
    from railledger.replay.variant import recorded_variant

    rules = title_named(title)
    version = f"{ENGINE_VERSION}+{rules.package}.{rules.revision}"
    return version if variant is None else f"{version}+variant.{recorded_variant(variant).short_hash}"


def engine_build() -> str:
    """"compiled" when the engine's modules that mypyc compiles (setup.py, ``make fast``,
    docs/fast.md) load as C extensions, else "pure": the bench names the build beside its figures,
    and CI's compiled regression gate asks it, so that the gate never runs the pure engine
    unawares."""
    spec = importlib.util.find_spec("railledger.replay.network")
    origin = spec.origin if spec is not None else None
    return "compiled" if origin is not None and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)) else "pure"


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'replay' has no attribute {name!r}")


__all__ = ["ENGINE_VERSION", "Flag", "Game", "IllegalAction", "Replay", "Rule", "engine_build", "engine_version", "replay_record"]
