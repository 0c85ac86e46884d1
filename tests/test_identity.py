"""One identity policy (docs/identity.md): players grouped by 18xx.games user id, else by game and
seat; names compared in one normalised form, only shown, and told apart by a short id; and every
command takes a title by its short names, and a game as a file or an archive id.

The archive here holds the shared records (18MS 14375 and 67889 seat "Player 3" under two user
ids; the 18Texas hotseat game has no ids at all), a bots' game, and a hand-made game whose
two players' names compare equal ("Café" composed and decomposed)."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from railledger.analytics.identity import labelled
from railledger.analytics.ratings import player_games, ratings
from railledger.analytics.validation import shortfalls_by_player
from railledger.cli.app import app
from railledger.ingest import notation
from railledger.ingest.export import read_export
from railledger.ingest.identity import compared, identities, is_blank, labels, seat_labels
from railledger.ingest.model import Player, Record
from railledger.ingest.schema import check_record
from railledger.ingest.titles import NoSuchTitle, resolve_title
from railledger.records import Archive
from railledger.replay.verdict import notes
from tests.conftest import act, export, fixtures_dir, needs_fixtures

runner = CliRunner()
TESTS = Path(__file__).parent
CAFE_NFC, CAFE_NFD = "Caf\u00e9", "Cafe\u0301"
HOTSEAT = "18xx.games/hs_hqrmcntr_1641188459"


def short_game() -> Record:
    return notation.read((TESTS / "games" / "18ms-short.rln").read_text(encoding="utf-8"))


def cafe_game() -> Record:
    """A short 18MS game whose first two players, known by text ids, are "Café" composed and decomposed."""
    record = short_game()
    first, second, *rest = record.players
    return dataclasses.replace(record, game_id="test-cafe",
                               players=(Player(first.id, CAFE_NFC), Player(second.id, CAFE_NFD), *rest))


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("identity")
    records = folder / "records"
    records.mkdir()
    for title in ("18MS", "18Texas"):
        shutil.copytree(fixtures_dir() / title, records / title)
    (records / "cafe.rln").write_text(notation.write(cafe_game()), encoding="utf-8")
    played = runner.invoke(app, ["play", "--title", "18ms", "--players", "3", "--seed", "3", "--bots", "greedy,random,random",
                                 "--out", str(records / "bots.json")])
    assert played.exit_code == 0, played.output
    path = folder / "identity.duckdb"
    ingested = runner.invoke(app, ["ingest", "--allow-invalid", str(records), "--db", str(path)])
    assert ingested.exit_code == 0, ingested.output
    return path


def seats(db: Path) -> dict[tuple[str, int], tuple[str, str]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {(key, seat): (name, who) for key, seat, name, who in
                con.execute("SELECT game_key, seat, name, identity FROM players").fetchall()}
    finally:
        con.close()


# ------------------------------------------------------------------------------ names


def test_names_that_only_look_different_compare_equal() -> None:
    assert CAFE_NFC != CAFE_NFD and compared(CAFE_NFC) == compared(CAFE_NFD)
    assert compared("Player\u200b1") == compared("player1") == compared("PLAYER1")
    assert compared("\uff30layer") == compared("Player")  # a full-width letter is its NFKC letter
    assert compared("Ann") != compared("Anne")


@pytest.mark.parametrize("name", ["", " ", "\t \n", "\u200b", "\u200b\u200d\ufeff", "\u00a0"])
def test_a_name_that_shows_nothing_is_blank(name: str) -> None:
    assert is_blank(name)


@pytest.mark.parametrize("name", ["A", " Ann ", "\u200bAnn", "1"])
def test_a_name_that_shows_something_is_not_blank(name: str) -> None:
    assert not is_blank(name)


@pytest.mark.parametrize("name", [" ", "\u200b"])
def test_a_blank_name_is_refused_naming_the_field(name: str) -> None:
    record = short_game()
    blank = dataclasses.replace(record, players=(record.players[0], dataclasses.replace(record.players[1], name=name),
                                                 *record.players[2:]))
    with pytest.raises(Exception, match=r"players\[1\]\.name.*must show a name"):
        check_record(blank)


@needs_fixtures
def test_names_that_compare_equal_are_accepted_stored_as_written_noted_and_told_apart(db: Path) -> None:
    record = cafe_game()
    check_record(record)  # accepted: two different players
    shown = seat_labels(record)
    first, second = record.players[:2]
    assert shown[first.id] == f"{CAFE_NFC} (seat 1)" and shown[second.id] == f"{CAFE_NFD} (seat 2)"
    assert shown[record.players[2].id] == record.players[2].name  # no clash: the name alone
    (note,) = [n for n in notes(record) if "compare equal" in n]
    assert "seats 1, 2" in note and shown[first.id] in note and shown[second.id] in note
    stored = seats(db)
    assert stored["railledger/test-cafe", 1][0] == CAFE_NFC and stored["railledger/test-cafe", 2][0] == CAFE_NFD


# ------------------------------------------------------------------------------ identities


@needs_fixtures
def test_players_are_known_by_user_id_else_by_game_and_seat(db: Path) -> None:
    stored = seats(db)
    assert stored["18xx.games/14375", 3] == ("Player 3", "user:686")
    assert stored["18xx.games/67889", 3] == ("Player 3", "user:1027")
    # the hotseat game's players have no id: each is a player of that game's seat, never "Player 1" elsewhere
    assert [stored[HOTSEAT, seat][1] for seat in range(1, 6)] == [f"seat:{seat}:{HOTSEAT}" for seat in range(1, 6)]
    bots = sorted(who for (key, _), (_, who) in stored.items() if key.endswith("g18ms-3p-3-greedy.random.random"))
    assert bots and all(who.startswith("seat:") for who in bots)  # a bot's seat 1 is not user 1
    assert identities(short_game()) == [f"seat:{seat}:railledger/test-18ms-short" if isinstance(p.id, str) else f"user:{p.id}"
                                        for seat, p in enumerate(short_game().players, start=1)]


@needs_fixtures
def test_the_leaderboard_tells_two_players_of_one_name_apart(db: Path) -> None:
    with Archive.open(db, read_only=True) as archive:
        board = labelled(ratings(archive).table.filter(pl.col("scope") == "18MS"))
    threes = board.filter(pl.col("name") == "Player 3")
    assert sorted(threes["player"]) == ["user:1027", "user:686"]
    assert sorted(threes["shown"]) == ["Player 3 (#1027)", "Player 3 (#686)"]
    assert board["player"].n_unique() == board.height  # one row per player


@needs_fixtures
def test_the_ratings_command_shows_the_short_ids(db: Path) -> None:
    result = runner.invoke(app, ["ratings", "--title", "18ms", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "Player 3 (#686)" in result.output and "Player 3 (#1027)" in result.output


@needs_fixtures
def test_by_president_does_not_add_up_two_people_of_one_name(db: Path) -> None:
    with Archive.open(db, read_only=True) as archive:
        by_player = shortfalls_by_player(archive).filter(pl.col("title") == "18MS")
    threes = by_player.filter(pl.col("name") == "Player 3")
    assert sorted(threes["player"]) == ["user:1027", "user:686"]
    assert set(threes["shown"]) == {"Player 3 (#1027)", "Player 3 (#686)"}


@needs_fixtures
def test_a_players_games_are_those_of_their_identity(db: Path) -> None:
    with Archive.open(db, read_only=True) as archive:
        assert player_games(archive, "user:686")["game_key"].to_list() == ["18xx.games/14375"]
        assert player_games(archive, f"seat:2:{HOTSEAT}")["game_key"].to_list() == [HOTSEAT]
    listed = runner.invoke(app, ["games", "--player", "user:1027", "--db", str(db)])
    assert listed.exit_code == 0 and "67889" in listed.output and "14375" not in listed.output


def test_labels_add_the_short_id_only_where_names_clash() -> None:
    shown = labels([("user:1", "Ann"), ("user:2", "ann\u200b"), ("seat:3:x/g", "Bob"), ("seat:2:x/h", "Cy")])
    assert shown == {"user:1": "Ann (#1)", "user:2": "ann\u200b (#2)", "seat:3:x/g": "Bob", "seat:2:x/h": "Cy"}
    assert labels([("seat:3:x/g", "Bob"), ("seat:1:x/h", "BOB")])["seat:3:x/g"] == "Bob (seat 3 of x/g)"


@needs_fixtures
def test_the_report_names_a_sender_who_is_not_a_player_as_such(db: Path) -> None:
    result = runner.invoke(app, ["report", "14375", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "kjlevs89 (not a player)" in result.output  # 14375's senders are names of people not at its table


@needs_fixtures
def test_an_anonymized_export_keeps_one_identity_per_person_under_its_new_id(db: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["export", str(tmp_path / "anon"), "--anonymize", "--games", "all", "--every-verdict",
                                 "--manual-ends", "--db", str(db)])
    assert result.exit_code == 0, result.output
    players = pl.read_parquet(tmp_path / "anon" / "players")
    users = players.filter(pl.col("identity").str.starts_with("user:"))
    assert users.height and (users["identity"] == "user:" + users["external_id"]).all()  # the new id, not the user's
    assert not set(users["identity"]) & {"user:686", "user:1027", "user:680"}
    hotseat = players.filter(pl.col("game_key") == HOTSEAT)
    assert hotseat["identity"].to_list() == [f"seat:{seat}:{HOTSEAT}" for seat in range(1, 6)]


# ------------------------------------------------------------------------------ titles and games by any name


@pytest.mark.parametrize(("text", "title"), [
    ("18MS", "18MS"), ("18ms", "18MS"), (" 18Ms ", "18MS"), ("texas", "18Texas"), ("18TEXAS", "18Texas"),
    ("1871", "The Old Prince 1871"), ("old prince", "The Old Prince 1871"), ("Old_Prince", "The Old Prince 1871"),
    ("the  old prince 1871", "The Old Prince 1871"), ("THE OLD PRINCE 1871", "The Old Prince 1871"),
])
def test_a_title_is_matched_ignoring_case_and_by_its_short_names(text: str, title: str) -> None:
    assert resolve_title(text) == title


@pytest.mark.parametrize("text", ["1830", "ms", "18", "prince 1871x", ""])
def test_any_other_title_is_refused_with_the_list(text: str) -> None:
    with pytest.raises(NoSuchTitle, match=r"the titles are 18MS, 18Texas \(texas\), The Old Prince 1871 \(1871, old prince"):
        resolve_title(text)


def test_play_and_simulate_take_the_short_names(tmp_path: Path) -> None:
    played = runner.invoke(app, ["play", "--title", "1871", "--players", "3", "--seed", "2", "--out", str(tmp_path / "g.json")])
    assert played.exit_code == 0, played.output
    assert json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))["title"] == "The Old Prince 1871"
    simulated = runner.invoke(app, ["simulate", "--title", "18ms", "--players", "3", "--games", "1", "--workers", "1",
                                    "--db", str(tmp_path / "s.duckdb")])
    assert simulated.exit_code == 0, simulated.output
    with Archive.open(tmp_path / "s.duckdb", read_only=True) as archive:
        assert archive.game_facts()["title"].to_list() == ["18MS"]
    refused = runner.invoke(app, ["simulate", "--title", "1830", "--players", "3", "--games", "1", "--db", str(tmp_path / "x.duckdb")])
    assert refused.exit_code == 1 and "unknown title '1830'; the titles are" in refused.output
    assert len(refused.output.strip().splitlines()) == 1 and not (tmp_path / "x.duckdb").exists()


@needs_fixtures
@pytest.mark.parametrize("command", [["legal", "{game}", "--at", "22"], ["replay", "{game}"], ["audit", "{game}", "--json"],
                                     ["report", "{game}"], ["show", "{game}"]])
def test_every_command_that_takes_a_game_takes_a_file_or_an_archive_id(db: Path, command: list[str]) -> None:
    path = str(fixtures_dir() / "18MS" / "14375.json")
    outputs = []
    for game in (path, "14375", "18xx.games/14375"):
        result = runner.invoke(app, [part.format(game=game) for part in command] + ["--db", str(db)])
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
    assert outputs[1] == outputs[2]
    if command[0] in ("legal", "audit", "show"):  # the same game either way
        assert outputs[0] == outputs[1]


@needs_fixtures
@pytest.mark.parametrize("command", [["legal", "--at", "22"], ["replay"], ["audit"], ["report"], ["show"]])
def test_a_game_that_is_neither_a_file_nor_archived_is_one_line(db: Path, tmp_path: Path, command: list[str]) -> None:
    missing = runner.invoke(app, [command[0], "99999", *command[1:], "--db", str(db)])
    assert missing.exit_code == 1
    assert missing.output.strip() == f"99999: no such record file, and no game 99999 in archive {db}"
    nowhere = runner.invoke(app, [command[0], "g.json", *command[1:], "--db", str(tmp_path / "none.duckdb")])
    assert nowhere.exit_code == 1
    assert nowhere.output.strip() == f"g.json: no such record file, and no archive {tmp_path / 'none.duckdb'} to look it up in (--db)"


def test_the_engine_names_two_players_of_one_name_apart_in_its_sentences() -> None:
    from railledger.replay import Game

    record = cafe_game()
    game = Game.from_record(record)
    first, second, third = (game.player_name(player.id) for player in record.players)
    assert (first, second, third) == (f"{CAFE_NFC} (seat 1)", f"{CAFE_NFD} (seat 2)", record.players[2].name)
    plain = Game.from_record(short_game())  # names that do not clash are left as they are
    assert [plain.player_name(p.id) for p in short_game().players] == [p.name for p in short_game().players]


def test_an_events_players_of_one_name_are_told_apart_by_user_id() -> None:
    from railledger.events.model import Event, EventPlayer, Scoring, Seating

    players = (EventPlayer(686, "Player 3"), EventPlayer(1027, "PLAYER 3\u200b"), EventPlayer(680, "Player 1"))
    event = Event("Cup", ("18MS",), Scoring("rank"), Seating((3,)), players, ())
    assert [event.name_of(p.id) for p in players] == ["Player 3 (#686)", "PLAYER 3\u200b (#1027)", "Player 1"]


@needs_fixtures
def test_games_stats_and_ratings_take_the_short_names(db: Path) -> None:
    texas = runner.invoke(app, ["games", "--title", "texas", "--db", str(db)])
    assert texas.exit_code == 0 and "65394" in texas.output and "14375" not in texas.output
    for command in (["stats", "--title", "18ms"], ["ratings", "--title", "18MS"], ["games", "--title", "1871"]):
        assert runner.invoke(app, [*command, "--db", str(db)]).exit_code == 0
    for command in ("stats", "games", "ratings"):
        refused = runner.invoke(app, [command, "--title", "Texas 2", "--db", str(db)])
        assert refused.exit_code == 1 and refused.output.startswith("unknown title 'Texas 2'; the titles are 18MS")


def test_the_games_listing_and_archive_page_show_two_players_of_one_name_apart(tmp_path: Path) -> None:
    from railledger.analytics.review import archive_overview

    path, db = tmp_path / "cafe.rln", tmp_path / "cafe.duckdb"
    path.write_text(notation.write(cafe_game()), encoding="utf-8")
    (tmp_path / "short.rln").write_text(notation.write(short_game()), encoding="utf-8")
    assert runner.invoke(app, ["ingest", str(path), str(tmp_path / "short.rln"), "--db", str(db)]).exit_code == 0
    listed = runner.invoke(app, ["games", "--db", str(db)])
    assert f"{CAFE_NFC} (seat 1), {CAFE_NFD} (seat 2)" in listed.output
    plain = ", ".join(p.name for p in short_game().players)
    assert plain in listed.output  # names told apart as they are stay as they are
    with Archive.open(db, read_only=True) as archive:
        shown = dict(archive_overview(archive).select("key", "players").iter_rows())
    assert shown["railledger/test-cafe"].startswith(f"{CAFE_NFC} (seat 1), {CAFE_NFD} (seat 2)")
    assert shown[f"railledger/{short_game().game_id}"] == plain


def test_replay_and_report_show_two_players_of_one_name_apart(tmp_path: Path) -> None:
    path = tmp_path / "cafe.rln"
    path.write_text(notation.write(cafe_game()), encoding="utf-8")
    replayed = runner.invoke(app, ["replay", str(path)])
    assert f"{CAFE_NFC} (seat 1)" in replayed.output and f"{CAFE_NFD} (seat 2)" in replayed.output
    assert "have names that compare equal" in replayed.output  # the verdict's note
    reported = runner.invoke(app, ["report", str(path)])
    assert reported.exit_code == 0, reported.output
    assert f"{CAFE_NFC} (seat 1)" in reported.output and f"{CAFE_NFD} (seat 2)" in reported.output


@needs_fixtures
def test_a_users_link_opens_their_page_and_the_pages_tell_two_of_one_name_apart(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    from railledger.dashboard.data import forget
    from railledger.dashboard.links import user_url

    assert user_url(1027) == "players?player=user%3A1027"
    monkeypatch.setenv("RAILLEDGER_DB", str(db))
    forget()
    page = AppTest.from_file(str(TESTS.parent / "src" / "railledger" / "dashboard" / "app.py"), default_timeout=60).run()
    page.query_params.update({"player": "user:1027"})  # as an event's standings link to a user's page
    page.switch_page("views/players.py").run()
    assert not page.exception, page.exception
    assert page.selectbox[1].value == "user:1027"
    board = page.dataframe[0].value
    assert {"Player 3 (#686)", "Player 3 (#1027)"} <= set(board["shown"])
    page.switch_page("views/titles.py").run()
    assert not page.exception, page.exception
    leaders = page.dataframe[-1].value
    assert {"Player 3 (#686)", "Player 3 (#1027)"} <= set(leaders["shown"])  # 18MS, the first title


def test_a_hotseat_record_with_null_ids_seats_players_of_that_game_only() -> None:
    def hotseat(game_id: str) -> Record:
        data = export([act(1, "bid", entity="Player 1", company="AGS", price=30), act(2, entity="Player 2")], id=game_id)
        data["players"] = [{"id": None, "name": "Player 1"}, {"name": "Player 2"}]
        return read_export(data)

    first, second = hotseat("hs_a_1"), hotseat("hs_b_2")
    check_record(first)
    assert identities(first) == ["seat:1:18xx.games/hs_a_1", "seat:2:18xx.games/hs_a_1"]
    assert not set(identities(first)) & set(identities(second))  # "Player 1" of one game is not of the other
    assert labels(zip([*identities(first), *identities(second)], ["Player 1", "Player 2"] * 2))["seat:1:18xx.games/hs_a_1"] == \
        "Player 1 (seat 1 of 18xx.games/hs_a_1)"


def test_two_users_of_one_exact_name_are_two_players_shown_with_their_ids() -> None:
    record = read_export(export([act(1, "bid", company="AGS", price=30), act(2, entity=20)],
                                players=[{"id": 10, "name": "Ann"}, {"id": 20, "name": "Ann"}]))
    check_record(record)  # 18xx.games never writes it, but two ids are two players
    assert identities(record) == ["user:10", "user:20"]
    assert seat_labels(record) == {10: "Ann (#10)", 20: "Ann (#20)"}
    assert any("seats 1, 2 have names that compare equal" in note for note in notes(record))
