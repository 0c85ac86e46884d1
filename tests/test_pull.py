"""``railledger pull`` against a recorded 18xx.games on 127.0.0.1: what is stored, kept and said
for each kind of answer the site gives (and a few it should not)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from railledger.pipeline import site as site_api
from railledger.pipeline.fetching import Fetcher, Manners
from railledger.pipeline.pulling import Pull, PullOptions, finished_game_ids, pull_games
from railledger.records import Archive
from tests.conftest import fixture_files
from tests.site_server import Reply, Site, bot_game, game_reply, site_server

QUICK = Manners(delay=0.0, timeout=2.0, retries=1, backoff=0.05)
USERS = {501: "Ann", 502: "Bob", 503: "Cy"}


def pulled(site: Site, ids: list[int], tmp_path: Path, manners: Manners = QUICK, refresh: bool = False) -> Pull:
    with Fetcher(site.url, manners) as fetcher:
        return pull_games(ids, fetcher, PullOptions(tmp_path / "a.duckdb", tmp_path / "kept", refresh))


def stored(tmp_path: Path) -> dict[str, tuple[str | None, str | None]]:
    """(status, verdict) of every stored game by key."""
    with Archive.open(tmp_path / "a.duckdb", read_only=True) as archive:
        return {row["key"]: (row["status"], row["verdict"]) for row in archive.game_rows()}


def test_a_game_is_kept_byte_for_byte_and_stored_with_its_verdict(tmp_path: Path) -> None:
    game = bot_game(90001, USERS, seed=5)
    body = json.dumps(game, indent=2).encode("utf-8")  # the site's own spacing, which the copy keeps
    with site_server() as site:
        site.serve("/api/game/90001", Reply(body=body))
        done = pulled(site, [90001], tmp_path)
    assert done.failures == [] and done.fetched == 1
    assert (tmp_path / "kept" / "90001.json").read_bytes() == body
    assert stored(tmp_path) == {"18xx.games/90001": ("finished", "valid")}
    with Archive.open(tmp_path / "a.duckdb", read_only=True) as archive:
        source = archive.source("18xx.games/90001")
    assert source is not None and source.text.encode("utf-8") == body
    assert site.asked[0].headers["User-Agent"].startswith("railledger/")


@pytest.mark.skipif(not fixture_files(), reason="shared 18xx.games fixtures absent (../shared/fixtures)")
def test_the_shared_records_served_as_the_api_are_stored_as_ingest_stores_them(tmp_path: Path) -> None:
    with site_server() as site:
        ids = []
        for path in fixture_files():
            game = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(game.get("id"), int):  # a hotseat game has a text id: no page on the site
                continue
            site.serve(f"/api/game/{game['id']}", Reply(body=path.read_bytes()))
            ids.append(game["id"])
        done = pulled(site, ids, tmp_path)
    assert done.failures == [] and len(done.kept) == len(ids)
    games = stored(tmp_path)
    assert sorted(games) == sorted(f"18xx.games/{i}" for i in ids)
    assert {verdict for _, verdict in games.values()} == {"valid"}


def test_finished_games_of_a_title_come_from_the_list_pages(tmp_path: Path) -> None:
    """Page 0 holds 13 finished games, page 1 the 13th again and one more: not a full page, so the
    last; active games and other titles in the answer are left out."""
    listed = [{"id": 100 + n, "title": "18MS", "status": "finished", "created_at": 1_700_000_100 - n} for n in range(13)]
    others = [{"id": 7, "title": "18MS", "status": "active"}, {"id": 8, "title": "1889", "status": "finished"}]
    last = [listed[-1], {"id": 113, "title": "18MS", "status": "finished", "created_at": 1_700_000_000}]
    games = [bot_game(100 + n, USERS, seed=n) for n in range(2)]
    with site_server() as site:
        site.serve("/api/game?finished=0&title=18MS", Reply(body=json.dumps({"games": others + listed}).encode()))
        site.serve("/api/game?finished=1&title=18MS", Reply(body=json.dumps({"games": last + others}).encode()))
        for game in games:
            site.serve_game(game)
        with Fetcher(site.url, QUICK) as fetcher:
            ids = finished_game_ids(fetcher, "18MS", 5)
            done = pull_games(ids[:2], fetcher, PullOptions(tmp_path / "a.duckdb", tmp_path / "kept"))
    assert ids == list(range(100, 114))  # newest first, the overlap once
    assert site.paths()[:2] == ["/api/game?finished=0&title=18MS", "/api/game?finished=1&title=18MS"]
    assert site.paths()[2:] == ["/api/game/100", "/api/game/101"]
    assert done.failures == [] and len(stored(tmp_path)) == 2


def test_a_missing_game_is_a_clear_failure_and_nothing_is_stored(tmp_path: Path) -> None:
    with site_server() as site:
        done = pulled(site, [424242], tmp_path)
    assert done.failures == [f"game 424242: {site.url}/api/game/424242: not found (HTTP 404)"]
    assert not (tmp_path / "kept").exists() and not (tmp_path / "a.duckdb").exists()


def test_a_429_is_waited_out_as_the_site_asks_then_the_game_is_stored(tmp_path: Path) -> None:
    game = bot_game(90002, USERS, seed=6)
    with site_server() as site:
        site.serve("/api/game/90002", Reply(429, b"slow down", {"Retry-After": "1"}), game_reply(game))
        done = pulled(site, [90002], tmp_path)
    assert done.failures == [] and stored(tmp_path) == {"18xx.games/90002": ("finished", "valid")}
    first, second = site.asked
    assert second.at - first.at >= 0.95


def test_a_long_retry_after_stops_the_pull_before_the_next_game(tmp_path: Path) -> None:
    with site_server() as site:
        site.serve("/api/game/1", Reply(429, b"", {"Retry-After": "3600"}))
        done = pulled(site, [1, 2], tmp_path)
    assert site.paths() == ["/api/game/1"]
    assert done.stopped is not None and "asks to wait 3600 s" in done.stopped


def test_a_body_cut_short_is_tried_again_then_fails_and_nothing_is_stored(tmp_path: Path) -> None:
    body = json.dumps(bot_game(90003, USERS, seed=7)).encode()
    with site_server() as site:
        site.serve("/api/game/90003", Reply(body=body, cut=100))
        done = pulled(site, [90003], tmp_path)
    assert len(site.asked) == 2
    assert len(done.failures) == 1 and "the answer was cut short" in done.failures[0] and "(2 tries)" in done.failures[0]
    assert not (tmp_path / "kept" / "90003.json").exists()


def test_an_answer_slower_than_the_timeout_is_given_up(tmp_path: Path) -> None:
    with site_server() as site:
        site.serve("/api/game/5", Reply(pause=2.0, body=b"{}"))
        done = pulled(site, [5], tmp_path, Manners(delay=0.0, timeout=0.4, retries=0))
    assert len(done.failures) == 1 and "no whole answer within 0.4 s" in done.failures[0]


def test_headers_sent_a_byte_at_a_time_are_given_up_at_the_timeout(tmp_path: Path) -> None:
    with site_server() as site:
        site.serve("/api/game/5", Reply(body=b"{}", trickle=0.1, trickle_for=6.0))
        started = time.monotonic()
        done = pulled(site, [5], tmp_path, Manners(delay=0.0, timeout=1.0, retries=0))
    assert time.monotonic() - started < 4.0
    assert len(done.failures) == 1 and "no whole answer within 1 s" in done.failures[0]


def test_a_site_that_is_down_stops_the_pull_after_the_retries(tmp_path: Path) -> None:
    with site_server() as site:
        site.serve("/api/game/1", Reply(503, b"down for maintenance"))
        done = pulled(site, [1, 2], tmp_path)
    assert site.paths() == ["/api/game/1", "/api/game/1"]
    assert done.stopped is not None and "answered HTTP 503 Service Unavailable (2 tries)" in done.stopped


def test_a_body_that_does_not_decode_is_a_failure_not_a_crash(tmp_path: Path) -> None:
    with site_server() as site:
        site.serve("/api/game/3", Reply(body=b"not gzip at all", headers={"Content-Encoding": "gzip"}))
        done = pulled(site, [3], tmp_path)
    assert len(done.failures) == 1 and "DecodingError" in done.failures[0]


@pytest.mark.parametrize("body, said", [
    (b'{"error": "Game does not exist"}', "the answer is not a game"),
    (b"<html>maintenance</html>", "the answer is not JSON"),
    (b"", "the answer is empty"),
    (json.dumps({"id": 6, "title": "18MS", "status": "archived", "actions": [], "players": []}).encode(), "archived it"),
    (json.dumps({"id": 77, "title": "18MS", "status": "finished", "actions": []}).encode(), "is game 77, not game 6"),
])
def test_an_answer_that_is_not_the_game_is_not_kept(tmp_path: Path, body: bytes, said: str) -> None:
    with site_server() as site:
        site.serve("/api/game/6", Reply(body=body))
        done = pulled(site, [6], tmp_path)
    assert len(done.failures) == 1 and said in done.failures[0], done.failures
    assert not (tmp_path / "kept" / "6.json").exists() and done.ingest is None


def test_an_archived_answer_leaves_the_copy_kept_earlier(tmp_path: Path) -> None:
    game = bot_game(90004, USERS, seed=8, status="active")
    with site_server() as site:
        site.serve("/api/game/90004", game_reply(game), game_reply({**game, "status": "archived", "actions": []}))
        pulled(site, [90004], tmp_path)
        done = pulled(site, [90004], tmp_path, refresh=True)
    assert "archived it" in done.failures[0]
    assert json.loads((tmp_path / "kept" / "90004.json").read_text())["actions"] == game["actions"]
    assert stored(tmp_path) == {"18xx.games/90004": ("active", "unfinished")}


def test_an_unfinished_game_is_stored_as_such_and_fetched_again_only_with_refresh(tmp_path: Path) -> None:
    active = bot_game(90005, USERS, seed=9, status="active")
    with site_server() as site:
        site.serve("/api/game/90005", game_reply(active), game_reply(bot_game(90005, USERS, seed=9)))
        first = pulled(site, [90005], tmp_path)
        assert first.unfinished and "not finished on 18xx.games (status active)" in first.unfinished[0]
        assert stored(tmp_path) == {"18xx.games/90005": ("active", "unfinished")}
        again = pulled(site, [90005], tmp_path)
        assert len(site.asked) == 1 and "--refresh" in again.notes[0]
        refreshed = pulled(site, [90005], tmp_path, refresh=True)
        assert len(site.asked) == 2 and refreshed.unfinished == []
        assert stored(tmp_path) == {"18xx.games/90005": ("finished", "valid")}
        pulled(site, [90005], tmp_path, refresh=True)
        assert len(site.asked) == 2  # finished: never fetched again


def test_a_pull_resumes_from_the_answers_kept_before_it_stopped(tmp_path: Path) -> None:
    """A pull killed after keeping a game but before its ingest ingests the kept answer next time
    without fetching it again."""
    game = bot_game(90006, USERS, seed=10)
    (tmp_path / "kept").mkdir()
    (tmp_path / "kept" / "90006.json").write_text(json.dumps(game))
    with site_server() as site:
        done = pulled(site, [90006], tmp_path)
    assert site.asked == [] and done.failures == []
    assert stored(tmp_path) == {"18xx.games/90006": ("finished", "valid")}


def test_requests_are_one_at_a_time_and_the_delay_apart(tmp_path: Path) -> None:
    with site_server() as site:
        pulled(site, [1, 2, 3], tmp_path, Manners(delay=0.3, timeout=2.0, retries=0))
    times = [asked.at for asked in site.asked]
    assert len(times) == 3 and all(later - earlier >= 0.29 for earlier, later in zip(times, times[1:]))


def test_a_redirect_is_said_and_not_followed(tmp_path: Path) -> None:
    with site_server() as site:
        site.serve("/api/game/9", Reply(301, b"", {"Location": "http://elsewhere.invalid/api/game/9"}))
        done = pulled(site, [9], tmp_path)
    assert "moved to http://elsewhere.invalid/api/game/9" in done.failures[0] and len(site.asked) == 1


def test_an_answer_larger_than_the_limit_is_refused(tmp_path: Path) -> None:
    with site_server() as site:
        site.serve("/api/game/10", Reply(body=b" " * 5000))
        done = pulled(site, [10], tmp_path, Manners(delay=0.0, timeout=2.0, retries=0, max_size=1000))
    assert "the answer is 5,000 bytes, more than the 1,000 a record may have" in done.failures[0]


def test_a_server_that_is_not_there_stops_the_pull(tmp_path: Path) -> None:
    with site_server() as site:
        url = site.url
    with Fetcher(url, Manners(delay=0.0, timeout=1.0, retries=1, backoff=0.01)) as fetcher:
        done = pull_games([1, 2], fetcher, PullOptions(tmp_path / "a.duckdb", tmp_path / "kept"))
    assert done.stopped is not None and "cannot connect" in done.stopped and len(done.failures) == 1


@pytest.mark.parametrize("text, expected", [
    ("14375", 14375), ("https://18xx.games/game/14375", 14375), ("https://18xx.games/game/14375#entities", 14375),
    ("http://127.0.0.1:9/api/game/3/", 3), ("14375x", None), ("ftp://18xx.games/game/1", None), ("", None),
])
def test_game_ids_are_read_from_ids_and_links(text: str, expected: int | None) -> None:
    assert site_api.game_id_of(text) == expected


def test_the_command_pulls_prints_and_fails_for_a_missing_game(tmp_path: Path) -> None:
    game = bot_game(90007, USERS, seed=11)
    ids = tmp_path / "ids.txt"
    ids.write_text("# round 1\n90007\n\n90008  # not made yet\n")
    with site_server() as site:
        site.serve_game(game)
        run = subprocess.run([sys.executable, "-m", "railledger", "pull", "--file", str(ids), "--base-url", site.url,
                              "--delay", "0", "--retries", "0", "--keep", str(tmp_path / "kept"),
                              "--db", str(tmp_path / "a.duckdb"), "--workers", "1"],
                             capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stderr
    assert f"failed: game 90008: {site.url}/api/game/90008: not found (HTTP 404)" in run.stderr
    assert "1 fetched, 1 kept game ingested, 1 failed" in run.stdout and "valid" in run.stdout
    assert stored(tmp_path) == {"18xx.games/90007": ("finished", "valid")}


def test_the_command_names_a_bad_line_of_the_ids_file(tmp_path: Path) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("14375\nnot-an-id\n")
    run = subprocess.run([sys.executable, "-m", "railledger", "pull", "--file", str(ids), "--base-url", "http://127.0.0.1:9",
                          "--db", str(tmp_path / "a.duckdb")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert run.stderr.strip() == f"{ids}:2: 'not-an-id' is not a game id or a link to a game on 18xx.games"
