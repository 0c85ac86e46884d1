"""18xx.games JSON exports: read one into a canonical :class:`Record`, write one back.

An export is a JSON object with ``id``, ``title``, ``players``, ``settings`` (``seed``,
``optional_rules``), ``actions``, ``result`` and ``status``. Reading applies undo/redo
(:mod:`ingest.undo`), drops chat messages, moves top-level ``program_*`` settings aside as
metadata, and flattens each action's ``auto_actions`` into the list right after it. Writing does
the reverse, nesting automatic actions under their parent again, so that a written export read
back gives the same record.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any

from railledger.ingest.action_types import action_type
from railledger.ingest.errors import RecordError, UnknownTitle
from railledger.ingest.model import ENVELOPE, Action, Entity, Player, Record, joined_route_texts, split_route_texts
from railledger.ingest.schema import LAST_TIME, Places, shown
from railledger.ingest.undo import RawAction, standing_actions
from railledger.ingest.titles import is_known_title

FRAME_FIELDS = frozenset({"type", "entity", "entity_type", "id", "auto_actions", *ENVELOPE})
"""Keys of an export action that are not its fields: who acts, its id, its automatic actions,
and the envelope (time, acting user, renumbering, skip mark), which :class:`Action` keeps apart."""

SOURCE = "18xx.games"
_CANONICAL_INT = re.compile(r"0|[1-9][0-9]*")
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def read_export(data: Any) -> Record:
    """Build the canonical record of one 18xx.games export (a decoded JSON object)."""
    return parse_export(data)[0]


def parse_export(data: Any) -> tuple[Record, Places]:
    """The canonical record of an export, and where its parts are in the export (for errors).

    Values are taken as the export holds them, except where building the record would change
    them (an id made text, a list of rules, a result keyed by text): those are checked here, so
    nothing becomes something else on the way; :func:`ingest.schema.check_record` judges the rest.
    """
    if not isinstance(data, dict) or not isinstance(data.get("actions"), list) or "title" not in data:
        raise RecordError("not an 18xx.games game record (needs an object with 'title' and an 'actions' list)")
    title = data["title"]
    if not is_known_title(title):
        raise UnknownTitle(title)
    if "id" not in data:
        raise RecordError("game record has no 'id'")

    raw_players = data.get("players") or []
    if not isinstance(raw_players, list):
        raise RecordError("'players' is not a list", field="players")
    players = tuple(_player(p, seat) for seat, p in enumerate(raw_players, start=1))
    if not players:
        raise RecordError("game record has no players", field="players")
    settings = {} if data.get("settings") is None else data["settings"]
    if not isinstance(settings, dict):
        raise RecordError("'settings' is not an object", field="settings")
    raw = data["actions"]
    _check_action_list(raw)
    position = {action["id"]: index for index, action in enumerate(raw)}

    actions: list[Action] = []
    programs: list[Action] = []
    places: dict[str, tuple[int, int | None]] = {}
    for raw_action in standing_actions(raw):
        if raw_action["type"] == "message":
            continue
        index = position[raw_action["id"]]
        parent = _action(raw_action, raw_action["id"], 0, index)
        places[parent.label] = (index, None)
        (programs if parent.is_program else actions).append(parent)
        autos = [] if raw_action.get("auto_actions") is None else raw_action["auto_actions"]
        if not isinstance(autos, list):
            raise RecordError("auto_actions is not a list", action=f"{parent.label} (#{index})", field="auto_actions")
        for auto, raw_auto in enumerate(autos, start=1):
            actions.append(_action(raw_auto, raw_action["id"], auto, index))
            places[actions[-1].label] = (index, None)

    record = Record(
        title=title,
        game_id=_game_id(data["id"]),
        players=players,
        actions=tuple(actions),
        source=data.get("source", SOURCE),
        seed=settings.get("seed"),
        optional_rules=_optional_rules(settings.get("optional_rules")),
        status=data.get("status"),
        result=_result(data.get("result"), players),
        programs=tuple(programs),
        created=_day(data.get("created_at")),
        duration=_duration(data, raw),
        variant=_variant(data),
    )
    return record, Places(header=HEADER_FIELDS, actions=places)


HEADER_FIELDS = {"game_id": "id", "seed": "settings.seed", "optional_rules": "settings.optional_rules", "created": "created_at"}
"""Record fields an export spells otherwise (the rest have the same name)."""


def write_export(record: Record) -> dict[str, Any]:
    """An 18xx.games export of a record: actions with their automatic actions nested again."""
    top: dict[int, RawAction] = {}
    for action in sorted((*record.actions, *record.programs), key=lambda a: (a.id, a.auto)):
        if action.auto == 0:
            top[action.id] = _raw(action, with_id=True)
        elif action.id in top:
            top[action.id].setdefault("auto_actions", []).append(_raw(action, with_id=False))
        else:
            raise RecordError("automatic action follows no action of its own", action=action.label)
    settings: dict[str, Any] = {"optional_rules": list(record.optional_rules)}
    if record.seed is not None:
        settings["seed"] = record.seed
    export: dict[str, Any] = {
        "id": int(record.game_id) if _CANONICAL_INT.fullmatch(record.game_id) else record.game_id,
        "title": record.title,
        "players": [_raw_player(p) for p in record.players],
        "settings": settings,
        "actions": list(top.values()),
    }
    if record.created is not None:
        export["created_at"] = record.created
    if record.duration is not None:
        export[DURATION] = record.duration  # railledger's, like "source": the timestamps it came from are dropped
    if record.source != SOURCE:
        export["source"] = record.source  # not an 18xx.games key; it ignores it, we read it back
    if record.variant is not None:
        export[VARIANT] = record.variant  # railledger's: the title's data the game was played with
    if record.status is not None:
        export["status"] = record.status
    if record.result is not None:
        export["result"] = {str(pid): value for pid, value in record.result.items()}
    return export


def _check_action_list(raw: list[Any]) -> None:
    """Reject action lists whose shape shows the record was cut or spliced."""
    last_id = 0
    for index, action in enumerate(raw):
        if not isinstance(action, dict) or "type" not in action or "id" not in action:
            raise RecordError("action is not an object with 'type' and 'id' (truncated record?)", action=f"#{index}")
        action_id = action["id"]
        if isinstance(action_id, bool) or not isinstance(action_id, int):
            raise RecordError(f"action id must be a whole number, got {shown(action_id)}", action=f"#{index}", field="id")
        if action_id <= last_id:
            raise RecordError(
                f"action ids must increase; {shown(action_id)} follows {last_id} (truncated or spliced record?)",
                action=f"#{index}",
                field="id",
            )
        last_id = action_id


def _game_id(raw: Any) -> str:
    """The game's id as text: 18xx.games numbers online games, hotseat games have a text id."""
    if isinstance(raw, str):
        return raw
    if isinstance(raw, int) and not isinstance(raw, bool) and raw >= 0:
        return str(raw)
    raise RecordError(f"must be a whole number of at least 0 or a text, got {shown(raw)}", field="id")


def _optional_rules(raw: Any) -> tuple[Any, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise RecordError(f"must be a list of texts, got {shown(raw)}", field="settings.optional_rules")
    return tuple(raw)


VARIANT = "variant"


def _variant(data: dict[str, Any]) -> str | None:
    """The variant's TOML text a record carries (checked against its title when replayed)."""
    value = data.get(VARIANT)
    if value is not None and not isinstance(value, str):
        raise RecordError(f"must be a variant's TOML text, got {shown(value)}", field=VARIANT)
    return value


DURATION = "duration"
"""The key an export written by railledger keeps a record's duration under."""


def _duration(data: dict[str, Any], raw: list[Any]) -> int | None:
    """Seconds from ``created_at`` to the last action's ``created_at``, both Unix times (an
    export railledger wrote gives it as ``duration``); None when either is missing. The last in
    the list, not the latest: the server inserts fix-up actions years later in the middle of a
    game (18Texas 65394 has passes dated 2023 in a 2022 game)."""
    if DURATION in data:
        value = data[DURATION]
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= LAST_TIME:
            return value
        raise RecordError(f"must be a whole number of seconds (0 to {LAST_TIME}), got {shown(value)}", field=DURATION)
    start, end = data.get("created_at"), raw[-1].get("created_at") if raw else None
    if not (isinstance(start, (int, float)) and isinstance(end, (int, float)) and _is_time(start) and _is_time(end)):
        return None
    return max(0, int(end) - int(start))


def _is_time(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= LAST_TIME


def _day(created_at: Any) -> str | None:
    """The creation day of an export: online games give a Unix time, hotseat games a date."""
    if created_at is None:
        return None
    if isinstance(created_at, (int, float)) and not isinstance(created_at, bool) and 0 <= created_at <= LAST_TIME:
        return datetime.fromtimestamp(created_at, tz=timezone.utc).date().isoformat()
    if isinstance(created_at, str) and _ISO_DAY.match(created_at):
        return created_at[:10]
    raise RecordError(
        f"must be a Unix time (0 to {LAST_TIME}) or a text starting with a day YYYY-MM-DD, got {shown(created_at)}",
        field="created_at",
    )


def _player(raw: Any, seat: int) -> Player:
    """A seat; a hotseat player (no id, or a null one) is known by name; a generated game's
    player names its bot (a key 18xx.games does not write and does not read)."""
    if not isinstance(raw, dict) or "name" not in raw:
        raise RecordError(f"player {seat} has no name", field=f"players[{seat - 1}]")
    pid = raw.get("id")
    return Player(id=raw["name"] if pid is None else pid, name=raw["name"], bot=raw.get("bot"))


def _raw_player(player: Player) -> dict[str, Any]:
    raw: dict[str, Any] = {"id": player.id, "name": player.name}
    if player.bot is not None:
        raw["bot"] = player.bot
    return raw


def _result(raw: Any, players: tuple[Player, ...]) -> dict[Any, Any] | None:
    """Recorded final values keyed by player id (JSON keys are always text).

    A key is the text of a player's id, and becomes that id; any other key stays text, which the
    schema refuses as naming no player. A value written as a whole float (3685.0) is that whole
    number; other values are kept for the schema to refuse.
    """
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise RecordError("'result' is not an object of player values", field="result")
    if not raw:
        return None
    by_text = {str(p.id): p.id for p in players if isinstance(p.id, (int, str))}
    return {by_text.get(key, key): _whole(value) for key, value in raw.items()}


def _whole(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _action(raw: RawAction, action_id: int, auto: int, index: int) -> Action:
    """One canonical action; ``index`` is its (parent's) position in the export's action list."""
    label = f"{action_id}.{auto} (#{index})" if auto else f"{action_id} (#{index})"
    if not isinstance(raw, dict):
        raise RecordError("action is not an object", action=label)
    kind = raw.get("type")
    spec = action_type(kind) if isinstance(kind, str) else None
    if spec is None:
        raise RecordError(f"unknown action type {kind!r}", action=label)
    if "entity" not in raw or "entity_type" not in raw:
        raise RecordError(f"{kind} action has no acting entity", action=label)
    fields = {k: v for k, v in raw.items() if k not in FRAME_FIELDS}
    missing = [name for name in spec.required if fields.get(name) is None]
    if missing:
        raise RecordError(f"{kind} action lacks {', '.join(missing)}", action=label)
    envelope = {name: raw[name] for name in ENVELOPE if raw.get(name) is not None}  # the schema checks their types
    fields, texts = split_route_texts(fields)
    return Action(spec.name, Entity(raw["entity_type"], raw["entity"]), action_id, auto, fields, **envelope,
                  revenue_str=texts)


def _raw(action: Action, *, with_id: bool) -> RawAction:
    raw: RawAction = {"type": action.type, "entity": action.entity.id, "entity_type": action.entity.kind}
    if with_id:
        raw["id"] = action.id
    raw.update(action.envelope())
    raw.update(joined_route_texts(action))
    return raw
