"""A variant: a title played with some values of its data files changed, written as TOML.

A variant file names its title and then holds one table per data file of the title
(``replay/titles/<package>/<file>.json``) whose keys mirror that file: ``[game.starting_cash]``
changes ``game.json``'s ``starting_cash``; an element of a list is named by its ``name``,
``sym``, ``id`` or ``hex`` (``[trains.trains."4"]``) or by its position (``[market.rows.2.3]``);
an array replaces a list of plain values whole (``par_values = [60, 70, 80]``). Only values the
title's files hold may change, each to a value of the same kind: a key the file does not hold, a
note or rule text, or a field the engine never reads is refused with its path, because a variant
that silently did nothing would be compared with its base title as if it had changed the game.
The changed data then goes through :func:`check_variant_data`, and
:func:`replay.variant_games.playable_variant` builds the title from it and sets a game up at every
player count, so an inconsistent variant is refused before a game is played.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from railledger.ingest.titles import SLUGS as TITLES

REPLAY_DIR = Path(__file__).resolve().parent
TITLES_DIR = REPLAY_DIR / "titles"

HEADER_KEYS = {"title": "the title the variant changes (its 18xx.games name)",
               "name": "a short name shown with the variant's games",
               "description": "what the variant changes and why"}
"""Top-level keys of a variant file that describe it rather than change a data file."""

RECORDED = "the record's variant"
"""How a refusal names a variant read from a record (a file's refusal names the file)."""

IDENTIFYING_KEYS = ("sym", "name", "id", "hex")
"""The keys whose value names an element of a list of objects in a title's data files, the one a
message shows first (a company by its symbol, as variants name it, not its long name)."""


class VariantError(ValueError):
    """A variant refused: ``str()`` is one line, ``<file>: <field path>: <why>``."""

    def __init__(self, origin: str, path: str, problem: str) -> None:
        super().__init__(f"{origin}: {path}: {problem}" if path else f"{origin}: {problem}")
        self.origin = origin
        self.path = path
        self.problem = problem


@dataclass(frozen=True)
class Variant:
    """A variant's text as written, what it changes and the hash that identifies it.

    Two variants that change the same values the same way have one hash, whatever their layout,
    comments, name or description: the hash is of the changes alone, so it names the game being
    played, not the file."""

    title: str
    text: str
    changes: Mapping[str, Any] = field(hash=False, compare=False)
    name: str = field(default="", hash=False, compare=False)
    hash: str = ""

    @property
    def short_hash(self) -> str:
        """The first 12 hex digits of :attr:`hash`, as commands and pages show it."""
        return self.hash[:12]

    @property
    def label(self) -> str:
        """How a page or a table names the variant: its name and short hash."""
        return f"{self.name} ({self.short_hash})" if self.name else f"variant {self.short_hash}"

    def data_file(self, package: str, name: str, base: Any) -> Any:
        """``base``, the content of one of the title's data files, with this variant's changes."""
        patch = self.changes.get(name.removesuffix(".json"))
        if patch is None:
            return base
        return _patched(base, patch, name.removesuffix(".json"), "<variant>", package)


def changes_hash(changes: Mapping[str, Any]) -> str:
    """sha256 (hex) of the changes in one fixed JSON form."""
    return hashlib.sha256(json.dumps(changes, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def read_variant(text: str, origin: str = "variant") -> Variant:
    """The variant a TOML text describes, checked against its title's data.

    Raises :class:`VariantError` naming ``origin`` and the field for a text that is not TOML,
    names no known title, changes what the title's files do not hold or the engine does not
    read, or leaves the title's data inconsistent. Whether the title loads and sets a game up with
    it is :func:`replay.variant_games.playable_variant`'s question.
    """
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as bad:
        raise VariantError(origin, "", f"not TOML: {bad}") from None
    title = document.get("title")
    if not isinstance(title, str) or title not in TITLES:
        raise VariantError(origin, "title", f"must name a title ({', '.join(sorted(TITLES))}), got {title!r}")
    for key in ("name", "description"):
        if key in document and not isinstance(document[key], str):
            raise VariantError(origin, key, f"must be text, got {document[key]!r}")
    package = TITLES[title]
    changes = {key: value for key, value in document.items() if key not in HEADER_KEYS}
    if not changes:
        raise VariantError(origin, "", "changes nothing: add a table named after one of the title's data files "
                           f"({', '.join(data_files(package))})")
    for file_name, patch in changes.items():
        if file_name == "rules":
            raise VariantError(origin, file_name, "rules.json holds the rulebook's words that messages cite; the rules "
                               f"themselves are code (replay/titles/{package}), which a variant cannot change")
        if file_name not in data_files(package):
            raise VariantError(origin, file_name, f"{title} has no data file {file_name}.json; its files are "
                               f"{', '.join(data_files(package))}")
        if not isinstance(patch, dict):
            raise VariantError(origin, file_name, "must be a table of the file's fields")
        _patched(read_data_file(package, file_name), patch, file_name, origin, package)
    variant = Variant(title, text, changes, document.get("name", ""), changes_hash({"title": title, **changes}))
    check_variant(variant, origin)
    return variant


@cache
def recorded_variant(text: str) -> Variant:
    """The variant a record carries, read once per process (VariantError naming "the record's variant")."""
    return read_variant(text, RECORDED)


def load_variant(path: Path) -> Variant:
    """The variant in a TOML file; :class:`VariantError` names the file for every refusal."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as unreadable:
        raise VariantError(path.name, "", f"cannot be read: {unreadable}") from None
    return read_variant(text, path.name)


@cache
def data_files(package: str) -> tuple[str, ...]:
    """The data files of a title a variant may change, by name without ``.json``."""
    return tuple(sorted(p.stem for p in (TITLES_DIR / package).glob("*.json") if p.stem != "rules"))


def read_data_file(package: str, name: str) -> Any:
    """One data file of a title, as the title folder holds it."""
    return json.loads((TITLES_DIR / package / f"{name}.json").read_text(encoding="utf-8"))


@cache
def engine_words() -> frozenset[str]:
    """Every quoted word in the engine's source: a data field no code names is never read."""
    words: set[str] = set()
    for source in REPLAY_DIR.rglob("*.py"):
        words.update(re.findall(r"[\"']([A-Za-z_][\w+]*)[\"']", source.read_text(encoding="utf-8")))
    return frozenset(words)


def _is_prose(key: str) -> bool:
    """A note, comment or rule text beside the values (not a value the engine plays with)."""
    return (key.startswith("_") or key in ("text", "note", "source", "rulebook") or key.endswith(("_note", "_text", "_source"))
            or key.startswith("reference"))


def _patched(base: Any, patch: Any, path: str, origin: str, package: str) -> Any:
    """``base`` with ``patch`` laid over it; VariantError at ``path`` where they do not fit."""
    if isinstance(patch, dict):
        if isinstance(base, dict):
            return _patched_object(base, patch, path, origin, package)
        if isinstance(base, list):
            return _patched_list(base, patch, path, origin, package)
        raise VariantError(origin, path, f"is a single value ({_kind(base)}), not a table")
    if isinstance(base, (dict, list)) and not (isinstance(base, list) and isinstance(patch, list)):
        raise VariantError(origin, path, f"is a {'table' if isinstance(base, dict) else 'list'}: change its fields, not the whole")
    if isinstance(base, list) and isinstance(patch, list):
        if any(isinstance(item, (dict, list)) for item in base):
            raise VariantError(origin, path, "is a list of tables: change its elements by name or position, not the whole list")
        kinds = {_kind(item) for item in base}
        for n, item in enumerate(patch):
            if kinds and _kind(item) not in kinds and not (_kind(item) == "whole number" and "number" in kinds):
                raise VariantError(origin, f"{path}.{n}", f"must be a {' or '.join(sorted(kinds))} as in the title, got {item!r}")
        return list(patch)
    if base is not None and _kind(patch) != _kind(base) and not (_kind(patch) == "whole number" and _kind(base) == "number"):
        raise VariantError(origin, path, f"must be a {_kind(base)} as in the title, got {patch!r}")
    return patch


def _patched_object(base: dict[str, Any], patch: dict[str, Any], path: str, origin: str, package: str) -> dict[str, Any]:
    result = dict(base)
    for key, value in patch.items():
        where = f"{path}.{key}"
        if key not in base:
            fields = [k for k in base if not _is_prose(k)]
            shown = ", ".join(fields[:12]) + (", ..." if len(fields) > 12 else "")
            raise VariantError(origin, where, f"the title's data holds no such field here (its fields: {shown})")
        if _is_prose(key) or (key == "trigger" and isinstance(base[key], str) and "-train" not in base[key]):
            raise VariantError(origin, where, "is a note or rule text beside the values, not a value the engine reads; "
                               f"the rule it describes is code (replay/titles/{package})")
        if re.fullmatch(r"[a-z_]+", key) and key not in engine_words() and not isinstance(base[key], (dict, list)):
            raise VariantError(origin, where, "is not read by the engine: the rule it describes is code "
                               f"(replay/titles/{package}), so changing it would change nothing")
        result[key] = _patched(base[key], value, where, origin, package)
    return result


def _patched_list(base: list[Any], patch: dict[str, Any], path: str, origin: str, package: str) -> list[Any]:
    result = list(base)
    for key, value in patch.items():
        where = f"{path}.{key}"
        index = _element(base, key)
        if index is None:
            named = [_name_of(item) for item in base if _name_of(item) is not None]
            shown = ", ".join(str(name) for name in named) if named else f"positions 0 to {len(base) - 1}"
            raise VariantError(origin, where, f"names no element of the list (its elements: {shown})")
        result[index] = _patched(base[index], value, where, origin, package)
    return result


def _element(items: list[Any], key: str) -> int | None:
    """The position of the element a variant's key names: by its identifying value in a list of
    named elements (a train "4" is the 4-train, never the fifth train), else by position."""
    named = False
    for n, item in enumerate(items):
        names = [str(item[k]) for k in IDENTIFYING_KEYS if isinstance(item, dict) and k in item]
        if key in names:
            return n
        named = named or bool(names)
    if not named and key.isdigit() and int(key) < len(items):
        return int(key)
    return None


def _name_of(item: Any) -> str | None:
    """The identifying value of a list element (None for an element without one)."""
    return next((str(item[k]) for k in IDENTIFYING_KEYS if isinstance(item, dict) and k in item), None)


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "whole number"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "list"
    return "table" if isinstance(value, dict) else type(value).__name__


# -- the consistency of the changed data

def check_variant(variant: Variant, origin: str) -> None:
    """Run the title data's consistency checks on the variant's data (the title's own loading and
    setup are the last checks: :func:`replay.variant_games.playable_variant`)."""
    package = TITLES[variant.title]
    changed = {name: variant.data_file(package, name, read_data_file(package, name)) for name in data_files(package)}
    base = {name: read_data_file(package, name) for name in data_files(package)}
    check_variant_data(changed, base, origin)


def check_variant_data(changed: Mapping[str, Any], base: Mapping[str, Any], origin: str) -> None:
    """The title data's own consistency: what the engine assumes of every title's files."""
    _not_negative(changed, base, "", origin)
    trains = changed["trains"]["trains"]
    names = {t["name"] for t in trains} | {v["name"] for t in trains for v in t.get("variants", ())}
    for n, train in enumerate(trains):
        where = f"trains.trains.{train['name']}"
        if train.get("rusts_on") is not None and train["rusts_on"] not in names:
            raise VariantError(origin, f"{where}.rusts_on", f"names no train of the title ({', '.join(sorted(names))})")
        if isinstance(train.get("salvage"), int) and train["salvage"] > train["price"]:
            raise VariantError(origin, f"{where}.salvage", f"{train['salvage']} is more than the train's price {train['price']}")
        if train["price"] <= 0:
            raise VariantError(origin, f"{where}.price", f"must be more than 0, got {train['price']}")
    game = changed["game"]
    for table in ("starting_cash", "cert_limit"):
        for players, value in game[table].items():
            if value <= 0:
                raise VariantError(origin, f"game.{table}.{players}", f"must be more than 0, got {value}")
    cash = game["bank"]["cash"]
    if isinstance(cash, int):
        needed = max(int(players) * start for players, start in game["starting_cash"].items())
        if cash < needed:
            raise VariantError(origin, "game.bank.cash", f"{cash} cannot pay the players' starting cash ({needed})")
    market_prices = {cell["price"] for row in changed["market"]["rows"] for cell in row if cell}
    par_prices = {cell["price"] for row in changed["market"]["rows"] for cell in row if cell and cell.get("par")}
    for n, par in enumerate(game.get("par_values", ())):
        if par not in market_prices:
            raise VariantError(origin, f"game.par_values.{n}", f"{par} is on no space of the market")
    if par_prices and game.get("par_values") and not set(game["par_values"]) <= par_prices:
        missing = sorted(set(game["par_values"]) - par_prices)
        raise VariantError(origin, "game.par_values", f"{missing} are not par spaces of the market (market rows' par)")
    _prices_rise(changed["market"]["rows"], origin)
    for sym, corp in ((c["sym"], c) for c in changed["companies"]["corporations"]):
        home = corp.get("home") or {}
        if home.get("hex") and home["hex"] not in changed["map"]["hexes"]:
            raise VariantError(origin, f"companies.corporations.{sym}.home.hex", f"{home['hex']} is not a hex of the map")
    _tokens_have_costs(changed["companies"], "companies", origin)


def _tokens_have_costs(data: Any, path: str, origin: str) -> None:
    """A company's token count is its list of token costs' length: the engine gives one token per
    cost, so a count that disagrees with the costs would change nothing it plays with."""
    if isinstance(data, dict):
        costs = data.get("token_costs")
        if isinstance(data.get("tokens"), int) and isinstance(costs, list) and data["tokens"] != len(costs):
            raise VariantError(origin, f"{path}.tokens", f"{data['tokens']} tokens but token_costs lists {len(costs)} "
                               "costs (one cost per token: change both)")
        for key, value in data.items():
            _tokens_have_costs(value, f"{path}.{key}", origin)
    elif isinstance(data, list):
        for n, value in enumerate(data):
            _tokens_have_costs(value, f"{path}.{_name_of(value) or n}", origin)


def _prices_rise(rows: list[list[Any]], origin: str) -> None:
    """Share prices rise from left to right along every row of the market."""
    for r, row in enumerate(rows):
        prices = [(c, cell["price"]) for c, cell in enumerate(row) if cell]
        for (_, left), (c, right) in zip(prices, prices[1:]):
            if right <= left:
                raise VariantError(origin, f"market.rows.{r}.{c}.price", f"{right} does not rise from the space to its left ({left})")


def _not_negative(changed: Any, base: Any, path: str, origin: str) -> None:
    """A number the title has as 0 or more (a count, price, revenue, cash) stays 0 or more."""
    if isinstance(changed, dict) and isinstance(base, dict):
        for key, value in changed.items():
            _not_negative(value, base.get(key), f"{path}.{key}" if path else key, origin)
    elif isinstance(changed, list) and isinstance(base, list):
        for n, (value, was) in enumerate(zip(changed, base)):
            _not_negative(value, was, f"{path}.{_name_of(value) or n}", origin)
    elif (isinstance(changed, (int, float)) and not isinstance(changed, bool) and isinstance(base, (int, float))
          and base >= 0 and changed < 0):
        raise VariantError(origin, path, f"must be 0 or more, got {changed}")
