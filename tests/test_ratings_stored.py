"""Ratings kept in the archive: the stored ones are the ones computed in memory, extending them
game by game gives the numbers of rating every game again, any change to the games makes readers
stop taking the stored leaderboard as it is, and any change to the rated games makes them rate in
memory instead of loading them.

Stored ratings are marked after storing (every mu raised by 1000, directly in the file), so that
a test sees whether a reader loaded them or rated the games itself. The games are the hand-made
ones of tests/test_ratings.py and, for longer runs, random tables of six players over two titles.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Callable

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

import railledger.analytics.ratings
from railledger.analytics.balance import POOLED
from railledger.analytics.rated import rated_games
from railledger.analytics.ratings import (Ratings, Refresh, StoredRatings, fingerprint, game_results, games_digest, rate, ratings,
                               store_ratings)
from railledger.analytics.scope import Population
from railledger.analytics.titles import title_statistics
from railledger.cli.app import app
from railledger.ingest.model import Record
from railledger.records import Archive, ArchiveError
from railledger.records.archive import RatingBasis
from railledger.records.schema import WHOLE_ARCHIVE_TABLES, game_tables, latest_version, migrations
from railledger.replay import Replay
from tests.conftest import fixture_files, needs_fixtures
from tests.test_ratings import BY_HAND, LATER, LEFT_OUT, RATED, game
from tests.test_schema_upgrades import written_at

MARK = 1000.0
"""Added to every stored mu by :func:`mark`: no rating computed here comes near it."""


def mark(db: Path) -> None:
    """Raise every stored mu by :data:`MARK`, behind the archive's back."""
    con = duckdb.connect(str(db))
    try:
        for table in ("rating_history", "rating_table"):
            assert con.execute(f"UPDATE {table} SET mu = mu + ?", [MARK]).fetchall()[0][0] > 0
    finally:
        con.close()


def marked(table: pl.DataFrame) -> bool:
    """Whether every rating of ``table`` is a marked stored one."""
    return table.height > 0 and table.filter(pl.col("mu") < MARK).is_empty()


def computed(archive: Archive, manual_ends: bool = False) -> Ratings:
    """The ratings rated here and now from the archive's games, never the stored ones."""
    return rate(game_results(archive, rated_games(archive, manual_ends)))


def assert_ratings_equal(archive: Archive, got: Ratings | StoredRatings, expected: Ratings, mu: float = 0.0) -> None:
    """``got`` shows what ``expected`` does, every player's part too (each rating's mu raised by
    ``mu``): the results and the history themselves when both were rated in memory."""
    raised = pl.col("mu") + mu
    assert_frame_equal(got.table, expected.table.with_columns(raised), check_exact=True)
    assert got.games == expected.games
    if isinstance(got, Ratings):
        assert_frame_equal(got.results, expected.results, check_exact=True)
        assert_frame_equal(got.history, expected.history.with_columns(raised), check_exact=True)
    for player in expected.table["player"].unique():
        mine, wanted = got.of_player(archive, player), expected.of_player(archive, player)
        assert_frame_equal(mine.history, wanted.history.with_columns(raised), check_exact=True)
        assert_frame_equal(mine.results, wanted.results, check_exact=True)
        assert_frame_equal(mine.versus, wanted.versus, check_exact=True)


def current_basis(archive: Archive) -> RatingBasis:
    """The basis of ratings stored now."""
    results = game_results(archive, rated_games(archive))
    return RatingBasis(fingerprint(results), results.height, games_digest(archive))


def put(archive: Archive, game: tuple[Record, Replay]) -> None:
    archive.store(game[0], replay=game[1])


def stored_marked(tmp_path: Path, games: list[tuple[Record, Replay]]) -> Path:
    """An archive of ``games`` with its ratings stored, then marked."""
    db = tmp_path / "stored.duckdb"
    with Archive.open(db) as archive:
        for played in games:
            put(archive, played)
        assert store_ratings(archive)[0] is Refresh.RECOMPUTED
    mark(db)
    return db


def random_games(count: int, seed: int = 15) -> list[tuple[Record, Replay]]:
    """``count`` rated games at tables of two to four of six players, 18MS and 18Texas mixed,
    played in the order of their ids; a tie now and then."""
    rng = random.Random(seed)
    names = {pid: f"P{pid}" for pid in range(1, 7)}
    games = []
    for n in range(count):
        seated = rng.sample(sorted(names), rng.randint(2, 4))
        values = {pid: rng.choice((100, 200, 300, 400, 400)) for pid in seated}
        games.append(game(str(100 + n), values, title=rng.choice(("18MS", "18Texas")), created="2024-03-01",
                          names=names, end="end of OR 10"))
    return games


# ------------------------------------------------------------------------------ stored = computed


def test_readers_load_the_stored_ratings_which_are_the_computed_ones(tmp_path: Path) -> None:
    db = tmp_path / "ratings.duckdb"
    with Archive.open(db) as archive:
        for record, replay in [*RATED, *LEFT_OUT, *BY_HAND, *random_games(12)]:
            archive.store(record, replay=replay)
        assert store_ratings(archive) == (Refresh.RECOMPUTED, 16)  # the default count's
        for manual_ends in (False, True):
            assert_frame_equal(archive.rating_history(manual_ends=manual_ends), computed(archive, manual_ends).history,
                               check_exact=True)
            assert_ratings_equal(archive, ratings(archive, Population(manual_ends=manual_ends)), computed(archive, manual_ends))
        assert store_ratings(archive) == (Refresh.UP_TO_DATE, 0)
    mark(db)
    with Archive.open(db, read_only=True) as archive:
        for manual_ends in (False, True):
            loaded = ratings(archive, Population(manual_ends=manual_ends))
            assert isinstance(loaded, StoredRatings)
            # every number loaded, the marked mu too
            assert_ratings_equal(archive, loaded, computed(archive, manual_ends), mu=MARK)
            leaders = title_statistics(archive, Population(manual_ends=manual_ends)).leaders
            assert set(leaders["scope"]) == {"18MS", "18Texas"} and marked(leaders)  # the same stored ratings


def test_the_titles_of_the_pooled_ratings_are_the_titles_rated_alone(tmp_path: Path) -> None:
    """The Titles page takes each title's ratings from the stored ones, which were rated with
    the pooled scope: rating each title alone gives the same numbers, to the last bit."""
    db = tmp_path / "titles.duckdb"
    with Archive.open(db) as archive:
        for record, replay in random_games(40):
            archive.store(record, replay=replay)
        results = game_results(archive, rated_games(archive))
        pooled, alone = rate(results), rate(results, pooled=False)
        assert set(alone.table["scope"]) == {"18MS", "18Texas"}
        assert_frame_equal(pooled.table.filter(pl.col("scope") != POOLED), alone.table, check_exact=True)
        assert_frame_equal(pooled.history.filter(pl.col("scope") != POOLED), alone.history, check_exact=True)
        store_ratings(archive)
        assert_frame_equal(title_statistics(archive).leaders, alone.table, check_exact=True)


# ------------------------------------------------------------------------------ extended = rated again


def test_ratings_extended_game_by_game_are_those_of_rating_every_game(tmp_path: Path) -> None:
    games = random_games(30)
    with Archive.open(tmp_path / "extended.duckdb") as archive:
        for start, stop in ((0, 7), (7, 8), (8, 20), (20, 30)):
            for record, replay in games[start:stop]:
                archive.store(record, replay=replay)
            assert store_ratings(archive) == (Refresh.EXTENDED if start else Refresh.RECOMPUTED, stop - start)
        assert archive.rating_history().height == 2 * game_results(archive, rated_games(archive)).height
        assert_frame_equal(archive.rating_history(), computed(archive).history, check_exact=True)
        assert_ratings_equal(archive, ratings(archive), computed(archive))


def test_a_game_played_before_the_stored_ones_rates_every_game_again(tmp_path: Path) -> None:
    first, *later = random_games(10)
    with Archive.open(tmp_path / "earlier.duckdb") as archive:
        for record, replay in later:
            archive.store(record, replay=replay)
        store_ratings(archive)
        put(archive, first)  # id 100: played before all of them
        assert store_ratings(archive) == (Refresh.RECOMPUTED, 10)
        assert_frame_equal(archive.rating_history(), computed(archive).history, check_exact=True)


# ------------------------------------------------------------------------------ out of date


def _later_game(archive: Archive) -> None:
    put(archive, game("m4", {1: 100, 3: 900}, created="2024-03-01"))


def _another_verdict(archive: Archive) -> None:  # its recorded result now differs from the replay's
    put(archive, game("m2", {1: 600, 3: 450, 2: 450}, created="2024-01-02", recorded={1: 600, 3: 450, 2: 440}))


def _other_ranks(archive: Archive) -> None:
    put(archive, game("m1", {1: 300, 2: 400, 3: 500}, created="2024-01-01"))


def _moved_in_play_order(archive: Archive) -> None:  # m3 now played first
    put(archive, game("m3", {2: 700, 1: 650, 4: 100}, created="2023-12-31"))


def _gone(archive: Archive) -> None:  # replaced by a version that is not finished: no longer rated
    put(archive, game("t1", {3: 900, 4: 800}, title="18Texas", created="2024-01-04", status="active"))


def _copied(archive: Archive) -> None:
    rows = archive.rating_history().height
    archive.copy_games(5)
    assert archive.rating_history().height == rows  # a whole-archive result: not copied with the games


CHANGES: dict[str, tuple[Callable[[Archive], None], Refresh]] = {
    "a game played later": (_later_game, Refresh.EXTENDED),
    "a game re-ingested with another verdict": (_another_verdict, Refresh.RECOMPUTED),
    "a game replaced by other ranks": (_other_ranks, Refresh.RECOMPUTED),
    "a game moved in play order": (_moved_in_play_order, Refresh.RECOMPUTED),
    "the last game no longer rated": (_gone, Refresh.RECOMPUTED),
    "games copied": (_copied, Refresh.RECOMPUTED),
}
"""Each change with what refreshing the stored ratings then does."""


@pytest.mark.parametrize("change", CHANGES)
def test_any_change_to_the_rated_games_makes_readers_rate_them(tmp_path: Path, change: str) -> None:
    db = stored_marked(tmp_path, [*RATED, *LEFT_OUT])
    make, refresh = CHANGES[change]
    with Archive.open(db) as archive:
        before = archive.rating_basis()
        make(archive)
    with Archive.open(db, read_only=True) as archive:
        assert archive.rating_basis() == before  # nothing refreshed them
        assert_ratings_equal(archive, ratings(archive), computed(archive))
        assert not title_statistics(archive).leaders.filter(pl.col("mu") > MARK).height
    with Archive.open(db) as archive:
        assert store_ratings(archive)[0] is refresh
        assert archive.rating_basis() == current_basis(archive)  # loaded again from now on


def test_games_that_change_no_rating_leave_the_stored_ones_in_use(tmp_path: Path) -> None:
    """A bot's game played before every rated one renumbers their play order without changing a
    rating, and a record stored again unchanged writes nothing."""
    db = stored_marked(tmp_path, RATED)
    with Archive.open(db) as archive:
        put(archive, game("bots-early", {5: 100, 6: 900}, created="2023-01-01", source="selfplay",
                            names={5: "random", 6: "greedy"}))
        put(archive, RATED[0])
        assert store_ratings(archive) == (Refresh.UP_TO_DATE, 0)
    with Archive.open(db, read_only=True) as archive:
        assert marked(ratings(archive).table)


def test_both_counts_of_games_ended_by_hand_are_stored_apart(tmp_path: Path) -> None:
    db = stored_marked(tmp_path, [*RATED, *BY_HAND])
    with Archive.open(db, read_only=True) as archive:
        counted, left_out = ratings(archive, Population(manual_ends=True)), ratings(archive)
        assert isinstance(counted, StoredRatings) and isinstance(left_out, StoredRatings)
        assert (counted.games, left_out.games) == (len(RATED) + len(BY_HAND), len(RATED))
        assert_ratings_equal(archive, counted, computed(archive, manual_ends=True), mu=MARK)
        assert_ratings_equal(archive, left_out, computed(archive), mu=MARK)


def test_without_games_ended_by_hand_one_count_is_rated_and_the_other_copied(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rated: list[int] = []
    rate_here = railledger.analytics.ratings.rate
    monkeypatch.setattr(railledger.analytics.ratings, "rate", lambda results, pooled=True: rated.append(results.height)
                        or rate_here(results, pooled))
    db = tmp_path / "copied.duckdb"
    with Archive.open(db) as archive:
        for played in [*RATED, *LEFT_OUT]:
            put(archive, played)
        assert store_ratings(archive) == (Refresh.RECOMPUTED, len(RATED))
        assert len(rated) == 1  # once, for both counts
        for manual_ends in (False, True):
            assert_ratings_equal(archive, ratings(archive, Population(manual_ends=manual_ends)), computed(archive, manual_ends))
        assert archive.rating_basis(True) == archive.rating_basis(False)
        put(archive, BY_HAND[0])  # now the counts differ: the one with it extends its own ratings
        assert store_ratings(archive) == (Refresh.UP_TO_DATE, 0) and len(rated) == 1  # the default's: no rating changed
        for manual_ends in (False, True):
            assert_ratings_equal(archive, ratings(archive, Population(manual_ends=manual_ends)), computed(archive, manual_ends))
        assert archive.rating_basis(True) != archive.rating_basis(False)


def test_the_fingerprint_reads_every_rated_column_and_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    results = pl.DataFrame({"game_key": ["a", "a", "b"], "title": ["18MS"] * 3, "created": [None, None, ""],
                            "player": ["1", "2", "1"], "rank": [1, 2, 1], "order": [1, 1, 2]})
    plain = fingerprint(results)
    changed = [results.with_columns(pl.Series(column, values)) for column, values in (
        ("game_key", ["a", "a", "c"]), ("title", ["18MS", "18MS", "18Texas"]), ("created", ["", None, ""]),
        ("player", ["2", "1", "1"]), ("rank", [1, 1, 1]))]  # a day given where none was, a seat's place
    changed.extend((results.head(2), results.reverse()))
    assert len({plain, *(fingerprint(frame) for frame in changed)}) == len(changed) + 1
    assert fingerprint(results.with_columns(order=pl.col("order") + 5)) == plain
    monkeypatch.setattr(railledger.analytics.ratings, "METHOD", railledger.analytics.ratings.METHOD + " another openskill")
    assert fingerprint(results) != plain


# ------------------------------------------------------------------------------ the archive's side


def test_stored_ratings_are_no_per_game_table_and_need_a_writable_archive(tmp_path: Path) -> None:
    assert WHOLE_ARCHIVE_TABLES and not WHOLE_ARCHIVE_TABLES & set(game_tables())
    db = stored_marked(tmp_path, RATED)
    with Archive.open(db, read_only=True) as archive:
        with pytest.raises(ArchiveError, match="read-only"):
            archive.store_ratings(archive.rating_history(), archive.rating_table(), RatingBasis("x", 0, "y"))


def test_an_archive_of_the_previous_schema_gets_the_tables_and_rates_in_memory_until_stored(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.duckdb"
    with Archive.open(fresh) as archive:
        for record, replay in RATED:
            archive.store(record, replay=replay)
        games = archive.games()
    ratings_version = next(m.version for m in migrations() if m.name == "ratings")
    db = tmp_path / "previous.duckdb"
    written_at(ratings_version - 1, fresh, db)  # the file as the schema before the ratings' made it
    with pytest.raises(ArchiveError, match=f"schema version {ratings_version - 1}"):
        Archive.open(db, read_only=True)
    with Archive.open(db) as archive:
        assert archive.schema_version == latest_version()
        assert archive.rating_basis() is None and archive.rating_history().is_empty()
        assert_frame_equal(archive.games().drop("ingested_at"), games.drop("ingested_at"))
        assert_ratings_equal(archive, ratings(archive), computed(archive))
        assert store_ratings(archive) == (Refresh.RECOMPUTED, 4)
        assert_frame_equal(archive.rating_history(), computed(archive).history, check_exact=True)


# ------------------------------------------------------------------------------ the commands


@needs_fixtures
def test_ingest_stores_the_ratings_once_at_its_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    store = railledger.analytics.ratings.store_ratings

    def counted(archive: Archive) -> tuple[Refresh, int]:
        calls.append(archive.count_games())
        return store(archive)

    monkeypatch.setattr(railledger.analytics.ratings, "store_ratings", counted)
    db = tmp_path / "ingested.duckdb"
    files = [str(path) for path in fixture_files()]
    result = CliRunner().invoke(app, ["ingest", *files, "--db", str(db), "--allow-invalid", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert calls == [len(files)]  # once, after every game was stored
    with Archive.open(db, read_only=True) as archive:
        assert archive.rating_basis() == current_basis(archive)
        rated = game_results(archive, rated_games(archive))["game_key"].n_unique()
    assert rated > 0 and f"ratings stored: {rated} rated game{'s' * (rated != 1)} rated from the first" in result.output
    again = CliRunner().invoke(app, ["ingest", *files, "--db", str(db), "--allow-invalid", "--workers", "1"])
    assert again.exit_code == 0 and "ratings stored" not in again.output and len(calls) == 2


# ------------------------------------------------------------------------------ the games' digest


def test_a_reader_takes_the_stored_leaderboard_without_reading_a_result(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = stored_marked(tmp_path, [*RATED, *LEFT_OUT])
    with Archive.open(db, read_only=True) as archive:
        expected = computed(archive)

        def unread(*args: object, **kwargs: object) -> pl.DataFrame:
            raise AssertionError("the rated results were read")

        monkeypatch.setattr(railledger.analytics.ratings, "game_results", unread)
        monkeypatch.setattr(railledger.analytics.ratings, "counted_games", unread)
        loaded = ratings(archive)
        monkeypatch.undo()
        assert isinstance(loaded, StoredRatings)
        assert_ratings_equal(archive, loaded, expected, mu=MARK)


def test_games_changed_without_a_rated_result_show_their_new_names_before_and_after_a_refresh(tmp_path: Path) -> None:
    """t1 stored again with Diana now called Dee and the same values: the games' digest differs,
    the rated results do not, so the stored history is loaded and the leaderboard made again."""
    db = stored_marked(tmp_path, RATED)
    with Archive.open(db) as archive:
        put(archive, game("t1", {3: 900, 4: 800}, title="18Texas", created="2024-01-04", end="bankruptcy",
                          names={**LATER, 4: "Dee"}))
    with Archive.open(db, read_only=True) as archive:
        loaded = ratings(archive)
        assert isinstance(loaded, Ratings) and marked(loaded.table)
        assert loaded.table.filter(pl.col("player") == "user:4")["name"].to_list() == ["Di", "Dee", "Dee"]
    with Archive.open(db) as archive:
        assert store_ratings(archive) == (Refresh.UP_TO_DATE, 0)
        assert archive.rating_basis() == current_basis(archive)
    with Archive.open(db, read_only=True) as archive:
        stored = ratings(archive)
        assert isinstance(stored, StoredRatings) and marked(stored.table)
        assert_frame_equal(stored.table, loaded.table, check_exact=True)


def test_the_games_digest_follows_the_engine_and_the_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import railledger.replay as replay

    with Archive.open(tmp_path / "engine.duckdb") as archive:
        for played in RATED:
            put(archive, played)
        before, digest = archive.games_identity(), games_digest(archive)
        put(archive, RATED[0])
        assert archive.games_identity() == before  # stored again unchanged: not written
        monkeypatch.setattr(railledger.analytics.ratings, "METHOD", railledger.analytics.ratings.METHOD + " another openskill")
        assert games_digest(archive) != digest
        monkeypatch.undo()
        monkeypatch.setattr(replay, "engine_version", lambda title, variant=None: "another engine")
        put(archive, RATED[0])
        assert archive.games_identity() != before


@pytest.mark.parametrize("dropping", ["rating_table", "ratings_both_counts"])
def test_ratings_stored_before_the_games_digest_or_both_counts_are_dropped_and_rated_again(tmp_path: Path, dropping: str) -> None:
    fresh = tmp_path / "fresh.duckdb"
    with Archive.open(fresh) as archive:
        for played in RATED:
            put(archive, played)
        store_ratings(archive)
    version = next(m.version for m in migrations() if m.name == dropping)
    db = tmp_path / "previous.duckdb"
    written_at(version - 1, fresh, db)
    con = duckdb.connect(str(db))
    try:
        assert con.execute("SELECT count(*) FROM rating_history").fetchall()[0][0] > 0
    finally:
        con.close()
    with Archive.open(db) as archive:
        for manual_ends in (False, True):
            assert archive.rating_basis(manual_ends) is None and archive.rating_table(manual_ends).is_empty()
            assert archive.rating_history(manual_ends=manual_ends).is_empty()
        assert_ratings_equal(archive, ratings(archive), computed(archive))
        assert store_ratings(archive) == (Refresh.RECOMPUTED, 4)
        assert isinstance(ratings(archive), StoredRatings) and isinstance(ratings(archive, Population(manual_ends=True)), StoredRatings)


def test_the_players_page_shows_the_same_from_stored_ratings_as_from_ratings_rated_here(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_ratings import _page

    db = tmp_path / "page.duckdb"
    with Archive.open(db) as archive:
        for record, replay in [*RATED, *LEFT_OUT]:
            archive.store(record, replay=replay)
    shown = []
    for stored in (False, True):
        if stored:
            with Archive.open(db) as archive:
                store_ratings(archive)
        with Archive.open(db, read_only=True) as archive:
            assert isinstance(ratings(archive), StoredRatings) == stored
        page = _page(db, monkeypatch, "views/players.py", player="user:4")
        shown.append(([frame.value for frame in page.dataframe], [caption.value for caption in page.caption],
                      [chart.proto.spec for chart in page.get("plotly_chart")]))
    (frames, captions, charts), (stored_frames, stored_captions, stored_charts) = shown
    assert len(frames) == 4 and all(a.equals(b) for a, b in zip(frames, stored_frames))
    assert captions == stored_captions and charts == stored_charts
