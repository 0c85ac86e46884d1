"""The dashboard's pages, driven the way Streamlit runs them (AppTest), on a small real archive:
the 18MS test game, the examples, and one game with a flagged action.

The flagged game is tests/games/18ms-short.rln with a share sale in the first stock round (18MS
forbids it, rule 10.2) inserted after action 190, under its own game id.
"""

from __future__ import annotations

import dataclasses
import json
import os
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from railledger.cli.app import app
from railledger.dashboard import data
from railledger.dashboard.text import md
from tests.conftest import make_known

REPO = Path(__file__).resolve().parent.parent
APP = str(REPO / "src" / "railledger" / "dashboard" / "app.py")
FLAGGED_KEY = "railledger/test-18ms-flagged"
FLAGGED_ACTION = "185 p1 sell_shares GMO_1 10"
FLAGGED_RULE = "18MS/10.2-no-sale-first-sr"
FLAGGED_SEQ = 18
"""Position of the inserted action: 18 actions (ids 10..180 in steps of 10) come before it."""
SHORT_KEY = "railledger/test-18ms-short"
TEXAS_KEY = "railledger/example-18texas-auction"
TEXAS_SHORT_KEY = "railledger/test-18texas-short"
UNREPLAYED_KEY = "railledger/test-engineless"
"""A game of a title without a rules engine (a stand-in title), so archived without replay rows."""
ENGINELESS_TITLE = "Engineless"


def flagged_text() -> str:
    text = (REPO / "tests" / "games" / "18ms-short.rln").read_text(encoding="utf-8")
    assert "\n180 p3 buy_shares WRA_4 10\n" in text and '[Game "test-18ms-short"]' in text
    text = text.replace("\n180 p3 buy_shares WRA_4 10\n", f"\n180 p3 buy_shares WRA_4 10\n{FLAGGED_ACTION}\n", 1)
    return text.replace('[Game "test-18ms-short"]', '[Game "test-18ms-flagged"]', 1)


FINISHED_KEY = "railledger/test-18ms-finished"
"""The short 18MS game as a finished one whose recorded result is its replay's: the only valid game,
so the only one the statistics pages count by default."""


def finished_text() -> str:
    from railledger.ingest import notation
    from railledger.replay import replay_record

    short = notation.read((REPO / "tests" / "games" / "18ms-short.rln").read_text(encoding="utf-8"))
    result = replay_record(short, keep_going=True).result
    return notation.write(dataclasses.replace(short, game_id="test-18ms-finished", status="finished", result=result))


def build_archive(folder: Path, engineless: bool = False) -> Path:
    """Ingest the games into ``folder/dash.duckdb`` with the real command; returns its path.

    ``engineless`` adds a game of a stand-in title without a rules engine (the caller makes the
    title known)."""
    games = folder / "flagged"
    games.mkdir()
    (games / "18ms-flagged.rln").write_text(flagged_text(), encoding="utf-8")
    (games / "18ms-finished.rln").write_text(finished_text(), encoding="utf-8")
    if engineless:
        write_engineless_game(games)
    db = folder / "dash.duckdb"
    result = CliRunner().invoke(
        app, ["ingest", "--allow-invalid", str(REPO / "tests" / "games"), str(REPO / "examples"), str(games), "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


def write_engineless_game(folder: Path) -> None:
    engineless = (REPO / "examples" / "1871-auction.rln").read_text(encoding="utf-8")
    engineless = engineless.replace('[Title "The Old Prince 1871"]', f'[Title "{ENGINELESS_TITLE}"]')
    engineless = engineless.replace('[Game "example-1871-auction"]', '[Game "test-engineless"]')
    (folder / "engineless.rln").write_text(engineless, encoding="utf-8")


@pytest.fixture(scope="module")
def archive_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with pytest.MonkeyPatch.context() as patch:
        make_known(patch, ENGINELESS_TITLE, "engineless")  # known, but no engine module
        yield build_archive(tmp_path_factory.mktemp("dashboard"), engineless=True)


@pytest.fixture()
def dashboard(archive_db: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    """The app on the archive page, first run done."""
    monkeypatch.setenv("RAILLEDGER_DB", str(archive_db))
    page = AppTest.from_file(APP, default_timeout=60).run()
    assert not page.exception
    return page


def open_page(page: AppTest, path: str, **query: str) -> AppTest:
    page.query_params.update(query)
    page.switch_page(path).run()
    assert not page.exception, page.exception
    assert not page.error, [e.value for e in page.error]
    return page


def figures(page: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in page.get("plotly_chart")]


def trace_names(figure: dict) -> list[str]:
    return [trace.get("name") for trace in figure["data"]]


# ------------------------------------------------------------------------------ archive page


def test_archive_page_lists_every_game_with_flags_and_review_links(dashboard: AppTest) -> None:
    table = dashboard.dataframe[0].value
    keys = sorted(table["key"])
    assert keys == sorted([FLAGGED_KEY, SHORT_KEY, TEXAS_KEY, TEXAS_SHORT_KEY, "railledger/example-18ms-opening",
                           "railledger/example-1871-auction", "railledger/test-1871-short", UNREPLAYED_KEY,
                           FINISHED_KEY])
    assert "9 of 9 games" in dashboard.caption[0].value
    assert "1 illegal" in dashboard.caption[0].value and "1 valid" in dashboard.caption[0].value
    flags = dict(zip(table["key"], table["flags"]))
    assert flags[FLAGGED_KEY] == 1 and flags[SHORT_KEY] == 0
    verdicts = dict(zip(table["key"], table["verdict"]))
    assert verdicts[FLAGGED_KEY] == "illegal" and verdicts[FINISHED_KEY] == "valid"
    assert (verdicts[SHORT_KEY], verdicts[UNREPLAYED_KEY]) == ("unfinished", "no engine")
    why = dict(zip(table["key"], table["why"]))
    assert why[FLAGGED_KEY].startswith(f"action 185 (SR 1): Ada sells a 10% share of GMO to the market (rule {FLAGGED_RULE}: ")
    links = dict(zip(table["key"], table["review"]))
    assert links[FLAGGED_KEY] == "review?game=railledger%2Ftest-18ms-flagged"
    replayed = dict(zip(table["key"], table["replayed"]))
    assert replayed[SHORT_KEY] and not replayed[UNREPLAYED_KEY]


def test_archive_page_filters_by_title_player_status_and_verdict(dashboard: AppTest) -> None:
    dashboard.multiselect[0].set_value(["18Texas"]).run()
    assert sorted(dashboard.dataframe[0].value["key"]) == [TEXAS_KEY, TEXAS_SHORT_KEY]
    dashboard.multiselect[0].set_value(["18MS", "18Texas", "The Old Prince 1871"]).run()
    everything = list(dashboard.multiselect[2].value)
    dashboard.multiselect[2].set_value(["illegal"]).run()
    assert list(dashboard.dataframe[0].value["key"]) == [FLAGGED_KEY]
    dashboard.multiselect[2].set_value(everything).run()
    dashboard.text_input[0].input("diesel").run()  # only the 18Texas example seats Diesel
    assert list(dashboard.dataframe[0].value["key"]) == [TEXAS_KEY]
    dashboard.text_input[0].input("").run()
    dashboard.multiselect[1].set_value(["finished"]).run()
    assert list(dashboard.dataframe[0].value["key"]) == [FINISHED_KEY]
    assert "1 of 9 games" in dashboard.caption[0].value


def test_a_long_games_list_draws_its_first_rows_and_says_how_many_more(archive_db: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Only :data:`dashboard.tables.SHOWN` rows reach the browser (a large archive's list would
    make it wait seconds); the filters still count every game, and the caption says what is cut."""
    monkeypatch.setattr("railledger.dashboard.tables.SHOWN", 4)
    monkeypatch.setenv("RAILLEDGER_DB", str(archive_db))
    page = AppTest.from_file(APP, default_timeout=60).run()
    assert not page.exception
    assert len(page.dataframe[0].value) == 4 and "9 of 9 games" in page.caption[0].value
    assert "Showing the first 4 of 9 rows" in page.caption[1].value
    page.multiselect[0].set_value(["18Texas"]).run()
    assert len(page.dataframe[0].value) == 2 and not any("Showing" in caption.value for caption in page.caption)


def test_missing_archive_is_reported_not_crashed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAILLEDGER_DB", str(tmp_path / "none.duckdb"))
    page = AppTest.from_file(APP, default_timeout=60).run()
    assert not page.exception
    assert "Cannot read the archive" in page.error[0].value


# ------------------------------------------------------------------------------ game review


def test_review_opens_the_linked_game_at_the_linked_step_with_its_flag(dashboard: AppTest) -> None:
    page = open_page(dashboard, "views/review.py", game=FLAGGED_KEY, step=str(FLAGGED_SEQ + 1))
    assert page.selectbox[0].value == FLAGGED_KEY
    assert page.slider[0].value == FLAGGED_SEQ + 1  # step n is the n-th action, on every part of the page
    assert page.code[0].value == FLAGGED_ACTION
    assert page.markdown[0].value.startswith(f"**Step {FLAGGED_SEQ + 1} of ")
    assert FLAGGED_RULE in page.warning[0].value
    assert page.selectbox[1].value.endswith("SR 1")  # the round picker follows the step
    log = page.dataframe[0].value
    here = log[log["here"].str.startswith("▶")].iloc[0]
    assert (here["step"], here["flag"], here["here"]) == (FLAGGED_SEQ + 1, FLAGGED_RULE, "▶⚑")  # the step, flagged
    assert list(log["step"]) == list(range(FLAGGED_SEQ + 1 - 6, FLAGGED_SEQ + 1 + 7))
    assert set(log[log["step"] != FLAGGED_SEQ + 1]["flag"]) == {""}


def test_review_of_a_large_archive_offers_a_few_games_and_finds_the_others(dashboard: AppTest,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """With more games than :data:`dashboard.tables.SHOWN`, the picker offers the first few and
    the linked one, and a search box finds any other by part of its key."""
    monkeypatch.setattr("railledger.dashboard.tables.SHOWN", 2)
    page = open_page(dashboard, "views/review.py", game=FLAGGED_KEY)
    assert page.selectbox[0].value == FLAGGED_KEY and len(page.selectbox[0].options) == 3  # the linked one first
    assert "Offering 3 of 9 games" in page.caption[0].value
    page.text_input[0].input("texas").run()
    assert sorted(page.selectbox[0].options) == sorted([FLAGGED_KEY, TEXAS_KEY, TEXAS_SHORT_KEY])[:3]
    page.text_input[0].input("no such game").run()
    assert page.selectbox[0].options == [FLAGGED_KEY]  # the linked game stays on offer


def test_review_jumps_to_the_previous_and_next_flag(dashboard: AppTest) -> None:
    page = open_page(dashboard, "views/review.py", game=FLAGGED_KEY, step="2")
    previous_flag, next_flag = page.button[2], page.button[3]
    assert previous_flag.disabled and not next_flag.disabled
    next_flag.click().run()
    assert page.slider[0].value == FLAGGED_SEQ + 1 and page.code[0].value == FLAGGED_ACTION
    assert page.button[3].disabled and page.button[2].disabled  # at the game's only flag
    page.button[1].click().run()  # Next
    assert not page.button[2].disabled
    page.button[2].click().run()  # back to the flag
    assert page.slider[0].value == FLAGGED_SEQ + 1


def test_review_shows_tables_market_map_and_charts_at_the_step(dashboard: AppTest) -> None:
    page = open_page(dashboard, "views/review.py", game=SHORT_KEY)
    last = page.slider[0].value
    assert last == 79  # opens at the last of the 79 actions
    log, legal, players, companies, privates, trains = (frame.value for frame in page.dataframe)
    assert list(players["player"]) == ["Ada", "Brunel", "Cugnot"]
    assert sorted(companies["company"]) == ["GMO", "IC", "WRA"]
    assert set(companies["president"]) <= {"Ada", "Brunel", "Cugnot"}
    assert set(privates["owner"]) <= {"Ada", "Brunel", "Cugnot", "bank", "GMO", "IC", "WRA"} and len(privates)
    assert list(trains["step"]) == sorted(trains["step"], reverse=True) and set(trains["event"]) <= {"bought", "rusted"}
    assert "2+" in set(t.split("-")[0] for t in trains["train"])
    assert legal["taken"].sum() <= 1 and len(legal) >= 1  # what the engine offered before the last action
    assert log["step"].iloc[-1] == last

    board, market, prices, worth, revenue = figures(page)
    assert trace_names(market) == ["market", "companies"]
    assert sorted(market["data"][1]["text"]) == ["GMO", "IC", "WRA"]
    names = trace_names(board)
    assert {"white hexes", "red hexes", "yellow hexes", "track", "hexes", "stations", "towns", "offboards",
            "names"} <= set(names)
    stations = board["data"][names.index("stations")]["text"]
    assert {"GMO", "IC", "WRA"} <= set(stations)
    assert "Memphis" in board["data"][names.index("names")]["text"]
    assert any(text.startswith("<b>") and "Memphis" in text for text in board["data"][names.index("hexes")]["hovertext"])
    assert sorted(trace_names(prices)) == ["GMO", "IC", "WRA"]
    assert sorted(trace_names(worth)) == ["Ada", "Brunel", "Cugnot"]
    for chart in (prices, worth):
        (marker,) = [shape for shape in chart["layout"]["shapes"] if shape.get("name") == "step"]
        assert marker["x0"] == last  # the marker at the step, numbered as the slider
        ticks = chart["layout"]["xaxis"]["ticktext"]
        assert "SR 1" in ticks and "OR 1.1" in ticks  # the axis in rounds
        assert chart["layout"]["xaxis"]["tickvals"][ticks.index("OR 1.1")] > chart["layout"]["xaxis"]["tickvals"][0]
        bands = [shape for shape in chart["layout"]["shapes"] if shape.get("type") == "rect"]
        assert bands and all(band["x1"] > band["x0"] for band in bands)  # stock rounds shaded
    worth_colours = [trace["line"]["color"] for trace in worth["data"]]
    assert len(set(worth_colours)) == 3  # three distinct player colours
    assert set(trace_names(revenue)) <= {"GMO", "IC", "WRA"} and revenue["data"]
    played = revenue["layout"]["xaxis"]["categoryarray"]  # operating rounds in play order
    assert played == sorted(played, key=lambda r: tuple(int(n) for n in r.removeprefix("OR ").split("."))) and played


def test_review_steps_with_buttons_and_jumps_to_a_round(dashboard: AppTest) -> None:
    page = open_page(dashboard, "views/review.py", game=SHORT_KEY, step="4")
    assert page.code[0].value == "40 p1 par GMO 80,1,4"
    page.button[1].click().run()  # Next
    assert page.slider[0].value == 5 and page.code[0].value == "50 p2 par IC 90,0,4"
    page.button[0].click().run()  # Previous
    page.button[0].click().run()
    assert page.slider[0].value == 3 and page.code[0].value == "30 p1 bid BS 40"
    rounds = page.selectbox[1].options
    operating = next(label for label in rounds if label.endswith("OR 1.1"))
    page.selectbox[1].set_value(operating).run()
    assert page.selectbox[1].value == operating
    assert "· OR 1.1 ·" in page.markdown[0].value
    page.slider[0].set_value(page.slider[0].value - 1).run()
    assert not page.selectbox[1].value.endswith("OR 1.1")  # the action before it closed the stock round


def test_review_of_a_game_without_replay_steps_through_its_actions_only(dashboard: AppTest) -> None:
    page = open_page(dashboard, "views/review.py", game=UNREPLAYED_KEY, step="1")
    assert page.code[0].value.startswith("1 p1 ")
    assert "without a replay" in page.info[0].value
    assert not page.get("plotly_chart")


# ------------------------------------------------------------------------------ other pages


def test_train_rush_page_shows_the_distribution_and_a_game_timeline(dashboard: AppTest) -> None:
    page = open_page(dashboard, "views/rush.py")
    bought, gone, timeline = figures(page)
    assert trace_names(bought) and set(trace_names(bought)) >= {"2+"}
    assert trace_names(timeline) == ["in service", "first bought", "rusted"]
    table = page.dataframe[0].value
    assert list(timeline["data"][0]["y"]) == list(table["train_type"])
    assert "2+" in list(table["train_type"])
    colour = {}  # one colour per train type in every chart of the page
    for chart in (bought, gone):
        for trace in chart["data"]:
            assert colour.setdefault(trace["name"], trace["marker"]["color"]) == trace["marker"]["color"]
    for train, painted in zip(timeline["data"][0]["y"], timeline["data"][0]["marker"]["color"]):
        assert colour.get(train, painted) == painted
    assert len(set(colour.values())) == len(colour)
    assert [name for name in trace_names(bought)] == [t for t in ["2+", "3+", "4+", "5", "6", "2D"] if t in colour]


def test_statistics_count_only_valid_games_unless_asked(dashboard: AppTest) -> None:
    page = open_page(dashboard, "views/balance.py")
    assert page.caption[0].value.startswith("Counting 1 valid game; left out: 1 illegal, ")
    seats = page.dataframe[0].value
    assert set(seats["games"]) == {1}  # one valid game: one player per seat
    page.toggle[0].set_value(True).run()
    assert page.caption[0].value == "Counting 8 replayed games."
    assert page.dataframe[0].value["games"].sum() > seats["games"].sum()
    rush = open_page(dashboard, "views/rush.py")
    assert "1 valid game" in rush.caption[0].value
    assert set(rush.dataframe[0].value.columns) >= {"train_type"}


def test_balance_page_shows_win_rates_with_intervals_per_scope(dashboard: AppTest) -> None:
    page = open_page(dashboard, "views/balance.py")
    assert page.selectbox[0].value == "seat"
    (chart,) = figures(page)
    table = page.dataframe[0].value
    assert set(table["factor"]) == {"seat"}
    assert sorted(trace_names(chart)) == sorted(set(table["scope"])) and {"18MS", "all titles"} <= set(table["scope"])
    for trace in chart["data"]:
        assert "arrayminus" in trace["error_y"]
        assert all(text.startswith("n=") for text in trace["text"])
    assert chart["layout"]["xaxis"]["categoryarray"] == sorted(set(table["value"]), key=int)  # seat 1, 2, ... 5
    assert chart["layout"]["yaxis"]["range"][0] < 0 and chart["layout"]["yaxis"]["range"][1] > 1  # 0% and 100% whole
    assert all(trace["cliponaxis"] is False for trace in chart["data"])
    assert len({trace["marker"]["color"] for trace in chart["data"]}) == len(chart["data"])
    assert chart["layout"]["xaxis"]["title"]["text"] == "seat at the table"
    page.multiselect[0].set_value(["all titles"]).run()
    assert trace_names(figures(page)[0]) == ["all titles"]
    page.radio[0].set_value("selfplay").run()  # simulations apart: this archive has none
    assert "No game counted here has standings yet among games bots played" in page.info[0].value
    page.radio[0].set_value("all").run()
    mixed = page.dataframe[0].value  # no simulations: the same rows as the real games' (scope kept)
    assert mixed.to_dict("records") == table[table["scope"] == "all titles"].to_dict("records")


def test_validation_page_lists_the_flagged_action_with_rule_and_message(dashboard: AppTest) -> None:
    page = open_page(dashboard, "views/validation.py")
    summary, flags = page.dataframe[0].value, page.dataframe[1].value
    assert (len(flags), flags["game_key"].nunique()) == (1, 1)
    assert page.caption[0].value.startswith("1 flagged action in 1 game: 1 root cause, 0 that follow from one")
    (chart,) = figures(page)
    assert sorted(trace_names(chart)) == sorted(set(summary["title"]))
    assert FLAGGED_RULE in list(summary["rule"])
    (row,) = [r for _, r in flags.iterrows() if r["game_key"] == FLAGGED_KEY]
    assert (row["game_key"], row["action"], row["rule"]) == (FLAGGED_KEY, "185 (SR 1)", FLAGGED_RULE)
    assert row["what was done"] == "Ada sells a 10% share of GMO to the market"
    assert "first stock round" in row["why"] and row["cause"] == "root cause"
    assert "seq" not in flags.columns and "action_id" not in flags.columns  # one number: the record's
    assert row["review"] == "review?game=railledger%2Ftest-18ms-flagged&action=185"


# ------------------------------------------------------------------------------ sharing the archive


def _hold(db: Path, seconds: float) -> "subprocess.Popen[str]":
    """Another process holding the archive's write lock (as an ingest does), once it holds it."""
    code = "import duckdb, sys, time; con = duckdb.connect(sys.argv[1]); print('locked', flush=True); time.sleep(float(sys.argv[2]))"
    child = subprocess.Popen([sys.executable, "-c", code, str(db), str(seconds)], stdout=subprocess.PIPE, text=True)
    assert select.select([child.stdout], [], [], 30)[0], "the holder did not take the lock"
    child.stdout.readline()  # type: ignore[union-attr]
    return child


def test_a_page_waits_for_a_brief_writer_and_shows_fresh_data(dashboard: AppTest) -> None:
    data.forget()  # the next run must read the archive
    holder = _hold(dashboard_db(dashboard), 2)
    try:
        dashboard.run()
    finally:
        holder.kill()
        holder.wait(timeout=10)
    assert not dashboard.warning and not dashboard.error
    assert "9 of 9 games" in dashboard.caption[0].value


def test_a_page_shows_its_last_good_data_with_a_note_while_the_archive_stays_busy(
    dashboard: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(data, "WAIT", 0.5)
    data.forget()
    holder = _hold(dashboard_db(dashboard), 60)
    try:
        dashboard.run()
        assert not dashboard.exception and not dashboard.error
        (note,) = [w.value for w in dashboard.warning]
        assert note.startswith("Showing the archive as it was at") and "is in use by another process" in note
        assert "9 of 9 games" in dashboard.caption[0].value  # the last good data, still every game
    finally:
        holder.kill()
        holder.wait(timeout=10)
    dashboard.run()
    assert not dashboard.warning


def dashboard_db(page: AppTest) -> Path:
    return Path(os.environ["RAILLEDGER_DB"])


def test_outside_text_is_escaped_in_markdown(dashboard: AppTest) -> None:
    assert md("*x* [a](javascript:1) :red[y] $z$") == r"\*x\* \[a\]\(javascript\:1\) \:red\[y\] \$z\$"
    assert md("two\nlines") == "two lines"
    assert md(dashboard_db(dashboard)) in dashboard.caption[0].value  # the archive page's caption names the file escaped


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serving(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
            return answer.read() == b"ok"
    except OSError:
        return False


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_the_dashboard_command_stops_its_server_on_a_signal(archive_db: Path, stop: signal.Signals) -> None:
    port = _free_port()
    command = [sys.executable, "-m", "railledger", "dashboard", "--db", str(archive_db), "--port", str(port)]
    server = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 90
        while not _serving(port):
            assert server.poll() is None and time.monotonic() < deadline, "the dashboard did not come up"
            time.sleep(0.3)
        server.send_signal(stop)
        server.wait(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
            pytest.fail(f"the dashboard was still running 30 s after {stop.name}")
    assert not _serving(port)


def test_the_dashboard_command_refuses_a_damaged_archive_before_starting(archive_db: Path, tmp_path: Path) -> None:
    damaged = tmp_path / "cut.duckdb"
    damaged.write_bytes(archive_db.read_bytes()[: 20_000])
    result = CliRunner().invoke(app, ["dashboard", "--db", str(damaged)])
    assert result.exit_code == 1
    assert "damaged" in result.stderr and "Traceback" not in result.output


def test_categories_keep_their_natural_order() -> None:
    from railledger.dashboard.charts import natural_order

    assert natural_order(["100", "none", "65", "b", "2", "10", "a", "65"]) == ["2", "10", "65", "100", "a", "b", "none"]
