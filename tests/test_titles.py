"""The title registry: one list shared by ingest and the engine, with each title's player counts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from railledger.ingest import titles
from railledger.ingest.model import Player
from railledger.replay import Game
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


NAMED_COLOURS = {"black": (0, 0, 0), "white": (255, 255, 255), "red": (255, 0, 0), "green": (0, 128, 0),
                 "blue": (0, 0, 255), "orange": (255, 165, 0), "darkmagenta": (139, 0, 139)}
"""The CSS colour names the titles' data use (18xx.games writes some colours by name)."""


def _rgb(colour: str) -> tuple[int, int, int]:
    if colour.startswith("#"):
        return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
    return NAMED_COLOURS[colour]


@pytest.mark.parametrize("name", sorted(engine_titles.SUPPORTED))
def test_every_company_has_its_data_colours_and_no_two_of_a_title_look_alike(name: str) -> None:
    """Each corporation (1871's branches and PEIR included) carries the colour and symbol colour
    its title's data give it, as 18xx.games draws it, and within a title any two colours are far
    apart (at least 50 in RGB: a gray and a lavender, the closest pair, are 57 apart)."""
    title = engine_titles.title_named(name)
    raw = json.loads((REPO / "src" / "railledger" / "replay" / "titles" / title.package / "companies.json").read_text())
    written = {c["sym"]: c for c in [*raw["corporations"], *raw.get("branches", ()), *([raw["peir"]] if "peir" in raw else [])]}
    assert {spec.sym for spec in title.corporations} == set(written)
    for spec in title.corporations:
        assert (spec.color, spec.text_color) == (written[spec.sym]["color"], written[spec.sym].get("text_color", "#ffffff"))
    colours = [_rgb(spec.color) for spec in title.corporations]
    closest = min(sum((a - b) ** 2 for a, b in zip(one, other)) ** 0.5
                  for i, one in enumerate(colours) for other in colours[i + 1:])
    assert closest >= 50, name


@pytest.mark.parametrize("name", sorted(engine_titles.SUPPORTED))
def test_no_train_costs_more_than_the_dearest_price(name: str) -> None:
    """A bankruptcy test skips the depot when the company and its president hold the dearest
    price (Bankrupt.can_go_bankrupt): every train of a game, bought as itself or as any of its
    variants, must cost at most that, and some train must cost exactly that."""
    players = [Player(seat, f"p{seat}") for seat in range(1, max(titles.PLAYER_COUNTS[name]) + 1)]
    game = Game.start(name, players, seed=1)
    prices = {game.title.train_price(train, variant) for train in game.trains.values() for variant in game.title.variants_of(train)}
    assert game.title.dearest_train_price() == max(prices)
