"""Per-game summaries: a few rows a game that statistics over many games read instead of scanning
every action, step and state change of every game.

At 100,000 games the archive holds tens of millions of actions, steps and state changes; a
statistic that needs one number per game (how many actions, which round a train came out in, who
presided at the end) must not scan them all on every read. Each summary is derived inside DuckDB
from the rows stored with the game, by :func:`summarise` in the transaction that stores the game,
and for every game at once by the migration that adds the table (schema 10). It has ``game_key``
like every per-game table, so deleting, replacing or copying a game takes its summary along.

The definitions are those the readers used to compute at every read (``Archive.game_facts``, the
train rush, the winner correlations): the tests compare both on every stored game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import ExitStack

from typing import TYPE_CHECKING

import duckdb

from railledger.records import schema
from railledger.records.connection import registered

if TYPE_CHECKING:  # imported when games are summarised: opening an archive to read it needs no polars
    import polars as pl

SUMMARISED = "summarised_games"
"""The relation of the game keys being summarised (registered by :func:`summarise`)."""
PERMANENT = "permanent_trains"
"""The relation of the permanent train types (title, train_type) of the titles with an engine."""

_KEEP = f"game_key IN (SELECT game_key FROM {SUMMARISED})"

_GAME_TOTALS = f"""
SELECT g.key, coalesce(p.players, 0), coalesce(p.names, []), coalesce(a.actions, 0), coalesce(a.end_game_action, false),
       o.operating_rounds, e.end_reason
FROM {{games}} g
LEFT JOIN (SELECT game_key, count(*) AS players, list(name ORDER BY seat) AS names FROM {{players}} WHERE {_KEEP}
           GROUP BY game_key) p ON p.game_key = g.key
LEFT JOIN (SELECT game_key, count(*) AS actions, bool_or(type = 'end_game') AS end_game_action
           FROM {{actions}} WHERE {_KEEP} GROUP BY game_key) a ON a.game_key = g.key
LEFT JOIN (SELECT game_key, count(DISTINCT round) FILTER (WHERE starts_with(round, 'OR ')) AS operating_rounds
           FROM {{steps}} WHERE {_KEEP} GROUP BY game_key) o ON o.game_key = g.key
LEFT JOIN (SELECT game_key, arg_min(subject, ordinal) AS end_reason FROM {{events}}
           WHERE kind = 'game_end' AND {_KEEP} GROUP BY game_key) e ON e.game_key = g.key
WHERE g.key IN (SELECT game_key FROM {SUMMARISED})
"""
"""Per game: players seated and their names in seat order, actions, whether one is an end_game, operating rounds played (NULL
without steps: not replayed), and the engine's end reason."""

_TRAIN_FIRSTS = f"""
WITH firsts AS (
    SELECT game_key, kind, regexp_replace(subject, '-[^-]*$', '') AS train_type, min(ordinal) AS ordinal
    FROM {{events}} WHERE kind IN ('train', 'rust') AND {_KEEP} GROUP BY ALL),
events_of AS (
    SELECT f.game_key, g.title, f.train_type, f.kind, e.seq, f.ordinal, s.round,
           CASE WHEN f.kind = 'train' THEN split_part(e.detail, ' from ', 1) END AS company
    FROM firsts f
    JOIN {{games}} g ON g.key = f.game_key
    JOIN {{events}} e ON e.game_key = f.game_key AND e.ordinal = f.ordinal
    LEFT JOIN {{steps}} s ON s.game_key = e.game_key AND s.seq = e.seq),
or_starts AS (
    SELECT game_key, min(seq) AS seq FROM {{steps}} WHERE starts_with(round, 'OR ') AND {_KEEP} GROUP BY game_key, round)
SELECT v.game_key, v.title, v.train_type, v.kind, v.seq, v.ordinal, v.round,
       CASE WHEN v.round IS NOT NULL THEN
           (SELECT count(*) FROM or_starts o WHERE o.game_key = v.game_key AND o.seq <= v.seq) END,
       v.company,
       CASE WHEN v.round IS NOT NULL THEN
           (SELECT arg_max_null(c.president, c.seq) FROM {{company_changes}} c
            WHERE c.game_key = v.game_key AND c.company = v.company AND c.seq <= v.seq) END
FROM events_of v
"""
"""Per game, train type and kind (``train``: first bought, ``rust``: first gone): the first such
event (a train's type is its id without the last ``-n``; a diesel bought as a 4D keeps its
``2D-n`` id, so it counts as a 2D: the card it came from), the round label of the step after it, how many operating rounds had started by then (a
round label's first step starts it), and for a purchase the buying company and its president
then. An event at an action without a step has no round, count or president, as the state
tables have no row there."""

_SEAT_FACTORS = f"""
WITH seated AS (
    SELECT s.game_key, g.title, CAST(s.seat AS BIGINT) AS seat, p.external_id, s.rank, s.winner
    FROM {{standings}} s
    JOIN {{players}} p ON p.game_key = s.game_key AND p.seat = s.seat
    JOIN {{games}} g ON g.key = s.game_key
    WHERE s.game_key IN (SELECT game_key FROM {SUMMARISED}) AND s.rank IS NOT NULL),  -- a game with no result ranks nobody
bought AS (  -- the players' own events of the opening: privates bought, pars
    SELECT e.game_key, e.kind, e.ordinal, e.subject, e.amount, p.seat
    FROM {{events}} e JOIN seated p ON p.game_key = e.game_key AND p.external_id = e.detail
    WHERE e.kind IN ('private', 'par') AND e.{_KEEP}),
presiding AS (  -- companies per president after the game's last action with a step (their latest state then)
    SELECT game_key, CAST(president AS BIGINT) AS seat, count(*) AS companies
    FROM (SELECT c.game_key, c.company, arg_max_null(c.president, c.seq) AS president
          FROM {{company_changes}} c
          JOIN (SELECT game_key, max(seq) AS seq FROM {{steps}} WHERE {_KEEP} GROUP BY game_key) l
            ON l.game_key = c.game_key AND c.seq <= l.seq
          GROUP BY c.game_key, c.company)
    GROUP BY ALL),
first_permanent AS (  -- each game's first permanent train bought where the archive keeps a state
    SELECT f.game_key, arg_min_null(f.president, f.ordinal) AS president, arg_min_null(f.round, f.ordinal) AS round
    FROM {{train_firsts}} f
    JOIN {PERMANENT} t ON t.title = f.title AND t.train_type = f.train_type
    WHERE f.kind = 'train' AND f.game_key IN (SELECT game_key FROM seated)
    GROUP BY f.game_key),
factors AS (
    SELECT game_key, seat, title, winner, rank, 'seat' AS factor, CAST(seat AS VARCHAR) AS value FROM seated
    UNION ALL
    SELECT p.game_key, p.seat, p.title, p.winner, p.rank, 'bot', b.bot
    FROM seated p JOIN {{seat_bots}} b ON b.game_key = p.game_key AND b.seat = p.seat
    UNION ALL
    SELECT p.game_key, p.seat, p.title, p.winner, p.rank, 'private', coalesce(e.subject, 'none')
    FROM seated p LEFT JOIN bought e ON e.game_key = p.game_key AND e.seat = p.seat AND e.kind = 'private'
    UNION ALL
    SELECT p.game_key, p.seat, p.title, p.winner, p.rank, 'presidencies', CAST(coalesce(c.companies, 0) AS VARCHAR)
    FROM seated p LEFT JOIN presiding c ON c.game_key = p.game_key AND c.seat = p.seat
    UNION ALL
    SELECT p.game_key, p.seat, p.title, p.winner, p.rank, 'first_par', coalesce(CAST(f.amount AS VARCHAR), 'none')
    FROM seated p LEFT JOIN (SELECT game_key, seat, arg_min_null(amount, ordinal) AS amount FROM bought
                             WHERE kind = 'par' GROUP BY ALL) f ON f.game_key = p.game_key AND f.seat = p.seat
    UNION ALL
    SELECT p.game_key, p.seat, p.title, p.winner, p.rank, 'first_permanent', CASE WHEN p.seat = f.president THEN 'yes' ELSE 'no' END
    FROM seated p JOIN first_permanent f ON f.game_key = p.game_key WHERE f.round IS NOT NULL)
SELECT game_key, seat, title, factor, value, rank, winner FROM factors
"""
"""Per player of a replayed game with a result (ranked), the factors the winner correlations count (``analytics.balance``
says what each means), with the game's title and the player's rank and whether they won: seat,
the bot that played it (bots' games), each private bought in the opening (``none``), companies
presided over after the last action, the par of the first company parred (``none``), and whether
they presided over the buyer of the game's first permanent train (games where one was bought at
an action with a step). The permanent train types are title data: :data:`PERMANENT`."""

_SEAT_RUNS = f"""
SELECT r.game_key, g.title, r.seat, p.name, count(*),
       count(*) FILTER (WHERE r.optimum - r.engine > 0), sum(r.optimum - r.engine), sum(r.optimum),
       count(*) FILTER (WHERE NOT r.proven)
FROM {{runs}} r
JOIN {{games}} g ON g.key = r.game_key
LEFT JOIN {{players}} p ON p.game_key = r.game_key AND p.seat = r.seat
WHERE r.{_KEEP}
GROUP BY r.game_key, g.title, r.seat, p.name
"""
"""The revenue audit per game and president: runs, those short of the optimum, the revenue left
on the table and the optima, summed (sums of nothing are NULL, so totals over seats stay exact)."""

SUMMARIES = {"game_totals": _GAME_TOTALS, "train_firsts": _TRAIN_FIRSTS, "seat_factors": _SEAT_FACTORS,
             "seat_runs": _SEAT_RUNS}
"""Each summary table and the query that derives its rows for the games of :data:`SUMMARISED`, in
the order they are derived (the factors read the first trains)."""

SOURCES = ("games", "players", "actions", "steps", "events", "company_changes", "standings", "seat_bots", "runs")
"""The stored tables the summaries are derived from (the queries name them, and the summaries
derived before them, as ``{games}``...)."""

FILLED_AT = 10
"""The schema version whose migration adds the summary tables: applying it summarises every game."""


def summarise(con: duckdb.DuckDBPyConnection, batch: Mapping[str, pl.DataFrame] | None = None) -> None:
    """Derive every summary of the games of ``batch`` (the rows just inserted, per stored table:
    ``games`` and those of :data:`SOURCES` that got rows) from those rows alone, or, without a
    batch, of every stored game from the tables, inside the caller's transaction. The games must
    have no summary rows yet.

    A batch is read from its own rows (and the summaries it derives first from those), not from
    the tables: at 100,000 games, finding a few games' rows among tens of millions took seconds
    for every write (no index serves those scans)."""
    import polars as pl

    if batch is None:
        with registered(con, {SUMMARISED: pl.DataFrame(con.sql("SELECT key AS game_key FROM games")),
                              PERMANENT: _permanent_types()}):
            for table, query in SUMMARIES.items():
                con.execute(f"INSERT INTO {table} {query.format(**{name: name for name in (*SOURCES, *SUMMARIES)})}")
        return
    if "games" not in batch:  # nothing new was stored
        return
    keys = batch["games"].select(game_key="key")
    number = pl.col("game_key").replace_strict(batch["games"]["key"], batch["games"][schema.NUMBER], return_dtype=pl.Int32)
    sources = {table: _typed(table, batch[table].columns) if table in batch else f"(SELECT * FROM {table} WHERE false)"
               for table in SOURCES}
    with ExitStack() as registrations:
        registrations.enter_context(registered(con, {
            SUMMARISED: keys, PERMANENT: _permanent_types(), **{f"batch_{table}": batch[table] for table in SOURCES if table in batch}}))
        for table, query in SUMMARIES.items():
            rows = pl.DataFrame(con.sql(query.format(**sources)))
            rows.columns = list(schema.shown_columns()[table])
            rows = rows.with_columns(number.alias(schema.GAME_NUMBER))  # each row's game's, as every per-game row has
            registrations.enter_context(registered(con, {f"batch_{table}": rows}))
            names = ", ".join(rows.columns)
            con.execute(f"INSERT INTO {table} ({names}) SELECT {names} FROM batch_{table}")
            sources[table] = _typed(table, rows.columns)


def _typed(table: str, columns: Sequence[str]) -> str:
    """The batch's rows of ``table`` with the table's column types: a column polars read as
    numbers or as nothing but nulls compares and adds as the stored column would."""
    types = schema.column_types()[table]
    return "(SELECT " + ", ".join(f"CAST({column} AS {types[column]}) AS {column}" for column in columns) + f" FROM batch_{table})"


def _permanent_types() -> pl.DataFrame:
    """[title, train_type] of every permanent train type of the titles with an engine (the only
    games with standings), from the title data."""
    import polars as pl

    from railledger.replay.titles import SUPPORTED, title_named

    pairs = [(title, train.name) for title in sorted(SUPPORTED) for train in title_named(title).trains if train.permanent]
    return pl.DataFrame(pairs, schema={"title": pl.Utf8, "train_type": pl.Utf8}, orient="row")
