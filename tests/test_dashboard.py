"""The dashboard's pages, driven the way Streamlit runs them (AppTest), on a small real archive:
the 18MS test game, the examples, and one game with a flagged action.

The flagged game is tests/games/18ms-short.rln with a share sale in the first stock round (18MS
forbids it, rule 10.2) inserted after action 190, under its own game id.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
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


def build_archive(folder: Path, engineless: bool = False, extra: Sequence[Path] = ()) -> Path:
    """Ingest the games into ``folder/dash.duckdb`` with the real command; returns its path.

    ``engineless`` adds a game of a stand-in title without a rules engine (the caller makes the
    title known); ``extra`` records join them."""
    games = folder / "flagged"
    games.mkdir()
    (games / "18ms-flagged.rln").write_text(flagged_text(), encoding="utf-8")
    (games / "18ms-finished.rln").write_text(finished_text(), encoding="utf-8")
    if engineless:
        write_engineless_game(games)
    db = folder / "dash.duckdb"
    result = CliRunner().invoke(
        app, ["ingest", "--allow-invalid", str(REPO / "tests" / "games"), str(REPO / "examples"), str(games),
              *map(str, extra), "--db", str(db)])
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
    assert "9 of 9 people's games" in dashboard.caption[0].value
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
    assert "1 of 9 people's games" in dashboard.caption[0].value


def test_a_long_games_list_draws_its_first_rows_and_says_how_many_more(archive_db: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Only :data:`dashboard.tables.SHOWN` rows reach the browser (a large archive's list would
    make it wait seconds); the filters still count every game, and the caption says what is cut."""
    monkeypatch.setattr("railledger.dashboard.tables.SHOWN", 4)
    monkeypatch.setenv("RAILLEDGER_DB", str(archive_db))
    page = AppTest.from_file(APP, default_timeout=60).run()
    assert not page.exception
    assert len(page.dataframe[0].value) == 4 and "9 of 9 people's games" in page.caption[0].value
    assert "Showing the first 4 of 9 rows" in page.caption[1].value
    page.multiselect[0].set_value(["18Texas"]).run()
    assert len(page.dataframe[0].value) == 2 and not any("Showing" in caption.value for caption in page.caption)


def test_missing_archive_is_reported_not_crashed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAILLEDGER_DB", str(tmp_path / "none.duckdb"))
    page = AppTest.from_file(APP, default_timeout=60).run()
    assert not page.exception
    assert "Cannot read the archive" in page.error[0].value


# ------------------------------------------------------------------------------ game review


def shown(markdown: str) -> str:
    """Markdown as it reads on the page: the escapes that keep outside text literal taken out."""
    return re.sub(r"\\(.)", r"\1", markdown)


def headline(page: AppTest) -> str:
    """The line naming the action in view (its id, round and phase), as it reads."""
    return shown(next(m.value for m in page.markdown if m.value.startswith("**Action ")))


def sentence(page: AppTest) -> str:
    """The action in view in words (the review's headline), as it reads."""
    return shown(next(m.value for m in page.markdown if m.value.startswith("##### ")))


def html_of(page: AppTest) -> str:
    """Every st.html block of the page, one text (the spreadsheet, the stock market)."""
    return "\n".join(element.proto.body for element in page.get("html"))


def test_review_opens_the_linked_game_at_the_linked_action_with_its_flag(dashboard: AppTest) -> None:
    """``?game=...&action=185`` opens at the record's action 185, named by that id and its own
    round, in words, with the rule it broke; the URL keeps naming it."""
    page = open_page(dashboard, "views/review.py", game=FLAGGED_KEY, action="185")
    assert page.selectbox[0].value == FLAGGED_KEY
    assert headline(page) == "**Action 185** · SR 1 · phase 2"
    assert sentence(page) == "##### Ada sells a 10% share of GMO to the market"  # refused: no price to say
    assert FLAGGED_RULE in shown(page.warning[0].value) and "changes nothing" in page.warning[0].value
    assert page.query_params["action"] == "185" and page.query_params["game"] == FLAGGED_KEY
    log = page.radio[0]
    assert log.value == FLAGGED_SEQ and log.options[log.index] == log.options[4]  # 4 actions before it, 4 after
    assert [line.split(" · ")[0] for line in log.options] == [
        "**150**", "**160**", "**170**", "**180**", "**185**", "**190**", "**210**", "**220**", "**230**"]
    assert "⚑" in log.options[4] and not any("⚑" in line for line in log.options[:4] + log.options[5:])
    assert "Brunel buys a 10% share of IC" in log.options[2]


def test_an_illegal_game_opens_at_its_first_root_cause_and_a_valid_one_at_its_start(dashboard: AppTest) -> None:
    page = open_page(dashboard, "views/review.py", game=FLAGGED_KEY)
    assert headline(page).startswith("**Action 185**")
    page = open_page(dashboard, "views/review.py", game="test-18ms-finished")  # a game by its source id
    assert page.selectbox[0].value == FINISHED_KEY
    assert headline(page) == "**Action 10** · Draft · phase 2"
    assert sentence(page) == "##### Cugnot buys Mobile and Ohio Railway for $70"
    page = open_page(dashboard, "views/review.py", game=SHORT_KEY, action="no such action")
    assert headline(page).startswith("**Action 10**")


def test_review_of_a_large_archive_offers_a_few_games_and_finds_the_others(dashboard: AppTest,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """With more games than :data:`dashboard.tables.SHOWN`, the picker offers the first few and
    the linked one, and a search box finds any other by part of its key."""
    monkeypatch.setattr("railledger.dashboard.tables.SHOWN", 2)
    page = open_page(dashboard, "views/review.py", game=FLAGGED_KEY)
    assert page.selectbox[0].value == FLAGGED_KEY and len(page.selectbox[0].options) == 3  # the linked one first
    assert any("Offering 3 of 9 games" in c.value for c in page.caption)
    page.text_input[0].input("texas").run()
    assert sorted(page.selectbox[0].options) == sorted([FLAGGED_KEY, TEXAS_KEY, TEXAS_SHORT_KEY])[:3]
    page.text_input[0].input("no such game").run()
    assert page.selectbox[0].options == [FLAGGED_KEY]  # the linked game stays on offer


def test_review_jumps_to_the_previous_and_next_root_cause(dashboard: AppTest) -> None:
    page = open_page(dashboard, "views/review.py", game=FLAGGED_KEY, action="20")
    assert page.button(key="previous flag").disabled and not page.button(key="next flag").disabled
    page.button(key="next flag").click().run()
    assert headline(page).startswith("**Action 185**") and page.query_params["action"] == "185"
    assert page.button(key="next flag").disabled and page.button(key="previous flag").disabled  # the only one
    page.button(key="next").click().run()
    assert headline(page).startswith("**Action 190**") and not page.button(key="previous flag").disabled
    page.button(key="previous flag").click().run()
    assert headline(page).startswith("**Action 185**")


def test_review_steps_with_buttons_the_log_and_the_round_picker(dashboard: AppTest) -> None:
    page = open_page(dashboard, "views/review.py", game=SHORT_KEY, action="40")
    assert sentence(page) == "##### Ada pars GMO at $80, buying the president's certificate (20%) for $160"
    assert page.button(key="previous").proto.shortcut and page.button(key="next").proto.shortcut  # the arrow keys
    page.button(key="next").click().run()
    assert headline(page) == "**Action 50** · SR 1 · phase 2" and "Brunel pars IC at $90" in sentence(page)
    page.button(key="previous").click().run()
    page.button(key="previous").click().run()
    assert headline(page).startswith("**Action 30**") and page.query_params["action"] == "30"
    page.button(key="first").click().run()
    assert headline(page).startswith("**Action 10**") and page.button(key="first").disabled
    page.button(key="last").click().run()
    assert page.button(key="last").disabled and page.button(key="next").disabled
    line = page.radio[0].options[2]  # a click on a line of the log goes to that action
    page.radio[0].set_value(page.radio[0].value - 6).run()
    assert headline(page).startswith(shown(line.split(" · ")[0]).replace("**", "**Action ", 1))
    rounds = page.selectbox[1].options
    operating = next(label for label in rounds if label.endswith("OR 1.1"))
    page.selectbox[1].set_value(operating).run()
    assert page.selectbox[1].value == operating and " · OR 1.1 · " in headline(page)
    assert "IC lays tile 58 on B2" in sentence(page)
    page.button(key="previous").click().run()
    assert " · SR 1 · " in headline(page) and not page.selectbox[1].value.endswith("OR 1.1")
    page.toggle(key="review:notation").set_value(True).run()
    assert page.code[0].value.startswith("210 p3 pass")
    assert all("p3 pass" not in line or "210" in line for line in page.radio[0].options)


def test_review_shows_the_spreadsheet_map_market_and_charts_at_the_action(dashboard: AppTest) -> None:
    page = open_page(dashboard, "views/review.py", game=SHORT_KEY, action="710")
    html = html_of(page)
    for text in ("<th>Ada</th>", "<th>Brunel</th>", "<th>Cugnot</th>", "<th>IPO</th>", "<th>Market</th>",
                 "<th>Stations</th>", "<th>Order</th>", "<th>OR 2.1</th>", "<th>OR 1.2</th>", "Certificates",
                 "Priority deal", "In the bank", "Phase "):
        assert text in html, text
    assert "#397641" in html and "IC</td>" in html  # IC in its colour from the title's data (18xx.games')
    assert "start (par) price" in html  # the market's legend
    legal = [e.label for e in page.expander]
    assert legal and all(label.split()[0].isdigit() for label in legal)  # "3 tile lays", "1 pass"
    board, prices, worth, revenue = figures(page)
    names = trace_names(board)
    assert {"white hexes", "yellow hexes", "track", "halos", "hexes", "stations", "towns", "offboards",
            "revenues", "names", "tile numbers"} <= set(names)
    traces = {trace["name"]: trace for trace in board["data"]}
    assert "58" in traces["tile numbers"]["text"] and "Memphis" in traces["names"]["text"]
    assert all(traces[name]["customdata"] for name in ("revenues", "names", "tile numbers"))  # every label placed clear
    stations = traces["stations"]
    ic = stations["text"].index("IC")
    assert stations["marker"]["color"][ic] == "#397641"
    assert board["layout"]["width"] and board["layout"]["height"] <= 830  # drawn to size, on the first screen
    assert sorted(trace_names(prices)) == ["GMO", "IC", "WRA"]
    assert sorted(trace_names(worth)) == ["Ada", "Brunel", "Cugnot"]
    assert "action %{customdata[0]}" in prices["data"][0]["hovertemplate"]
    assert set(trace_names(revenue)) <= {"GMO", "IC", "WRA"} and revenue["data"]
    trains = page.dataframe[0].value
    assert list(trains.columns) == ["action", "event", "train", "price", "detail"]
    assert set(trains["event"]) <= {"bought", "rusted"} and "220" not in set(trains["action"])
    privates = page.dataframe[1].value
    assert set(privates["owner"]) <= {"Ada", "Brunel", "Cugnot", "bank", "GMO", "IC", "WRA"} and len(privates)


def test_review_of_a_game_without_replay_steps_through_its_actions_only(dashboard: AppTest) -> None:
    page = open_page(dashboard, "views/review.py", game=UNREPLAYED_KEY, action="1")
    assert headline(page) == "**Action 1**"
    assert sentence(page).startswith("##### 1 p1 ")  # no engine to read it against: its notation
    assert any("without a replay" in info.value for info in page.info)
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
    assert page.caption[0].value.startswith(md("All titles, 3 players: 1 people's valid finished game; left out: 1 illegal, "))
    seats = page.dataframe[0].value
    assert set(seats["games"]) == {1}  # one valid game: one player per seat
    page.toggle(key="scope_every_verdict").set_value(True).run()
    assert page.caption[0].value == md("All titles, 3 and 4 players: 9 people's games of every verdict.")
    # every game counted, but only a finished game with a result ranks anybody: the valid one alone here
    assert page.dataframe[0].value["games"].sum() == seats["games"].sum()
    rush = open_page(dashboard, "views/rush.py")
    assert "9 people" in rush.caption[0].value  # the sidebar's choice holds on every page
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
    page.radio(key="scope_games").set_value("bots").run()  # bots' games apart: this archive has none
    assert "No game counted here has a result yet" in page.info[0].value
    page.radio(key="scope_games").set_value("all").run()
    mixed = page.dataframe[0].value  # no simulations: the same rows as the real games' (scope kept)
    assert mixed.to_dict("records") == table[table["scope"] == "all titles"].to_dict("records")


def test_validation_page_lists_the_flagged_action_with_rule_and_message(dashboard: AppTest) -> None:
    page = open_page(dashboard, "views/validation.py")
    summary, flags = page.dataframe[1].value, page.dataframe[2].value
    assert (len(flags), flags["game_key"].nunique()) == (1, 1)
    assert page.caption[2].value.startswith("1 flagged action in 1 game: 1 root cause, 0 that follow from one")
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
    assert "9 of 9 people's games" in dashboard.caption[0].value


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
        assert "9 of 9 people's games" in dashboard.caption[0].value  # the last good data, still every game
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
