"""How strongly the bots of bots' games play: ``ladder --db`` keeps its standings, and the Balance
page names the bots of the games it counts and counts by default only the strongest bot's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from railledger.analytics.bot_strength import ladder_ratings, strongest_bots
from railledger.analytics.scope import BOTH, Population, counted_games
from railledger.cli.app import app
from railledger.dashboard.text import md
from railledger.records import Archive
from tests.test_dashboard import APP

runner = CliRunner()
TABLES = ("strong", "greedy", "greedy,random,random")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """An archive of three 18MS bots' games: strong at every seat, greedy at every seat, and
    greedy with two random bots; no ladder yet."""
    path = tmp_path_factory.mktemp("bots") / "bots.duckdb"
    for bots in TABLES:
        played = runner.invoke(app, ["simulate", "--title", "18MS", "--players", "3", "--games", "1", "--bots", bots,
                                     "--workers", "1", "--db", str(path)])
        assert played.exit_code == 0, played.output
    yield path


def _ladder(db: Path, mu: dict[str, float]) -> None:
    """A ladder run of 18MS rating each bot ``mu``, stored after the runs before it."""
    with Archive.open(db) as archive:
        archive.store_ladder(pl.DataFrame([{
            "title": "18MS", "players": 3, "table_bots": ",".join(mu), "first_seed": 1, "last_seed": 10, "games": 10,
            "bot": bot, "seats": 10, "wins": 3, "win_low": 0.1, "win_high": 0.6, "mu": value, "sigma": 2.0}
            for bot, value in mu.items()]))


def _counted_tables(db: Path, every_bot: bool = False) -> tuple[set[str], int]:
    """The tables (bots of the seats) of the bots' games counted, and how many were left out."""
    with Archive.open(db, read_only=True) as archive:
        found = strongest_bots(archive, counted_games(archive, Population(BOTH)), every_bot)
        seats = archive.select("seat_bots", ["game_key", "seat", "bot"])
    keys = set(found.counted.games["key"].to_list())
    tables = {",".join(group.sort("seat")["bot"]) for (key,), group in seats.group_by("game_key") if key in keys}
    return tables, found.left_out


def test_the_strongest_bot_is_the_highest_rated_on_the_latest_ladder_else_strong(db: Path) -> None:
    assert _counted_tables(db) == ({"strong,strong,strong"}, 2)  # no ladder: the strong bot
    assert _counted_tables(db, every_bot=True) == ({"strong,strong,strong", "greedy,greedy,greedy",
                                                    "greedy,random,random"}, 0)
    _ladder(db, {"greedy": 30.0, "strong": 20.0})
    assert _counted_tables(db) == ({"greedy,greedy,greedy"}, 2)
    _ladder(db, {"strong": 35.0})  # a later run rating strong alone: greedy keeps its latest figures
    with Archive.open(db, read_only=True) as archive:
        latest = dict(ladder_ratings(archive).select("bot", "mu").iter_rows())
    assert latest == {"strong": 35.0, "greedy": 30.0}
    assert _counted_tables(db) == ({"strong,strong,strong"}, 2)


def test_the_ladder_keeps_its_standings_in_the_archive(tmp_path: Path) -> None:
    path = tmp_path / "ladder.duckdb"
    result = runner.invoke(app, ["ladder", "--title", "18MS", "--players", "3", "--bots", "greedy,random,random",
                                 "--games", "2", "--workers", "1", "--first-seed", "4", "--db", str(path)])
    assert result.exit_code == 0, result.output
    with Archive.open(path, read_only=True) as archive:
        kept = archive.ladder_standings()
        assert archive.count_games() == 0  # the ladder's games are not stored
    assert sorted(kept["bot"]) == ["greedy", "random"] and set(kept["table_bots"]) == {"greedy,random,random"}
    assert set(kept["first_seed"]) == {4} and set(kept["last_seed"]) == {5} and kept["seats"].sum() == 6
    assert (kept["win_low"] <= kept["wins"] / kept["seats"]).all() and (kept["wins"] / kept["seats"] <= kept["win_high"]).all()


def test_the_balance_page_names_the_bots_and_counts_the_strongest_bots_games_unless_asked(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAILLEDGER_DB", str(db))
    _ladder(db, {"greedy": 40.0})  # the highest rating of any run: greedy is the strongest; random never laddered
    page = AppTest.from_file(APP, default_timeout=60).run()
    page.switch_page("views/balance.py").run()
    page.radio(key="scope_games").set_value("bots").run()
    assert not page.exception, page.exception
    strongest = "greedy"
    caption = page.caption[0].value
    assert md(f"only those the strongest bot played at every seat count ({strongest} on 18MS)") in caption
    assert md('2 other bots\' games not counted ("Every bot\'s games" on the page counts them)') in caption
    bots = page.dataframe[0].value
    assert set(bots["bot"]) == {"strong", "greedy", "random"}
    assert list(bots[bots["strongest"]]["bot"]) == [strongest]
    ladder = dict(zip(bots["bot"], bots["ladder"]))
    assert ladder["random"] == "not on a ladder yet" and ladder[strongest].startswith("10 games at ")
    players = page.dataframe[1].value
    page.toggle(key="balance_every_bot").set_value(True).run()
    assert md("Bots' games of every bot counted (the strongest: greedy on 18MS).") in page.caption[0].value
    assert page.dataframe[1].value["games"].sum() == 3 * players["games"].sum()  # three games' seats, not one's
    _ladder(db, {"cautious": 50.0})  # rated highest, yet it played none of the archive's games
    with Archive.open(db, read_only=True) as archive:
        found = strongest_bots(archive, counted_games(archive, Population(BOTH)))
    assert found.counted.games.is_empty() and found.left_out == 3
    assert "(cautious on 18MS, which played none of them); 3 other bots' games not counted" in found.note("--every-bot")
