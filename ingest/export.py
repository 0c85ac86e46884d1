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
from typing import Any, Mapping

from ingest.action_types import action_type
from ingest.errors import RecordError
from ingest.model import Action, Entity, Player, PlayerId, Record
from ingest.undo import RawAction, standing_actions
from ingest.titles import is_known_title

DROPPED_FIELDS = frozenset(
    {"type", "entity", "entity_type", "id", "auto_actions", "created_at", "user", "skip", "original_id"}
)
"""Bookkeeping of the server (timestamps, acting user, undo marks, migration ids): not game data."""

DROPPED_ROUTE_FIELDS = frozenset({"revenue_str"})
"""Display text the server derives from a route; the replay engine computes its own."""

SOURCE = "18xx.games"
_CANONICAL_INT = re.compile(r"0|[1-9][0-9]*")
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def read_export(data: Any) -> Record:
    """Build the canonical record of one 18xx.games export (a decoded JSON object)."""
    if not isinstance(data, dict) or not isinstance(data.get("actions"), list) or "title" not in data:
        raise RecordError("not an 18xx.games game record (needs an object with 'title' and an 'actions' list)")
    title = data["title"]
    if not is_known_title(title):
        raise RecordError(f"unknown title {title!r}")
    if "id" not in data:
        raise RecordError("game record has no 'id'")

    raw_players = data.get("players") or []
    if not isinstance(raw_players, list):
        raise RecordError("'players' is not a list")
    players = tuple(_player(p, seat) for seat, p in enumerate(raw_players, start=1))
    if not players:
        raise RecordError("game record has no players")
    settings = data.get("settings") or {}
    if not isinstance(settings, dict):
        raise RecordError("'settings' is not an object")
    raw = data["actions"]
    _check_action_list(raw)

    actions: list[Action] = []
    programs: list[Action] = []
    for raw_action in standing_actions(raw):
        if raw_action["type"] == "message":
            continue
        parent = _action(raw_action, raw_action["id"], 0)
        (programs if parent.is_program else actions).append(parent)
        autos = raw_action.get("auto_actions") or []
        if not isinstance(autos, list):
            raise RecordError("auto_actions is not a list", action=parent.label)
        for auto, raw_auto in enumerate(autos, start=1):
            actions.append(_action(raw_auto, raw_action["id"], auto))

    return Record(
        title=title,
        game_id=str(data["id"]),
        players=players,
        actions=tuple(actions),
        source=data.get("source", SOURCE),
        seed=settings.get("seed"),
        optional_rules=tuple(settings.get("optional_rules") or ()),
        status=data.get("status"),
        result=_result(data.get("result"), players),
        programs=tuple(programs),
        created=_day(data.get("created_at")),
    )


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
        "players": [{"id": p.id, "name": p.name} for p in record.players],
        "settings": settings,
        "actions": list(top.values()),
    }
    if record.created is not None:
        export["created_at"] = record.created
    if record.source != SOURCE:
        export["source"] = record.source  # not an 18xx.games key; it ignores it, we read it back
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
        if not isinstance(action["id"], int) or action["id"] <= last_id:
            raise RecordError(
                f"action ids must increase; {action['id']!r} follows {last_id} (truncated or spliced record?)",
                action=str(action["id"]),
            )
        last_id = action["id"]


def _day(created_at: Any) -> str | None:
    """The creation day of an export: online games give a Unix time, hotseat games a date."""
    if isinstance(created_at, (int, float)) and not isinstance(created_at, bool):
        return datetime.fromtimestamp(created_at, tz=timezone.utc).date().isoformat()
    if isinstance(created_at, str) and _ISO_DAY.match(created_at):
        return created_at[:10]
    return None


def _player(raw: Any, seat: int) -> Player:
    if not isinstance(raw, dict) or "name" not in raw:
        raise RecordError(f"player {seat} has no name")
    return Player(id=raw.get("id", raw["name"]), name=str(raw["name"]))


def _result(raw: Mapping[str, Any] | None, players: tuple[Player, ...]) -> dict[PlayerId, int] | None:
    """Recorded final values keyed by player id (JSON keys are always strings)."""
    if not raw:
        return None
    if not isinstance(raw, dict) or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in raw.values()):
        raise RecordError("'result' is not an object of player values")
    by_text = {str(p.id): p.id for p in players}
    return {by_text.get(key, key): int(value) for key, value in raw.items()}


def _action(raw: RawAction, action_id: int, auto: int) -> Action:
    label = f"{action_id}.{auto}" if auto else str(action_id)
    if not isinstance(raw, dict):
        raise RecordError("action is not an object", action=label)
    kind = raw.get("type")
    spec = action_type(kind) if isinstance(kind, str) else None
    if spec is None:
        raise RecordError(f"unknown action type {kind!r}", action=label)
    if "entity" not in raw or "entity_type" not in raw:
        raise RecordError(f"{kind} action has no acting entity", action=label)
    fields = {k: v for k, v in raw.items() if k not in DROPPED_FIELDS}
    missing = [name for name in spec.required if fields.get(name) is None]
    if missing:
        raise RecordError(f"{kind} action lacks {', '.join(missing)}", action=label)
    if kind == "run_routes" and isinstance(fields["routes"], list):
        fields["routes"] = [
            {k: v for k, v in route.items() if k not in DROPPED_ROUTE_FIELDS} if isinstance(route, dict) else route
            for route in fields["routes"]
        ]
    return Action(kind, Entity(raw["entity_type"], raw["entity"]), action_id, auto, fields)


def _raw(action: Action, *, with_id: bool) -> RawAction:
    raw: RawAction = {"type": action.type, "entity": action.entity.id, "entity_type": action.entity.kind}
    if with_id:
        raw["id"] = action.id
    raw.update(action.fields)
    return raw
