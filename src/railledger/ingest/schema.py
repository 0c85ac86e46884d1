"""The input schema: what a record must be before anything of it is stored or replayed.

Both formats (18xx.games exports and the notation) are read into a :class:`~ingest.model.Record`
first; :func:`check_record` then holds the record to one schema, written out in docs/input.md:
types, ranges and sizes of every header value and action field, the player count of the title,
unique player ids and names, a result naming only players at the table. The first violation is a
:class:`~ingest.errors.RecordError` naming the field as the file spells it and the action by its
id and its index in the file (``action 42 (#12): field rotation: must be a whole number from 0 to
5, got 'x'``), so one line says what to fix.

The limits are far above anything a real game holds (the largest shared record has 660 actions
and fields nested four levels deep) and low enough that no value can overflow an archive column,
exhaust memory when copied, or hide text that is not what a person sees (control characters in
names, lone surrogates).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Callable, Mapping, Protocol, Sequence

from railledger.ingest.action_types import GAME_ACTION_TYPES, Kind, action_type
from railledger.ingest.errors import RecordError
from railledger.ingest.identity import is_blank
from railledger.ingest.model import Action, Record
from railledger.ingest.titles import PLAYER_COUNTS, PSEUDO_PLAYERS, SLUGS, counts_text

BIGINT = 2**63 - 1
"""The archive stores seeds and numeric ids as BIGINT."""
MONEY = 10**6
"""Bound of any amount in an action (prices, revenues): no 18xx game comes near a million."""
RESULT = 10**9
"""Bound of a recorded final value."""
JSON_INT = 2**53
"""Bound of an integer in a field railledger does not know: exact in every JSON reader."""
MAX_ACTION_ID = 2**31 - 1
MAX_AUTO = 999
MAX_ACTIONS = 100_000
MAX_FIELDS = 64
MAX_ITEMS = 10_000
"""Items of one list or object inside a field."""
MAX_DEPTH = 16
"""Nesting of one field's value (a route's connections are four levels deep)."""
MAX_NAME = 100
MAX_TEXT = 1_000
"""A known text field (a hex, a tile, a company)."""
MAX_ANY_TEXT = 10_000
"""A text inside a field railledger does not know."""
MAX_RULES = 100
LAST_TIME = 4_102_444_800
"""2100-01-01 as a Unix time: no later time is a real one."""


class Invalid(Exception):
    """A value that breaks the schema: ``path`` locates it inside the field, ``message`` says how."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def inside(self, step: str) -> Invalid:
        self.path = step + self.path
        return self


def shown(value: Any) -> str:
    """A short description of a value for a message: ``'x'``, ``1.5``, ``a list``..."""
    if isinstance(value, bool) or value is None:
        return "true" if value is True else "false" if value is False else "null"
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:40] + "...")
    if isinstance(value, int):
        text = str(value)
        return text if len(text) <= 24 else f"a number of {len(text)} digits"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__}"


class Spec(Protocol):
    """One rule of the schema for a value."""

    @property
    def what(self) -> str:
        """What the value must be, as the end of "must be ..."."""

    def check(self, value: Any) -> None:
        """Raise :class:`Invalid` unless ``value`` meets the rule."""


@dataclass(frozen=True)
class Whole:
    """A whole number (never a boolean) from ``low`` to ``high``."""

    low: int
    high: int
    spelled: str = ""

    @property
    def what(self) -> str:
        return self.spelled or f"a whole number from {self.low} to {self.high}"

    def check(self, value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= self.high:
            raise Invalid(f"must be {self.what}, got {shown(value)}")


def _bad_character(text: str, controls: bool) -> str | None:
    """The first character a text may not hold: a lone surrogate, NUL, or a control one unless allowed."""
    if text.isprintable():  # the common case, and it excludes every character refused below
        return None
    for char in text:
        category = unicodedata.category(char)
        if category == "Cs" or char == "\0" or (category == "Cc" and not controls):
            return char
    return None


@dataclass(frozen=True)
class Text:
    """A non-empty text of at most ``length`` characters, matching ``pattern`` when one is given.

    Lone surrogates (which no file encoding can hold) and NUL are never allowed; other control
    characters (escape, newline...) only with ``controls``: a name or an id shows as what it is.
    """

    length: int
    pattern: re.Pattern[str] | None = None
    spelled: str = ""
    controls: bool = False

    @property
    def what(self) -> str:
        return self.spelled or f"a text of 1 to {self.length} characters"

    def check(self, value: Any) -> None:
        if not isinstance(value, str) or not value:
            raise Invalid(f"must be {self.what}, got {shown(value)}")
        if len(value) > self.length:
            raise Invalid(f"must be {self.what}, got a text of {len(value)} characters")
        bad = _bad_character(value, self.controls)
        if bad is not None:
            raise Invalid(f"must be {self.what} and hold no control character, got one holding U+{ord(bad):04X}")
        if self.pattern is not None and not self.pattern.fullmatch(value):
            raise Invalid(f"must be {self.what}, got {shown(value)}")


@dataclass(frozen=True)
class Flag:
    """true or false."""

    what: str = "true or false"

    def check(self, value: Any) -> None:
        if not isinstance(value, bool):
            raise Invalid(f"must be {self.what}, got {shown(value)}")


@dataclass(frozen=True)
class NumberOrText:
    """An id or a choice: a whole number (by ``number``) or a text (by ``text``)."""

    number: Whole
    text: Text

    @property
    def what(self) -> str:
        return f"{self.number.what} or {self.text.what}"

    def check(self, value: Any) -> None:
        if isinstance(value, str):
            self.text.check(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            self.number.check(value)
        else:
            raise Invalid(f"must be {self.what}, got {shown(value)}")


@dataclass(frozen=True)
class ListOf:
    """A list of at most ``length`` items, each meeting ``item``."""

    item: Spec
    length: int = MAX_ITEMS

    @property
    def what(self) -> str:
        return f"a list of at most {self.length} items, each {self.item.what}"

    def check(self, value: Any) -> None:
        if not isinstance(value, list):
            raise Invalid(f"must be {self.what}, got {shown(value)}")
        if len(value) > self.length:
            raise Invalid(f"must be {self.what}, got {len(value)} items")
        for index, item in enumerate(value):
            try:
                self.item.check(item)
            except Invalid as exc:
                raise exc.inside(f"[{index}]") from None


FIELD_NAME = Text(64, re.compile(r"[A-Za-z_][A-Za-z0-9_]*"), "a name of letters, digits and _ (not starting with a digit)")
"""Field names are names the notation can write as keywords."""


@dataclass(frozen=True)
class AnyJson:
    """A JSON value railledger does not interpret, kept as it is within size and depth limits."""

    depth: int = MAX_DEPTH
    what: str = "a JSON value"

    def check(self, value: Any) -> None:
        self._check(value, self.depth)

    def _check(self, value: Any, depth: int) -> None:
        if value is None or isinstance(value, bool):
            return
        if isinstance(value, int):
            if not -JSON_INT <= value <= JSON_INT:
                raise Invalid(f"must be a whole number of at most 53 bits (exact in any JSON reader), got {shown(value)}")
            return
        if isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                raise Invalid(f"must be a finite number, got {value}")
            return
        if isinstance(value, str):
            if len(value) > MAX_ANY_TEXT:
                raise Invalid(f"must be a text of at most {MAX_ANY_TEXT} characters, got {len(value)}")
            bad = _bad_character(value, controls=True)
            if bad is not None:
                raise Invalid(f"must be a text without U+{ord(bad):04X}")
            return
        if isinstance(value, (list, dict)):
            if depth == 0:
                raise Invalid(f"nests lists and objects more than {self.depth} levels deep")
            if len(value) > MAX_ITEMS:
                raise Invalid(f"must hold at most {MAX_ITEMS} items, got {len(value)}")
            items = enumerate(value) if isinstance(value, list) else value.items()
            for key, item in items:
                if isinstance(value, dict):
                    try:
                        Text(MAX_NAME, controls=True).check(key)
                    except Invalid as exc:
                        raise Invalid(f"has a key that {exc.message.replace('must be', 'is not')}") from None
                try:
                    self._check(item, depth - 1)
                except Invalid as exc:
                    raise exc.inside(f"[{key!r}]" if isinstance(value, dict) else f"[{key}]") from None
            return
        raise Invalid(f"must be a JSON value, got {shown(value)}")


@dataclass(frozen=True)
class Fields:
    """An object whose known keys meet their own rule and whose other keys hold any JSON value."""

    known: Mapping[str, Spec]
    other: Spec = AnyJson()
    length: int = MAX_FIELDS
    what: str = "an object"

    def check(self, value: Any) -> None:
        if not isinstance(value, Mapping):
            raise Invalid(f"must be {self.what}, got {shown(value)}")
        if len(value) > self.length:
            raise Invalid(f"must have at most {self.length} fields, got {len(value)}")
        for name, item in value.items():
            try:
                FIELD_NAME.check(name)
            except Invalid as exc:
                raise Invalid(f"has a field name that {exc.message.replace('must be', 'is not')}") from None
            if item is None:
                continue  # a field the source left empty, as if it were absent
            try:
                self.known.get(name, self.other).check(item)
            except Invalid as exc:
                raise exc.inside(f".{name}") from None


# ------------------------------------------------------------------------------ the rules

NAME = Text(MAX_NAME)
TEXT = Text(MAX_TEXT)
INT64 = Whole(-BIGINT - 1, BIGINT, "a whole number of at most 64 bits")
DURATION = Whole(0, BIGINT, "a whole number of seconds, 0 or more")
"""What a BIGINT column holds."""
ID = NumberOrText(INT64, NAME)
"""A player's or an entity's id: an 18xx.games number, or a text (a hotseat player's name, a symbol)."""
BOT = Text(32, re.compile(r"[a-z][a-z0-9_-]*"), "a bot's name: lower-case letters, digits, '-' and '_'")
"""The bot that played a seat of a generated game (``selfplay.bots``)."""
SOURCE = Text(64, re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*"), "a text of letters, digits, '.', '-' and '_' (no '/')")
GAME_ID = Text(MAX_NAME, re.compile(r"\S(?:.*\S)?", re.DOTALL), "a text of 1 to 100 characters, no space at either end")
STATUS = Text(32)
ENTITY_KIND = Text(32, re.compile(r"[a-z][a-z_]*"), "a kind in lower case, such as player or corporation")
AMOUNT = Whole(-MONEY, MONEY)

KIND_SPECS: dict[Kind, Spec] = {
    Kind.INT: AMOUNT,
    Kind.STR: TEXT,
    Kind.STRS: ListOf(TEXT),
    Kind.BOOL: Flag(),
    Kind.ENTITY: ID,
    Kind.ROUTES: ListOf(
        Fields(
            {
                "train": TEXT,
                "connections": ListOf(ListOf(TEXT, 1_000), 1_000),
                "hexes": ListOf(TEXT, 1_000),
                "nodes": ListOf(TEXT, 1_000),
                "revenue": AMOUNT,
            },
            other=AnyJson(MAX_DEPTH - 2),
            what="a route object",
        ),
        100,
    ),
}
"""The rule of a known field by the kind docs/notation.md gives it."""

FIELD_SPECS: dict[str, Spec] = {
    "rotation": Whole(0, 5),
    "percent": Whole(0, 100),
    "until_condition": NumberOrText(AMOUNT, TEXT),  # a program runs until a count or a condition
    "choice": NumberOrText(AMOUNT, TEXT),  # a choice is a text or an amount of cash
}
"""Fields whose rule is narrower (or wider) than their kind's."""


def _action_fields(name: str) -> Fields:
    spec = action_type(name)
    assert spec is not None
    known: dict[str, Spec] = {}
    for field_name, kind in spec.kinds.items():
        known[field_name] = FIELD_SPECS.get(field_name, KIND_SPECS[kind])
        if kind is Kind.ENTITY:
            known[f"{field_name}_type"] = ENTITY_KIND
    if name == "choose":
        known["choice"] = FIELD_SPECS["choice"]
    return Fields(known, what="the action's fields")


ACTION_FIELDS: dict[str, Fields] = {name: _action_fields(name) for name in GAME_ACTION_TYPES}
PROGRAM_FIELDS = _action_fields("program_any")


# ------------------------------------------------------------------------------ where things are


@dataclass(frozen=True)
class Places:
    """Where the parts of a record are in its file, so an error names them as the file does.

    ``header`` spells a header value (``seed`` is ``settings.seed`` in an export, ``[Seed]`` in
    the notation) and ``lines`` gives its line; ``player`` spells one player (``{index}`` is the
    0-based position, ``{seat}`` the seat); ``actions`` gives, by action label (``42``, ``42.1``),
    the index of the action (for an automatic one, of its parent) in the file's action list and
    its line. Without places an error uses the record's own names and positions.
    """

    header: Mapping[str, str] = field(default_factory=dict)
    lines: Mapping[str, int] = field(default_factory=dict)
    player: str = "players[{index}]"
    player_lines: Sequence[int] = ()
    actions: Mapping[str, tuple[int, int | None]] = field(default_factory=dict)


def check_record(record: Record, places: Places | None = None) -> None:
    """Raise :class:`RecordError` for the first part of ``record`` that breaks the schema."""
    places = places or Places()
    _check_header(record, places)
    pseudo = PSEUDO_PLAYERS.get(record.title, ()) if isinstance(record.title, str) else ()
    seated = frozenset([*((type(p.id), p.id) for p in record.players), *((int, pid) for pid in pseudo)])
    for position, action in enumerate((*record.actions, *record.programs)):
        try:
            _check_action(action, seated)
        except Invalid as exc:
            index, line = places.actions.get(action.label, (position, None))
            raise RecordError(exc.message, action=f"{action.label} (#{index})", field=exc.path or None, line=line) from None


def _check_header(record: Record, places: Places) -> None:
    def fail(name: str, message: str, seat: int | None = None, path: str = "") -> RecordError:
        if seat is None:
            spelled, line = places.header.get(name, name), places.lines.get(name)
        else:
            spelled = places.player.format(index=seat - 1, seat=seat)
            line = places.player_lines[seat - 1] if seat <= len(places.player_lines) else None
        return RecordError(message, field=spelled + path, line=line)

    def check(name: str, spec: Spec, value: Any) -> None:
        try:
            spec.check(value)
        except Invalid as exc:
            raise fail(name, exc.message, path=exc.path) from None

    if not isinstance(record.title, str) or record.title not in SLUGS:
        raise fail("title", f"unknown title {record.title!r}")
    check("source", SOURCE, record.source)
    check("game_id", GAME_ID, record.game_id)
    _check_players(record, fail)
    if record.seed is not None:
        check("seed", INT64, record.seed)
    check("optional_rules", ListOf(NAME, MAX_RULES), list(record.optional_rules))
    if len(set(record.optional_rules)) != len(record.optional_rules):
        raise fail("optional_rules", "names an optional rule twice")
    if record.status is not None:
        check("status", STATUS, record.status)
    if record.created is not None:
        _check_day(record.created, lambda message: fail("created", message))
    if record.duration is not None:
        check("duration", DURATION, record.duration)
    if record.result is not None:
        _check_result(record, lambda message: fail("result", message))
    for name, actions in (("actions", record.actions), ("programs", record.programs)):
        if len(actions) > MAX_ACTIONS:
            raise fail(name, f"holds {len(actions)} actions, more than {MAX_ACTIONS}")


_Fail = Callable[..., RecordError]


def _check_players(record: Record, fail: _Fail) -> None:
    counts = PLAYER_COUNTS.get(record.title)
    if counts is None:
        raise fail("players", f"no player counts are registered for {record.title} (ingest/titles.py)")
    if len(record.players) not in counts:
        raise fail("players", f"{record.title} is played by {counts_text(counts)} players, the record has {len(record.players)}")
    ids: dict[str, int] = {}
    for seat, player in enumerate(record.players, start=1):
        bot = () if player.bot is None else ((".bot", BOT, player.bot),)  # None: a person
        for what, spec, value in ((".id", ID, player.id), (".name", NAME, player.name), *bot):
            try:
                spec.check(value)
            except Invalid as exc:
                raise fail("players", exc.message, seat=seat, path=what) from None
        if is_blank(player.name):
            raise fail("players", f"must show a name, got {shown(player.name)}: only spaces, control or zero-width "
                       "characters", seat=seat, path=".name")
        if str(player.id) in ids:
            raise fail("players", f"has the id of seat {ids[str(player.id)]} ({shown(player.id)})", seat=seat, path=".id")
        ids[str(player.id)] = seat


def _check_day(day: Any, fail: Callable[[str], RecordError]) -> None:
    try:
        if not isinstance(day, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
            raise ValueError
        date.fromisoformat(day)
    except ValueError:
        raise fail(f"must be a day YYYY-MM-DD, got {shown(day)}") from None


def _check_result(record: Record, fail: Callable[[str], RecordError]) -> None:
    if not isinstance(record.result, Mapping):
        raise fail(f"must be an object of player values, got {shown(record.result)}")
    seated = frozenset((type(p.id), p.id) for p in record.players)
    for pid, value in record.result.items():
        if (type(pid), pid) not in seated:
            raise fail(f"names {shown(pid)}, who is not a player of this game")
        try:
            Whole(-RESULT, RESULT).check(value)
        except Invalid as exc:
            raise fail(f"value of {shown(pid)} {exc.message}") from None


_NUMBERING: tuple[tuple[str, Spec], ...] = (
    ("its id ", Whole(1, MAX_ACTION_ID)),
    ("its number after its parent ", Whole(0, MAX_AUTO)),
)
"""An action's id and its number after its parent, as error messages begin."""

_ENVELOPE: tuple[tuple[str, Spec], ...] = (
    ("created_at", Whole(0, LAST_TIME, f"a Unix time from 0 to {LAST_TIME}")),
    ("user", ID),
    ("original_id", Whole(1, BIGINT)),
    ("skip", Flag()),
)
"""The envelope fields an action may carry and what each must be. Both tables are made once, not
for each of a record's hundreds of actions."""


def _check_action(action: Action, seated: frozenset[tuple[type, Any]]) -> None:
    """``seated``: (type, id) of each player, so an int id and its text are told apart."""
    for (what, spec), value in zip(_NUMBERING, (action.id, action.auto)):
        try:
            spec.check(value)
        except Invalid as exc:
            raise Invalid(what + exc.message) from None
    if not isinstance(action.type, str) or action_type(action.type) is None:
        raise Invalid(f"unknown action type {shown(action.type)}")
    entity: tuple[tuple[str, Spec, Any], ...] = (
        ("entity_type", ENTITY_KIND, action.entity.kind),
        ("entity", ID, action.entity.id),
    )
    for name, spec, value in entity:
        try:
            spec.check(value)
        except Invalid as exc:
            raise exc.inside(name) from None
    for name, spec in _ENVELOPE:
        value = getattr(action, name)
        if value is not None:
            try:
                spec.check(value)
            except Invalid as exc:
                raise exc.inside(name) from None
    if action.revenue_str is not None:
        try:
            AnyJson(MAX_DEPTH - 2).check(list(action.revenue_str))
        except Invalid as exc:
            raise exc.inside("revenue_str") from None
    if action.entity.kind == "player" and (type(action.entity.id), action.entity.id) not in seated:
        raise Invalid(f"names player {shown(action.entity.id)}, who is not a player of this game", "entity")
    rules = PROGRAM_FIELDS if action.is_program else ACTION_FIELDS[action.type]
    try:
        rules.check(action.fields)
    except Invalid as exc:
        exc.path = exc.path.removeprefix(".")
        raise exc from None
