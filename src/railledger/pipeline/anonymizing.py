"""``railledger export --anonymize``: a dataset to share, in which nobody is named.

Every player becomes ``Player N``, numbered in the order the archive first seats them, the same
number wherever they occur: a player with an 18xx.games user id (the identity railledger keeps
across games) is one pseudonym in every game, whose id is the number N; a player without one (a
hotseat game names its players only) is their game and seat, whose id is the pseudonym's name, as
such a game's ids are names. A user who is not at the table but acted in a game (18xx.games' master
mode writes who sent an action: an id, or on older games a name) becomes ``User N`` likewise.

They are replaced in the players' rows, the acting entity and ``user`` field of every action, the
player an action names (1871's ``borrow_from``, ``purchase_for``), the recorded result, the events
that name a player (privates bought, pars), the names in verdicts, flags and revenue audits, and
the kept text of every game, where the chat is dropped as 18xx.games drops it for a visitor (a
message an undo points at, or that carries automatic actions, is kept with its text emptied), and
so are the game's description and its creator's notes. Where a file was read from is left out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from railledger.ingest import notation
from railledger.ingest.identity import USER
from railledger.ingest.model import Action, Entity, Player, PlayerId, Record, SourceText
from railledger.records import codec

NAMED_FIELDS = ("borrow_from", "purchase_for")
"""Action fields that may name a player (with ``<field>_type`` ``player``)."""



@dataclass
class Pseudonyms:
    """Who becomes whom across an archive: numbers handed out in order of first appearance."""

    users: dict[str, int] = field(default_factory=dict)
    """18xx.games user id (as text) -> N."""
    seats: dict[tuple[str, int], int] = field(default_factory=dict)
    """(game key, seat) of a player without a user id -> N."""
    strangers: dict[str, int] = field(default_factory=dict)
    """A user named by an action who is not at its table (an id or a name, as text) -> N of ``User N``."""

    def seat(self, game_key: str, seat: int, player_id: str, is_int: bool) -> tuple[PlayerId, str]:
        """(new id, new name) of a seated player."""
        known: dict[Any, int] = self.users if is_int else self.seats
        identity = player_id if is_int else (game_key, seat)
        if identity not in known:
            known[identity] = len(self.users) + len(self.seats) + 1
        number = known[identity]
        return (number if is_int else f"Player {number}"), f"Player {number}"

    def stranger(self, user: str) -> str:
        """The pseudonym of a user not at the table."""
        if user not in self.strangers:
            self.strangers[user] = len(self.strangers) + 1
        return f"User {self.strangers[user]}"


@dataclass(frozen=True)
class Table:
    """One game's players, old and new: ids as text (as the archive keeps them) and names."""

    ids: Mapping[str, PlayerId]
    names: Mapping[str, str]
    by_seat: Mapping[int, tuple[PlayerId, str]]

    @classmethod
    def seated(cls, pseudonyms: Pseudonyms, game_key: str, players: Iterable[tuple[int, str, str, bool]]) -> Table:
        """The table of a game from its (seat, name, id as text, id is a number) rows, in seat order."""
        ids: dict[str, PlayerId] = {}
        names: dict[str, str] = {}
        by_seat: dict[int, tuple[PlayerId, str]] = {}
        for seat, name, player_id, is_int in players:
            new_id, new_name = pseudonyms.seat(game_key, seat, player_id, is_int)
            ids[player_id], names[name], by_seat[seat] = new_id, new_name, (new_id, new_name)
        return cls(ids, names, by_seat)

    def player(self, value: Any) -> Any:
        """A player id as a record holds it (a number or a name), replaced when it is one of this table's."""
        return self.ids.get(str(value), value) if isinstance(value, (int, str)) and not isinstance(value, bool) else value

    def user(self, value: Any, pseudonyms: Pseudonyms) -> Any:
        """Who sent an action (an id, or a name on older games): a player of the table, or a stranger."""
        if value is None:
            return None
        text = str(value)
        if text in self.ids:
            return self.ids[text]
        if text in self.names:
            return self.names[text]
        return pseudonyms.stranger(text)

    def text(self, value: str | None) -> str | None:
        """Free text (a verdict, a flag's message) with each of this table's names replaced whole."""
        if not value or not self.names:
            return value
        names = sorted(self.names, key=len, reverse=True)
        pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, names)) + r")(?!\w)")
        return pattern.sub(lambda found: self.names[found.group(1)], value)


def anonymized_export(data: dict[str, Any], table: Table, pseudonyms: Pseudonyms) -> dict[str, Any]:
    """An 18xx.games export (a decoded JSON object) with everyone replaced and the chat dropped."""
    out = dict(data)
    out["players"] = [{"id": new_id, "name": new_name} for _, (new_id, new_name) in sorted(table.by_seat.items())]
    creator = data.get("user")
    if isinstance(creator, dict):
        out["user"] = {"id": table.user(creator.get("id"), pseudonyms), "name": table.user(creator.get("name"), pseudonyms)}
    for dropped in ("description", "user_settings"):
        if dropped in out:
            out[dropped] = "" if dropped == "description" else None
    if isinstance(data.get("settings"), dict):
        settings = dict(data["settings"])
        if isinstance(settings.get("player_order"), list):
            settings["player_order"] = [table.player(p) for p in settings["player_order"]]
        settings.pop("players", None)
        out["settings"] = settings
    if isinstance(data.get("acting"), list):
        out["acting"] = [table.player(p) for p in data["acting"]]
    if isinstance(data.get("result"), dict):
        out["result"] = {str(table.player(_id_of(key))): value for key, value in data["result"].items()}
    if isinstance(data.get("actions"), list):
        out["actions"] = _without_chat([_anonymized_action(a, table, pseudonyms) for a in data["actions"]])
    return out


def _id_of(key: str) -> PlayerId:
    """A result's key (text) as the player id it names."""
    return int(key) if key.lstrip("-").isdigit() else key


def _anonymized_action(action: Any, table: Table, pseudonyms: Pseudonyms) -> Any:
    if not isinstance(action, dict):
        return action
    out = dict(action)
    if out.get("entity_type") == "player":
        out["entity"] = table.player(out.get("entity"))
    if "user" in out:
        out["user"] = table.user(out["user"], pseudonyms)
    for name in NAMED_FIELDS:
        if name in out and out.get(f"{name}_type", "player") == "player":
            out[name] = table.player(out[name])
    if isinstance(out.get("auto_actions"), list):
        out["auto_actions"] = [_anonymized_action(a, table, pseudonyms) for a in out["auto_actions"]]
    return out


def _without_chat(actions: list[Any]) -> list[Any]:
    """The actions less their chat: a message that an undo points at, or that carries automatic
    actions, stays with its text emptied (as 18xx.games shows a game to a visitor)."""
    targets = {a.get("action_id") for a in actions if isinstance(a, dict) and a.get("type") == "undo"}
    kept = []
    for action in actions:
        if isinstance(action, dict) and action.get("type") == "message":
            if action.get("id") not in targets and not action.get("auto_actions"):
                continue
            action = {**action, "message": ""}
        kept.append(action)
    return kept


def anonymized_record(record: Record, table: Table, pseudonyms: Pseudonyms) -> Record:
    """A record with everyone replaced (what the notation of a game is written from)."""
    def action(a: Action) -> Action:
        entity = Entity(a.entity.kind, table.player(a.entity.id)) if a.entity.kind == "player" else a.entity
        fields = {name: table.player(value) if name in NAMED_FIELDS and a.fields.get(f"{name}_type", "player") == "player"
                  else value for name, value in a.fields.items()}
        return Action(a.type, entity, a.id, a.auto, fields, a.created_at, table.user(a.user, pseudonyms), a.original_id,
                      a.skip, a.revenue_str)

    players = tuple(Player(new_id, new_name, p.bot) for p, (new_id, new_name) in
                    zip(record.players, (table.by_seat[seat] for seat in range(1, len(record.players) + 1))))
    result = None if record.result is None else {table.player(k): v for k, v in record.result.items()}
    return Record(record.title, record.game_id, players, tuple(map(action, record.actions)), record.source, record.seed,
                  record.optional_rules, record.status, result, tuple(map(action, record.programs)), record.created,
                  record.duration, record.variant)


def anonymized_source(source: SourceText, table: Table, pseudonyms: Pseudonyms) -> SourceText:
    """A game's kept text with everyone replaced: an export as JSON, notation written again."""
    if source.format == "json":
        return SourceText("json", json.dumps(anonymized_export(json.loads(source.text), table, pseudonyms)))
    return SourceText("notation", notation.write(anonymized_record(notation.read(source.text), table, pseudonyms)))


def anonymize_tables(frames: Mapping[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    """Every exported table (:func:`pipeline.exporting.archive_tables`) with everyone replaced."""
    pseudonyms = Pseudonyms()
    players = frames["players"].sort("game_key", "seat")
    tables = {
        key: Table.seated(pseudonyms, key, zip(part["seat"], part["name"], part["external_id"], part["id_is_int"]))
        for (key,), part in players.partition_by("game_key", as_dict=True, maintain_order=True).items()
    }
    empty = Table({}, {}, {})
    out = dict(frames)
    new_players = pl.DataFrame(
        [(key, seat, str(new_id), name, isinstance(new_id, int))
         for key, table in tables.items() for seat, (new_id, name) in table.by_seat.items()],
        schema={"game_key": pl.Utf8, "seat": players["seat"].dtype, "new_id": pl.Utf8, "new_name": pl.Utf8,
                "new_is_int": pl.Boolean}, orient="row")
    out["players"] = (players.join(new_players, on=["game_key", "seat"], how="left")
                      .with_columns(name="new_name", external_id="new_id", id_is_int="new_is_int",
                                    identity=pl.when(pl.col("identity").str.starts_with(USER))  # a user's new id
                                    .then(pl.lit(USER) + pl.col("new_id")).otherwise("identity"))
                      .select(frames["players"].columns))
    seated = players.join(new_players, on=["game_key", "seat"], how="left").select(
        "game_key", pl.col("external_id").alias("entity"), "new_id", "new_is_int")
    for name in ("actions", "programs"):
        out[name] = _anonymized_actions(frames[name], seated, tables, empty, pseudonyms)
    out["games"] = _rows(frames["games"], tables, empty, pseudonyms, _game_row, key="key")
    out["flags"] = _rows(frames["flags"], tables, empty, pseudonyms,
                         lambda row, table, _p: {**row, "message": table.text(row["message"])})
    out["events"] = _rows(frames["events"], tables, empty, pseudonyms,  # a detail that is a player's id names that player
                          lambda row, table, _p: {**row, "detail": str(table.ids.get(row["detail"], row["detail"]))
                                                  if row["detail"] is not None else None})
    names = new_players.group_by("game_key").agg(pl.col("new_name").sort_by("seat").alias("player_names"))
    out["game_totals"] = (frames["game_totals"].drop("player_names").join(names, on="game_key", how="left")
                          .with_columns(pl.col("player_names").fill_null([]))
                          .select(frames["game_totals"].columns))
    out["seat_runs"] = (frames["seat_runs"].join(new_players.select("game_key", "seat", "new_name"), on=["game_key", "seat"],
                                                 how="left").with_columns(player="new_name").select(frames["seat_runs"].columns))
    out["sources"] = _rows(frames["sources"], tables, empty, pseudonyms, _source_row)
    return out


def _rows(frame: pl.DataFrame, tables: Mapping[str, Table], empty: Table, pseudonyms: Pseudonyms, change: Any,
          key: str = "game_key") -> pl.DataFrame:
    """``frame`` with each row passed through ``change(row, its game's table, pseudonyms)``."""
    if frame.is_empty():
        return frame
    rows = [change(row, tables.get(row[key], empty), pseudonyms) for row in frame.iter_rows(named=True)]
    return pl.DataFrame(rows, schema=frame.schema, orient="row")


def _anonymized_actions(frame: pl.DataFrame, seated: pl.DataFrame, tables: Mapping[str, Table], empty: Table,
                        pseudonyms: Pseudonyms) -> pl.DataFrame:
    """The actions (or programs) with everyone replaced: the acting players by a join, the few rows
    that name a sender or a lender one by one (:func:`_action_row`)."""
    if frame.is_empty():
        return frame
    player = (pl.col("entity_type") == "player") & pl.col("new_id").is_not_null()
    joined = (frame.with_row_index("_row").join(seated, on=["game_key", "entity"], how="left", maintain_order="left")
              .with_columns(entity=pl.when(player).then("new_id").otherwise("entity"),
                            entity_is_int=pl.when(player).then("new_is_int").otherwise("entity_is_int"))
              .drop("new_id", "new_is_int"))
    named = pl.col("user_id").is_not_null() | pl.col("payload").str.contains('"(?:' + "|".join(NAMED_FIELDS) + ')"')
    special = joined.filter(named)
    if not special.is_empty():
        joined = joined.update(_rows(special, tables, empty, pseudonyms, _action_row), on="_row")
    return joined.drop("_row")


def _action_row(row: dict[str, Any], table: Table, pseudonyms: Pseudonyms) -> dict[str, Any]:
    """One action's sender and the player it names, replaced (its acting player already is)."""
    row = dict(row)
    if row["user_id"] is not None:
        new_user = table.user(int(row["user_id"]) if row["user_is_int"] else row["user_id"], pseudonyms)
        row["user_id"], row["user_is_int"] = str(new_user), isinstance(new_user, int)
    if any(f'"{name}"' in row["payload"] for name in NAMED_FIELDS):
        fields = json.loads(row["payload"])
        for name in NAMED_FIELDS:
            if name in fields and fields.get(f"{name}_type", "player") == "player":
                fields[name] = table.player(fields[name])
        row["payload"] = json.dumps(fields, separators=(",", ":"))  # as the archive writes it (records.codec)
    return row


def _game_row(row: dict[str, Any], table: Table, _pseudonyms: Pseudonyms) -> dict[str, Any]:
    result = row["result"]
    if result:
        result = json.dumps({str(table.player(_id_of(k))): v for k, v in json.loads(result).items()})
    return {**row, "result": result, "verdict_detail": table.text(row["verdict_detail"]), "origin": None}


def _source_row(row: dict[str, Any], table: Table, pseudonyms: Pseudonyms) -> dict[str, Any]:
    source = codec.decode_source((row["format"], row["size"], row["text_zlib"]))
    return {**row, **codec.encode_source(anonymized_source(source, table, pseudonyms))}
