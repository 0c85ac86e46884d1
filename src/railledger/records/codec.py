"""Translate a :class:`Record` to archive rows and back, and fingerprint it.

This module knows the shape of the rows but writes no SQL; :mod:`records.archive` moves the rows
in and out of DuckDB. Everything here is chosen so that ``decode(encode(record)) == record`` holds
exactly, with types intact: player and entity ids keep int vs str through an ``*_is_int`` flag,
and action fields are stored as JSON text, which keeps ints, floats, bools, strings, lists and
dicts apart; it is written ASCII-escaped, so any Python string survives, even a lone surrogate
that ``json.loads`` makes of ``"\\ud800"``. Values JSON cannot carry exactly (tuples, non-string
dict keys, NaN, sets...) are rejected before anything is written rather than silently coming
back different.
"""

from __future__ import annotations

import hashlib
import json
import math
import zlib
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from railledger.ingest.identity import identities
from railledger.ingest.model import Action, Entity, Player, PlayerId, Record, SourceText

GAME_COLUMNS = (
    "key", "title", "source", "source_id", "seed", "optional_rules", "status", "result", "content_hash", "created",
    "duration", "variant", "variant_hash",
)
"""Columns of ``games`` that come from the record (``origin`` and ``ingested_at`` come from the store)."""

PLAYER_COLUMNS = ("seat", "name", "external_id", "id_is_int")
BOT_COLUMNS = ("seat", "bot")
"""``seat_bots``: the bot of each seat a bot played (generated games)."""
ACTION_COLUMNS = ("seq", "original_id", "auto", "type", "entity_type", "entity", "entity_is_int", "payload",
                  "created_at", "user_id", "user_is_int", "id_before_renumbering", "skip", "revenue_strs")
"""Shared by ``actions`` and ``programs``; the last six hold the action's envelope and its routes'
display texts (schema v6)."""

Columns = dict[str, list[Any]]
"""Rows of one table column by column (the archive inserts each column as one list)."""


@dataclass(frozen=True, slots=True)
class GameRows:
    """All rows of one game, ready to insert: the ``games`` row and its per-game tables."""

    key: str
    game: dict[str, Any]
    players: Columns
    actions: Columns
    programs: Columns
    bots: Columns

    @property
    def content_hash(self) -> str:
        return self.game["content_hash"]


class _NotJson(ValueError):
    """A value JSON would not give back unchanged; ``path`` is filled in while unwinding."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.path: list[str] = []

    def where(self) -> str:
        return "".join(reversed(self.path))


def encode(record: Record, digest: str | None = None) -> GameRows:
    """The rows of ``record``; raises ValueError for a value the archive could not restore exactly.
    ``digest`` is the record's :func:`content_hash` when the caller has it already."""
    for seat, player in enumerate(record.players, start=1):
        _check_id(player.id, f"player {seat} id")
    # Validate everything before hashing, so a bad value gets its precise message, not json's.
    actions = _encode_actions(record.actions)
    programs = _encode_actions(record.programs)
    result = _encode_result(record)
    return GameRows(
        key=record.key,
        game={
            "key": record.key,
            "title": record.title,
            "source": record.source,
            "source_id": record.game_id,
            "seed": record.seed,
            "optional_rules": list(record.optional_rules),
            "status": record.status,
            "result": result,
            "content_hash": content_hash(record) if digest is None else digest,
            "created": record.created,
            "duration": record.duration,
            "variant": record.variant,
            "variant_hash": variant_hash(record.variant),
        },
        players={
            "seat": list(range(1, len(record.players) + 1)),
            "name": [p.name for p in record.players],
            "external_id": [str(p.id) for p in record.players],
            "id_is_int": [isinstance(p.id, int) for p in record.players],
            "identity": identities(record),
        },
        actions=actions,
        programs=programs,
        bots={
            "seat": [seat for seat, p in enumerate(record.players, start=1) if p.bot is not None],
            "bot": [p.bot for p in record.players if p.bot is not None],
        },
    )


def decode(
    game: Mapping[str, Any],
    players: Iterable[Sequence[Any]],
    actions: Iterable[Sequence[Any]],
    programs: Iterable[Sequence[Any]],
    bots: Iterable[Sequence[Any]] = (),
) -> Record:
    """Rebuild a record from its ``games`` row (by column name) and its rows in column order.

    ``players`` rows follow :data:`PLAYER_COLUMNS` ordered by seat; ``actions`` and ``programs``
    rows follow :data:`ACTION_COLUMNS` ordered by seq; ``bots`` rows :data:`BOT_COLUMNS`.
    """
    bot_of: dict[int, str] = {seat: bot for seat, bot in bots}
    seated = tuple(Player(id=_restore_id(ext, is_int), name=name, bot=bot_of.get(seat))
                   for seat, name, ext, is_int in players)
    return Record(
        title=game["title"],
        game_id=game["source_id"],
        players=seated,
        actions=_decode_actions(actions),
        source=game["source"],
        seed=game["seed"],
        optional_rules=tuple(game["optional_rules"]),
        status=game["status"],
        result=_decode_result(game["result"], seated),
        programs=_decode_actions(programs),
        created=game["created"],
        duration=game["duration"],
        variant=game["variant"],
    )


def variant_hash(text: str | None) -> str | None:
    """The hash of the variant a record was played with (:class:`~replay.variant.Variant`), None for
    the base title; ValueError (a VariantError naming the field) for a variant that does not fit."""
    from railledger.replay.variant import recorded_variant

    return None if text is None else recorded_variant(text).hash


def content_hash(record: Record) -> str:
    """sha256 of :func:`canonical_json`: equal for equal games whatever file or format they came from."""
    return hashlib.sha256(canonical_json(record).encode("utf-8")).hexdigest()


def canonical_json(record: Record) -> str:
    """One fixed JSON text of everything in a record: sorted keys, no whitespace, ids with their types.

    The result is written as ``[id, value]`` pairs sorted by id so that an int id and a string id
    spelling the same number do not collide, and dict order never matters. A seat's bot is written
    only when there is one, so records of people keep their hashes. Changing this function
    changes every hash, which makes the next ingest report every game as REPLACED.
    """
    result = None
    if record.result is not None:
        result = sorted(([pid, value] for pid, value in record.result.items()), key=lambda kv: _id_sort_key(kv[0]))
    document = {
        "source": record.source,
        "game_id": record.game_id,
        "title": record.title,
        "players": [[p.id, p.name] if p.bot is None else [p.id, p.name, p.bot] for p in record.players],
        "seed": record.seed,
        "optional_rules": list(record.optional_rules),
        "status": record.status,
        "result": result,
        "created": record.created,
        "actions": [_action_document(a) for a in record.actions],
        "programs": [_action_document(a) for a in record.programs],
    }
    if record.duration is not None:
        document["duration"] = record.duration  # only when known, so older records keep their hash
    if record.variant is not None:
        document["variant"] = record.variant  # a base title's record keeps its hash
    return json.dumps(document, sort_keys=True, separators=(",", ":"), allow_nan=False)


def _action_document(action: Action) -> dict[str, Any]:
    """An action's part of the canonical JSON; its envelope only when it has one, so a record
    without envelopes keeps the hash it had before envelopes were kept."""
    document = {
        "id": action.id,
        "auto": action.auto,
        "type": action.type,
        "entity_type": action.entity.kind,
        "entity": action.entity.id,
        "fields": dict(action.fields),
    }
    envelope = action.envelope()
    if envelope:
        document["envelope"] = envelope
    if action.revenue_str is not None:
        document["revenue_str"] = list(action.revenue_str)
    return document


def _id_sort_key(pid: PlayerId) -> tuple[bool, str]:
    return isinstance(pid, str), str(pid)


def _encode_actions(actions: Sequence[Action]) -> Columns:
    columns: Columns = {name: [] for name in ACTION_COLUMNS}
    for seq, action in enumerate(actions):
        _check_id(action.entity.id, f"action {action.label} entity")
        if action.user is not None:
            _check_id(action.user, f"action {action.label} user")
        for name in ("created_at", "original_id"):
            value = getattr(action, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValueError(f"action {action.label} {name} {value!r} must be an int")
        if action.skip is not None and not isinstance(action.skip, bool):
            raise ValueError(f"action {action.label} skip {action.skip!r} must be a bool")
        texts = None if action.revenue_str is None else list(action.revenue_str)
        try:
            _check_json(texts)
        except _NotJson as exc:
            raise ValueError(f"action {action.label}: revenue_str{exc.where()} {exc.problem}") from None
        try:
            _check_json(dict(action.fields))
        except _NotJson as exc:
            raise ValueError(
                f"action {action.label}: field {exc.where()} {exc.problem}; "
                "the archive keeps only JSON values (dict with str keys, list, str, int, float, bool, None)"
            ) from None
        columns["seq"].append(seq)
        columns["original_id"].append(action.id)
        columns["auto"].append(action.auto)
        columns["type"].append(action.type)
        columns["entity_type"].append(action.entity.kind)
        columns["entity"].append(str(action.entity.id))
        columns["entity_is_int"].append(isinstance(action.entity.id, int))
        columns["payload"].append(json.dumps(dict(action.fields), separators=(",", ":")))
        columns["created_at"].append(action.created_at)
        columns["user_id"].append(None if action.user is None else str(action.user))
        columns["user_is_int"].append(None if action.user is None else isinstance(action.user, int))
        columns["id_before_renumbering"].append(action.original_id)
        columns["skip"].append(action.skip)
        columns["revenue_strs"].append(None if texts is None else json.dumps(texts, separators=(",", ":")))
    return columns


def _decode_actions(rows: Iterable[Sequence[Any]]) -> tuple[Action, ...]:
    return tuple(
        Action(kind, Entity(entity_type, _restore_id(entity, is_int)), original_id, auto, json.loads(payload),
               created_at, None if user is None else _restore_id(user, user_is_int), renumbered, skip,
               None if texts is None else tuple(json.loads(texts)))
        for _, original_id, auto, kind, entity_type, entity, is_int, payload, created_at, user, user_is_int, renumbered, skip,
        texts in rows
    )


def _encode_result(record: Record) -> str | None:
    """``{player id as text: value}``, as 18xx.games writes it; key types come back from the players.

    A key restores to the player whose id has the same text, else to a string; a key that would not
    come back as itself (an int that is no player's id) is refused.
    """
    if record.result is None:
        return None
    for pid, value in record.result.items():
        restored = _restore_result_key(str(pid), record.players)
        if restored != pid or type(restored) is not type(pid):
            raise ValueError(
                f"result key {pid!r} is not a player id of {record.key}; the archive keys a result by player id"
            )
        try:
            _check_json(value)
        except _NotJson as exc:
            raise ValueError(f"result value for {pid!r} {exc.problem}") from None
    return json.dumps({str(pid): value for pid, value in record.result.items()}, separators=(",", ":"))


def _decode_result(text: str | None, players: Sequence[Player]) -> dict[PlayerId, Any] | None:
    if text is None:
        return None
    return {_restore_result_key(key, players): value for key, value in json.loads(text).items()}


def _restore_result_key(text: str, players: Sequence[Player]) -> PlayerId:
    for player in players:
        if str(player.id) == text:
            return player.id
    return text


def _check_id(value: object, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError(f"{what} {value!r} must be an int or a str")


def _restore_id(text: str, is_int: bool) -> PlayerId:
    return int(text) if is_int else text


def _check_json(value: Any) -> None:
    """Raise :class:`_NotJson` unless ``json.loads(json.dumps(value))`` gives back an equal value of the same types."""
    if value is None or isinstance(value, (str, int)):  # bool is an int and JSON keeps it apart
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _NotJson(f"is {value}, which JSON cannot hold")
        return
    if isinstance(value, list):
        for index, item in enumerate(value):
            try:
                _check_json(item)
            except _NotJson as exc:
                exc.path.append(f"[{index}]")
                raise
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise _NotJson(f"has the non-string key {key!r}, which JSON would turn into a string")
            try:
                _check_json(item)
            except _NotJson as exc:
                exc.path.append(f"[{key!r}]")
                raise
        return
    raise _NotJson(f"is a {type(value).__name__}, which JSON would not give back as such")


SOURCE_COLUMNS = ("format", "size", "text_zlib")
"""Columns of ``sources`` besides ``game_key``."""


def encode_source(source: SourceText) -> dict[str, Any]:
    """The ``sources`` row of a record's text: its format, its size in bytes, the text zlib-compressed
    (an export of several hundred actions shrinks about tenfold)."""
    if source.format not in SourceText.FORMATS:
        raise ValueError(f"a record's text is {' or '.join(SourceText.FORMATS)}, not {source.format!r}")
    data = source.text.encode("utf-8", "surrogatepass")
    return {"format": source.format, "size": len(data), "text_zlib": zlib.compress(data, 9)}


def decode_source(row: Sequence[Any]) -> SourceText:
    """The text of a ``sources`` row (columns as :data:`SOURCE_COLUMNS`)."""
    kind, _, packed = row
    return SourceText(kind, zlib.decompress(packed).decode("utf-8", "surrogatepass"))
