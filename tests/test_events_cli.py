"""``railledger event check|seat|report`` end to end: games pulled from a recorded 18xx.games on
127.0.0.1, stored only once they fit the file, counted, seated and reported."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

from railledger.records import Archive
from tests.conftest import REPO
from tests.events_helpers import event_text
from tests.site_server import Site, bot_game, site_server

PLAYERS = {1001: "Ann", 1002: "Bob", 1003: "Cy", 1004: "Di", 1005: "Ed", 1006: "Flo"}
RANK = 'system = "rank points"\npoints = { 3 = [6, 3, 1] }\ntie_breaks = ["head-to-head", "lot"]'
TABLES = [[(1001, 1002, 1003), (1004, 1005, 1006)], [(1001, 1004, 1005), (1002, 1003, 1006)]]


def railledger(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "railledger", *argv], capture_output=True, text=True, timeout=300)


def league(tmp_path: Path, site: Site, titles: dict[int, str] | None = None) -> tuple[Path, list[dict]]:
    """Two rounds of two tables of three, each game served by ``site`` (of ``titles[id]`` if given)."""
    games = []
    rounds = []
    game_id = 60001
    for tables in TABLES:
        rows = []
        for table in tables:
            title = (titles or {}).get(game_id, "18MS")
            game = bot_game(game_id, {user: PLAYERS[user] for user in table}, title=title, seed=game_id)
            site.serve_game(game)
            games.append(game)
            rows.append(f"game = {game_id}\nplayers = {list(table)}")
            game_id += 1
        rounds.append(rows)
    path = tmp_path / "league.toml"
    path.write_text(event_text(RANK, rounds, PLAYERS))
    return path, games


def pulled(site: Site, path: Path, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return railledger("event", "check", str(path), "--pull", "--base-url", site.url, "--delay", "0", "--retries", "0",
                      "--keep", str(tmp_path / "kept"), "--db", str(tmp_path / "a.duckdb"), "--workers", "1", *extra)


def expected_points(game: dict) -> dict[int, int]:
    """Rank points of a served game worked out from its result: 6, 3, 1 by value."""
    values = {int(user): value for user, value in game["result"].items()}
    return {user: {1: 6, 2: 3, 3: 1}[1 + sum(v > value for v in values.values())] for user, value in values.items()}


def test_check_pulls_the_games_and_prints_the_standings(tmp_path: Path) -> None:
    with site_server() as site:
        path, games = league(tmp_path, site)
        run = pulled(site, path, tmp_path)
        assert run.returncode == 0, run.stderr
        assert len(site.asked) == 4
        again = pulled(site, path, tmp_path)
        assert again.returncode == 0 and len(site.asked) == 4  # finished games are not fetched again
    totals = {user: 0 for user in PLAYERS}
    for game in games:
        for user, points in expected_points(game).items():
            totals[user] += points
    lines = run.stdout.splitlines()
    header = lines.index(next(line for line in lines if line.startswith("place")))
    rows = [line.split() for line in lines[header + 1: header + 7]]
    assert {row[1]: int(row[5]) for row in rows} == {PLAYERS[user]: total for user, total in totals.items()}
    assert [int(row[5]) for row in rows] == sorted(totals.values(), reverse=True)
    assert "standings: final: every game is counted or decided" in run.stdout


def test_a_game_of_another_title_stores_nothing(tmp_path: Path) -> None:
    with site_server() as site:
        path, _ = league(tmp_path, site, titles={60004: "18Texas"})
        text = path.read_text()
        run = pulled(site, path, tmp_path)
    assert run.returncode == 1
    line = next(n for n, row in enumerate(text.splitlines(), start=1) if row == "game = 60004")
    assert run.stderr.strip().splitlines() == [
        f"{path}:{line}: rounds[1].tables[1].game: game 60004 is a 18Texas game; the event's titles are 18MS"]
    assert not (tmp_path / "a.duckdb").exists()  # kept as a file, stored nowhere


def test_an_unknown_game_is_named_on_its_line(tmp_path: Path) -> None:
    with site_server() as site:
        path, _ = league(tmp_path, site)
        text = path.read_text().replace("game = 60003", "game = 69999")
        path.write_text(text)
        run = pulled(site, path, tmp_path)
    line = next(n for n, row in enumerate(text.splitlines(), start=1) if row == "game = 69999")
    assert run.returncode == 1
    assert run.stderr.strip() == (f"{path}:{line}: rounds[1].tables[0].game: game 69999: {site.url}/api/game/69999: "
                                  "not found (HTTP 404)")


def test_seat_writes_the_next_round_and_report_writes_the_standings_and_each_game(tmp_path: Path) -> None:
    with site_server() as site:
        path, games = league(tmp_path, site)
        assert pulled(site, path, tmp_path).returncode == 0
    seated = railledger("event", "seat", str(path), "--round", "3", "--db", str(tmp_path / "a.duckdb"))
    assert seated.returncode == 0, seated.stderr
    assert seated.stdout.startswith("round 3: 2 tables, ") and f"written to {path}" in seated.stdout
    assert "# proposed by railledger event seat" in path.read_text()
    checked = railledger("event", "check", str(path), "--db", str(tmp_path / "a.duckdb"))
    assert checked.returncode == 0 and "provisional: 2 tables to play" in checked.stdout

    out = tmp_path / "out" / "standings.html"
    out.parent.mkdir()
    report = railledger("event", "report", str(path), "--format", "html", "-o", str(out), "--db", str(tmp_path / "a.duckdb"))
    assert report.returncode == 0, report.stderr
    page = out.read_text()
    for game in games:
        assert f'<a href="standings-games/{game["id"]}.html">{game["id"]}</a>' in page
        assert (tmp_path / "out" / "standings-games" / f"{game['id']}.html").read_text().startswith("<!DOCTYPE html>")
    assert "provisional: 2 tables to play" in page

    as_csv = railledger("event", "report", str(path), "--format", "csv", "--db", str(tmp_path / "a.duckdb"))
    rows = list(csv.reader(io.StringIO(as_csv.stdout)))
    assert rows[0][:4] == ["place", "shared", "player", "18xx.games id"] and len(rows) == 7


def test_a_bad_event_file_is_a_line_and_exit_1_without_an_archive(tmp_path: Path) -> None:
    path = tmp_path / "league.toml"
    path.write_text('name = "x"\ntitles = ["1830"]\n[scoring]\nsystem = "value"\n[[players]]\nid = 1\nname = "A"\n')
    run = railledger("event", "check", str(path), "--db", str(tmp_path / "a.duckdb"))
    assert run.returncode == 1
    assert run.stderr.strip().startswith(f"{path}:2: titles: railledger has no engine for '1830'")


def test_without_pull_the_archive_alone_is_read(tmp_path: Path) -> None:
    path = tmp_path / "league.toml"
    path.write_text(event_text(RANK, [["game = 5\nplayers = [1001, 1002, 1003]"]], {1001: "A", 1002: "B", 1003: "C"}))
    with Archive.open(tmp_path / "a.duckdb"):
        pass
    run = railledger("event", "check", str(path), "--db", str(tmp_path / "a.duckdb"))
    assert run.returncode == 1 and "game 5 is not in the archive: pull it (event check --pull)" in run.stderr


def test_the_documented_example_event_is_counted(tmp_path: Path) -> None:
    """docs/events.md's full example, its games made by bots for the players it names: every key
    of it read, the substitute's seat scored for Hal, the adjusted game scored from its values."""
    import re

    text = re.search(r"```toml\n(.*?)```", (REPO / "docs" / "events.md").read_text(), re.S)
    assert text is not None
    path = tmp_path / "league.toml"
    path.write_text(text.group(1))
    names = {1001: "Ann", 1002: "Bob", 1003: "Cy", 1004: "Di", 1005: "Ed", 1006: "Flo", 1007: "Gus", 3001: "Sam"}
    seats = {201301: (1001, 1002, 1003, 1004), 201302: (1005, 1006, 1007, 3001), 201377: (1001, 1004, 1005, 1007),
             201378: (1002, 1003, 1006, 1008)}
    with site_server() as site:
        for game_id, users in seats.items():
            site.serve_game(bot_game(game_id, {u: names.get(u, "Hal") for u in users}, seed=game_id % 97))
        run = pulled(site, path, tmp_path)
    assert run.returncode == 0, run.stderr
    lines = {line.split()[1]: line for line in run.stdout.splitlines() if line[:1].isdigit() or line[:1] == "="}
    assert set(lines) == {"Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"}
    assert "played by Sam (3001), a substitute" in lines["Hal"]
    adjusted = {1002: 4100, 1003: 3950, 1006: 3500, 1008: 3380}  # places 1 to 4: 8, 5, 2, 0 points
    round_2 = {line.split()[1]: line.split()[4] for line in lines.values()}  # place, name, id, round 1, round 2
    assert [round_2[PLAYERS.get(user, "Hal")] for user in adjusted] == ["8", "5", "2", "0"]
    assert "provisional: 1 table to play" in run.stdout


def test_the_dashboard_refuses_an_event_file_that_is_not_there(tmp_path: Path) -> None:
    with Archive.open(tmp_path / "a.duckdb"):
        pass
    run = railledger("dashboard", "--db", str(tmp_path / "a.duckdb"), "--event", str(tmp_path / "missing.toml"),
                     "--port", "1")
    assert run.returncode == 1 and run.stderr.strip() == f"{tmp_path / 'missing.toml'}: no event file here (--event)"
