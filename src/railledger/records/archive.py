"""The archive: a DuckDB file of canonical game records, written one whole game at a time.

polars is imported by the methods that make or take frames, not with the module: a command
that lists a few games (``railledger games``) reads them as Python rows and would spend a fifth
of a second of its start importing it.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass, fields
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Callable, Collection, Mapping, ParamSpec, Sequence, TypeVar

import duckdb

from railledger.ingest.model import Record, SourceText
from railledger.records import codec, schema, summaries
from railledger.records.connection import WaitNotice, archive_failure, connect, one_row, registered, transaction
from railledger.records.errors import ArchiveError, ReplayWouldBeLost
from railledger.records.states import STATE_TABLES, state_query

if TYPE_CHECKING:  # imported where used: polars by the methods that make or take frames, the engine by what stores games
    import polars as pl

    from railledger.records.replay_rows import ReplayRows
    from railledger.replay import Replay
    from railledger.replay.optimizer.audit import RunAudit
    from railledger.replay.verdict import Verdict

P = ParamSpec("P")
T = TypeVar("T")

Columns = Mapping[str, type]
"""A frame's columns and their types, named by the Python types polars reads as its own (str:
String, int: Int64, float: Float64, bool: Boolean, datetime: Datetime("us"), list[str]:
List(String)), so that declaring them does not import polars."""

GAMES_SCHEMA: Columns = {
    "key": str,
    "title": str,
    "source": str,
    "source_id": str,
    "players": list[str],
    "status": str,
    "actions": int,
    "seed": int,
    "ingested_at": datetime,
    "verdict": str,
    "verdict_detail": str,
    "engine": str,
    "variant_hash": str,
}
ARCHIVE_TABLES = (
    "games", "players", "actions", "programs", "steps", "player_states", "company_states",
    "round_player_values", "round_company_prices", "events", "standings", "flags", "runs", "sources", "seat_bots",
    "game_totals", "train_firsts", "seat_factors", "seat_runs",
)
"""Every table a reader may ask for (``schema_version`` is the archive's own bookkeeping). The
state tables among them are rebuilt from the tables of changes that store them (:mod:`records.states`);
the last four are per-game summaries (:mod:`records.summaries`)."""

READ_AS: Mapping[str, Mapping[str, str]] = {
    "runs": {"optimal_routes": "coalesce(optimal_routes, declared_routes)"},
}
"""Columns stored in a shorter form than readers see them, by table: the expression that gives
each back. A run's best routes are stored only where they differ from the declared ones (schema
version 21): the declared run is the best one at nearly every run, and the two texts were a
tenth of an archive."""


def _read_columns(table: str) -> str:
    """The SQL select list of a table's columns as readers see them (:data:`READ_AS`)."""
    stored_as = READ_AS.get(table, {})
    return ", ".join(f"{stored_as[column]} AS {column}" if column in stored_as else column
                     for column in schema.shown_columns()[table])


SUMMARY_SCHEMA: Columns = {"title": str, "games": int, "actions": int}

_GAME_ORDER = "g.title, try_cast(g.source_id AS BIGINT) NULLS LAST, g.source_id"
"""The order games are listed in: by title, then source id (numerically where it is a number)."""

_GAMES_WANTED = """($title IS NULL OR lower(g.title) = lower($title))
  AND ($player IS NULL OR EXISTS (
        SELECT 1 FROM players p
        WHERE p.game_key = g.key
          AND (contains(lower(p.name), lower($player)) OR lower(p.external_id) = lower($player)
               OR p.identity = $player)))"""
"""The games ``g`` a listing asks for: of a title (ignoring case), with a player (part of a name, a
whole external id ignoring case, or an identity: docs/identity.md); NULL for either asks nothing of it."""

_GAMES_MATCHING = f"FROM games g WHERE {_GAMES_WANTED}"

_NEWEST_FIRST = "g.created DESC NULLS LAST, try_cast(g.source_id AS BIGINT) DESC NULLS LAST, g.source_id DESC, g.key DESC"
"""Newest game first: by creation day, then source id (numerically where it is a number); games
that do not say when they were created count as the oldest."""

_GAMES_COLUMNS = """g.key, g.title, g.source, g.source_id, t.player_names AS players, g.status,
       t.actions, g.seed, g.ingested_at, g.verdict, g.verdict_detail, g.engine, g.variant_hash"""

_GAMES_QUERY = f"""
SELECT {_GAMES_COLUMNS}
FROM games g JOIN game_totals t ON t.game_number = g.number
WHERE {_GAMES_WANTED}
ORDER BY {_GAME_ORDER}
"""

_NEWEST_GAMES_QUERY = f"""
WITH chosen AS (SELECT g.key {_GAMES_MATCHING} ORDER BY {_NEWEST_FIRST} LIMIT $limit)
SELECT {_GAMES_COLUMNS}
FROM games g SEMI JOIN chosen ON chosen.key = g.key
JOIN game_totals t ON t.game_number = g.number
ORDER BY {_GAME_ORDER}
"""
"""The newest of the matching games; all of them are listed without choosing them first, which
cost 0.17 s of a page's 0.44 s at 100,000 games."""



def _games_query(title: str | None, player: str | None, newest: int | None) -> tuple[str, dict[str, Any]]:
    """The listing's query and its parameters: the newest ``newest`` games, or every one."""
    wanted = {"title": title, "player": player}
    return (_GAMES_QUERY, wanted) if newest is None else (_NEWEST_GAMES_QUERY, {**wanted, "limit": newest})


_GAMES_COUNT = f"SELECT count(*) {_GAMES_MATCHING}"

_MATCHING = "matching_rows"
"""The name :meth:`Archive.select` gives a caller's frame of keys for the one query that joins it."""

_SUMMARY_QUERY = """
SELECT g.title, count(*) AS games, coalesce(sum(t.actions), 0) AS actions
FROM games g JOIN game_totals t ON t.game_number = g.number
GROUP BY g.title
ORDER BY g.title
"""


FACTS_SCHEMA: Columns = {
    "key": str,
    "title": str,
    "source": str,
    "source_id": str,
    "created": str,
    "duration": int,
    "variant_hash": str,
    "status": str,
    "verdict": str,
    "has_result": bool,
    "replay_matches": bool,
    "replayed": bool,
    "players": int,
    "actions": int,
    "operating_rounds": int,
    "end_reason": str,
    "end_game_action": bool,
    "order": int,
}

_FACTS_QUERY = """
SELECT g.key, g.title, g.source, g.source_id, g.created, g.duration, g.variant_hash, g.status, g.verdict,
       g.result IS NOT NULL AND g.result <> '{}' AS has_result,
       g.replay_matches, g.number IN (SELECT game_number FROM standings) AS replayed, t.players, t.actions, t.operating_rounds, t.end_reason, t.end_game_action,
       try_cast(g.source_id AS BIGINT) AS source_number
FROM games g JOIN game_totals t ON t.game_number = g.number
WHERE ($title IS NULL OR lower(g.title) = lower($title))
  AND ($player IS NULL OR g.number IN (SELECT game_number FROM players WHERE identity = $player))
"""
"""Each game's facts, unordered: polars puts them in play order (:meth:`Archive.game_facts`)."""

_PLAY_ORDER = ("created", "source_number", "source_id", "key")
"""The order games were played in: by creation day, then source id (numerically where DuckDB
reads it as a number), games that do not say when they were created last."""

_MATCHED_GAMES = f"FROM {_MATCHING} k JOIN games g ON g.key = k.game_key"
"""A caller's frame of game keys (registered as :data:`_MATCHING`) with each game's row, whose
number finds its rows in the per-game tables."""

_RESULTS_QUERY = f"""
SELECT k.*, s.seat, coalesce('bot:' || b.bot, p.identity) AS player, coalesce(b.bot, p.name) AS name, s.value, s.rank
{_MATCHED_GAMES}
JOIN standings s ON s.game_number = g.number
JOIN players p ON p.game_number = s.game_number AND p.seat = s.seat
LEFT JOIN seat_bots b ON b.game_number = s.game_number AND b.seat = s.seat
ORDER BY k."order", s.seat
"""
"""Each seat's result; a bot's seat is the bot (``bot:greedy``), one player over all its games."""

VALUE_SPREAD_SCHEMA: Columns = {
    "title": str, "players": int, "games": int, "mean": float, "std": float, "lowest": int, "highest": int,
    "winners_mean": float}

_VALUE_SPREAD = f"""
SELECT k.title, k.players, count(DISTINCT k.game_key) AS games, avg(s.value) AS mean, stddev_samp(s.value) AS std,
       min(s.value) AS lowest, max(s.value) AS highest, avg(s.value) FILTER (WHERE s.rank = 1) AS winners_mean
{_MATCHED_GAMES}
JOIN standings s ON s.game_number = g.number
GROUP BY k.title, k.players
ORDER BY k.title, k.players
"""

PLAYER_COUNTS_SCHEMA: Columns = {"title": str, "players": int}

_PLAYER_COUNTS = f"""
SELECT k.title, count(DISTINCT p.identity) AS players
{_MATCHED_GAMES}
JOIN players p ON p.game_number = g.number
GROUP BY k.title
"""

FACTOR_COUNTS_SCHEMA: Columns = {
    "title": str, "factor": str, "value": str, "games": int, "wins": int, "rank_sum": int}

_FACTOR_COUNTS = """
SELECT f.title, f.factor, f.value, count(*) AS games, count(*) FILTER (WHERE f.winner) AS wins, sum(f.rank) AS rank_sum
FROM seat_factors f
WHERE true {counted}
GROUP BY ALL
"""

RUSH_COUNTS_SCHEMA: Columns = {
    "title": str, "train_type": str, "kind": str, "or_ordinal": int, "games": int}

_RUSH_COUNTS = """
SELECT f.title, f.train_type, f.kind, f.or_ordinal, count(*) AS games
FROM train_firsts f
WHERE true {counted}
GROUP BY ALL
"""
"""A game has one row per train type and kind in ``train_firsts``, so its rows count games."""

RUSH_GAMES_SCHEMA: Columns = {"game_key": str, "title": str}

VARIANTS_SCHEMA: Columns = {"variant_hash": str, "title": str, "variant": str, "games": int}

_VARIANTS = """
SELECT variant_hash, any_value(title) AS title, any_value(variant) AS variant, count(*) AS games
FROM games WHERE variant_hash IS NOT NULL GROUP BY variant_hash ORDER BY title, variant_hash
"""
"""The variants the archive holds games of (one text of each: every text of a hash changes the same)."""

_RUSH_GAMES = """
SELECT DISTINCT f.game_key, f.title FROM train_firsts f WHERE f.kind = 'train' {counted}
"""

FLAG_COUNTS_SCHEMA: Columns = {
    "title": str, "rule": str, "flags": int, "games": int}

_FLAG_COUNTS_QUERY = """
SELECT g.title, f.rule, count(*) AS flags, count(DISTINCT f.game_key) AS games
FROM flags f JOIN games g ON g.key = f.game_key
WHERE f.follows IS NULL
GROUP BY g.title, f.rule
ORDER BY g.title, f.rule
"""

_SHORTFALLS = """
SELECT {selected}, sum(f.runs) AS runs, sum(f.below_optimum) AS below_optimum,
       coalesce(sum(f.left_on_table), 0) AS left_on_table, coalesce(sum(f.best_possible), 0) AS best_possible,
       sum(f.unproven) AS unproven
FROM seat_runs f {join}
WHERE true {{counted}}
GROUP BY {keys}
ORDER BY left_on_table DESC, {keys}
"""
"""The revenue audit summed from each game's per-president totals (:mod:`records.summaries`)."""
_SHORTFALL_TOTALS = {"runs": int, "below_optimum": int, "left_on_table": int, "best_possible": int, "unproven": int}
SHORTFALLS_BY_GAME_SCHEMA: Columns = {"game_key": str, "title": str, **_SHORTFALL_TOTALS}
SHORTFALLS_BY_PLAYER_SCHEMA: Columns = {"title": str, "player": str, "name": str, **_SHORTFALL_TOTALS}
_SHORTFALLS_BY_GAME = _SHORTFALLS.format(keys="f.game_key, f.title", selected="f.game_key, f.title", join="")
_SHORTFALLS_BY_PLAYER = _SHORTFALLS.format(  # per president by identity (docs/identity.md), shown by the name used last
    keys="f.title, p.identity", selected="f.title, p.identity AS player, arg_max(p.name, p.game_number) AS name",
    join="JOIN players p ON p.game_number = f.game_number AND p.seat = f.seat")


RATING_HISTORY_SCHEMA: Columns = {
    "scope": str, "player": str, "game": int, "game_key": str, "created": str,
    "mu": float, "sigma": float, "ordinal": float}
"""The columns of the stored ratings (``rating_history`` without its position)."""

RATING_TABLE_SCHEMA: Columns = {
    "scope": str, "place": int, "player": str, "name": str, "games": int, "wins": int,
    "mu": float, "sigma": float, "ordinal": float}
"""The columns of the stored leaderboard (``rating_table``)."""

LADDER_SCHEMA: Columns = {
    "recorded_at": datetime, "title": str, "players": int, "table_bots": str, "first_seed": int, "last_seed": int,
    "games": int, "bot": str, "seats": int, "wins": int, "win_low": float, "win_high": float, "mu": float, "sigma": float}
"""The columns of the stored ladder standings (``ladder_standings``)."""

_GAMES_IDENTITY = "SELECT count(*), bit_xor(hash(key, content_hash, engine, replay_matches)) FROM games"
"""What decides every game's rated result: its record (by content hash), the engine that replayed
it and whether that replay matched the recorded result, per key. A game's standings are its
replay's, which its record and the engine version decide."""

_PLAYER_RATED_GAMES = """
SELECT h.game_key AS key, g.title, row_number() OVER (ORDER BY min(h.position)) AS "order", g.created, t.players
FROM rating_history h JOIN games g ON g.key = h.game_key JOIN game_totals t ON t.game_number = g.number
WHERE h.player = $player AND h.manual_ends = $manual_ends
GROUP BY h.game_key, g.title, g.created, t.players
ORDER BY "order"
"""
"""The rated games ``$player`` sat in, numbered in the order they were rated (play order)."""


@dataclass(frozen=True)
class RatingBasis:
    """What stored ratings were computed from: a fingerprint of the rated results and a digest of
    the games they were read from (both made by :mod:`analytics.ratings`, opaque here), and how
    many rows of results the fingerprint covers."""

    fingerprint: str
    results: int
    games_digest: str


@dataclass(frozen=True)
class Stored:
    """What the archive holds of a game, as an ingest needs it before deciding to replay it."""

    content_hash: str
    engine: str | None  # the engine version that replayed it; None: not replayed
    verdict: Verdict | None  # None: stored before schema version 6
    source_format: str | None  # the format of its kept text; None: no text kept


def _stored_of(content: str, engine: str | None, verdict: str | None, detail: str | None, kind: str | None) -> Stored:
    from railledger.replay.verdict import Verdict

    return Stored(content, engine, None if verdict is None else Verdict(verdict, detail or ""), kind)


@dataclass(frozen=True)
class EncodedGame:
    """One game shaped into the archive's columns, away from any archive: a worker process makes
    it (:func:`encode_game`) and the one writer stores it (:meth:`Archive.store_encoded`), so that
    what crosses between them is plain columns rather than a replay's objects."""

    rows: codec.GameRows
    replay_rows: ReplayRows | None  # None: not replayed
    engine: str | None  # the engine version that replayed it
    matches: bool | None  # whether the replay reached the recorded result
    verdict: Verdict
    text: dict[str, Any] | None  # the source text, encoded (codec.encode_source)

    @property
    def key(self) -> str:
        return self.rows.key


def encode_game(
    record: Record, replay: Replay | None = None, runs: Sequence[RunAudit] = (), source: SourceText | None = None,
    digest: str | None = None,
) -> EncodedGame:
    """A game's rows as :meth:`Archive.store` writes them; ValueError for a record holding values
    the archive could not give back exactly. ``digest``: the record's content hash, if known."""
    from railledger.records.replay_rows import encode_replay
    from railledger.replay import engine_version
    from railledger.replay.verdict import judge

    return EncodedGame(
        rows=codec.encode(record, digest),
        replay_rows=encode_replay(replay, runs) if replay is not None else None,
        engine=engine_version(record.title, record.variant) if replay is not None else None,
        matches=replay.matches_record if replay is not None else None,
        verdict=judge(record, replay, source),
        text=codec.encode_source(source) if source is not None else None,
    )


@dataclass(frozen=True)
class Blocks:
    """How an archive file's blocks are used: DuckDB frees blocks as checkpoints rewrite tables
    and reuses them later, but gives back to the disk only those at the file's end."""

    block_size: int  # bytes
    used: int  # blocks holding data
    file_bytes: int  # the file's size (a header of less than a block, then its blocks)

    @property
    def free(self) -> int:
        """Blocks inside the file that hold nothing."""
        return max(0, self.file_bytes // self.block_size - self.used)

    @property
    def free_bytes(self) -> int:
        return self.free * self.block_size

    @property
    def free_share(self) -> float:
        """The part of the file that holds nothing."""
        return self.free_bytes / self.file_bytes if self.file_bytes else 0.0


def copy_database(con: duckdb.DuckDBPyConnection, source: str, target: str) -> None:
    """Copy every table of the database ``source`` into the attached, empty ``target`` (both
    quoted names), with their constraints: DuckDB writes the copy afresh, block by block."""
    con.execute(f"COPY FROM DATABASE {source} TO {target}")


def _text_literal(text: str) -> str:
    """``text`` as an SQL string literal (a path of the caller's, never a file's content)."""
    return "'" + text.replace("'", "''") + "'"


def _identifier(name: str) -> str:
    """``name`` as a quoted SQL identifier (the database DuckDB names after the file)."""
    return '"' + name.replace('"', '""') + '"'


class StoreOutcome(enum.Enum):
    """What :meth:`Archive.store` did with a record."""

    NEW = "new"
    UNCHANGED = "unchanged"
    REPLACED = "replaced"


_INCOMING = "railledger_incoming_rows"
"""The name a game's rows are scanned under while they are inserted (registered, then dropped)."""

_COPY = "railledger_compacted"
"""The name a new archive file is attached under while :meth:`Archive.write_copy` fills it."""

_ROW = "railledger_row"
"""The column giving each original row's position while copies of it are inserted."""


def _reading(method: Callable[P, T]) -> Callable[P, T]:
    """Turn a DuckDB failure inside an archive method into an :class:`ArchiveError` naming the file.

    The open checks the catalog and the file's length, but a corrupted block is only found when
    it is read; the command then reports one line instead of a traceback. Other failures (a value
    no column can hold) are ArchiveErrors too, and the transaction they happened in is rolled back.
    """

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return method(*args, **kwargs)
        except duckdb.Error as exc:
            archive = args[0]
            assert isinstance(archive, Archive)
            raise archive_failure(archive.path, exc) from exc

    return wrapper


class Archive:
    """An open archive file. Use :meth:`open` as a context manager; one connection, not thread-safe.

    Every write goes through :meth:`store`, which writes a game in one transaction, so a reader
    never sees part of a game and a failure leaves the previous version of the game in place.
    DuckDB locks the file for as long as it is open, so open it for one task and close it again:
    readers and writers of other processes take turns, each waiting (``wait``) for the other.
    """

    def __init__(self, path: Path, con: duckdb.DuckDBPyConnection, read_only: bool) -> None:
        self.path = path
        self.read_only = read_only
        self._con = con

    @classmethod
    def open(
        cls, path: str | Path, read_only: bool = False, wait: float = 0.0, on_wait: WaitNotice | None = None
    ) -> Archive:
        """Open ``path``, creating and migrating it to the latest schema unless ``read_only``.

        While another process holds the file, waits up to ``wait`` seconds (telling ``on_wait``
        once when the wait lasts) and then raises :class:`~records.errors.ArchiveBusy`.
        FileNotFoundError is raised for a missing file opened read-only, and
        :class:`~records.errors.ArchiveError` for a file that is not a usable archive: damaged
        (:class:`~records.errors.ArchiveDamaged`), or holding a catalog railledger did not make
        (:class:`~records.errors.ForeignArchive`).
        """
        path = Path(path)
        con = connect(path, read_only, wait, on_wait)
        try:
            schema.prepare(con, path, read_only, fills={summaries.FILLED_AT: summaries.summarise})
        except BaseException as exc:
            con.close()
            if isinstance(exc, duckdb.Error):  # the check runs DuckDB's own catalog functions only: the file failed
                raise archive_failure(path, exc, opening=True) from exc
            raise
        return cls(path, con, read_only)

    def close(self) -> None:
        """Close the connection, releasing the file's lock for other processes."""
        self._con.close()
        if not self.read_only:
            schema.mark_verified(self.path, schema.latest_version())  # what this process wrote needs no second check

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    @property
    @_reading
    def schema_version(self) -> int:
        return schema.current_version(self._con)

    @_reading
    def store(
        self, record: Record, origin: str | None = None, replay: Replay | None = None,
        runs: Sequence[RunAudit] = (), source: SourceText | None = None,
    ) -> StoreOutcome:
        """Store one game: NEW, UNCHANGED (nothing written) or REPLACED.

        With ``replay`` (what the rules engine found for this record) its per-action states,
        events, standings and flags are stored too (and ``runs``, the revenue audit of its runs), and the game is UNCHANGED only when both its
        content hash and its engine version are the stored ones (a new engine replays it again).
        Without one, the same content is UNCHANGED whatever replay is stored with it (it stays), and
        a changed record whose stored version has replay rows is refused with
        :class:`~records.errors.ReplayWouldBeLost` rather than deleting them. A replacement
        deletes the old rows of the game from every per-game table and inserts the new ones in the
        same transaction. Raises ValueError, before writing, for a record holding values the
        archive could not give back exactly.

        Every game is stored with its verdict (:func:`replay.verdict.judge` of the replay given).
        ``source`` is the text the record was read from, kept compressed so that the original can
        be given back (``railledger export --format json GAME``) and a report can audit undos; an
        UNCHANGED game takes a new text only when it had none or kept notation and this is an
        export, which holds more (the undo history, the server's own keys).
        """
        self._writable(f"store {record.key}")
        return self.store_encoded(encode_game(record, replay, runs, source), origin)

    @_reading
    def store_encoded(self, game: EncodedGame, origin: str | None = None) -> StoreOutcome:
        """Store a game shaped by :func:`encode_game`, as :meth:`store` does, in one transaction."""
        (outcome,) = self.store_many([(game, origin)])
        return outcome

    @_reading
    def store_many(self, games: Sequence[tuple[EncodedGame, str | None]]) -> list[StoreOutcome]:
        """Store games shaped by :func:`encode_game` (each with its origin) in one transaction, each
        as :meth:`store` stores one, with one statement per table for all of them: a single
        writer then keeps up with many workers. The keys must differ. When any game is refused
        (:class:`~records.errors.ReplayWouldBeLost`) nothing is written; store that game alone to
        see which."""
        keys = [game.key for game, _ in games]
        self._writable(f"store {', '.join(keys)}")
        if len(set(keys)) != len(keys):
            raise ValueError(f"the same game twice in one store: {', '.join(sorted(k for k in keys if keys.count(k) > 1))}")
        outcomes: list[StoreOutcome] = []
        with transaction(self._con):
            found = self._stored_many(keys)
            texts: list[EncodedGame] = []  # unchanged games that take a new text
            writes: list[tuple[EncodedGame, str | None]] = []
            for game, origin in games:
                stored = found.get(game.key)
                if stored is not None and stored.content_hash == game.rows.content_hash and (
                        game.replay_rows is None or stored.engine == game.engine):
                    if game.text is not None and (stored.source_format is None
                                                  or (stored.source_format, game.text["format"]) == ("notation", "json")):
                        texts.append(game)
                    outcomes.append(StoreOutcome.UNCHANGED)
                    continue
                if stored is not None and game.replay_rows is None and stored.engine is not None:
                    raise ReplayWouldBeLost(
                        f"{game.key} differs from its stored version, which was replayed (engine {stored.engine}); storing it "
                        "without a replay would delete that version's per-action states, events, standings and flags, "
                        "so it is not stored: ingest it without --no-replay"
                    )
                writes.append((game, origin))
                outcomes.append(StoreOutcome.NEW if stored is None else StoreOutcome.REPLACED)
            self._delete_games([game.key for game, _ in writes if game.key in found])
            self._delete_rows("sources", [game.key for game in texts])
            # an unchanged game keeps its number; one written (again) takes the next, as its rows go after every other's
            numbers = self._numbers([game.key for game in texts])
            first = self._next_number()
            numbers.update({game.key: first + n for n, (game, _) in enumerate(writes)})
            inserted = {"games": self._insert_games(writes, numbers)}
            new = [game for game, _ in writes]
            for table, part in (("players", "players"), ("actions", "actions"), ("programs", "programs"),
                                ("seat_bots", "bots")):
                inserted[table] = self._insert_rows(table, [(g.key, getattr(g.rows, part)) for g in new], numbers)
            self._insert_rows("sources", [(g.key, {name: [value] for name, value in g.text.items()})
                                          for g in [*texts, *new] if g.text is not None], numbers)
            from railledger.records.replay_rows import ReplayRows

            for replayed in fields(ReplayRows):
                inserted[replayed.name] = self._insert_rows(
                    replayed.name, [(g.key, getattr(g.replay_rows, replayed.name)) for g in new if g.replay_rows is not None],
                    numbers)
            summaries.summarise(self._con, {table: rows for table, rows in inserted.items() if rows is not None})
        return outcomes

    @_reading
    def blocks(self) -> Blocks:
        """How the file's blocks are used now (DuckDB's ``pragma database_size``)."""
        row = one_row(self._con, "SELECT block_size, used_blocks FROM pragma_database_size() "
                                 "WHERE database_name = current_database()")
        if row is None:
            raise ArchiveError(f"{self.path}: DuckDB does not say how its blocks are used")
        return Blocks(int(row[0]), int(row[1]), self.path.stat().st_size)

    @_reading
    def write_copy(self, target: Path) -> None:
        """Copy every table into a new archive file at ``target`` (none may be there), then check
        that each of the code's tables holds as many rows there as here: the copy is written
        afresh, with none of the free blocks of this file (:mod:`records.compaction`). Raises
        :class:`~records.errors.ArchiveError` when the copy differs; ``target`` is then left for
        the caller to remove."""
        self._writable("compact")
        con = self._con
        con.execute("CHECKPOINT")  # everything in the file itself, nothing left in its write-ahead log
        con.execute(f"ATTACH {_text_literal(str(target))} AS {_COPY}")
        try:
            source = _identifier(str(con.execute("SELECT current_database()").fetchall()[0][0]))
            copy_database(con, source, _COPY)
            for table in schema.table_columns():  # the code's own names: none from the file
                here = con.execute(f"SELECT count(*) FROM {source}.main.{table}").fetchall()
                there = con.execute(f"SELECT count(*) FROM {_COPY}.main.{table}").fetchall()
                if here != there:
                    raise ArchiveError(f"{target}: the copy of table {table} holds {there[0][0]} rows, not {here[0][0]}")
            con.execute(f"CHECKPOINT {_COPY}")  # the copy whole in its file, none of it in a write-ahead log
        finally:
            con.execute(f"DETACH {_COPY}")

    @_reading
    def copy_games(self, count: int, batch: int = 2_000) -> int:
        """Store ``count`` copies of the games stored now, cycling through them in key order, each
        under a new source id (``<id>-copy<n>``, n counting every game already stored), and return
        how many games the archive then holds.

        This is how ``railledger bench`` grows a large archive (100,000 games) from a few replayed
        ones: inside DuckDB, with every row of the originals (read once, as Arrow) inserted again
        under the copy's key and number (the next ones, in the copies' order), instead of replaying and storing each copy. Every per-game table
        (:func:`records.schema.game_tables`) is copied, whatever its columns (read from the code's
        own schema); the stored ratings are not, and no longer match the games until refreshed. A
        copy keeps the original's content hash and kept text, which name the original's id, so it
        is for measuring, not for keeping: ingesting the original's file again replaces nothing.
        ``batch`` copies go to a transaction, so a copy is whole or absent.
        """
        import polars as pl

        self._writable("store copies")
        originals = self._arrow("SELECT key, source, source_id FROM games ORDER BY key", {})
        stored = originals.height
        if count <= 0 or not stored:
            return stored
        n = pl.int_range(stored, stored + count, dtype=pl.Int64, eager=True)  # each copy's place among the games
        copied = pl.DataFrame({"n": n, "at": (n - stored) % stored}).join(
            originals.with_row_index("at").with_columns(pl.col("at").cast(pl.Int64)), on="at")
        new_id = pl.col("source_id") + "-copy" + pl.col("n").cast(pl.Utf8)
        mapping = copied.sort("n").select("n", old_key="key", new_key=pl.col("source") + "/" + new_id, new_source_id=new_id,
                                          new_number=pl.col("n") - stored + self._next_number())
        rows = {table: self._arrow(f"SELECT * FROM {table}", {}).with_row_index(_ROW)
                for table in ("games", *schema.game_tables())}
        for start in range(0, count, batch):
            with transaction(self._con):
                for table, frame in rows.items():
                    self._insert_copies(table, frame, mapping.slice(start, batch))
        return stored + count

    def _insert_copies(self, table: str, originals: pl.DataFrame, mapping: pl.DataFrame) -> None:
        """Insert the rows of ``originals`` (rows of ``table``) again, once per ``mapping`` row
        naming their game, under that row's new key and number (and, in ``games``, new source id, no origin),
        each copy's rows together and in the original's order, as storing it would lay them out."""
        if table == "games":
            renamed = {"key": "m.new_key", "source_id": "m.new_source_id", "origin": "NULL", schema.NUMBER: "m.new_number"}
            on = "key"
        else:
            renamed = {"game_key": "m.new_key", schema.GAME_NUMBER: "m.new_number"}
            on = "game_key"
        names = schema.table_columns()[table]
        chosen = ", ".join(renamed.get(name, f"o.{name}") for name in names)
        with registered(self._con, {_INCOMING: originals, _MATCHING: mapping}):
            self._con.execute(f"INSERT INTO {table} ({', '.join(names)}) SELECT {chosen} "
                              f"FROM {_MATCHING} m JOIN {_INCOMING} o ON o.{on} = m.old_key ORDER BY m.n, o.{_ROW}")

    @_reading
    def rating_basis(self, manual_ends: bool = False) -> RatingBasis | None:
        """What the stored ratings of one count (with the games ended by hand, or without) were
        computed from; None when none are stored."""
        row = one_row(self._con, "SELECT fingerprint, results, games_digest FROM rating_basis WHERE manual_ends = ?",
                      [manual_ends])
        return None if row is None else RatingBasis(str(row[0]), int(row[1]), str(row[2]))

    @_reading
    def games_identity(self) -> str:
        """A digest, computed inside DuckDB, of what decides every stored game's rated result
        (:data:`_GAMES_IDENTITY`): equal while no game was added, dropped, replaced by another
        record or replayed by another engine. Readers compare it with the stored ratings' basis
        without reading a single result."""
        count, digest = one_row(self._con, _GAMES_IDENTITY)  # type: ignore[misc]
        return f"{count}:{digest}"

    @_reading
    def rating_history(self, player: str | None = None, manual_ends: bool = False) -> pl.DataFrame:
        """The stored ratings of one count (:attr:`analytics.ratings.Ratings.history`), in the
        order they were computed, of every player or one; empty when none are stored. Whether
        they are still those of the archive's games is the caller's to judge from
        :meth:`rating_basis`."""
        query = (f"SELECT {', '.join(RATING_HISTORY_SCHEMA)} FROM rating_history "
                 "WHERE manual_ends = $manual_ends AND ($player IS NULL OR player = $player) ORDER BY position")
        return self._frame(query, {"player": player, "manual_ends": manual_ends}, RATING_HISTORY_SCHEMA)

    @_reading
    def rating_table(self, manual_ends: bool = False) -> pl.DataFrame:
        """The stored leaderboard of one count (:attr:`analytics.ratings.Ratings.table`), in no
        particular order."""
        query = f"SELECT {', '.join(RATING_TABLE_SCHEMA)} FROM rating_table WHERE manual_ends = $manual_ends"
        return self._frame(query, {"manual_ends": manual_ends}, RATING_TABLE_SCHEMA)

    @_reading
    def rated_game_count(self, manual_ends: bool = False) -> int:
        """How many games the stored ratings of one count rated (every one is in its title's history)."""
        (count,) = one_row(self._con, "SELECT count(DISTINCT game_key) FROM rating_history WHERE manual_ends = ?",
                           [manual_ends])  # type: ignore[misc]
        return int(count)

    @_reading
    def player_rated_games(self, player: str, manual_ends: bool = False) -> pl.DataFrame:
        """[key, title, order, created, players] of the rated games of the stored ratings of one
        count that ``player`` (an external id) sat in, ``order`` 1, 2... as they were played."""
        import polars as pl

        return self._arrow(_PLAYER_RATED_GAMES, {"player": player, "manual_ends": manual_ends}).cast(
            {"order": pl.Int64, "players": pl.Int64})

    @_reading
    def store_ratings(self, history: pl.DataFrame, table: pl.DataFrame, basis: RatingBasis, extend: bool = False,
                      manual_ends: bool = False) -> None:
        """Keep ``history`` (:attr:`analytics.ratings.Ratings.history` rows) and the leaderboard
        ``table`` as the stored ratings of one count and of ``basis``, in one transaction: the
        history in place of the one stored, or after it with ``extend`` (the ratings of games
        played after the stored ones, rated from where those left off); the table always in
        place of the stored one."""
        import polars as pl

        self._writable("store ratings")
        with transaction(self._con):
            if not extend:
                self._con.execute("DELETE FROM rating_history WHERE manual_ends = ?", [manual_ends])
            (start,) = one_row(self._con, "SELECT coalesce(max(position) + 1, 0) FROM rating_history WHERE manual_ends = ?",
                               [manual_ends])  # type: ignore[misc]
            rows = history.select(list(RATING_HISTORY_SCHEMA)).cast(RATING_HISTORY_SCHEMA)  # type: ignore[arg-type]
            self._insert_frame("rating_history", rows.with_columns(
                manual_ends=pl.lit(manual_ends), position=pl.int_range(start, start + rows.height, dtype=pl.Int64)))
            self._con.execute("DELETE FROM rating_table WHERE manual_ends = ?", [manual_ends])
            leaders = table.select(list(RATING_TABLE_SCHEMA)).cast(RATING_TABLE_SCHEMA)  # type: ignore[arg-type]
            self._insert_frame("rating_table", leaders.with_columns(manual_ends=pl.lit(manual_ends)))
            self._keep_basis(basis, manual_ends)

    @_reading
    def copy_ratings(self, basis: RatingBasis, manual_ends: bool) -> None:
        """Keep the stored ratings of the other count as those of this one, of ``basis``, in one
        transaction: when both counts rate the same games (none was ended by hand), copying
        inside DuckDB takes a fraction of a second where rating them again takes half a minute at
        100,000 games."""
        self._writable("store ratings")
        other = not manual_ends
        with transaction(self._con):
            for table, schema in (("rating_history", {"position": int, **RATING_HISTORY_SCHEMA}),
                                  ("rating_table", RATING_TABLE_SCHEMA)):
                columns = ", ".join(schema)
                self._con.execute(f"DELETE FROM {table} WHERE manual_ends = ?", [manual_ends])
                self._con.execute(f"INSERT INTO {table} (manual_ends, {columns}) SELECT ?, {columns} FROM {table} "
                                  "WHERE manual_ends = ?", [manual_ends, other])
            self._keep_basis(basis, manual_ends)

    @_reading
    def store_ladder(self, standings: pl.DataFrame) -> None:
        """Keep one ladder run's standings (rows of :data:`LADDER_SCHEMA` but ``recorded_at``,
        which is now), beside those of earlier runs."""
        import polars as pl

        self._writable("store a ladder's standings")
        now = datetime.now(timezone.utc).replace(tzinfo=None)
        rows = standings.with_columns(recorded_at=pl.lit(now)).select(list(LADDER_SCHEMA)).cast(LADDER_SCHEMA)  # type: ignore[arg-type]
        with transaction(self._con):
            self._insert_frame("ladder_standings", rows)

    @_reading
    def ladder_standings(self) -> pl.DataFrame:
        """Every stored ladder run's standings (:data:`LADDER_SCHEMA`), the latest first."""
        query = f"SELECT {', '.join(LADDER_SCHEMA)} FROM ladder_standings ORDER BY recorded_at DESC, title, mu DESC"
        return self._frame(query, {}, LADDER_SCHEMA)

    def _keep_basis(self, basis: RatingBasis, manual_ends: bool) -> None:
        self._con.execute("DELETE FROM rating_basis WHERE manual_ends = ?", [manual_ends])
        self._con.execute("INSERT INTO rating_basis (manual_ends, fingerprint, results, games_digest, rated_at) "
                          "VALUES (?, ?, ?, ?, ?)",
                          [manual_ends, basis.fingerprint, basis.results, basis.games_digest,
                           datetime.now(timezone.utc).replace(tzinfo=None)])

    def _writable(self, doing: str) -> None:
        if self.read_only:
            raise ArchiveError(f"archive {self.path} is open read-only; it cannot {doing}")

    @_reading
    def stored_version(self, key: str) -> tuple[str, str | None] | None:
        """(content hash, engine version or None when not replayed) of a stored game, None when absent.

        An ingest compares it with :func:`records.codec.content_hash` of a record before replaying
        it, so an unchanged record costs no replay.
        """
        found = self._stored(key)
        return None if found is None else (found.content_hash, found.engine)

    @_reading
    def statuses(self, keys: Collection[str]) -> dict[str, str | None]:
        """The recorded status (``finished``, ``active``... or None) of each of ``keys`` stored,
        in one query: a pull fetches again only what is not stored finished."""
        rows = self._con.execute("SELECT key, status FROM games WHERE key IN (SELECT unnest(?))", [list(keys)]).fetchall()
        return dict(rows)

    @_reading
    def stored(self, key: str) -> Stored | None:
        """What the archive holds of a game (hash, engine, verdict, kept text's format), None when absent."""
        return self._stored(key)

    @_reading
    def stored_by_origin(self) -> dict[str, tuple[str, Stored]]:
        """(key, what is stored) of every game by the origin its stored version was read from,
        in one query: an ingest hands each worker the entries of its file, so that a record
        stored unchanged is known by its hash before anyone replays it."""
        rows = self._con.execute(
            "SELECT g.origin, g.key, g.content_hash, g.engine, g.verdict, g.verdict_detail, s.format "
            "FROM games g LEFT JOIN sources s ON s.game_key = g.key WHERE g.origin IS NOT NULL ORDER BY g.ingested_at"
        ).fetchall()
        return {origin: (key, _stored_of(content, engine, verdict, detail, kind))
                for origin, key, content, engine, verdict, detail, kind in rows}

    def _stored_many(self, keys: list[str]) -> dict[str, Stored]:
        rows = self._con.execute(
            "SELECT g.key, g.content_hash, g.engine, g.verdict, g.verdict_detail, s.format "
            "FROM games g LEFT JOIN sources s ON s.game_key = g.key WHERE g.key IN (SELECT unnest(?))",
            [keys],
        ).fetchall()
        return {key: _stored_of(*rest) for key, *rest in rows}

    def _stored(self, key: str) -> Stored | None:
        found = one_row(
            self._con,
            "SELECT g.content_hash, g.engine, g.verdict, g.verdict_detail, s.format "
            "FROM games g LEFT JOIN sources s ON s.game_key = g.key WHERE g.key = ?",
            [key],
        )
        if found is None:
            return None
        return _stored_of(*found)

    @_reading
    def source(self, key_or_source_id: str) -> SourceText | None:
        """The text a stored game was read from, as it was read; None when none was kept."""
        with transaction(self._con):
            _, number = self._resolve(key_or_source_id)
            row = one_row(self._con, f"SELECT {', '.join(codec.SOURCE_COLUMNS)} FROM sources WHERE {schema.GAME_NUMBER} = ?",
                          [number])
        return None if row is None else codec.decode_source(row)

    @_reading
    def table(self, name: str, game: str | None = None) -> pl.DataFrame:
        """A whole archive table (or one game's rows of it) as a polars frame, for analytics and export.

        One game's rows are found by its number (:data:`records.schema.GAME_NUMBER`), which lets
        DuckDB skip the row groups of other games; readers never see the numbers."""
        if name not in ARCHIVE_TABLES:
            raise KeyError(f"no table {name!r}; the archive has {', '.join(ARCHIVE_TABLES)}")
        if name in STATE_TABLES:
            if game is None:
                return self._arrow(state_query(name), {})
            return self._arrow(state_query(name, f"{schema.GAME_NUMBER} = $number"), {"number": self._resolve(game)[1]})
        query = f"SELECT {_read_columns(name)} FROM {name}"
        if game is None:
            return self._arrow(query, {})
        return self._arrow(f"{query} WHERE {schema.number_column(name)} = $number", {"number": self._resolve(game)[1]})

    @_reading
    def select(
        self, name: str, columns: Sequence[str], where: Mapping[str, Collection[Any]] | None = None,
        matching: pl.DataFrame | None = None,
    ) -> pl.DataFrame:
        """Some columns of a table, with only the rows a statistic needs, filtered inside DuckDB
        (a page over a thousand games must not carry millions of rows into Python to drop them).

        ``where`` keeps the rows whose value of each column is one of the given values;
        ``matching`` (a frame whose columns are columns of the table) the rows equal to one of its
        rows on those columns. Rows come in no particular order. Column names are checked against
        the code's own schema and every value is a parameter. A state table (:mod:`records.states`)
        is rebuilt only for the games ``matching`` names, and a per-action one only at the actions
        it names.
        """
        if name in STATE_TABLES:
            known: tuple[str, ...] | None = STATE_TABLES[name].columns
        else:
            known = schema.shown_columns().get(name) if name in ARCHIVE_TABLES else None
        if known is None:
            raise KeyError(f"no table {name!r}; the archive has {', '.join(ARCHIVE_TABLES)}")
        keys = list(matching.columns) if matching is not None else []
        for column in (*columns, *(where or {}), *keys):
            if column not in known:
                raise KeyError(f"table {name} has no column {column!r}")
        params: dict[str, Any] = {}
        filters = []
        for n, (column, values) in enumerate((where or {}).items()):
            params[f"w{n}"] = list(values)
            filters.append(f"t.{column} IN (SELECT unnest($w{n}))")
        source = f"(SELECT {_read_columns(name)} FROM {name})" if name in READ_AS else name
        if name in STATE_TABLES:
            games = f"game_key IN (SELECT game_key FROM {_MATCHING})" if "game_key" in keys else ""
            only_at = _MATCHING if {"game_key", "seq"} <= set(keys) else ""
            source = f"({state_query(name, games, only_at)})"
        query = f"SELECT {', '.join(f't.{column}' for column in columns)} FROM {source} t"
        if matching is not None and not (name in STATE_TABLES and set(keys) == {"game_key", "seq"}):
            # scanned as Arrow: thousands of keys as list parameters cost more than the join (a state
            # table rebuilt at the matching actions has no other rows)
            query += f" SEMI JOIN {_MATCHING} k ON " + " AND ".join(f"t.{column} = k.{column}" for column in keys)
        if filters:
            query += " WHERE " + " AND ".join(filters)
        with registered(self._con, {} if matching is None else {_MATCHING: matching}):
            return self._arrow(query, params)

    @_reading
    def factor_counts(self, games: Collection[str] | None) -> pl.DataFrame:
        """[title, factor, value, games, wins, rank_sum]: the winner-correlation counts of the
        players of these games (every ranked game with None) from their ``seat_factors``
        (:mod:`records.summaries`), counted inside DuckDB: players with that value, winners among
        them and their ranks summed (a sum, so titles pool exactly)."""
        return self._of_games(_FACTOR_COUNTS, games, {}, FACTOR_COUNTS_SCHEMA)

    @_reading
    def rush_counts(self, games: Collection[str] | None) -> pl.DataFrame:
        """[title, train_type, kind, or_ordinal, games]: in how many of these games (every game
        with first trains with None) each train type was first bought (kind ``train``) or first
        gone (``rust``) with that many operating rounds started (NULL: at an action without a
        step), from the games' ``train_firsts``, counted inside DuckDB."""
        return self._of_games(_RUSH_COUNTS, games, {}, RUSH_COUNTS_SCHEMA)

    @_reading
    def rush_games(self, games: Collection[str] | None) -> pl.DataFrame:
        """[game_key, title] of these games (every game with None) in which a train was bought."""
        return self._of_games(_RUSH_GAMES, games, {}, RUSH_GAMES_SCHEMA)

    def _of_games(self, query: str, games: Collection[str] | None, params: Mapping[str, Any],
                  columns: Columns) -> pl.DataFrame:
        """A query of per-game summaries over these games (all with None): its ``{counted}`` is
        the condition on ``f.game_key``, the keys matched as a frame rather than as thousands of
        list parameters."""
        import polars as pl

        if games is None:
            return self._frame(query.format(counted=""), params, columns)
        keys = pl.DataFrame({"game_key": list(games)}, schema={"game_key": pl.Utf8})
        with registered(self._con, {_MATCHING: keys}):
            counted = f"AND f.game_key IN (SELECT game_key FROM {_MATCHING})"
            return self._frame(query.format(counted=counted), params, columns)

    @_reading
    def games(self, title: str | None = None, player: str | None = None, newest: int | None = None) -> pl.DataFrame:
        """One row per game, ordered by title and source id (numerically where it is a number).

        ``title`` matches exactly, ignoring case. ``player`` matches part of a player's name or a
        whole external id, ignoring case. ``newest`` keeps only that many of the matching games,
        the newest (by creation day, then source id); :meth:`count_games` says how many matched.
        """
        return self._frame(*_games_query(title, player, newest), GAMES_SCHEMA)

    @_reading
    def game_rows(self, title: str | None = None, player: str | None = None, newest: int | None = None) -> list[dict[str, Any]]:
        """The rows of :meth:`games`, each a dict of its columns (``players`` a list of names), as
        Python values read without polars: a command printing a few dozen games spends less on
        them than on importing it."""
        result = self._con.execute(*_games_query(title, player, newest))
        names = [column[0] for column in result.description]
        return [dict(zip(names, row)) for row in result.fetchall()]

    @_reading
    def seat_identities(self, keys: Collection[str]) -> dict[str, list[str]]:
        """Each of these games' players' identities (docs/identity.md) in seat order, by game key:
        what tells apart two players of one game whose names look alike."""
        rows = self._con.execute(
            "SELECT game_key, list(identity ORDER BY seat) FROM players WHERE list_contains($keys, game_key) GROUP BY game_key",
            {"keys": list(keys)}).fetchall()
        return {key: list(found) for key, found in rows}

    @_reading
    def count_games(self, title: str | None = None, player: str | None = None) -> int:
        """How many games :meth:`games` lists for this title and player, without listing them."""
        ((count,),) = self._con.execute(_GAMES_COUNT, {"title": title, "player": player}).fetchall()
        return int(count)

    @_reading
    def variants(self) -> pl.DataFrame:
        """[variant_hash, title, variant, games]: each variant games were played with, one of its
        texts (they differ at most in layout, comments and name) and its games, by title."""
        return self._frame(_VARIANTS, {}, VARIANTS_SCHEMA)

    @_reading
    def game_keys(self) -> list[str]:
        """Every game's key in the order of :meth:`games`, without counting their players and
        actions: a page that only offers the games to choose from."""
        return [key for (key,) in self._con.execute(f"SELECT g.key FROM games g ORDER BY {_GAME_ORDER}").fetchall()]

    @_reading
    def game_facts(self, title: str | None = None, player: str | None = None) -> pl.DataFrame:
        """One row per game (of a title, ignoring case; that a player sat in) with what deciding whether it counts for
        ratings and title statistics needs, counted inside DuckDB: status, verdict (NULL: stored
        before verdicts were kept), whether it was replayed (has standings), whether a result was
        recorded (``has_result``: not NULL, not empty) and the replay matched it, players,
        actions, its duration (seconds from creation to the last action, NULL when not timed), operating rounds played (distinct ``OR`` labels of its steps; NULL without a
        replay), the engine's end reason (NULL when the game did not end), whether the record
        holds an ``end_game`` action, and ``order``: 1, 2... by creation day, then source id
        (numerically where it is a number), the order in which the games listed were played.

        The order is given in polars: DuckDB's window over the whole sort took three quarters of
        the read at 100,000 games (0.33 s of CPU, 0.19 s so).
        """
        import polars as pl

        facts = self._arrow(_FACTS_QUERY, {"title": title, "player": player}).sort(_PLAY_ORDER, nulls_last=True)
        return facts.with_columns(order=pl.int_range(1, facts.height + 1)).drop("source_number").cast(pl.Schema(FACTS_SCHEMA))

    @_reading
    def results(self, games: pl.DataFrame) -> pl.DataFrame:
        """Every player's final value and rank in ``games`` (a frame of game_key and ``order``,
        whose columns each row keeps): its columns, then seat, player (identity; a bot's seat is
        ``bot:NAME``, docs/identity.md), name, value and rank, by ``order``, then seat. Joined inside DuckDB on the games' numbers: joining
        the standings and seats of 100,000 games in polars by their keys cost more than reading them."""
        with registered(self._con, {_MATCHING: games}):
            return self._arrow(_RESULTS_QUERY, {})

    @_reading
    def value_spread(self, games: pl.DataFrame) -> pl.DataFrame:
        """Per title and table size, over the final values of ``games`` (a frame of game_key, title
        and players, the table size), counted inside DuckDB: games, mean, std (the sample's),
        lowest, highest and the winners' mean (rank 1), by title and players."""
        with registered(self._con, {_MATCHING: games.select("game_key", "title", "players")}):
            return self._frame(_VALUE_SPREAD, {}, VALUE_SPREAD_SCHEMA)

    @_reading
    def player_counts(self, games: pl.DataFrame) -> pl.DataFrame:
        """[title, players]: how many different players (by external id) sat in ``games`` (a frame
        of game_key and title) of each title, counted inside DuckDB."""
        with registered(self._con, {_MATCHING: games.select("game_key", "title")}):
            return self._frame(_PLAYER_COUNTS, {}, PLAYER_COUNTS_SCHEMA)

    @_reading
    def flag_counts(self) -> pl.DataFrame:
        """[title, rule, flags, games]: per title and rule, the root-cause flags (those following
        from no earlier one) and how many games have one, counted inside DuckDB, by title and rule."""
        return self._frame(_FLAG_COUNTS_QUERY, {}, FLAG_COUNTS_SCHEMA)

    @_reading
    def shortfalls(self, per_player: bool = False, games: Collection[str] | None = None) -> pl.DataFrame:
        """The revenue audit of these games (every game with None) summed inside DuckDB, most left
        on the table first: per game [game_key, title, ...] or, ``per_player``, per title and
        president who decided the runs [title, player, ...], each with runs, below_optimum (runs
        short of the optimum), left_on_table (optimum minus the engine's total of the declared
        run, summed over the runs the engine accepted), best_possible (the optima summed) and
        unproven (optima not proven)."""
        if per_player:
            return self._of_games(_SHORTFALLS_BY_PLAYER, games, {}, SHORTFALLS_BY_PLAYER_SCHEMA)
        return self._of_games(_SHORTFALLS_BY_GAME, games, {}, SHORTFALLS_BY_GAME_SCHEMA)

    def _frame(self, query: str, params: Mapping[str, Any], columns: Columns) -> pl.DataFrame:
        """A query's result as a frame of these columns, through Arrow: a thousand games' rows
        as Python tuples cost twice the query."""
        import polars as pl

        return self._arrow(query, params).cast(pl.Schema(columns))

    def _arrow(self, query: str, params: Mapping[str, Any]) -> pl.DataFrame:
        """A query's result as a frame through the Arrow C stream interface: columns, not Python
        tuples, and no pyarrow to import (half a second of a command's start)."""
        import polars as pl

        return pl.DataFrame(self._con.sql(query, params=dict(params)))

    @_reading
    def summary(self) -> pl.DataFrame:
        """Per title: how many games and how many actions (automatic ones included)."""
        import polars as pl

        rows = self._con.execute(_SUMMARY_QUERY).fetchall()
        return pl.DataFrame(rows, schema=SUMMARY_SCHEMA, orient="row")

    @_reading
    def record(self, key_or_source_id: str) -> Record:
        """The stored record of a key (``18xx.games/14375``) or of a source id (``14375``) if unique."""
        with transaction(self._con):  # one snapshot, even if another connection of this process writes
            key, number = self._resolve(key_or_source_id)
            game = one_row(self._con, f"SELECT {', '.join(codec.GAME_COLUMNS)} FROM games WHERE key = ?", [key])
            assert game is not None  # _resolve found the key in this transaction
            game_row = dict(zip(codec.GAME_COLUMNS, game))
            return codec.decode(
                game_row,
                self._rows("players", number, codec.PLAYER_COLUMNS, "seat"),
                self._rows("actions", number, codec.ACTION_COLUMNS, "seq"),
                self._rows("programs", number, codec.ACTION_COLUMNS, "seq"),
                self._rows("seat_bots", number, codec.BOT_COLUMNS, "seat"),
            )

    def _resolve(self, key_or_source_id: str) -> tuple[str, int]:
        """(key, number) of the game of a key, or of a source id naming one game only."""
        found = self._con.execute(f"SELECT key, {schema.NUMBER} FROM games WHERE key = ?", [key_or_source_id]).fetchall()
        if not found:
            found = self._con.execute(f"SELECT key, {schema.NUMBER} FROM games WHERE source_id = ? ORDER BY key",
                                      [key_or_source_id]).fetchall()
        if len(found) == 1:
            key, number = found[0]
            return key, number
        if not found:
            raise KeyError(f"no game {key_or_source_id} in archive {self.path}")
        raise KeyError(f"{key_or_source_id} names several games ({', '.join(key for key, _ in found)}); give the full key")

    def _rows(self, table: str, number: int, columns: tuple[str, ...], order: str) -> list[tuple[Any, ...]]:
        query = f"SELECT {', '.join(columns)} FROM {table} WHERE {schema.GAME_NUMBER} = ? ORDER BY {order}"
        return self._con.execute(query, [number]).fetchall()

    def _numbers(self, keys: list[str]) -> dict[str, int]:
        """The number of each of these games that is stored."""
        if not keys:
            return {}
        rows = self._con.execute(f"SELECT key, {schema.NUMBER} FROM games WHERE key IN (SELECT unnest(?))", [keys])
        return dict(rows.fetchall())

    def _next_number(self) -> int:
        """The number the next game stored takes: one past the highest, so that numbers grow in
        the order the games' rows are written."""
        (number,) = one_row(self._con, f"SELECT coalesce(max({schema.NUMBER}), 0) + 1 FROM games")  # type: ignore[misc]
        return int(number)

    def _delete_games(self, keys: list[str]) -> None:
        for table in schema.game_tables():  # names from the code's own migrations, never from the file
            self._delete_rows(table, keys)
        if keys:
            self._con.execute("DELETE FROM games WHERE key IN (SELECT unnest(?))", [keys])

    def _delete_rows(self, table: str, keys: list[str]) -> None:
        if keys:
            self._con.execute(f"DELETE FROM {table} WHERE game_key IN (SELECT unnest(?))", [keys])

    def _insert_games(self, games: list[tuple[EncodedGame, str | None]], numbers: Mapping[str, int]) -> pl.DataFrame | None:
        """The ``games`` rows, one per game, with what the store adds: origin, time, engine,
        verdict, number; returns them (None without a game)."""
        now = datetime.now(timezone.utc).replace(tzinfo=None)
        rows = [{**game.rows.game, "origin": origin, "ingested_at": now, "engine": game.engine,
                 "replay_matches": game.matches, "verdict": game.verdict.kind, "verdict_detail": game.verdict.detail,
                 schema.NUMBER: numbers[game.key]}
                for game, origin in games]
        if not rows:
            return None
        return self._insert_columns("games", {name: [row[name] for row in rows] for name in rows[0]})

    def _insert_rows(self, table: str, games: list[tuple[str, Mapping[str, list[Any]]]],
                     numbers: Mapping[str, int]) -> pl.DataFrame | None:
        """Insert the rows of several games (key, columns) into ``table`` with one statement, each
        with its game's number, and return them (None when there are none)."""
        games = [(key, columns) for key, columns in games if next(iter(columns.values()))]
        if not games:
            return None
        names = list(games[0][1])
        keys = [key for key, columns in games for _ in columns[names[0]]]
        return self._insert_columns(table, {"game_key": keys, schema.GAME_NUMBER: [numbers[key] for key in keys],
                                            **{name: [v for _, columns in games for v in columns[name]] for name in names}})

    def _insert_columns(self, table: str, columns: Mapping[str, list[Any]]) -> pl.DataFrame:
        """Insert rows into ``table`` with one statement, from the columns as one polars frame.

        DuckDB scans the frame's Arrow columns directly: thousands of per-action rows cost a few milliseconds,
        where Python lists (``unnest(?)``) are converted value by value and ``executemany`` takes
        a round trip per row. The names are the code's own (the columns of :mod:`records.codec`
        and :mod:`records.replay_rows`), never the record's; the values are the Arrow table's.
        """
        import polars as pl

        # Through polars, which reads Python lists in Rust: pyarrow's own reading imports pandas on first use.
        rows = pl.DataFrame(dict(columns), strict=False, infer_schema_length=None)
        self._insert_frame(table, rows)
        return rows

    def _insert_frame(self, table: str, frame: pl.DataFrame) -> None:
        """Insert the rows of ``frame`` into ``table``, its columns by name (the code's own names)."""
        names = ", ".join(frame.columns)
        with registered(self._con, {_INCOMING: frame}):
            self._con.execute(f"INSERT INTO {table} ({names}) SELECT {names} FROM {_INCOMING}")
