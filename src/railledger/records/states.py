"""The per-action and per-round-end state tables readers ask for, rebuilt inside DuckDB from the
rows of what changed (schema version 9).

The archive stores a player's or a company's state only at the actions after which it differs
from its previous one (``player_changes``, ``company_changes``): a row per entity after every
action, with the index of its primary key, was most of an archive's bytes. The state after an
action is the entity's latest change at or before it, which an ASOF join finds; the round-end
tables are the same states at the last action of each round of ``steps``. Readers see the tables
as they were stored before, row for row, in the same order.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StateTable:
    """A table readers ask for, made from a table of changes."""

    changes: str  # the table of changes it is made from
    entity: str  # the entity's column: seat or company
    columns: tuple[str, ...]  # its columns, in order
    per_round: bool = False  # one row per entity at each round's end, not after every action


STATE_TABLES: dict[str, StateTable] = {
    "player_states": StateTable("player_changes", "seat", ("game_key", "seq", "seat", "cash", "net_worth", "shares")),
    "company_states": StateTable("company_changes", "company", (
        "game_key", "seq", "company", "price", "market_row", "market_col", "cash", "trains", "tokens", "president",
        "floated", "closed")),
    "round_player_values": StateTable("player_changes", "seat", (
        "game_key", "round_index", "round", "seat", "cash", "net_worth"), per_round=True),
    "round_company_prices": StateTable("company_changes", "company", (
        "game_key", "round_index", "round", "company", "price"), per_round=True),
}

_ROUND_ENDS = """SELECT game_key, max(seq) AS seq, CAST(round_index AS SMALLINT) AS round_index, arg_max(round, seq) AS round
FROM (SELECT game_key, seq, round, sum(starts) OVER (PARTITION BY game_key ORDER BY seq) - 1 AS round_index
      FROM (SELECT game_key, seq, round,
                   CASE WHEN round IS DISTINCT FROM lag(round) OVER (PARTITION BY game_key ORDER BY seq) THEN 1 ELSE 0 END
                       AS starts
            FROM steps{where}))
GROUP BY game_key, round_index"""
"""The last action of each round of play (a round is a run of steps with one round label), numbered
0, 1, 2... in each game as ``round_index``."""


def state_query(name: str, games: str = "", only_at: str = "") -> str:
    """SQL of a state table over the games kept by the SQL condition ``games`` on ``game_key``
    (all games without one): each action of ``steps`` (or each round's last) with each entity's
    latest change at or before it, ordered by game, action and the entity's position then.
    ``only_at`` names a relation of (game_key, seq) pairs: a per-action table's rows at those
    actions only (a statistic asking for a few actions of many games does not rebuild every one).
    The names are the code's own, never a caller's."""
    table = STATE_TABLES[name]
    where = f" WHERE {games}" if games else ""
    if only_at and not table.per_round:
        return _latest_at(table, where, only_at)
    at = _ROUND_ENDS.format(where=where) if table.per_round else f"SELECT game_key, seq FROM steps{where}"
    own = {"game_key": "a.game_key", "seq": "a.seq", "round_index": "a.round_index", "round": "a.round",
           table.entity: f"k.{table.entity}"}
    picked = ", ".join(f"{own.get(column, f'c.{column}')} AS {column}" for column in table.columns)
    return (f"SELECT {picked} FROM ({at}) a "
            f"JOIN (SELECT DISTINCT game_key, {table.entity} FROM {table.changes}{where}) k ON k.game_key = a.game_key "
            f"ASOF JOIN (SELECT * FROM {table.changes}{where}) c "
            f"ON c.game_key = a.game_key AND c.{table.entity} = k.{table.entity} AND c.seq <= a.seq "
            "ORDER BY a.game_key, a.seq, c.position")


def _latest_at(table: StateTable, where: str, only_at: str) -> str:
    """:func:`state_query` at the (game_key, seq) pairs of ``only_at``: each entity's latest change
    at or before each action, found by grouping the game's changes up to it. A hash aggregate:
    an ASOF join sorts every change of every game first, which at 100,000 games took 3 to 4
    times as long for one action a game. ``arg_max_null`` keeps a latest value that is NULL."""
    own = {"game_key": "a.game_key", "seq": "a.seq", table.entity: f"c.{table.entity}"}
    picked = ", ".join(own.get(column, f"arg_max_null(c.{column}, c.seq)") + f" AS {column}" for column in table.columns)
    return (f"SELECT {picked} FROM (SELECT s.game_key, s.seq FROM steps s SEMI JOIN {only_at} o "
            "ON o.game_key = s.game_key AND o.seq = s.seq) a "
            f"JOIN (SELECT * FROM {table.changes}{where}) c ON c.game_key = a.game_key AND c.seq <= a.seq "
            f"GROUP BY a.game_key, a.seq, c.{table.entity} ORDER BY a.game_key, a.seq, arg_max_null(c.position, c.seq)")
