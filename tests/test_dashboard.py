"""The dashboard's archive page, driven the way Streamlit runs it (AppTest)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ingest.export import read_export
from records import Archive
from tests.conftest import act, export

APP = str(Path(__file__).resolve().parent.parent / "dashboard" / "app.py")


@pytest.fixture()
def archive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "dash.duckdb"
    with Archive.open(db) as store:
        store.store(read_export(export([act(1), act(2)], id=1)))
        store.store(read_export(export([act(1)], id=2, title="18Texas", players=[{"id": 5, "name": "Zoe"}])))
    monkeypatch.setenv("RAILLEDGER_DB", str(db))
    return db


def test_archive_page_lists_every_game(archive: Path) -> None:
    page = AppTest.from_file(APP, default_timeout=30).run()
    assert not page.exception
    table = page.dataframe[0].value
    assert sorted(table["key"]) == ["18xx.games/1", "18xx.games/2"]
    assert "2 of 2 games" in page.caption[0].value


def test_archive_page_filters_by_title_and_player(archive: Path) -> None:
    page = AppTest.from_file(APP, default_timeout=30).run()
    page.multiselect[0].set_value(["18Texas"]).run()
    assert list(page.dataframe[0].value["key"]) == ["18xx.games/2"]
    page.multiselect[0].set_value(["18MS", "18Texas"]).run()
    page.text_input[0].input("bob").run()
    assert list(page.dataframe[0].value["key"]) == ["18xx.games/1"]


def test_missing_archive_is_reported_not_crashed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAILLEDGER_DB", str(tmp_path / "none.duckdb"))
    page = AppTest.from_file(APP, default_timeout=30).run()
    assert not page.exception
    assert "Cannot read the archive" in page.error[0].value
