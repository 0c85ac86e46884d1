"""What the dashboard's game review reads of one game beyond its position at a step
(:mod:`analytics.position`): the actions in words and in notation, the rounds, each company's
revenue per operating round, the stock market's cells, and where the review opens.

A step is one action of the record, named by the record's own action id (``label``: ``42``, or
``42.1`` for an automatic action), which is what 18xx.games shows and what a player can find in
their game; ``seq``, its 0-based position, is the archive's key and never shown.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from railledger.analytics.frames import game_rows
from railledger.analytics.position import can_replay
from railledger.analytics.scope import NOT_JUDGED
from railledger.ingest.model import Record
from railledger.ingest.identity import relabelled_games
from railledger.ingest.notation import write_action
from railledger.records import Archive
from railledger.replay.sentences import narrate
from railledger.replay.titles import title_named

REVIEW_TABLES = ("steps", "player_states", "company_states", "flags", "runs", "events")
"""Per-game tables the review page steps through; each holds a few hundred to a few thousand rows."""


@dataclass(frozen=True)
class GameTables:
    """One game's rows for stepping through it: per-step states, flags, seat names, action texts."""

    key: str
    title: str
    replayed: bool
    """The game was replayed when stored and the engine can set it up again, so the review can
    show its positions."""
    players: pl.DataFrame
    """seat, name"""
    steps: pl.DataFrame
    """seq, label (the record's action id), sentence and headline (the action in words,
    :mod:`replay.sentences`; its notation line where the title has no engine), notation (the
    action's line of railledger notation), round (the round the action was taken in, a flagged
    one's too) with round_index (its position in play order), and phase (after the action, as
    stored); round and phase are null for a game archived without a replay"""
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
    """A game's steps in order, each with its round's position (``round_index``; null without a round)."""
    return steps.sort("seq").with_columns(
        pl.when(pl.col("round").is_not_null())
        .then((pl.col("round") != pl.col("round").shift()).fill_null(True).cum_sum() - 1).alias("round_index"))


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
    notation = action_texts(record)
    replayed = not tables["steps"].is_empty() and can_replay(record)
    if replayed:
        lines = narrate(record)
        played_in, sentences, headlines = ([getattr(line, part) for line in lines] for part in ("round", "text", "headline"))
    else:  # no engine to read the actions against: their notation, which says what they declare
        played_in, sentences, headlines = [None] * len(notation), notation, notation
    texts = pl.DataFrame(
        {"seq": range(len(record.actions)), "label": [action.label for action in record.actions],
         "sentence": sentences, "headline": headlines, "notation": notation, "round": played_in},
        schema={"seq": pl.Int32, "label": pl.Utf8, "sentence": pl.Utf8, "headline": pl.Utf8, "notation": pl.Utf8,
                "round": pl.Utf8})
    steps = texts.join(tables["steps"].select("seq", "phase"), on="seq", how="left")
    players = game_rows(archive, "players", record.key).select("seat", "name").sort("seat")
    return GameTables(
        key=record.key,
        title=record.title,
        replayed=replayed,
        players=players,
        steps=_indexed(steps),
        player_states=tables["player_states"],
        company_states=tables["company_states"],
        flags=tables["flags"],
        runs=tables["runs"],
        events=tables["events"].sort("ordinal"),
        record=record,
    )


def action_texts(record: Record) -> list[str]:
    """Every action of the record as one line of railledger notation, in order."""
    seats = {player.id: seat for seat, player in enumerate(record.players, start=1)}
    return [write_action(action, seats) for action in record.actions]


def find_game(keys: tuple[str, ...], asked: str) -> str | None:
    """The key a link names: the key itself, or the one key whose source id it is (``14375`` for
    ``18xx.games/14375``); None when it names none, or several."""
    if asked in keys:
        return asked
    found = [key for key in keys if key.rsplit("/", 1)[-1] == asked]
    return found[0] if len(found) == 1 else None


def opening_seq(tables: GameTables, asked: str | None) -> int:
    """Where the review of a game opens: at the action a link names by its id, else at the
    game's first root cause (an illegal game is read from where it went wrong), else at its first
    action. An id the record does not have counts as none."""
    if asked is not None:
        found = tables.steps.filter(pl.col("label") == asked)
        if not found.is_empty():
            return int(found["seq"][0])
    roots = tables.flags.filter(pl.col("follows").is_null())
    return int(roots["seq"].min()) if not roots.is_empty() else 0  # type: ignore[arg-type]


DIVIDEND_WORDS = {"payout": "paid", "withhold": "withheld", "half": "half"}
"""18xx.games' dividend kinds as the spreadsheet says them."""


def revenue_history(tables: GameTables) -> pl.DataFrame:
    """Every run the engine accepted, in play order: seq, round, company, revenue (the engine's
    total of the declared routes) and what the company did with it (``dividend``: paid, withheld
    or half, from the record's dividend action after the run; a run of $0 is withheld without one,
    as the engine does; null while the record has not said yet).

    Flagged actions changed nothing, so a flagged run or dividend is not part of the history."""
    flagged = set(tables.flags["seq"].to_list())
    pending: dict[object, int] = {}
    kinds: dict[int, str] = {}
    for seq, action in enumerate(tables.record.actions):
        if seq in flagged:
            continue
        if action.type == "run_routes":
            pending[action.entity.id] = seq
        elif action.type == "dividend" and action.entity.id in pending:
            kind = str(action.fields.get("kind"))
            kinds[pending.pop(action.entity.id)] = DIVIDEND_WORDS.get(kind, kind)
    runs = tables.runs.filter(~pl.col("seq").is_in(list(flagged)), pl.col("engine").is_not_null()).sort("seq")
    dividends = pl.DataFrame({"seq": list(kinds), "dividend": list(kinds.values())},
                             schema={"seq": runs.schema["seq"], "dividend": pl.Utf8})
    return (
        runs.select("seq", "round", "company", revenue="engine")
        .join(dividends, on="seq", how="left")
        .with_columns(pl.when(pl.col("revenue") == 0).then(pl.lit("withheld")).otherwise(pl.col("dividend"))
                      .alias("dividend"))
    )


def market_cells(title: str) -> pl.DataFrame:
    """The title's stock market cells: row, col, price, and kind, the colour zone 18xx.games
    shows it in: ``par`` (a start price; in 1871 ``par until <train>`` for one withdrawn when that
    train is first bought), ``no cert limit`` (the yellow zone), ``reserved start`` (1871's
    Mainline and Shortline prices), ``bonus`` (1871's 400: $40 a share more on a payout) or
    ``plain``."""
    rows = [(r, c, cell["price"], _cell_kind(cell))
            for r, row in enumerate(title_named(title).market_rows) for c, cell in enumerate(row) if cell is not None]
    return pl.DataFrame(rows, schema={"row": pl.Int64, "col": pl.Int64, "price": pl.Int64, "kind": pl.Utf8},
                        orient="row")


def _cell_kind(cell: dict[str, object]) -> str:
    if cell.get("par"):
        until = cell.get("par_until_first")
        return f"par until {until}" if until else "par"
    if cell.get("yellow"):
        return "no cert limit"
    if cell.get("reserved_start"):
        return "reserved start"
    if cell.get("bonus_per_share"):
        return "bonus"
    return "plain"


def archive_overview(archive: Archive) -> pl.DataFrame:
    """The games list with what the archive page filters on: [key, title, variant (the first 12
    digits of its hash; null for the title as published), source, players (one text), status,
    actions, verdict, why (the verdict's detail), replayed, flags (root causes)].
    ``replayed`` means the engine stored standings for it; a game stored before verdicts were
    kept shows ``not judged``."""
    games = archive.games()
    games = games.with_columns(_shown_players(archive, games).list.join(", ").alias("players"))
    flags = (archive.select("flags", ["game_key", "follows"]).filter(pl.col("follows").is_null())
             .group_by("game_key").agg(flags=pl.len().cast(pl.Int64)))
    replayed = archive.select("standings", ["game_key"]).unique().with_columns(replayed=pl.lit(True))
    return (
        games.join(flags, left_on="key", right_on="game_key", how="left")
        .join(replayed, left_on="key", right_on="game_key", how="left")
        .select("key", "title", pl.col("variant_hash").str.slice(0, 12).alias("variant"), "source", "players", "status", "actions",
                pl.col("verdict").fill_null(NOT_JUDGED),
                pl.col("verdict_detail").fill_null("stored before verdicts were kept; ingest it again").alias("why"),
                pl.col("replayed").fill_null(False), pl.col("flags").fill_null(0))
    )


def _shown_players(archive: Archive, games: pl.DataFrame) -> pl.Series:
    """Each game's players as shown (docs/identity.md): where two names of one game compare equal,
    each with its short id. Only games with two names equal ignoring case, or any name beyond
    ASCII (whose comparison NFKC decides), are looked at in Python: at 100,000 games the rest
    would cost a page a second."""
    maybe = games.filter(
        (pl.col("players").list.eval(pl.element().str.to_lowercase()).list.n_unique() < pl.col("players").list.len())
        | pl.col("players").list.eval(~pl.element().str.contains(r"^[\x20-\x7e]*$")).list.any())
    relabelled = relabelled_games(dict(zip(maybe["key"].to_list(), maybe["players"].to_list())), archive.seat_identities)
    if not relabelled:
        return games["players"]
    return pl.Series("players", [relabelled.get(key, names) for key, names in zip(games["key"].to_list(), games["players"].to_list())],
                     dtype=pl.List(pl.Utf8))


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
