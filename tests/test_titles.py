"""The title registry: one list shared by ingest and the engine, with each title's player counts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from railledger.ingest import titles
from railledger.replay import titles as engine_titles

REPO = Path(__file__).resolve().parent.parent


def test_the_engine_uses_the_ingest_registry_itself() -> None:
    assert engine_titles.TITLES is titles.SLUGS
    assert engine_titles.is_known_title is titles.is_known_title
    assert engine_titles.SUPPORTED <= set(titles.SLUGS)


@pytest.mark.parametrize("title", titles.REGISTRY, ids=lambda t: t.slug)
def test_player_counts_are_those_of_the_title_data(title: titles.Title) -> None:
    """ingest keeps the counts as data; they must agree with the engine's published game data."""
    game = json.loads((REPO / "src" / "railledger" / "replay" / "titles" / title.slug / "game.json").read_text(encoding="utf-8"))
    assert game["title"] == title.name
    assert title.player_counts == tuple(sorted(int(n) for n in game["starting_cash"]))


def test_ingest_imports_nothing_of_the_engine() -> None:
    probe = "import sys, railledger.ingest.sources, railledger.ingest.schema; print(sorted(m for m in sys.modules if m.startswith('railledger.replay')))"
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, check=True)
    assert found.stdout.strip() == "[]"


def test_counts_read_as_a_sentence() -> None:
    assert (titles.counts_text((2, 3, 4)), titles.counts_text((3,)), titles.counts_text((3, 5))) == ("2 to 4", "3", "3 or 5")


@pytest.mark.parametrize("name", sorted(engine_titles.SUPPORTED))
def test_specs_found_by_symbol_are_the_first_a_scan_finds(name: str) -> None:
    """corporation_spec, company_spec and ability_of read an index by symbol made once per
    title: each answer must be the first spec of that symbol in the title's own tuple, also
    after a title replaces the tuple (1871 adds its branches and the PEIR)."""
    title = engine_titles.title_named(name)
    for corporation in title.corporations:
        assert title.corporation_spec(corporation.sym) is next(c for c in title.corporations if c.sym == corporation.sym)
    for company in title.companies:
        assert title.company_spec(company.sym) is next(c for c in title.companies if c.sym == company.sym)
        for ability in company.abilities:
            assert title.ability_of(company.sym, ability.type) is company.ability(ability.type)
    assert title.ability_of("no such private", "tile_lay") is None
    kept = title.corporations
    try:
        title.corporations = kept[1:]
        assert title.corporation_spec(kept[1].sym) is kept[1]
        with pytest.raises(KeyError):
            title.corporation_spec(kept[0].sym)
    finally:
        title.corporations = kept
