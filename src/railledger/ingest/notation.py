"""railledger's canonical action notation: a readable, diffable text form of a record.

A file is a header of ``[Key values...]`` lines, then one action per line::

    [Notation 1]
    [Title "18MS"]
    [Game "14375"]
    [Player 1 680 "Player 1"]
    12 p1 par GMO 70,2,3          # id, entity, type, positional fields
    13 GMO lay_tile E11 57-0 1
    13.1 p2 pass                  # the first automatic action after action 13
    40 GMO run_routes [2+-0 E15-E13-E11 $70 @E11,E15] extra_revenue=0
    41 GMO dividend payout @created_at=2021-12-17T19:36:15Z @user=p2   # the envelope: when, and who clicked

The grammar is specified in docs/notation.md. :func:`write` and :func:`read` are exact inverses
on canonical records: ``read(write(r)) == r`` and ``write(read(text)) == text`` for text that
:func:`write` produced.
"""

from __future__ import annotations

import json
import re
from calendar import timegm
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from railledger.ingest import jsontext
from railledger.ingest.action_types import ROUTE_KINDS, ActionType, Kind, action_type
from railledger.ingest.errors import RecordError, UnknownTitle
from railledger.ingest.model import ENVELOPE, Action, Entity, Player, PlayerId, Record, joined_route_texts, split_route_texts
from railledger.ingest.schema import LAST_TIME, Places
from railledger.ingest.titles import is_known_title

VERSION = 1
EXTENSION = ".rln"

_BARE = re.compile(r"[^\s\"'=\[\]{}#:,$@]+(?:[^\s\"'=\[\]{}#:]*[^\s\"'=\[\]{}#:,])?")
_BARE_ITEM = re.compile(r"[^\s\"'=\[\]{}#:,$@]+(?:[^\s\"'=\[\]{}#:,]*)")
_INT = re.compile(r"-?\d+")
_HEX = re.compile(r"[A-Za-z0-9_.]+")
_SEAT = re.compile(r"p(\d+)")
_LABEL = re.compile(r"(\d+)(?:\.(\d+))?")
_TYPED_JSON_ID = re.compile(r"([A-Za-z_]+):(?=[\"\-0-9])")
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(:?=)")
_ENVELOPE_KEY = re.compile(r"@([a-z_]+)(:?=)")
_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")


# --------------------------------------------------------------------------------------------
# Writing


def write(record: Record) -> str:
    """The notation text of a record."""
    lines = [f"[Notation {VERSION}]", f"[Title {_json(record.title)}]", f"[Source {_json(record.source)}]"]
    lines.append(f"[Game {_json(record.game_id)}]")
    for seat, player in enumerate(record.players, start=1):
        bot = "" if player.bot is None else f" {_json(player.bot)}"
        lines.append(f"[Player {seat} {_json(player.id)} {_json(player.name)}{bot}]")
    if record.created is not None:
        lines.append(f"[Date {_json(record.created)}]")
    if record.duration is not None:
        lines.append(f"[Duration {_json(record.duration)}]")
    if record.seed is not None:
        lines.append(f"[Seed {_json(record.seed)}]")
    if record.optional_rules:
        lines.append(f"[OptionalRules {' '.join(_json(r) for r in record.optional_rules)}]")
    if record.status is not None:
        lines.append(f"[Status {_json(record.status)}]")
    if record.result is not None:
        pairs = " ".join(f"{_json(pid)} {_json(value)}" for pid, value in record.result.items())
        lines.append(f"[Result {pairs}]" if pairs else "[Result]")
    lines.append("")
    seats = {player.id: seat for seat, player in enumerate(record.players, start=1)}
    for action in sorted((*record.actions, *record.programs), key=lambda a: (a.id, a.auto)):
        lines.append(write_action(action, seats))
    return "\n".join(lines) + "\n"


def write_action(action: Action, seats: dict[PlayerId, int], envelope: bool = True) -> str:
    """One action line (without comment); ``envelope=False`` leaves the envelope out, for showing
    what an action does (a report, the review page) rather than writing the record."""
    spec = action_type(action.type)
    assert spec is not None, f"unknown action type {action.type}"
    parts = [action.label, _write_entity(action.entity, seats), action.type]
    remaining = joined_route_texts(action) if envelope else dict(action.fields)
    for name in spec.positional:
        if name not in remaining:
            break
        token = _encode(spec.kind(name), remaining[name], seats)
        if token is None:
            break
        parts.append(token)
        del remaining[name]
    parts.extend(_keyword_tokens(remaining, spec.kinds, seats))
    if envelope:
        parts.extend(_envelope_tokens(action, seats))
    return " ".join(parts)


def _envelope_tokens(action: Action, seats: dict[PlayerId, int]) -> list[str]:
    """``@created_at=2021-12-17T19:36:15Z @user=p2 @original_id=12 @skip=true``: each set envelope
    field, bare where it has a bare spelling (a time in UTC, a player by seat), else as JSON."""
    tokens = []
    for name, value in action.envelope().items():
        bare: str | None = None
        if name == "created_at" and _whole(value) and 0 <= value <= LAST_TIME:
            bare = datetime.fromtimestamp(value, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        elif name == "user" and (type(value), value) in {(type(pid), pid) for pid in seats}:
            bare = f"p{seats[value]}"
        elif name == "original_id" and _whole(value):
            bare = str(value)
        elif name == "skip" and isinstance(value, bool):
            bare = "true" if value else "false"
        tokens.append(f"@{name}={bare}" if bare is not None else f"@{name}:={_json(value)}")
    return tokens


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _keyword_tokens(fields: dict[str, Any], kinds: dict[str, Kind], seats: dict[PlayerId, int]) -> list[str]:
    tokens = []
    for name, value in fields.items():
        base = name[: -len("_type")]
        if name.endswith("_type") and kinds.get(base) is Kind.ENTITY and base in fields:
            continue  # written with its entity
        kind = kinds.get(name)
        if kind is Kind.ENTITY:
            entity_kind = fields.get(f"{name}_type")
            token = None if entity_kind is None else _write_entity(Entity(entity_kind, value), seats)
            if token is None or (value is None):
                tokens.append(f"{name}:={_json(value)}")
                if entity_kind is not None:
                    tokens.append(f"{name}_type:={_json(entity_kind)}")
                continue
            tokens.append(f"{name}={token}")
            continue
        token = _encode(kind, value, seats) if kind is not None else None
        tokens.append(f"{name}={token}" if token is not None else f"{name}:={_json(value)}")
    return tokens


def _encode(kind: Kind | None, value: Any, seats: dict[PlayerId, int]) -> str | None:
    """The bare spelling of a value of a kind, or None when it has none (then raw JSON is used)."""
    if kind is Kind.INT:
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else None
    if kind is Kind.BOOL:
        return ("true" if value else "false") if isinstance(value, bool) else None
    if kind is Kind.STR:
        return value if isinstance(value, str) and _BARE.fullmatch(value) and _printable(value) else None
    if kind is Kind.STRS:
        return _encode_strs(value)
    if kind is Kind.ROUTES:
        if not isinstance(value, list) or not value:
            return None
        groups = [_encode_route(route, seats) for route in value]
        return None if any(g is None for g in groups) else " ".join(groups)  # type: ignore[arg-type]
    return None


def _encode_strs(value: Any) -> str | None:
    if not isinstance(value, list) or not value:
        return None
    if all(isinstance(v, str) and _BARE_ITEM.fullmatch(v) and _printable(v) for v in value):
        return ",".join(value)
    return None


def _encode_route(route: Any, seats: dict[PlayerId, int]) -> str | None:
    """``[TRAIN CONNECTION... $REVENUE @STOPS key=value...]``."""
    if not isinstance(route, dict):
        return None
    rest = dict(route)
    if "train" not in rest:
        return None
    train = _encode(Kind.STR, rest.pop("train"), seats)
    parts = [train if train is not None else f"train:={_json(route['train'])}"]
    connections = rest.get("connections")
    if isinstance(connections, list) and connections and all(
        isinstance(c, list) and c and all(isinstance(h, str) and _HEX.fullmatch(h) for h in c) for c in connections
    ):
        parts.extend("-".join(c) for c in connections)
        del rest["connections"]
    revenue = _encode(Kind.INT, rest.get("revenue"), seats)
    if revenue is not None:
        parts.append(f"${revenue}")
        del rest["revenue"]
    stops = _encode_strs(rest.get("hexes"))
    if stops is not None:
        parts.append(f"@{stops}")
        del rest["hexes"]
    parts.extend(_keyword_tokens(rest, ROUTE_KINDS, seats))
    return "[" + " ".join(parts) + "]"


def _write_entity(entity: Entity, seats: dict[PlayerId, int]) -> str:
    """``p3`` for the player in seat 3, ``GMO`` for a corporation, ``kind:id`` otherwise."""
    if entity.kind == "player" and entity.id in seats:
        return f"p{seats[entity.id]}"
    ident = entity.id
    plain = isinstance(ident, str) and bool(_BARE.fullmatch(ident)) and _printable(ident)
    if entity.kind == "corporation" and plain and not _SEAT.fullmatch(str(ident)):
        return str(ident)
    if plain and not _TYPED_JSON_ID.match(f"{entity.kind}:{ident}"):
        return f"{entity.kind}:{ident}"
    return f"{entity.kind}:{_json(ident)}"


def _json(value: Any) -> str:
    """JSON as the notation writes it: readable Unicode, but every character a terminal would not
    print as itself (escape, C1 controls, line separators, bidi overrides) as a ``\\u`` escape, so a
    written record shows what it holds and cannot drive the terminal it is printed on."""
    return _UNPRINTABLE.sub(_escape, json.dumps(value, ensure_ascii=False, separators=(",", ":")))


_UNPRINTABLE = re.compile(r"[^\x20-\x7e]")


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char.isprintable():
        return char
    return json.dumps(char)[1:-1]  # \uXXXX, a surrogate pair beyond the first plane


def _printable(text: str) -> bool:
    """A bare word must print as itself (see :func:`_json`)."""
    return text.isprintable()


# --------------------------------------------------------------------------------------------
# Reading


@dataclass
class _Token:
    text: str
    column: int  # 1-based


class _Line:
    """A cursor over one line of notation, raising errors that point at a column."""

    def __init__(self, text: str, number: int, origin: str | None) -> None:
        self.text = text
        self.number = number
        self.origin = origin
        self.pos = 0

    def error(self, message: str, column: int | None = None, action: str | None = None) -> RecordError:
        return RecordError(
            message,
            origin=self.origin,
            line=self.number,
            column=column if column is not None else self.pos + 1,
            action=action,
        )

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def at_end(self) -> bool:
        self.skip_space()
        return self.pos >= len(self.text) or self.text[self.pos] == "#"

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def word(self) -> _Token:
        """The next whitespace-delimited word (stopping before ``]``)."""
        self.skip_space()
        start = self.pos
        while self.pos < len(self.text) and not self.text[self.pos].isspace() and self.text[self.pos] != "]":
            self.pos += 1
        if start == self.pos:
            raise self.error("expected a value")
        return _Token(self.text[start : self.pos], start + 1)

    def json_value(self, action: str | None = None) -> Any:
        """The JSON value at the cursor, consumed; errors name ``action`` when in one."""
        self.skip_space()
        try:
            value, end = jsontext.decode_at(self.text, self.pos)
        except RecordError as exc:
            raise self.error(f"bad JSON value: {exc.message}", column=exc.column, action=action) from None
        self.pos = end
        return value

    def keyword(self) -> tuple[str, bool, int] | None:
        """``name=`` or ``name:=`` at the cursor: (name, raw JSON?, column), consumed; else None."""
        self.skip_space()
        match = _KEY.match(self.text, self.pos)
        if not match:
            return None
        self.pos = match.end()
        return match.group(1), match.group(2) == ":=", match.start() + 1


def read(text: str, origin: str | None = None) -> Record:
    """Parse notation text into a record; errors name the origin, line and column."""
    return read_located(text, origin)[0]


HEADER_KEYS = {
    "title": "Title", "source": "Source", "game_id": "Game", "seed": "Seed", "optional_rules": "OptionalRules",
    "status": "Status", "result": "Result", "created": "Date",
    "duration": "Duration",
}
"""Record field -> its header key."""


def read_located(text: str, origin: str | None = None) -> tuple[Record, Places]:
    """Parse notation text into a record, and say on which line each header value and action is."""
    header: dict[str, list[tuple[Any, int]]] = {}
    players: list[Player] = []
    actions: list[Action] = []
    programs: list[Action] = []
    seats: dict[int, PlayerId] = {}
    header_line: dict[str, int] = {}
    in_body = False
    last: Action | None = None
    player_lines: list[int] = []
    action_places: dict[str, tuple[int, int | None]] = {}
    parent_index = -1

    # Split on newlines only: JSON strings may hold other Unicode line breaks verbatim.
    for number, raw_line in enumerate(text.split("\n"), start=1):
        line = _Line(raw_line.removesuffix("\r"), number, origin)
        if line.at_end():
            continue
        if line.peek() == "[" and not in_body:
            key, values = _read_header_line(line)
            if key == "Player":
                players.append(_read_player(line, values, seats))
                player_lines.append(number)
            else:
                if key in header:
                    raise line.error(f"header {key} given twice", column=1)
                _check_header_values(line, key, values)
                header[key] = values
                header_line[key] = number
            continue
        if not in_body:
            in_body = True
            _check_header(header, players, header_line, origin)
        action = _read_action(line, seats)
        _check_order(line, action, last)
        last = action
        if action.auto == 0:
            parent_index += 1
        action_places[action.label] = (parent_index, number)
        (programs if action.is_program and action.auto == 0 else actions).append(action)

    if not in_body:
        _check_header(header, players, header_line, origin)
    record = Record(
        title=_single(header, "Title"),
        game_id=str(_single(header, "Game")),
        players=tuple(players),
        actions=tuple(actions),
        source=_single(header, "Source"),
        seed=_single(header, "Seed", None),
        optional_rules=tuple(v for v, _ in header.get("OptionalRules", [])),
        status=_single(header, "Status", None),
        result=_read_result(header.get("Result"), origin, header_line.get("Result")),
        programs=tuple(programs),
        created=_single(header, "Date", None),
        duration=_single(header, "Duration", None),
    )
    lines = {name: header_line[key] for name, key in HEADER_KEYS.items() if key in header_line}
    lines["players"] = player_lines[0]
    places = Places(
        header={**{name: f"[{key}]" for name, key in HEADER_KEYS.items()}, "players": "[Player]"},
        lines=lines,
        player="[Player {seat}]",
        player_lines=player_lines,
        actions=action_places,
    )
    return record, places


_REQUIRED_HEADERS = ("Notation", "Title", "Source", "Game")
_SINGLE_HEADERS: dict[str, type] = {
    "Notation": int, "Title": str, "Source": str, "Game": str, "Seed": int, "Status": str, "Date": str, "Duration": int,
}
_LIST_HEADERS = ("OptionalRules", "Result")


def _check_header_values(line: _Line, key: str, values: list[tuple[Any, int]]) -> None:
    """Known keys only; single-valued keys take exactly one value of their type."""
    if key == "OptionalRules" and not all(isinstance(v, str) for v, _ in values):
        raise line.error("optional rules are quoted texts", column=2)
    if key in _LIST_HEADERS:
        return
    kind = _SINGLE_HEADERS.get(key)
    if kind is None:
        raise line.error(f"unknown header [{key}]", column=2)
    if len(values) != 1 or not isinstance(values[0][0], kind) or isinstance(values[0][0], bool):
        what = "a whole number" if kind is int else "a quoted text"
        raise line.error(f"header [{key} ...] takes one value, {what}", column=2)


def _check_header(
    header: dict[str, list[tuple[Any, int]]], players: list[Player], lines: dict[str, int], origin: str | None
) -> None:
    for key in _REQUIRED_HEADERS:
        if key not in header:
            raise RecordError(f"header [{key} ...] is missing", origin=origin, line=1, column=1)
    version, column = header["Notation"][0]
    if version != VERSION:
        raise RecordError(f"notation version {version!r} is not {VERSION}", origin=origin, line=lines["Notation"], column=column)
    title, column = header["Title"][0]
    if not is_known_title(title):
        raise UnknownTitle(title, origin=origin, line=lines["Title"], column=column)
    if not players:
        raise RecordError("no [Player ...] header", origin=origin, line=1, column=1)


def _single(header: dict[str, list[tuple[Any, int]]], key: str, default: Any = ...) -> Any:
    if key not in header:
        return default
    return header[key][0][0]





def _read_header_line(line: _Line) -> tuple[str, list[tuple[Any, int]]]:
    line.pos += 1  # "["
    key = line.word()
    values: list[tuple[Any, int]] = []
    while True:
        char = line.peek()
        if char == "]":
            line.pos += 1
            break
        if char == "":
            raise line.error("header line is not closed with ]")
        column = line.pos + 1
        if char == '"' or char in "-0123456789" or line.text.startswith(("true", "false", "null"), line.pos):
            values.append((line.json_value(), column))
        else:
            values.append((line.word().text, column))
    if not line.at_end():
        raise line.error("unexpected text after header line")
    return key.text, values


def _read_player(line: _Line, values: list[tuple[Any, int]], seats: dict[int, PlayerId]) -> Player:
    if len(values) not in (3, 4) or not isinstance(values[0][0], int) or not all(isinstance(v, str) for v, _ in values[2:]):
        raise line.error('a player header is [Player SEAT ID "NAME"], or [Player SEAT ID "NAME" "BOT"] for a bot', column=1)
    seat = values[0][0]
    if seat != len(seats) + 1:
        raise line.error(f"player seat {seat} out of order (expected {len(seats) + 1})", column=values[0][1])
    seats[seat] = values[1][0]
    return Player(id=values[1][0], name=values[2][0], bot=values[3][0] if len(values) == 4 else None)


def _read_result(values: list[tuple[Any, int]] | None, origin: str | None, number: int | None) -> dict[PlayerId, int] | None:
    if values is None:
        return None
    if len(values) % 2:
        raise RecordError("a result header is [Result ID VALUE ID VALUE ...]", origin=origin, line=number, column=1)
    result: dict[PlayerId, int] = {}
    for (pid, id_column), (value, column) in zip(values[::2], values[1::2]):
        if isinstance(pid, bool) or not isinstance(pid, (int, str)):
            raise RecordError("a result names a player by id, a number or a quoted text", origin=origin, line=number, column=id_column)
        if pid in result:
            raise RecordError(f"a result gives player {pid!r} twice", origin=origin, line=number, column=id_column)
        if isinstance(value, bool) or not isinstance(value, int):
            raise RecordError("a result value must be a whole number", origin=origin, line=number, column=column)
        result[pid] = value
    return result


def _read_action(line: _Line, seats: dict[int, PlayerId]) -> Action:
    label = line.word()
    match = _LABEL.fullmatch(label.text)
    if not match:
        raise line.error(f"expected an action id like 42 or 42.1, got {label.text!r}", column=label.column)
    action_id, auto = int(match.group(1)), int(match.group(2) or 0)
    if match.group(2) is not None and auto == 0:
        raise line.error("automatic actions are numbered from .1", column=label.column)
    entity = _read_entity(line, seats, label.text)
    type_token = line.word()
    spec = action_type(type_token.text)
    if spec is None:
        raise line.error(f"unknown action type {type_token.text!r}", column=type_token.column, action=label.text)
    fields, envelope = _read_fields(line, spec, seats, label.text)
    missing = [name for name in spec.required if fields.get(name) is None]
    if missing:
        raise line.error(f"{spec.name} needs {', '.join(missing)}", action=label.text)
    fields, texts = split_route_texts(fields)
    return Action(spec.name, entity, action_id, auto, fields, **envelope, revenue_str=texts)


def _read_fields(
    line: _Line, spec: ActionType, seats: dict[int, PlayerId], label: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The action's fields and its envelope (``@name=value`` items, which end the positional values)."""
    fields: dict[str, Any] = {}
    envelope: dict[str, Any] = {}
    positional = iter(spec.positional)
    while not line.at_end():
        if line.peek() == "@":
            positional = iter(())
            _read_envelope(line, envelope, seats, label)
            continue
        keyword = line.keyword()
        if keyword is None:
            name = next(positional, None)
            if name is None:
                raise line.error(f"{spec.name} takes no more positional values", action=label)
            fields[name] = _read_value(line, spec.kind(name), seats, label)
            continue
        positional = iter(())  # a keyword ends the positional values
        _store(line, fields, keyword, spec.kinds, seats, label)
    return fields, envelope


def _read_envelope(line: _Line, envelope: dict[str, Any], seats: dict[int, PlayerId], label: str) -> None:
    """One ``@name=value`` or ``@name:=JSON`` envelope item at the cursor, into ``envelope``."""
    column = line.pos + 1
    match = _ENVELOPE_KEY.match(line.text, line.pos)
    if match is None or match.group(1) not in ENVELOPE:
        raise line.error(f"expected an envelope field @{'/@'.join(ENVELOPE)}=VALUE", column=column, action=label)
    name = match.group(1)
    if name in envelope:
        raise line.error(f"envelope field @{name} given twice", column=column, action=label)
    line.pos = match.end()
    if match.group(2) == ":=":
        envelope[name] = line.json_value(label)
        return
    token = line.word()
    text = token.text
    if name == "created_at" and _TIME.fullmatch(text):
        try:
            moment = datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
        except ValueError:
            raise line.error(f"{text!r} is not a real time", column=token.column, action=label) from None
        envelope[name] = timegm(moment.timetuple())
    elif name == "user" and (seat := _SEAT.fullmatch(text)) and int(seat.group(1)) in seats:
        envelope[name] = seats[int(seat.group(1))]
    elif name == "original_id" and _INT.fullmatch(text):
        envelope[name] = int(text)
    elif name == "skip" and text in ("true", "false"):
        envelope[name] = text == "true"
    else:
        raise line.error(f"bad value {text!r} for @{name} (write @{name}:=JSON for any other)", column=token.column, action=label)


def _store(
    line: _Line,
    fields: dict[str, Any],
    keyword: tuple[str, bool, int],
    kinds: dict[str, Kind],
    seats: dict[int, PlayerId],
    label: str,
) -> None:
    name, raw, column = keyword
    if name in fields:
        raise line.error(f"field {name} given twice", column=column, action=label)
    kind = kinds.get(name)
    if raw:
        fields[name] = line.json_value(label)
    elif kind is None:
        raise line.error(f"unknown field {name}: write it as {name}:=JSON", column=column, action=label)
    elif kind is Kind.ENTITY:
        entity = _read_entity(line, seats, label)
        fields[name] = entity.id
        fields[f"{name}_type"] = entity.kind
    else:
        fields[name] = _read_value(line, kind, seats, label)


def _read_value(line: _Line, kind: Kind | None, seats: dict[int, PlayerId], label: str) -> Any:
    if kind is Kind.ROUTES:
        return _read_routes(line, seats, label)
    token = line.word()
    text = token.text
    if kind is Kind.INT:
        if not _INT.fullmatch(text):
            raise line.error(f"expected a whole number, got {text!r}", column=token.column, action=label)
        return int(text)
    if kind is Kind.BOOL:
        if text not in ("true", "false"):
            raise line.error(f"expected true or false, got {text!r}", column=token.column, action=label)
        return text == "true"
    if kind is Kind.STRS:
        items = text.split(",")
        if not all(_BARE_ITEM.fullmatch(i) for i in items):
            raise line.error(f"bad list {text!r}", column=token.column, action=label)
        return items
    if not _BARE.fullmatch(text):
        raise line.error(f"bad value {text!r}", column=token.column, action=label)
    return text


def _read_routes(line: _Line, seats: dict[int, PlayerId], label: str) -> list[dict[str, Any]]:
    routes = []
    while line.peek() == "[":
        routes.append(_read_route(line, seats, label))
    if not routes:
        raise line.error("expected routes like [TRAIN HEX-HEX ... $REVENUE]", action=label)
    return routes


def _read_route(line: _Line, seats: dict[int, PlayerId], label: str) -> dict[str, Any]:
    line.pos += 1  # "["
    route: dict[str, Any] = {}
    connections: list[list[str]] = []
    first = True
    while True:
        char = line.peek()
        if char == "]":
            line.pos += 1
            break
        if char in ("", "#"):
            raise line.error("route is not closed with ]", action=label)
        keyword = line.keyword()
        if keyword is not None:
            _store(line, route, keyword, ROUTE_KINDS, seats, label)
        elif char == "$":
            line.pos += 1
            route["revenue"] = _read_value(line, Kind.INT, seats, label)
        elif char == "@":
            line.pos += 1
            route["hexes"] = _read_value(line, Kind.STRS, seats, label)
        elif first:
            route["train"] = _read_value(line, Kind.STR, seats, label)
        else:
            token = line.word()
            hexes = token.text.split("-")
            if not all(_HEX.fullmatch(h) for h in hexes):
                raise line.error(f"bad connection {token.text!r}", column=token.column, action=label)
            connections.append(hexes)
        first = False
    if connections:
        route = {"train": route.pop("train"), "connections": connections, **route} if "train" in route else {
            "connections": connections,
            **route,
        }
    return _route_in_export_order(route)


_ROUTE_ORDER = ("train", "connections", "hexes", "revenue")


def _route_in_export_order(route: dict[str, Any]) -> dict[str, Any]:
    """Key order as 18xx.games writes routes, so written JSON reads like an export."""
    ordered = {k: route[k] for k in _ROUTE_ORDER if k in route}
    ordered.update((k, v) for k, v in route.items() if k not in ordered)
    return ordered


def _read_entity(line: _Line, seats: dict[int, PlayerId], label: str) -> Entity:
    """``p3``, a corporation symbol, ``kind:id`` or ``kind:JSON`` (ids that are numbers or need quotes)."""
    line.skip_space()
    typed = _TYPED_JSON_ID.match(line.text, line.pos)
    if typed:
        line.pos = typed.end()
        return Entity(typed.group(1), line.json_value(label))
    token = line.word()
    text = token.text
    seat = _SEAT.fullmatch(text)
    if seat:
        number = int(seat.group(1))
        if number not in seats:
            raise line.error(f"no player in seat {number}", column=token.column, action=label)
        return Entity("player", seats[number])
    kind, colon, ident = text.partition(":")
    if not colon:
        kind, ident = "corporation", text
    if not kind or not _BARE.fullmatch(ident):
        raise line.error(f"bad entity {text!r}", column=token.column, action=label)
    return Entity(kind, ident)


def _check_order(line: _Line, action: Action, last: Action | None) -> None:
    """Ids increase; automatic actions follow their parent, numbered 1, 2, ..."""
    if last is None:
        expected_ok = action.auto == 0
    elif action.auto == 0:
        expected_ok = action.id > last.id
    else:
        expected_ok = action.id == last.id and action.auto == last.auto + 1
    if not expected_ok:
        after = f" after {last.label}" if last else " as the first action"
        raise line.error(f"action {action.label} is out of order{after}", column=1, action=action.label)
