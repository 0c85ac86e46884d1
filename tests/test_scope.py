"""Every page and command asked the same scope counts the same games (docs/statistics.md).

The archive holds games of every verdict: the dashboard tests' games (valid, illegal, unfinished,
no engine), a result mismatch (the finished game with another recorded result), and two games
bots played (``railledger simulate``). Each scope is asked of ``stats``, ``ratings``, ``export``
and every statistics page with the sidebar set to it; each says the scope's sentence and counts
its games, which the games table, read whole, gives by verdict and source.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from railledger.analytics.ratings import ratings
from railledger.analytics.scope import BOTH, BOTS, COMMAND, PEOPLE, SELFPLAY, Population, counted_games
from railledger.cli.app import app
from railledger.dashboard.population import SIDEBAR
from railledger.dashboard.text import md
from railledger.records import Archive
from tests.conftest import make_known
from tests.test_dashboard import APP, ENGINELESS_TITLE, build_archive, finished_text

runner = CliRunner()
SCOPES = [Population(), Population(BOTS), Population(BOTH), Population(every_verdict=True), Population(BOTH, every_verdict=True)]
SCOPE_IDS = ["people", "bots", "both", "people-every-verdict", "both-every-verdict"]
MISMATCH_KEY = "railledger/test-18ms-mismatch"


def mismatch_text() -> str:
    """The finished game with a recorded result its replay does not give (Ada's value one more)."""
    text = finished_text().replace('[Game "test-18ms-finished"]', '[Game "test-18ms-mismatch"]')
    line = next(line for line in text.splitlines() if line.startswith("[Result"))
    ada = line.split()[2]  # [Result "Ada" 806 ...
    return text.replace(line, line.replace(f'"Ada" {ada}', f'"Ada" {int(ada) + 1}', 1))


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("scope")
    (folder / "mismatch.rln").write_text(mismatch_text(), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        make_known(patch, ENGINELESS_TITLE, "engineless")
        path = build_archive(folder, engineless=True, extra=[folder / "mismatch.rln"])
    played = runner.invoke(app, ["simulate", "--title", "18MS", "--players", "3", "--games", "2", "--bots", "greedy,random,random",
                                 "--workers", "1", "--db", str(path)])
    assert played.exit_code == 0, played.output
    yield path


def games_table(db: Path) -> pl.DataFrame:
    with Archive.open(db, read_only=True) as archive:
        return archive.table("games")


def expected_count(games: pl.DataFrame, population: Population) -> int:
    """The games a population counts, from the whole games table: its kind, valid unless every verdict."""
    bots = pl.col("source") == SELFPLAY
    of_kind = games.filter({PEOPLE: ~bots, BOTS: bots, BOTH: pl.lit(True)}[population.games])
    return of_kind.height if population.every_verdict else of_kind.filter(pl.col("verdict") == "valid").height


def options(population: Population) -> list[str]:
    return ["--games", population.games, *(["--every-verdict"] if population.every_verdict else [])]


def test_the_archive_has_every_verdict_and_both_kinds(db: Path) -> None:
    games = games_table(db)
    assert set(games["verdict"]) == {"valid", "illegal", "result mismatch", "unfinished", "no engine"}
    assert games.filter(pl.col("key") == MISMATCH_KEY)["verdict"].item() == "result mismatch"
    assert games.filter(pl.col("source") == SELFPLAY).height == 2


@pytest.mark.parametrize("population", SCOPES, ids=SCOPE_IDS)
def test_every_command_counts_the_same_games(db: Path, population: Population) -> None:
    with Archive.open(db, read_only=True) as archive:
        scope = counted_games(archive, population)
    assert scope.count == expected_count(games_table(db), population) > 0
    note = scope.note(COMMAND)
    stats = runner.invoke(app, ["stats", "--db", str(db), *options(population)], env={"COLUMNS": "400"})
    assert stats.exit_code == 0 and stats.output.splitlines()[0] == note
    rated = runner.invoke(app, ["ratings", "--db", str(db), *options(population)], env={"COLUMNS": "400"})
    assert rated.exit_code == 0 and rated.output.splitlines()[0] == note
    exported = Path(str(db) + f"-{population.games}-{population.every_verdict}")
    export = runner.invoke(app, ["export", "--format", "csv", str(exported), "--db", str(db), *options(population)])
    assert export.exit_code == 0 and export.output.splitlines()[0] == note
    assert pl.read_csv(exported / "games.csv").height == scope.count
    left = sum(scope.left_out.values()) + scope.other_kind
    assert scope.count + left == games_table(db).height  # nothing is left out unsaid


def test_the_default_is_peoples_valid_finished_games_and_names_what_it_left_out(db: Path) -> None:
    with Archive.open(db, read_only=True) as archive:
        note = counted_games(archive).note(COMMAND)
    assert note == ("All titles, 3 players: 1 people's valid finished game; left out: 1 illegal, 1 result mismatch, "
                    "6 unfinished, 1 no engine (--every-verdict counts them); 2 bots' games not counted "
                    "(--games all counts them).")


def sidebar_set(page: AppTest, population: Population) -> AppTest:
    """The app with the sidebar's controls set to ``population``."""
    page.radio(key="scope_games").set_value(population.games)
    page.toggle(key="scope_every_verdict").set_value(population.every_verdict)
    return page.run()


def open_page(page: AppTest, path: str) -> AppTest:
    page.switch_page(path).run()
    assert not page.exception, page.exception
    return page


@pytest.mark.parametrize("population", SCOPES, ids=SCOPE_IDS)
def test_every_page_counts_the_same_games(db: Path, population: Population, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAILLEDGER_DB", str(db))
    with Archive.open(db, read_only=True) as archive:
        scope = counted_games(archive, population)
        listed = counted_games(archive, Population(population.games, every_verdict=True))
    note = md(scope.note(SIDEBAR))
    page = sidebar_set(AppTest.from_file(APP, default_timeout=60).run(), population)
    for path in ("views/titles.py", "views/players.py", "views/rush.py"):
        shown = open_page(page, path)
        assert shown.caption[0].value == note, path
    balance = open_page(page, "views/balance.py")
    if population.games == PEOPLE:
        assert balance.caption[0].value == note
    else:  # bots' games count when the strongest bot played every seat: these are greedy's and random's
        assert balance.caption[0].value.endswith(md('2 other bots\' games not counted ("Every bot\'s games" on the page counts them).'))
        balance.toggle(key="balance_every_bot").set_value(True).run()
        assert balance.caption[0].value.startswith(note)
    titles = open_page(page, "views/titles.py").dataframe[0].value
    assert titles["counted"].sum() == scope.count
    validation = open_page(page, "views/validation.py")
    assert validation.caption[0].value == md(listed.note(SIDEBAR))
    not_valid = listed.count - expected_count(games_table(db), Population(population.games))
    if not_valid:
        assert len(validation.dataframe[0].value) == not_valid
    else:  # the bots' games are all valid
        assert validation.success[0].value.startswith("Each of these games is valid")
    audited = validation.dataframe[-1].value  # the revenue audit by game: of the same kind of games
    assert len(audited) and set(audited["game_key"]) <= listed.keys
    archive_page = open_page(page, "views/archive.py")
    assert len(archive_page.dataframe[0].value) == listed.count


def test_the_validation_page_lists_every_verdict_that_is_not_valid_with_its_reason(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAILLEDGER_DB", str(db))
    page = open_page(AppTest.from_file(APP, default_timeout=60).run(), "views/validation.py")
    listed = page.dataframe[0].value
    assert list(dict.fromkeys(listed["verdict"])) == ["illegal", "result mismatch", "unfinished", "no engine"]
    reasons = dict(zip(listed["game_key"], listed["reason"]))
    assert "Ada recorded" in reasons[MISMATCH_KEY] and "not finished" in reasons["railledger/test-18ms-short"]
    assert "no rules engine" in reasons["railledger/test-engineless"]
    assert page.caption[1].value == md(f"{len(listed)} games not valid: 1 illegal, 1 result mismatch, 6 unfinished, 1 no engine.")


def test_a_table_size_narrows_every_command_alike(db: Path) -> None:
    with Archive.open(db, read_only=True) as archive:
        sizes = archive.game_facts().select("key", "players")
    games = games_table(db).join(sizes, on="key").filter(pl.col("players") == 4)
    population = Population(BOTH, every_verdict=True, players=4)
    with Archive.open(db, read_only=True) as archive:
        scope = counted_games(archive, population)
    assert scope.keys == frozenset(games["key"]) and scope.count > 0
    assert scope.note(COMMAND).startswith(f"All titles, 4 players: {scope.counted()}")
    assert scope.counted().startswith(f"{games.height} people's and bots' game")
    for command in ("stats", "ratings"):
        shown = runner.invoke(app, [command, "--db", str(db), "--players", "4", *options(population)], env={"COLUMNS": "400"})
        assert shown.exit_code == 0 and shown.output.splitlines()[0] == scope.note(COMMAND), command


def test_bots_are_rated_as_one_player_each_over_their_games(db: Path) -> None:
    with Archive.open(db, read_only=True) as archive:
        board = ratings(archive, Population(BOTS)).table.filter(pl.col("scope") == "18MS")
    assert sorted(board["player"].to_list()) == ["bot:greedy", "bot:random"]
    by_bot = {row["player"]: row for row in board.iter_rows(named=True)}
    assert by_bot["bot:greedy"]["games"] == by_bot["bot:random"]["games"] == 2  # random holds two seats a game
    assert by_bot["bot:greedy"]["wins"] + by_bot["bot:random"]["wins"] >= 2
    shown = runner.invoke(app, ["ratings", "--games", "bots", "--title", "18ms", "--db", str(db)])
    assert shown.exit_code == 0 and "greedy" in shown.output and "seat 1 of" not in shown.output
