"""What the dashboard's game review needs beyond plain table reads: the map at a step, and the
notation text of every action.

The archive keeps per-action numbers (cash, prices, trains) but not the board, because tiles and
tokens are bulky to store per action and cheap to rebuild: replaying one 18MS game takes a few
tens of milliseconds. So the board at a step is replayed from the record on demand, one game at
a time, the way ingest replayed it (``keep_going``: an illegal action is flagged and skipped).
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from analytics.frames import game_rows
from analytics.scope import NOT_JUDGED
from ingest.model import Record
from ingest.notation import write_action
from records import Archive
from replay import Game, IllegalAction
from replay.hexgrid import coordinates
from replay.titles import title_named
from replay.titles import SUPPORTED

REVIEW_TABLES = ("steps", "player_states", "company_states", "flags", "runs")
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
class BoardView:
    """The map after action ``seq``, with that action in notation and its flag, if any."""

    seq: int
    hexes: tuple[HexView, ...]
    action: str
    flag: str | None


@dataclass(frozen=True)
class GameTables:
    """One game's rows for stepping through it: per-step states, flags, seat names, action texts."""

    key: str
    title: str
    replayed: bool
    players: pl.DataFrame
    """seat, name"""
    steps: pl.DataFrame
    """seq, action_id, round, phase, round_index (the round's position, as in the per-round tables), action"""
    player_states: pl.DataFrame
    company_states: pl.DataFrame
    flags: pl.DataFrame
    runs: pl.DataFrame
    """The revenue audit of each run: seq, company, declared, engine, optimum, proven, and both
    route sets as JSON (``declared_routes``, ``optimal_routes``: train, revenue, stops)."""


def game_tables(archive: Archive, key: str) -> GameTables:
    """Everything the review page filters by step, read once per game (``key`` in full, or a
    unique source id).

    ``steps`` has one row per action even for a game stored without replay, so the action list
    can still be stepped through; its round columns are then null.
    """
    record = archive.record(key)
    tables = {name: game_rows(archive, name, record.key).drop("game_key") for name in REVIEW_TABLES}
    texts = pl.DataFrame({"seq": range(len(record.actions)), "action": action_texts(record)},
                         schema={"seq": pl.Int32, "action": pl.Utf8})
    steps = tables["steps"].sort("seq")
    steps = steps.with_columns(
        ((pl.col("round") != pl.col("round").shift()).fill_null(True).cum_sum() - 1).alias("round_index")
    )
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
    )


def action_texts(record: Record) -> list[str]:
    """Every action of the record as one line of railledger notation, in order."""
    seats = {player.id: seat for seat, player in enumerate(record.players, start=1)}
    return [write_action(action, seats) for action in record.actions]


def can_replay(title: str) -> bool:
    """Whether the engine is complete for ``title``, so its board and market can be shown."""
    return title in SUPPORTED


def board_at(record: Record, seq: int) -> BoardView:
    """Replay ``record`` up to and including action ``seq`` and return the map to draw.

    Raises KeyError for a title without a complete engine and IndexError for a step outside the
    record.
    """
    if not can_replay(record.title):
        raise KeyError(f"no replay engine for {record.title}")
    if not 0 <= seq < len(record.actions):
        raise IndexError(f"step {seq} is outside the record's {len(record.actions)} actions")
    game = Game.start(record.title, record.players, seed=record.seed, optional_rules=record.optional_rules,
                      game_id=record.game_id, created=record.created)
    flag = None
    for index, action in enumerate(record.actions[: seq + 1]):
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
    return BoardView(seq, tuple(hexes), write_action(record.actions[seq], seats), flag)


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
    flags = (archive.table("flags").filter(pl.col("follows").is_null())
             .group_by("game_key").agg(flags=pl.len().cast(pl.Int64)))
    replayed = archive.table("standings").select("game_key").unique().with_columns(replayed=pl.lit(True))
    return (
        games.join(flags, left_on="key", right_on="game_key", how="left")
        .join(replayed, left_on="key", right_on="game_key", how="left")
        .select("key", "title", "players", "status", "actions",
                pl.col("verdict").fill_null(NOT_JUDGED),
                pl.col("verdict_detail").fill_null("stored before verdicts were kept; ingest it again").alias("why"),
                pl.col("replayed").fill_null(False), pl.col("flags").fill_null(0))
    )


def flag_list(archive: Archive) -> pl.DataFrame:
    """Every flagged action: [game_key, title, seq, action_id, rule, section, message, follows],
    each game's root causes first (``follows`` is null for them), then what followed from them."""
    titles = archive.table("games").select(game_key="key", title="title")
    return (
        archive.table("flags").join(titles, on="game_key")
        .select("game_key", "title", "seq", "action_id", "rule", "section", "message", "follows")
        .sort("title", "game_key", pl.col("follows").is_not_null(), "seq")
    )
