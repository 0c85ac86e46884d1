"""``railledger report``: one page an organizer sends the players, from a file or from the archive alone.

The game is the short 18MS test game made into an 18xx.games export with everything a report
reads: a sale in the first stock round (illegal, rule 10.2), times on every action with one wait
of an hour, a pass Brunel sent for Ada (``user``), an undone pass of Cugnot, and a manual end.
"""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import cmarkgfm
import pytest
from typer.testing import CliRunner

from railledger.analytics.report import build_report, player_name
from railledger.cli.app import app
from railledger.ingest import notation
from railledger.ingest.export import write_export
from railledger.ingest.model import Action, Entity, Record
from railledger.replay import replay_record
from railledger.reports.game import markdown
from tests.browser import CHROMIUM
from tests.test_dashboard_browser import ARTIFACTS
from tests.test_verdicts import SHORT, finished, with_illegal_sale

runner = CliRunner()


def _chromium(profile: Path, *args: str) -> str:
    """One headless Chromium run on a static page (a file needs no waiting for a server)."""
    command = [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
               f"--user-data-dir={profile}", "--virtual-time-budget=30000", "--window-size=1400,2400", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=True).stdout
START = 1_639_769_775  # 2021-12-17 19:36:15 UTC
LATE = 40
"""The index of the action that comes an hour after the one before it (IC's pass in OR 1, Brunel presiding)."""


def report_game() -> Record:
    game = with_illegal_sale(finished(SHORT))
    last = game.actions[-1]
    cugnot = game.players[2]
    ended = (*game.actions, Action("end_game", Entity("player", cugnot.id), last.id + 1))
    ada, brunel = game.players[0], game.players[1]
    behalf = next(i for i, a in enumerate(ended) if a.entity == Entity("player", ada.id) and a.type == "pass")
    actions = tuple(
        dataclasses.replace(a, created_at=START + 10 * i + (3600 if i >= LATE else 0),
                            user=brunel.id if i == behalf else None)
        for i, a in enumerate(ended)
    )
    return dataclasses.replace(game, actions=actions)


def export_text(game: Record) -> str:
    """The game as an export whose undo history holds a pass Cugnot took back."""
    exported = write_export(game)
    cugnot = game.players[2].id
    next_id = game.actions[-1].id + 1
    exported["actions"] += [
        {"type": "pass", "entity": cugnot, "entity_type": "player", "id": next_id},
        {"type": "undo", "entity": cugnot, "entity_type": "player", "id": next_id + 1},
    ]
    return json.dumps(exported)


@pytest.fixture()
def game_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(export_text(report_game()))
    return path


def test_a_markdown_report_has_every_section(game_file: Path) -> None:
    game = report_game()
    result = runner.invoke(app, ["report", str(game_file)])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.startswith("# 18MS game test-18ms-short: report")
    assert f"- Seed: {game.seed}" in text and "- Engine version: steps-" in text and "- Players (seat order): Ada, Brunel, Cugnot" in text
    assert "illegal: action 185 (SR 1): Ada sells a 10% share of GMO to the market (rule 18MS/10.2-no-sale-first-sr: " in text
    # the flag: the action by its id and round, in words; the rule, its section and its rulebook text
    assert re.search(r"\| 185 \(SR 1\) \| Ada sells a 10% share of GMO to the market \| 18MS/10.2-no-sale-first-sr \| "
                     r"10.2 \| No sales in the first stock round. \| .* \| 0 \|", text), text
    assert re.search(r"\| Cugnot \| \d+ \(pass\) \| 1 \| 0 \|", text)
    assert re.search(r"\| Brunel \| Ada \| 2021-12-17 \d\d:\d\d:\d\d UTC \| \d+ \(SR \d\): Ada passes \|", text), text
    late = game.actions[LATE]
    assert (late.type, late.entity) == ("pass", Entity("corporation", "IC"))
    assert re.search(rf"\| Brunel \| 1 h 00 min \(action {late.label}\)", text), text  # IC's president then: the replay says
    assert f"ended by hand by Cugnot at action {game.actions[-1].label} (" in text
    assert "runs audited;" in text


def test_an_illegal_game_has_no_replayed_values_and_says_where_it_stopped(game_file: Path) -> None:
    game = report_game()
    text = runner.invoke(app, ["report", str(game_file)]).stdout
    result = text.split("## Result", 1)[1].split("## ", 1)[0]
    assert "No result: action 185 (SR 1) breaks a rule" in result and "the replay stops counting at it" in result
    assert "| place | player | recorded (not confirmed) |" in result and "replayed" not in result
    order = sorted(game.players, key=lambda p: -game.result[p.id])
    rows = re.findall(r"\| (\d) \| (\w+) \| \$(\d+) \|", result)
    assert [(name, int(value)) for _, name, value in rows] == [(p.name, game.result[p.id]) for p in order]


def test_a_valid_game_names_its_winner_first_and_every_place() -> None:
    game = finished(SHORT)
    replay = replay_record(game, keep_going=True, snapshots=True)
    report = build_report(game, None, replay, "engine", 0, None)
    values = replay.result
    best = max(values.values())
    winners = [p.name for p in game.players if values[p.id] == best]
    assert report.result.summary == f"{' and '.join(winners)} {'wins' if len(winners) == 1 else 'win'} with ${best}."
    placings = report.result.placings
    assert [p.value for p in placings] == sorted(values.values(), reverse=True)
    assert placings[0].place == 1 and all(a.place <= b.place for a, b in zip(placings, placings[1:]))
    assert all((a.place == b.place) == (a.value == b.value) for a, b in zip(placings, placings[1:]))  # ties share a place
    page = markdown(report)
    assert f"| 1 | {placings[0].player} | ${best} |" in page


def test_an_unfinished_game_shows_where_its_record_ends_and_no_winner() -> None:
    replay = replay_record(SHORT, keep_going=True, snapshots=True)
    report = build_report(SHORT, None, replay, "engine", 0, None)
    assert report.result.summary.startswith("No result: unfinished (no recorded result; not finished (status active)).")
    assert report.result.basis == "ended" and "wins" not in report.result.summary
    assert sorted(p.value for p in report.result.placings) == sorted(replay.result.values())
    assert "| place | player | where the record ends | recorded |" in markdown(report)


def test_every_name_follows_one_policy_the_players_by_their_record_names() -> None:
    """A ``user`` naming a player (by id or by name) is that player; one naming anybody else is
    shown as the record names them, marked as not a player, in every section that names people."""
    game = report_game()
    brunel = game.players[1]
    renamed = tuple(dataclasses.replace(a, user="A Stranger") if a.user == brunel.id else a for a in game.actions)
    report = build_report(dataclasses.replace(game, actions=renamed), None,
                          replay_record(dataclasses.replace(game, actions=renamed), keep_going=True, snapshots=True),
                          "engine", 0, None)
    (behalf,) = report.on_behalf
    assert (behalf.user, behalf.for_whom) == ("A Stranger (not a player)", "Ada")
    assert player_name(game, brunel.id) == player_name(game, brunel.name) == "Brunel"
    assert player_name(game, 4861) == "account 4861 (not a player)"
    page = markdown(report)
    assert "(not a player) marks an account the record names that is none of its players" in page


HOSTILE = ("<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))", "![i](http://e.example/i.png)",
           "**bold** _em_ ~~gone~~", "# heading", "| a | b |", "https://evil.example/x", "www.evil.example", "ann@evil.example",
           "`code`", "&lt;b&gt;", "- item", "1. first", "<http://evil.example>", "back\\slash\\")


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_the_markdown_report_renders_no_tag_link_or_image_from_a_name(tmp_path: Path) -> None:
    """Player names, a user's name and undone actions' types built to be Markdown and HTML, rendered
    with GitHub's own renderer (cmark-gfm, unsafe mode: raw HTML kept) and read back: every tag is
    one of the report's own structure, no link or image, and every name reads as it was written."""
    game = report_game()
    players = tuple(dataclasses.replace(p, name=HOSTILE[i]) for i, p in enumerate(game.players))
    stranger = HOSTILE[3]
    actions = tuple(dataclasses.replace(a, user=stranger) if a.user is not None else a for a in game.actions)
    hostile = dataclasses.replace(game, players=players, actions=actions)
    path = tmp_path / "hostile.json"
    raw = json.loads(export_text(hostile))
    raw["actions"][-1]["user"] = HOSTILE[4]  # an undo sent by another account
    raw["actions"][-2]["type"] = "pass"
    path.write_text(json.dumps(raw))
    result = runner.invoke(app, ["report", str(path)])
    assert result.exit_code == 0, result.output
    page = cmarkgfm.github_flavored_markdown_to_html(result.stdout, options=cmarkgfm.Options.CMARK_OPT_UNSAFE)
    parsed = _Tags()
    parsed.feed(page)
    assert {tag for tag, _ in parsed.tags} <= {"h1", "h2", "p", "ul", "li", "table", "thead", "tbody", "tr", "th", "td"}, page
    assert sum(1 for tag, _ in parsed.tags if tag == "h1") == 1
    text = "".join(parsed.text).replace("\u2060", "")  # the word joiner kept before an address's @
    for name in (*HOSTILE[:3], stranger, HOSTILE[4]):
        assert name in text, name
def test_the_archive_alone_gives_the_same_report(game_file: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "a.duckdb")
    assert runner.invoke(app, ["ingest", "--allow-invalid", str(game_file), "--db", db]).exit_code == 0
    from_file = runner.invoke(app, ["report", str(game_file)]).stdout
    game_file.unlink()  # nothing but the archive now
    from_archive = runner.invoke(app, ["report", "test-18ms-short", "--db", db])
    assert from_archive.exit_code == 0, from_archive.output
    assert from_archive.stdout == from_file


def test_a_report_of_notation_says_it_has_no_undo_history(tmp_path: Path) -> None:
    path = tmp_path / "game.rln"
    path.write_text(notation.write(report_game()))
    text = runner.invoke(app, ["report", str(path)]).stdout
    assert "The record was read from notation, which keeps no undo history." in text
    assert "| Brunel | Ada |" in text  # the envelope survives the notation


def test_an_unknown_game_is_one_line(tmp_path: Path) -> None:
    db = str(tmp_path / "a.duckdb")
    runner.invoke(app, ["ingest", "--allow-invalid", str(Path(__file__).parent / "games" / "18ms-short.rln"), "--db", db])
    result = runner.invoke(app, ["report", "nope", "--db", db])
    assert result.exit_code == 1 and len(result.stderr.strip().splitlines()) == 1 and "nope" in result.stderr


def html_report(game_file: Path, tmp_path: Path) -> Path:
    target = tmp_path / "report.html"
    result = runner.invoke(app, ["report", str(game_file), "--format", "html", "-o", str(target)])
    assert result.exit_code == 0 and result.stdout == "", result.output
    return target


def test_the_html_report_is_self_contained_and_escapes_record_text(game_file: Path, tmp_path: Path) -> None:
    raw = json.loads(game_file.read_text())
    raw["players"][0]["name"] = "<script>alert(1)</script>"
    game_file.write_text(json.dumps(raw))
    page = html_report(game_file, tmp_path).read_text()
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page
    assert not re.search(r"<script|<link|<img|src=|url\(|@import|https?://", page, re.IGNORECASE)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "@media print" in page


@pytest.mark.skipif(not CHROMIUM.exists(), reason=f"{CHROMIUM} not found: install Debian's chromium")
def test_chromium_opens_the_html_report_and_prints_it(game_file: Path, tmp_path: Path) -> None:
    target = html_report(game_file, tmp_path)
    dom = _chromium(tmp_path / "profile", "--dump-dom", target.as_uri())
    assert '<p class="verdict" id="verdict">illegal</p>' in dom
    for section in ("result", "verdict", "game", "rules-broken", "undo-audit", "actions-taken-on-another-players-behalf",
                    "time-per-player", "end-of-the-game", "revenue-audit"):
        assert f'<section id="{section}">' in dom, section
    assert "No sales in the first stock round." in dom
    pdf = tmp_path / "report.pdf"
    _chromium(tmp_path / "profile", "--no-pdf-header-footer", f"--print-to-pdf={pdf}", target.as_uri())
    assert pdf.read_bytes().startswith(b"%PDF")
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "report.png"
    _chromium(tmp_path / "profile", f"--screenshot={shot}", target.as_uri())
    assert shot.stat().st_size > 0
