"""What the dashboard's game review needs beyond plain table reads: the position at a step (map,
private companies, what else was legal), the notation text of every action, and the rounds.

The archive keeps per-action numbers (cash, prices, trains) but not the board, because tiles and
tokens are bulky to store per action and cheap to rebuild: replaying one 18MS game takes a few
tens of milliseconds. So the position at a step is replayed from the record on demand, one game at
a time, the way ingest replayed it (``keep_going``: an illegal action is flagged and skipped), and
the legal-action generator is asked, on the way, what could have been done instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from railledger.analytics.frames import game_rows
from railledger.analytics.scope import NOT_JUDGED
from railledger.ingest.model import Action, Record
from railledger.ingest.notation import write_action
from railledger.records import Archive
from railledger.replay import Game, IllegalAction
from railledger.replay.hexgrid import coordinates
from railledger.replay.moves import move_key
from railledger.replay.titles import title_named
from railledger.replay.titles import SUPPORTED

REVIEW_TABLES = ("steps", "player_states", "company_states", "flags", "runs", "events")
"""Per-game tables the review page steps through; each holds a few hundred to a few thousand rows."""


@dataclass(frozen=True, slots=True)
class HexView:
    """One hex as the map draws it. Paths keep the engine's endpoint names (``e0``..``e5``,
    ``c0``, ``t0``, ``o0``), already turned to the tile's rotation."""

    hex: str
    x: int
    y: int
    tile: str
    rotation: int
    colour: str
    label: str | None
    location: str | None
    paths: tuple[tuple[str, str], ...]
    cities: tuple[tuple[str | None, ...], ...]
    """Per city, its station slots: a corporation symbol or None for a free slot."""
    towns: int
    offboards: int
    layout: str = "pointy"  # the map's hex orientation: "pointy" or "flat" (1871)


@dataclass(frozen=True, slots=True)
class PrivateView:
    """A private company after a step: who holds it (a player's name, a company's symbol, or
    ``bank``) and whether it has closed."""

    company: str
    name: str
    owner: str
    value: int
    revenue: int
    closed: bool


@dataclass(frozen=True, slots=True)
class Alternative:
    """One action the rules allowed before a step: who, what (in notation, without id and
    entity), and whether it is the move the record made there."""

    who: str
    kind: str
    action: str
    taken: bool


@dataclass(frozen=True, slots=True)
class BoardView:
    """The position after action ``seq``: the map, the private companies, that action in notation
    and its flag, if any, and every action that was legal instead of it (``alternatives``)."""

    seq: int
    hexes: tuple[HexView, ...]
    action: str
    flag: str | None
    privates: tuple[PrivateView, ...] = ()
    alternatives: tuple[Alternative, ...] = ()


@dataclass(frozen=True)
class GameTables:
    """One game's rows for stepping through it: per-step states, flags, seat names, action texts."""

    key: str
    title: str
    replayed: bool
    players: pl.DataFrame
    """seat, name"""
    steps: pl.DataFrame
    """seq, action_id, round, phase, round_index (the round's position, as in the per-round
    tables), action (the notation line), who (the acting player's name or company) and does (the
    line without its id and entity)"""
    player_states: pl.DataFrame
    company_states: pl.DataFrame
    flags: pl.DataFrame
    runs: pl.DataFrame
    """The revenue audit of each run: seq, company, declared, engine, optimum, proven, and both
    route sets as JSON (``declared_routes``, ``optimal_routes``: train, revenue, stops)."""
    events: pl.DataFrame
    """seq, ordinal, kind, subject, amount, detail: pars, trains bought and rusted, phases..."""
    record: Record
    """The record itself, which the position at a step is replayed from (read once with the rest)."""

    def rounds(self) -> pl.DataFrame:
        """One row per round in play order: round_index, round, first and last seq. Empty for a
        game without replay rows."""
        return _rounds(self.steps)


def game_rounds(archive: Archive, key: str) -> pl.DataFrame:
    """:meth:`GameTables.rounds` of one game, reading only its steps: for a page that draws a
    game's rounds and nothing else of it."""
    return _rounds(_indexed(game_rows(archive, "steps", key)))


def _indexed(steps: pl.DataFrame) -> pl.DataFrame:
    """A game's steps in order, each with its round's position (``round_index``)."""
    return steps.sort("seq").with_columns(
        ((pl.col("round") != pl.col("round").shift()).fill_null(True).cum_sum() - 1).alias("round_index"))


def _rounds(steps: pl.DataFrame) -> pl.DataFrame:
    return (
        steps.drop_nulls("round_index")
        .group_by("round_index")
        .agg(pl.col("round").first(), first=pl.col("seq").min(), last=pl.col("seq").max())
        .sort("round_index")
    )


def game_tables(archive: Archive, key: str) -> GameTables:
    """Everything the review page filters by step, read once per game (``key`` in full, or a
    unique source id).

    ``steps`` has one row per action even for a game stored without replay, so the action list
    can still be stepped through; its round columns are then null.
    """
    record = archive.record(key)
    tables = {name: game_rows(archive, name, record.key).drop("game_key") for name in REVIEW_TABLES}
    lines = action_texts(record)
    texts = pl.DataFrame(
        {"seq": range(len(record.actions)), "action": lines,
         "who": [_who(record, action.entity.kind, action.entity.id) for action in record.actions],
         "does": [line.split(" ", 2)[2] for line in lines]},  # a line is: id, entity, type, fields
        schema={"seq": pl.Int32, "action": pl.Utf8, "who": pl.Utf8, "does": pl.Utf8})
    steps = _indexed(tables["steps"])
    players = game_rows(archive, "players", record.key).select("seat", "name").sort("seat")
    return GameTables(
        key=record.key,
        title=record.title,
        replayed=steps.height > 0,
        players=players,
        steps=texts.join(steps, on="seq", how="left"),
        player_states=tables["player_states"],
        company_states=tables["company_states"],
        flags=tables["flags"],
        runs=tables["runs"],
        events=tables["events"].sort("ordinal"),
        record=record,
    )


def _who(record: Record, kind: str, entity: object) -> str:
    """The acting entity as a reader knows it: a player by name, anything else by its id."""
    if kind == "player":
        for player in record.players:
            if player.id == entity:
                return player.name
    return str(entity)


def action_texts(record: Record) -> list[str]:
    """Every action of the record as one line of railledger notation, in order."""
    seats = {player.id: seat for seat, player in enumerate(record.players, start=1)}
    return [write_action(action, seats) for action in record.actions]


def can_replay(title: str) -> bool:
    """Whether the engine is complete for ``title``, so its board and market can be shown."""
    return title in SUPPORTED


def board_at(record: Record, seq: int) -> BoardView:
    """Replay ``record`` up to and including action ``seq`` and return the position to show,
    with the legal actions the game offered just before action ``seq``.

    Raises KeyError for a title without a complete engine and IndexError for a step outside the
    record.
    """
    if not can_replay(record.title):
        raise KeyError(f"no replay engine for {record.title}")
    if not 0 <= seq < len(record.actions):
        raise IndexError(f"step {seq} is outside the record's {len(record.actions)} actions")
    game = Game.from_record(record)
    flag = None
    alternatives: tuple[Alternative, ...] = ()
    for index, action in enumerate(record.actions[: seq + 1]):
        if index == seq:
            alternatives = _alternatives(game, record, action)
        try:
            game.process(action)
        except IllegalAction as illegal:
            if index == seq:
                flag = f"{illegal.rule_id}: {illegal.message}"
    spec = game.title.map
    hexes = []
    for hex_id, placed in game.board.hexes.items():
        geometry = placed.geometry
        x, y = coordinates(hex_id, game.title.layout)
        paths = tuple(sorted((min(path), max(path)) for path in geometry.paths))
        hexes.append(HexView(
            hex=hex_id, x=x, y=y,
            tile=placed.tile_id.rsplit("-", 1)[0] if placed.tile_id != f"{hex_id}-0" else "",
            rotation=placed.rotation,
            colour=geometry.color,
            label=geometry.label,
            location=spec[hex_id].get("location"),
            paths=paths,
            cities=tuple(tuple(placed.tokens.get(i, [None] * city.slots)) for i, city in enumerate(geometry.cities)),
            towns=len(geometry.towns),
            offboards=len(geometry.offboards),
            layout=game.title.layout,
        ))
    seats = {player.id: seat for seat, player in enumerate(record.players, start=1)}
    return BoardView(seq, tuple(hexes), write_action(record.actions[seq], seats), flag, _privates(game, record),
                     alternatives)


def _alternatives(game: Game, record: Record, taken: Action) -> tuple[Alternative, ...]:
    """Every legal action of the position, the recorded one marked (by the move it makes, so a
    different certificate of the same bundle is the same move)."""
    seats = {player.id: seat for seat, player in enumerate(record.players, start=1)}
    made = move_key(game, taken)
    return tuple(
        Alternative(_who(record, action.entity.kind, action.entity.id), action.type,
                    write_action(action, seats).split(" ", 2)[2],
                    move_key(game, action) == made)
        for action in game.legal_actions()
    )


def _privates(game: Game, record: Record) -> tuple[PrivateView, ...]:
    names = {player.id: player.name for player in record.players}
    return tuple(
        PrivateView(company.sym, company.name,
                    "bank" if company.owner is None else names.get(company.owner, str(company.owner)),
                    company.value, company.revenue, company.closed)
        for company in game.companies.values()
    )


def market_grid(title: str) -> pl.DataFrame:
    """The title's stock market cells: row, col, price, par (a par value), zone ("yellow" or null)."""
    cells = [cell for row in title_named(title).new_market().rows for cell in row if cell is not None]
    return pl.DataFrame(
        {
            "row": [c.row for c in cells],
            "col": [c.column for c in cells],
            "price": [c.price for c in cells],
            "par": [c.par for c in cells],
            "zone": [c.zone for c in cells],
        },
        schema={"row": pl.Int64, "col": pl.Int64, "price": pl.Int64, "par": pl.Boolean, "zone": pl.Utf8},
    )


def archive_overview(archive: Archive) -> pl.DataFrame:
    """The games list with what the archive page filters on: [key, title, players (one text),
    status, actions, verdict, why (the verdict's detail), replayed, flags (root causes)].
    ``replayed`` means the engine stored standings for it; a game stored before verdicts were
    kept shows ``not judged``."""
    games = archive.games().with_columns(pl.col("players").list.join(", "))
    flags = (archive.select("flags", ["game_key", "follows"]).filter(pl.col("follows").is_null())
             .group_by("game_key").agg(flags=pl.len().cast(pl.Int64)))
    replayed = archive.select("standings", ["game_key"]).unique().with_columns(replayed=pl.lit(True))
    return (
        games.join(flags, left_on="key", right_on="game_key", how="left")
        .join(replayed, left_on="key", right_on="game_key", how="left")
        .select("key", "title", "players", "status", "actions",
                pl.col("verdict").fill_null(NOT_JUDGED),
                pl.col("verdict_detail").fill_null("stored before verdicts were kept; ingest it again").alias("why"),
                pl.col("replayed").fill_null(False), pl.col("flags").fill_null(0))
    )


def flag_list(archive: Archive) -> pl.DataFrame:
    """Every flagged action: [game_key, title, seq, action_id, round, sentence, rule, section,
    message, follows], each game's root causes first (``follows`` is null for them), then what
    followed from them."""
    titles = archive.table("games").select(game_key="key", title="title")
    return (
        archive.table("flags").join(titles, on="game_key")
        .select("game_key", "title", "seq", "action_id", "round", "sentence", "rule", "section", "message", "follows")
        .sort("title", "game_key", pl.col("follows").is_not_null(), "seq")
    )
