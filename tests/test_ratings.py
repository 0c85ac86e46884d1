"""Ratings, the games they count, head-to-head records and title statistics, on hand-made games
whose every answer follows from the results written beside them.

Each game is a record of passes stored with a hand-made replay: its final values, an end event
and, where a test needs one, a flag, another recorded result, another status or an ``end_game``
action. Players are known by id: 1 Ann, 2 Bob, 3 Cy, 4 Di, who plays as "Diana" from January 4.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from openskill.models import PlackettLuce
from typer.testing import CliRunner

from railledger.analytics.balance import POOLED
from railledger.analytics.rated import rated_games
from railledger.analytics.ratings import Ratings, head_to_head, player_games, ratings
from railledger.analytics.titles import title_statistics
from railledger.analytics.scope import Population
from railledger.cli.app import app
from railledger.ingest.model import Action, Entity, Player, Record
from railledger.records import Archive
from railledger.replay import Flag, Replay
from railledger.replay.snapshot import PlayerView, Snapshot
from railledger.replay.state import Event
from tests.conftest import state_columns

NAMES = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Di"}
LATER = {**NAMES, 4: "Diana"}


def game(game_id: str, values: dict[int, int], title: str = "18MS", created: str = "2024-01-01",
         status: str = "finished", recorded: dict[int, int] | None = None, flagged: bool = False,
         end: str | None = "end of OR 10", end_game_action: bool = False,
         names: dict[int, str] | None = None, duration: int | None = None, source: str = "test") -> tuple[Record, Replay]:
    """A game whose replay ends with ``values``; the record holds ``recorded`` (default: the same
    values, so the replay matches it)."""
    seated = [Player(pid, (names or NAMES)[pid]) for pid in values]
    actions = [Action("pass", Entity("player", seated[0].id), id=1)]
    if end_game_action:
        actions.append(Action("end_game", Entity("player", seated[0].id), id=2))
    record = Record(title=title, game_id=game_id, source=source, players=tuple(seated), actions=tuple(actions),
                    status=status, result=values if recorded is None else recorded, created=created,
                    duration=duration)
    snapshot = Snapshot("OR 1.1", "2", tuple((p.id, PlayerView(values[p.id], (), values[p.id])) for p in seated), ())
    events = [] if end is None else [Event(len(actions) - 1, "game_end", end)]
    flags = [Flag(0, "1", "18MS/10.4-cert-limit", "10.4", "too many certificates")] if flagged else []
    return record, Replay(record, flags=flags, result=dict(values), states=state_columns([snapshot] * len(actions)),
                          events=events)


# Rated 18MS games, in play order (by creation day, whatever the order they are stored in):
#   m1 (Jan 1): Ann 500 > Bob 400 > Cy 300, 2 hours long; m2 took 3 hours, m3 was not timed
#   m2 (Jan 2): Ann 600 > Cy 450 = Bob 450 (a tie for second)
#   m3 (Jan 3): Bob 700 > Ann 650 > Di 100
# Rated 18Texas: t1 (Jan 4): Cy 900 > Diana 800, a 2-player table.
RATED = [
    game("m3", {2: 700, 1: 650, 4: 100}, created="2024-01-03"),
    game("m1", {1: 500, 2: 400, 3: 300}, created="2024-01-01", duration=2 * 3600),
    game("m2", {1: 600, 3: 450, 2: 450}, created="2024-01-02", duration=3 * 3600),
    game("t1", {3: 900, 4: 800}, title="18Texas", created="2024-01-04", end="bankruptcy", names=LATER),
]
# Games that do not count (Feb 1): each fails one condition.
LEFT_OUT = [
    game("active", {1: 100, 2: 900}, status="active", created="2024-02-01", duration=100 * 3600),
    game("no-result", {1: 100, 2: 900}, recorded={}, created="2024-02-01"),
    game("mismatch", {1: 100, 2: 900}, recorded={1: 100, 2: 800}, created="2024-02-01"),
    game("flagged", {1: 100, 2: 900}, flagged=True, created="2024-02-01"),
    game("bots", {5: 100, 6: 900}, created="2024-02-01", source="selfplay", names={5: "random", 6: "greedy"}),  # ratings are of people
]
# Games the players ended by hand: by an end_game action, and by the engine's end reason alone.
BY_HAND = [
    game("hand-action", {4: 990, 1: 10}, title="18Texas", created="2024-01-05", end="ended by the players",
         end_game_action=True, names=LATER),
    game("hand-event", {4: 980, 2: 20}, title="18Texas", created="2024-01-06", end="ended by the players",
         names=LATER),
]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ratings") / "ratings.duckdb"
    with Archive.open(path) as archive:
        for record, replay in [*RATED, *LEFT_OUT, *BY_HAND]:
            archive.store(record, replay=replay)
        archive.store(Record(title="18MS", game_id="unreplayed", source="test", players=(Player(1, "Ann"),),
                             actions=(Action("pass", Entity("player", 1), id=1),), status="finished", result={1: 5}))
    return path


@pytest.fixture()
def archive(db: Path):  # type: ignore[no-untyped-def]
    with Archive.open(db, read_only=True) as opened:
        yield opened


def keys(frame: pl.DataFrame, column: str = "key") -> list[str]:
    return [key.removeprefix("test/") for key in frame[column]]


def test_only_valid_finished_games_count_in_play_order(archive: Archive) -> None:
    assert keys(rated_games(archive)) == ["m1", "m2", "m3", "t1"]
    with_hand = rated_games(archive, manual_ends=True)
    assert keys(with_hand) == ["m1", "m2", "m3", "t1", "hand-action", "hand-event"]
    assert with_hand["ended_by_hand"].to_list() == [False] * 4 + [True, True]


def test_ratings_follow_openskill_over_the_games_in_play_order(archive: Archive) -> None:
    model = PlackettLuce()
    ann, bob, cy, di = (model.rating() for _ in range(4))
    [ann], [bob], [cy] = model.rate([[ann], [bob], [cy]], ranks=[1, 2, 3])   # m1
    [ann], [cy], [bob] = model.rate([[ann], [cy], [bob]], ranks=[1, 2, 2])   # m2: Cy and Bob tie
    [bob], [ann], [di] = model.rate([[bob], [ann], [di]], ranks=[1, 2, 3])   # m3
    table = ratings(archive).table.filter(pl.col("scope") == "18MS")
    got = {row["player"]: (row["mu"], row["sigma"], row["ordinal"]) for row in table.iter_rows(named=True)}
    for pid, rating in (("user:1", ann), ("user:2", bob), ("user:3", cy), ("user:4", di)):
        assert got[pid] == pytest.approx((rating.mu, rating.sigma, rating.ordinal()))
    assert table["player"].to_list() == sorted(got, key=lambda p: -got[p][2])  # listed by ordinal
    assert table["place"].to_list() == [1, 2, 3, 4]
    assert dict(zip(table["player"], table["games"])) == {"user:1": 3, "user:2": 3, "user:3": 2, "user:4": 1}
    assert dict(zip(table["player"], table["wins"])) == {"user:1": 2, "user:2": 1, "user:3": 0, "user:4": 0}


def test_each_title_is_rated_apart_and_all_titles_together(archive: Archive) -> None:
    rated = ratings(archive)
    texas = rated.table.filter(pl.col("scope") == "18Texas")
    assert texas["player"].to_list() == ["user:3", "user:4"]  # Cy beat Di in the only 18Texas game counted
    assert texas["mu"][0] > 25 > texas["mu"][1]  # both started afresh: 18MS games do not carry over
    pooled = rated.table.filter(pl.col("scope") == POOLED)
    assert dict(zip(pooled["player"], pooled["games"])) == {"user:1": 3, "user:2": 3, "user:3": 3, "user:4": 2}
    cy = rated.history.filter(pl.col("scope") == POOLED, pl.col("player") == "user:3")
    assert (cy["game"].to_list(), keys(cy, "game_key")) == ([1, 2, 3], ["m1", "m2", "t1"])
    assert cy["ordinal"].to_list() == pytest.approx((cy["mu"] - 3 * cy["sigma"]).to_list())


def test_a_tie_on_equal_ratings_gives_equal_ratings(tmp_path: Path) -> None:
    record, replay = game("tie", {1: 300, 2: 300, 3: 100})
    with Archive.open(tmp_path / "tie.duckdb") as writable:
        writable.store(record, replay=replay)
    with Archive.open(tmp_path / "tie.duckdb", read_only=True) as archive:
        table = ratings(archive).table.filter(pl.col("scope") == "18MS")
    rows = {row["player"]: row for row in table.iter_rows(named=True)}
    assert rows["user:1"]["mu"] == pytest.approx(rows["user:2"]["mu"]) and rows["user:1"]["mu"] > rows["user:3"]["mu"]
    assert rows["user:1"]["place"] == rows["user:2"]["place"] == 1 and rows["user:3"]["place"] == 3
    assert rows["user:1"]["wins"] == rows["user:2"]["wins"] == 1


def test_players_are_one_person_by_id_and_shown_by_their_last_name(archive: Archive) -> None:
    table = ratings(archive).table
    di = table.filter(pl.col("player") == "user:4")
    assert dict(zip(di["scope"], di["name"])) == {"18MS": "Di", "18Texas": "Diana", POOLED: "Diana"}
    assert table.filter(pl.col("scope") == POOLED).height == 4


def test_games_ended_by_hand_count_only_when_asked(archive: Archive) -> None:
    plain = ratings(archive).table.filter(pl.col("scope") == "18Texas")
    with_hand = ratings(archive, Population(manual_ends=True)).table.filter(pl.col("scope") == "18Texas")
    assert set(plain["player"]) == {"user:3", "user:4"}
    assert set(with_hand["player"]) == {"user:1", "user:2", "user:3", "user:4"}
    assert with_hand.filter(pl.col("player") == "user:4")["games"].item() == 3


def test_head_to_head_counts_who_finished_ahead(archive: Archive) -> None:
    rated = ratings(archive)
    ann = rated.of_player(archive, "user:1").versus
    assert ann.select("opponent", "name", "games", "wins", "losses", "ties").rows() == [
        ("user:2", "Bob", 3, 2, 1, 0), ("user:3", "Cy", 2, 2, 0, 0), ("user:4", "Diana", 1, 1, 0, 0)]  # her name now
    cy = rated.of_player(archive, "user:3").versus
    assert cy.filter(pl.col("opponent") == "user:2").select("wins", "losses", "ties").row(0) == (0, 1, 1)
    assert isinstance(rated, Ratings)  # no ratings stored in this archive: rated here
    renamed = pl.DataFrame({"player": ["user:2", "user:3", "user:4"], "name": ["B.", "C.", "D."]})
    assert head_to_head(rated.results, "user:1", renamed)["name"].to_list() == ["B.", "C.", "D."]


def test_a_players_part_is_their_games_and_history_numbered_in_play_order(archive: Archive) -> None:
    rated = ratings(archive)
    di = rated.of_player(archive, "user:4")
    assert keys(di.results.unique("game_key", maintain_order=True), "game_key") == ["m3", "t1"]
    assert di.results.filter(pl.col("player") == "user:4")["order"].to_list() == [1, 2]
    assert di.results.height == 5  # every seat of her two games
    assert sorted(di.history["scope"].to_list()) == ["18MS", "18Texas", POOLED, POOLED]
    assert set(di.history["player"]) == {"user:4"}


def test_a_players_games_include_those_that_do_not_count(archive: Archive) -> None:
    bob = player_games(archive, "user:2")
    assert keys(bob, "game_key") == ["m1", "m2", "m3", "hand-event", "active", "flagged", "mismatch", "no-result"]
    assert bob.filter(pl.col("game_key") == "test/m3").select("value", "rank").row(0) == (700, 1)


def test_title_statistics_over_the_games_that_count(archive: Archive) -> None:
    stats = title_statistics(archive)
    summary = {row["title"]: row for row in stats.summary.iter_rows(named=True)}
    assert (summary["18MS"]["archived"], summary["18MS"]["counted"], summary["18MS"]["players"]) == (9, 3, 4)
    assert (summary["18Texas"]["archived"], summary["18Texas"]["counted"]) == (3, 1)
    assert summary["18MS"]["actions"] == 1.0
    # the hours of m1 and m2 only: m3 was not timed, the active game's 100 hours do not count
    assert (summary["18MS"]["timed"], summary["18MS"]["median_hours"], summary["18MS"]["mean_hours"]) == (2, 2.5, 2.5)
    assert summary["18Texas"]["timed"] == 0 and summary["18Texas"]["median_hours"] is None
    values = stats.values.filter(pl.col("title") == "18MS").row(0, named=True)
    finals = [500, 400, 300, 600, 450, 450, 700, 650, 100]
    mean = sum(finals) / 9
    assert (values["players"], values["games"], values["lowest"], values["highest"]) == (3, 3, 100, 700)
    assert values["mean"] == pytest.approx(mean)
    assert values["std"] == pytest.approx((sum((v - mean) ** 2 for v in finals) / 8) ** 0.5)
    assert values["winners_mean"] == pytest.approx((500 + 600 + 700) / 3)
    endings = title_statistics(archive, Population(manual_ends=True)).endings
    assert endings.select("title", "reason", "games").rows() == [
        ("18MS", "the last of its 10 operating rounds", 3),
        ("18Texas", "ended by the players", 2),
        ("18Texas", "a bankruptcy", 1),
    ]



@pytest.mark.parametrize("manual_ends", [False, True])
def test_title_leaderboards_are_the_titles_ratings(archive: Archive, manual_ends: bool) -> None:
    """The Titles page's leaderboards come with its statistics, rated without the pooled scope
    the page does not show, and are each title's ratings as the Players page has them."""
    leaders = title_statistics(archive, Population(manual_ends=manual_ends)).leaders
    per_title = ratings(archive, Population(manual_ends=manual_ends)).table.filter(pl.col("scope") != POOLED)
    assert leaders.rows() == per_title.rows()
    assert set(leaders["scope"]) == {"18MS", "18Texas"}

def test_the_ratings_command_prints_each_title_then_all(db: Path) -> None:
    result = CliRunner().invoke(app, ["ratings", "--db", str(db)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    titles = [line.strip() for line in lines if "ratings:" in line]
    assert titles == ["18MS ratings: 4 players", "18Texas ratings: 2 players", "all titles ratings: 4 players"]
    texas = CliRunner().invoke(app, ["ratings", "--db", str(db), "--title", "18texas", "--manual-ends"])
    assert "18Texas ratings: 4 players" in texas.output and "18MS" not in texas.output
    first = next(line for line in texas.output.splitlines() if line.startswith("│"))
    assert "Diana" in first  # Di won both games ended by hand
    none = CliRunner().invoke(app, ["ratings", "--db", str(db), "--title", "old prince"])
    assert none.exit_code == 0 and "no game of The Old Prince 1871 counted" in none.output
    unknown = CliRunner().invoke(app, ["ratings", "--db", str(db), "--title", "1830"])
    assert unknown.exit_code == 1 and "unknown title '1830'; the titles are 18MS, 18Texas (texas)" in unknown.output


# ------------------------------------------------------------------------------ the pages


def _page(db: Path, monkeypatch: pytest.MonkeyPatch, path: str, **query: str):  # type: ignore[no-untyped-def]
    from streamlit.testing.v1 import AppTest

    from railledger.dashboard.data import forget

    monkeypatch.setenv("RAILLEDGER_DB", str(db))
    forget()
    page = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "src" / "railledger" / "dashboard" / "app.py"),
                             default_timeout=60).run()
    page.query_params.update(query)
    page.switch_page(path).run()
    assert not page.exception, page.exception
    return page


def test_the_players_page_shows_the_ratings_and_one_players_record(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page = _page(db, monkeypatch, "views/players.py", player="user:1")
    board, titles, versus, games = (frame.value for frame in page.dataframe)
    assert set(board["shown"]) == {"Ann", "Bob", "Cy", "Diana"}  # all titles, by default
    assert list(board["place"]) == sorted(board["place"])
    assert list(board["page"])[0].startswith("players?player=")
    assert page.selectbox[1].value == "user:1"  # Ann, from ?player=user:1
    assert list(titles["scope"]) == ["18MS"]
    assert [tuple(row) for row in versus[["name", "wins", "losses", "ties"]].itertuples(index=False)] == [
        ("Bob", 2, 1, 0), ("Cy", 2, 0, 0), ("Diana", 1, 0, 0)]
    assert games["rated"].sum() == 3 and len(games) > 3  # her games that do not count are listed, unticked
    (history,) = [json.loads(chart.proto.spec) for chart in page.get("plotly_chart")]
    lines = [trace for trace in history["data"] if trace.get("mode") == "lines+markers"]
    assert sorted(trace["name"] for trace in lines) == sorted(["18MS", POOLED])
    assert all(len(trace["x"]) == 3 for trace in lines)  # a point after each of her 3 rated games


def test_the_titles_page_shows_counts_lengths_values_endings_and_leaders(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page = _page(db, monkeypatch, "views/titles.py")
    summary, values, endings, leaders = (frame.value for frame in page.dataframe)
    ms = summary[summary["title"] == "18MS"].iloc[0]
    assert (ms["counted"], ms["timed"], ms["median_hours"]) == (3, 2, 2.5)
    assert list(values["players"]) == [3]
    assert list(leaders["shown"])[:1] == [ratings_leader(db)]
    charts = [json.loads(chart.proto.spec) for chart in page.get("plotly_chart")]
    assert len(charts) == 2 and charts[1]["data"][0]["y"] == ["the last of its 10 operating rounds"]
    assert endings[["games", "n", "share", "interval"]].values.tolist() == [[3, 3, 1.0, "44%–100%"]]  # with its n and interval


def ratings_leader(db: Path) -> str:
    with Archive.open(db, read_only=True) as archive:
        table = ratings(archive).table.filter(pl.col("scope") == "18MS")
    return str(table["name"][0])


def test_a_long_rating_history_draws_at_most_its_points_and_always_the_last_game() -> None:
    from railledger.dashboard.player_charts import POINTS, rating_history

    games = 2 * POINTS + 500
    history = pl.DataFrame({"scope": ["18MS"] * games, "player": ["p"] * games, "game": list(range(1, games + 1)),
                            "game_key": [f"k{n}" for n in range(games)], "created": [None] * games,
                            "mu": [25.0] * games, "sigma": [8.0] * games, "ordinal": [float(n) for n in range(games)]})
    figure = rating_history(history)
    line = figure.data[1]
    assert len(line.x) <= POINTS and line.x[-1] == games and line.x[0] == 1
    assert "one game in 3" in figure.layout.title.text
    short = rating_history(history.head(5))
    assert list(short.data[1].x) == [1, 2, 3, 4, 5] and "each game" in short.layout.title.text
