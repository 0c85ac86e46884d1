"""The archive's filtered reads (``Archive.select``) and the statistics built on them, checked against the same questions answered in polars over whole tables, on real
replays (the short games and the bots' games kept in tests/).

The train rush and balance pages read only the rows they need so that they load fast on a large
archive; these tests hold them to what reading everything and filtering in polars gives.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Iterator

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from railledger.analytics.balance import POOLED, winner_correlations
from railledger.analytics.identity import labelled
from railledger.analytics.ratings import RESULTS_SCHEMA, game_results
from railledger.analytics.prices import net_worth_by_step, prices_by_step, share_prices_by_step, worth_by_step
from railledger.analytics.review import archive_overview, game_rounds, game_tables
from railledger.analytics.rush import rush_games, train_rush, train_rush_distribution
from railledger.analytics.scope import BOTH, NOT_JUDGED, SELFPLAY, Population, counted_games
from railledger.analytics.validation import shortfalls_by_game, shortfalls_by_player, validation_summary
from railledger.ingest import notation
from railledger.records import Archive
from railledger.replay import replay_record
from railledger.replay.optimizer.audit import audit_record

TESTS = Path(__file__).resolve().parent
GAMES = sorted([*(TESTS / "games").glob("*.rln"), *(TESTS / "selfplay_games").glob("*.rln")])


SHORT_18MS = (TESTS / "games" / "18ms-short.rln").read_text(encoding="utf-8")
CHANGED = [
    SHORT_18MS.replace("120 p3 buy_shares WRA_2 10", "120 p3 buy_shares GMO_2 10").replace('"test-18ms-short"', '"test-18ms-broken"'),
    SHORT_18MS.replace("690 WRA run_routes [2+-2 E11-E13-E15] [2+-3 E9-E11]", "690 WRA run_routes [2+-2 E11-E13-E15]")
    .replace('"test-18ms-short"', '"test-18ms-poor"'),
]
"""The short 18MS game with a share bought twice (a root-cause flag and many that follow from it),
and with a run of one train where two could run ($40 left on the table)."""


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Archive]:
    db = tmp_path_factory.mktemp("reads") / "replayed.duckdb"
    with Archive.open(db) as writable:
        for n, text in enumerate([*(path.read_text(encoding="utf-8") for path in GAMES), *CHANGED]):
            record = notation.read(text)
            if n % 2:  # every other game finished with its replay's result: ranked, where the rest rank nobody
                record = dataclasses.replace(record, status="finished", result=replay_record(record, keep_going=True).result)
            writable.store(record, replay=replay_record(record, keep_going=True, snapshots=True), runs=audit_record(record))
    with Archive.open(db, read_only=True) as opened:
        yield opened


def same_rows(found: pl.DataFrame, expected: pl.DataFrame) -> None:
    """Equal as sets of rows (``select`` promises no order), with the same columns and types."""
    assert found.height > 0
    assert_frame_equal(found.sort(pl.all()), expected.sort(pl.all()))


def test_select_keeps_the_columns_and_rows_asked_for(archive: Archive) -> None:
    events = archive.table("events")
    some = events["game_key"].unique().sort().to_list()[::2]
    found = archive.select("events", ["game_key", "seq", "subject"], {"kind": ["train", "rust"], "game_key": some})
    expected = events.filter(pl.col("kind").is_in(["train", "rust"]), pl.col("game_key").is_in(some))
    same_rows(found, expected.select("game_key", "seq", "subject"))


def test_select_matching_rows_of_a_frame(archive: Archive) -> None:
    states = archive.table("company_states")
    keys = states.select("game_key", "seq", "company").gather_every(97)
    found = archive.select("company_states", ["game_key", "seq", "company", "president"], matching=keys)
    same_rows(found, states.join(keys, on=["game_key", "seq", "company"]).select("game_key", "seq", "company", "president"))


@pytest.mark.parametrize("name", ["company_states", "player_states"])
def test_a_state_table_at_some_actions_is_the_whole_table_there(archive: Archive, name: str) -> None:
    """A state table asked for at some actions is rebuilt there only, from
    each entity's latest change: every column as the whole table has it, NULLs included."""
    states = archive.table(name)
    columns = states.columns
    at = states.select("game_key", "seq").unique().sort("game_key", "seq").gather_every(7)
    same_rows(archive.select(name, columns, matching=at), states.join(at, on=["game_key", "seq"]).select(columns))


def test_select_with_nothing_to_match_is_empty(archive: Archive) -> None:
    assert archive.select("events", ["game_key"], {"kind": []}).is_empty()
    none = pl.DataFrame({"game_key": [], "seq": []}, schema={"game_key": pl.Utf8, "seq": pl.Int32})
    assert archive.select("steps", ["round"], matching=none).is_empty()


@pytest.mark.parametrize("ask", [
    {"name": "schema_version", "columns": ["version"]},
    {"name": "events", "columns": ["kind; DROP TABLE games"]},
    {"name": "events", "columns": ["kind"], "where": {"1=1 OR kind": ["train"]}},
    {"name": "events", "columns": ["kind"], "matching": pl.DataFrame({"round": ["OR 1.1"]})},
])
def test_select_refuses_names_the_schema_does_not_have(archive: Archive, ask: dict) -> None:
    with pytest.raises(KeyError):
        archive.select(**ask)


def test_train_rush_rounds_and_or_counts_are_those_of_every_step(archive: Archive) -> None:
    """The round of each first purchase and rust is its step's, and the distribution counts the
    operating rounds started as a count over every step of the game gives them."""
    steps = archive.table("steps").sort("game_key", "seq").with_columns(
        or_ordinal=(pl.col("round").str.starts_with("OR ") & pl.col("round").is_first_distinct().over("game_key"))
        .cast(pl.Int64).cum_sum().over("game_key"), seq=pl.col("seq").cast(pl.Int64))
    rush = train_rush(archive)
    assert rush.filter(pl.col("gone_seq").is_not_null()).height > 0
    events = pl.concat([
        rush.select("game_key", "title", "train_type", event=pl.lit("bought"), seq="first_bought_seq", round="first_bought_round"),
        rush.drop_nulls("gone_seq").select("game_key", "title", "train_type", event=pl.lit("gone"), seq="gone_seq",
                                           round="gone_round"),
    ]).join(steps.select("game_key", "seq", step_round="round", or_ordinal="or_ordinal"), on=["game_key", "seq"])
    assert events.height == rush.height + rush["gone_seq"].count()
    assert (events["round"] == events["step_round"]).all()
    expected = (events.group_by("title", "train_type", "event", "or_ordinal").agg(games=pl.col("game_key").n_unique()
                .cast(pl.Int64)).sort("title", "train_type", "event", "or_ordinal"))
    assert_frame_equal(train_rush_distribution(archive), expected)


def test_the_rush_pages_games_are_those_with_a_rush(archive: Archive) -> None:
    """The page lists the games :func:`train_rush` has rows for, and shows one game's rows as the
    whole rush has them."""
    scope = counted_games(archive, Population(BOTH, every_verdict=True))
    per_game = train_rush(archive, games=scope)
    assert_frame_equal(rush_games(archive, scope), per_game.select("game_key", "title").unique().sort("title", "game_key"))
    assert rush_games(archive, counted_games(archive)).height < rush_games(archive).height  # the scope counts
    one = per_game["game_key"][0]
    assert_frame_equal(train_rush(archive, one), per_game.filter(pl.col("game_key") == one))


def test_presidencies_are_counted_after_each_games_last_action(archive: Archive) -> None:
    """Players by the number of companies they preside over after the last action, as the whole
    company_states table says, per title."""
    states = archive.table("company_states")
    last = states.filter(pl.col("seq") == pl.col("seq").max().over("game_key"))
    counts = last.drop_nulls("president").group_by("game_key", seat="president").agg(n=pl.len())
    titles = archive.table("games").select(game_key="key", title="title")
    players = archive.table("standings").drop_nulls("rank").select("game_key", "seat").join(titles, on="game_key")
    expected = (
        players.join(counts, on=["game_key", "seat"], how="left")
        .group_by(scope="title", value=pl.col("n").fill_null(0).cast(pl.Utf8)).agg(games=pl.len().cast(pl.Int64))
        .sort("scope", "value")
    )
    found = winner_correlations(archive, counted_games(archive, Population(BOTH, every_verdict=True))).filter(pl.col("factor") == "presidencies", pl.col("scope") != POOLED)
    assert_frame_equal(found.select("scope", "value", "games").sort("scope", "value"), expected)
    assert set(expected["value"]) - {"0"}


def test_game_keys_are_the_games_list_in_its_order(archive: Archive) -> None:
    keys = archive.game_keys()
    assert keys == archive.games()["key"].to_list() == archive_overview(archive)["key"].to_list()
    assert keys[0] == "selfplay/g18ms-2p-209106-random.random"  # by title, then source id; not by key


def test_one_read_of_a_game_serves_the_whole_review(archive: Archive) -> None:
    """The review page reads a game once: its step values, rounds and record come from those
    tables as they come from reading each on its own."""
    for key in archive.table("games")["key"].to_list():
        game = game_tables(archive, key)
        assert game.record == archive.record(key)
        assert_frame_equal(prices_by_step(game.company_states), share_prices_by_step(archive, key))
        assert_frame_equal(worth_by_step(game.player_states, game.players), net_worth_by_step(archive, key))
        rounds = game_rounds(archive, key)
        assert_frame_equal(rounds, game.rounds())
        assert rounds.height > 1 and rounds["first"].to_list() == sorted(rounds["first"].to_list())


def test_a_scope_is_the_games_of_its_kind_by_verdict(archive: Archive) -> None:
    """The scope counted from the games' facts is what the whole games table gives: of each title
    and kind, the valid games, the others by verdict, and the other kind's games left out."""
    games = archive.table("games")
    assert games.height == len(GAMES) + len(CHANGED)
    for title in (None, "18MS", "the old prince 1871"):
        of_title = games if title is None else games.filter(pl.col("title").str.to_lowercase() == title.lower())
        bots = pl.col("source") == SELFPLAY
        for kind, of_kind in (("people", of_title.filter(~bots)), ("bots", of_title.filter(bots)), (BOTH, of_title)):
            every = counted_games(archive, Population(kind, every_verdict=True, title=title))
            assert every.keys == frozenset(of_kind["key"]) and not every.left_out
            assert every.other_kind == of_title.height - of_kind.height
            scope = counted_games(archive, Population(kind, title=title))
            assert scope.keys == frozenset(of_kind.filter(pl.col("verdict") == "valid")["key"])
            left = of_kind.filter(pl.col("verdict") != "valid").group_by(pl.col("verdict").fill_null(NOT_JUDGED)).len()
            assert scope.left_out == dict(left.iter_rows())
    mixed = counted_games(archive, Population(BOTH))
    assert mixed.count and mixed.left_out  # the finished games, and the broken and unfinished ones


def test_game_results_are_the_whole_standings_and_seats_of_the_games(archive: Archive) -> None:
    """Every player's value and rank in the games asked for (joined inside DuckDB on the games'
    numbers) is what joining the whole standings and players tables by key gives, in play order;
    a bot's seat is the bot (``bot:NAME``)."""
    facts = archive.game_facts()
    games = facts.filter(pl.col("key").is_in(facts["key"].gather_every(2).implode()))  # not every game
    standings = archive.table("standings").select(
        "game_key", pl.col("seat").cast(pl.Int64), pl.col("value").cast(pl.Int64), pl.col("rank").cast(pl.Int64))
    bots = archive.table("seat_bots").select("game_key", pl.col("seat").cast(pl.Int64), "bot")
    seats = (archive.table("players").select("game_key", pl.col("seat").cast(pl.Int64), "identity", "name")
             .join(bots, on=["game_key", "seat"], how="left")
             .select("game_key", "seat", player=pl.coalesce(pl.lit("bot:") + pl.col("bot"), "identity"),
                     name=pl.coalesce("bot", "name")))
    assert bots.height and bots["game_key"].is_in(games["key"].implode()).any()  # bots' seats among them
    expected = (
        games.select(game_key="key", title="title", order="order", created="created", players="players")
        .join(standings, on="game_key").join(seats, on=["game_key", "seat"])
        .select(list(RESULTS_SCHEMA)).cast(RESULTS_SCHEMA).sort("order", "seat")  # type: ignore[arg-type]
    )
    assert 0 < expected["game_key"].n_unique() < facts.height
    assert_frame_equal(game_results(archive, games), expected)


def test_flag_counts_are_those_of_the_whole_flags_table(archive: Archive) -> None:
    titles = archive.table("games").select(game_key="key", title="title")
    flags = archive.table("flags")
    assert flags["follows"].null_count() < flags.height  # some flags follow from another
    expected = (
        flags.filter(pl.col("follows").is_null()).join(titles, on="game_key").group_by("title", "rule")
        .agg(flags=pl.len().cast(pl.Int64), games=pl.col("game_key").n_unique().cast(pl.Int64)).sort("title", "rule")
    )
    assert expected.height
    assert_frame_equal(validation_summary(archive), expected)


def test_shortfalls_are_those_of_the_whole_runs_table(archive: Archive) -> None:
    titles = archive.table("games").select(game_key="key", title="title")
    names = archive.table("players").select("game_key", "seat", player="identity", name="name")
    runs = archive.table("runs").join(titles, on="game_key").join(names, on=["game_key", "seat"], how="left").with_columns(
        shortfall=pl.col("optimum") - pl.col("engine"))

    def totals(frame: pl.DataFrame, *by: str) -> pl.DataFrame:
        return frame.group_by(*by).agg(
            runs=pl.len().cast(pl.Int64), below_optimum=(pl.col("shortfall") > 0).sum().cast(pl.Int64),
            left_on_table=pl.col("shortfall").sum().cast(pl.Int64), best_possible=pl.col("optimum").sum().cast(pl.Int64),
            unproven=(~pl.col("proven")).sum().cast(pl.Int64),
        ).sort("left_on_table", *by, descending=[True, *[False] * len(by)])

    assert runs["shortfall"].null_count() < runs.height and (runs["shortfall"] > 0).any()
    assert_frame_equal(shortfalls_by_game(archive), totals(runs, "game_key", "title"))
    presided = runs.drop_nulls("player")  # each president by identity, shown by name
    assert presided.group_by("player").agg(pl.col("name").n_unique())["name"].max() == 1  # one name each here
    last_names = presided.group_by("title", "player").agg(name=pl.col("name").first())
    by_player = totals(presided, "title", "player").join(last_names, on=["title", "player"], maintain_order="left")
    assert_frame_equal(shortfalls_by_player(archive),
                       labelled(by_player.select("title", "player", "name", *by_player.columns[2:-1])))


def test_game_totals_are_each_games_counts(archive: Archive) -> None:
    """The per-game summary ``game_totals`` holds what counting every action, step and event of
    the game gives (records.summaries), for games with and without an end."""
    actions = archive.table("actions").group_by("game_key").agg(
        actions=pl.len().cast(pl.Int32), end_game_action=(pl.col("type") == "end_game").any())
    players = archive.table("players").group_by("game_key").agg(
        players=pl.len().cast(pl.Int32), player_names=pl.col("name").sort_by("seat"))
    rounds = archive.table("steps").group_by("game_key").agg(
        operating_rounds=pl.col("round").filter(pl.col("round").str.starts_with("OR ")).n_unique().cast(pl.Int32))
    ends = (archive.table("events").filter(pl.col("kind") == "game_end").sort("ordinal")
            .group_by("game_key").agg(end_reason=pl.col("subject").first()))
    expected = (archive.table("games").select(game_key="key").join(players, on="game_key", how="left")
                .join(actions, on="game_key", how="left").join(rounds, on="game_key", how="left")
                .join(ends, on="game_key", how="left"))
    found = archive.table("game_totals")
    assert found.height == archive.table("games").height
    same_rows(found, expected.select(found.columns))
    assert found["end_reason"].null_count() and found["end_reason"].drop_nulls().len()


def test_train_firsts_are_each_types_first_event_with_its_round_and_president(archive: Archive) -> None:
    """``train_firsts``: the first purchase and rust of each train type of each game, with the
    round of its step, the operating rounds started by then, and the buyer's president after it
    as the whole company_states table has them."""
    events = archive.table("events").filter(pl.col("kind").is_in(["train", "rust"])).with_columns(
        train_type=pl.col("subject").str.replace(r"-[^-]*$", ""))
    firsts = events.filter(pl.col("ordinal") == pl.col("ordinal").min().over("game_key", "train_type", "kind"))
    steps = archive.table("steps").sort("game_key", "seq").with_columns(
        or_ordinal=(pl.col("round").str.starts_with("OR ") & pl.col("round").is_first_distinct().over("game_key"))
        .cast(pl.Int32).cum_sum().over("game_key"))
    states = archive.table("company_states").select("game_key", "seq", company="company", president="president")
    titles = archive.table("games").select(game_key="key", title="title")
    expected = (
        firsts.join(titles, on="game_key")
        .join(steps.select("game_key", "seq", "round", "or_ordinal"), on=["game_key", "seq"], how="left")
        .with_columns(company=pl.when(pl.col("kind") == "train").then(pl.col("detail").str.split(" from ").list.first()))
        .join(states, on=["game_key", "seq", "company"], how="left")
    )
    found = archive.table("train_firsts")
    same_rows(found, expected.select(found.columns))
    bought = found.filter(pl.col("kind") == "train")
    assert bought["president"].null_count() < bought.height and found.filter(pl.col("kind") == "rust").height


def test_seat_factors_are_each_players_opening_holdings_and_results(archive: Archive) -> None:
    """``seat_factors`` against the events, players, standings and title data: every player of a
    ranked game (finished, with a result) has one seat, presidencies and first_par row, a private row per private bought
    (``none`` without), a bot row where a bot sat, and the rank and title of the game."""
    from railledger.replay.titles import title_named

    factors = archive.table("seat_factors")
    standings = archive.table("standings").drop_nulls("rank").join(archive.table("games").select(game_key="key", title="title"),
                                                                   on="game_key")
    assert 0 < standings["game_key"].n_unique() < archive.table("games").height  # a game without a result has no factors
    seats = standings.select("game_key", "seat", "title", "rank", "winner")
    same_rows(factors.select(seats.columns).unique(), seats)
    players = archive.table("players").select("game_key", pl.col("seat").cast(pl.Int16), detail="external_id").join(
        seats, on=["game_key", "seat"])
    events = archive.table("events").join(players, on=["game_key", "detail"])
    privates = events.filter(pl.col("kind") == "private").select("game_key", "seat", value="subject")
    with_private = players.join(privates, on=["game_key", "seat"], how="left").with_columns(pl.col("value").fill_null("none"))
    pars = events.filter(pl.col("kind") == "par").sort("ordinal").group_by("game_key", "seat").agg(
        value=pl.col("amount").first().cast(pl.Utf8))
    with_par = players.join(pars, on=["game_key", "seat"], how="left").with_columns(pl.col("value").fill_null("none"))
    bots = archive.table("seat_bots").with_columns(pl.col("seat").cast(pl.Int16)).join(players, on=["game_key", "seat"]).select(
        "game_key", "seat", value="bot")
    for factor, expected in (("private", with_private), ("first_par", with_par), ("bot", bots),
                             ("seat", players.with_columns(value=pl.col("seat").cast(pl.Utf8)))):
        same_rows(factors.filter(pl.col("factor") == factor).select("game_key", "seat", "value"),
                  expected.select("game_key", "seat", "value"))
    permanent = {(title, train.name) for title in set(standings["title"]) for train in title_named(title).trains
                 if train.permanent}
    firsts = archive.table("train_firsts").filter(pl.col("kind") == "train").sort("ordinal")
    first = (firsts.filter(pl.struct("title", "train_type").map_elements(lambda r: (r["title"], r["train_type"]) in permanent,
                                                                          return_dtype=pl.Boolean))
             .group_by("game_key").first().filter(pl.col("round").is_not_null()))
    yes_no = players.join(first.select("game_key", "president"), on="game_key").select(
        "game_key", "seat", value=pl.when(pl.col("seat") == pl.col("president")).then(pl.lit("yes")).otherwise(pl.lit("no")))
    same_rows(factors.filter(pl.col("factor") == "first_permanent").select("game_key", "seat", "value"), yes_no)
    assert set(yes_no["value"]) == {"yes", "no"}
