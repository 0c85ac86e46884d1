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
from pathlib import Path

import pytest
from typer.testing import CliRunner

from railledger.cli.app import app
from railledger.ingest import notation
from railledger.ingest.export import write_export
from railledger.ingest.model import Action, Entity, Record
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
    assert "illegal: action 185 (#18) by Ada: 18MS/10.2-no-sale-first-sr" in text
    # the flag: the action in notation, the rule, its section and its rulebook text
    assert re.search(r"\| 185 \(#18\) \| 185 p1 sell_shares .*GMO_1.* \| 18MS/10.2-no-sale-first-sr \| 10.2 \| "
                     r"No sales in the first stock round. \|", text), text
    assert "| Cugnot | " in text and re.search(r"\| Cugnot \| \d+ pass \| 1 \| 0 \|", text)
    assert re.search(r"\| Brunel \| Ada \| 2021-12-17 \d\d:\d\d:\d\d UTC \| \d+ p1 pass \|", text)
    late = game.actions[LATE]
    assert (late.type, late.entity) == ("pass", Entity("corporation", "IC"))
    assert re.search(rf"\| Brunel \| 1 h 00 min \({late.label}\)", text), text  # IC's president then: the replay says
    assert f"ended by hand by Cugnot at action {game.actions[-1].label} (" in text
    values = [line for line in text.splitlines() if line.startswith("| Ada | ")]
    assert values[0].split(" | ")[1] == str(game.result[game.players[0].id])  # recorded
    assert "runs audited;" in text


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
    for section in ("game", "verdict", "values", "rules-broken", "undo-audit", "actions-taken-on-another-players-behalf",
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
