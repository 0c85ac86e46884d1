"""Storing what a replay found: per-action states, round ends, events, standings and flags."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import polars as pl
import pytest

from railledger.ingest import notation
from railledger.records import Archive, StoreOutcome
from railledger.replay import ENGINE_VERSION, replay_record

SHORT = notation.read((Path(__file__).resolve().parent / "games" / "18ms-short.rln").read_text())


def stored(tmp_path: Path) -> Path:
    db = tmp_path / "replayed.duckdb"
    with Archive.open(db) as archive:
        assert archive.store(SHORT, replay=replay_record(SHORT, keep_going=True, snapshots=True)) is StoreOutcome.NEW
    return db


def test_states_are_stored_for_every_action(tmp_path: Path) -> None:
    with Archive.open(stored(tmp_path), read_only=True) as archive:
        steps = archive.table("steps")
        players = archive.table("player_states")
        companies = archive.table("company_states")
    assert steps.height == 79 and players.height == 79 * 3 and companies.height == 79 * 5
    last = players.filter(pl.col("seq") == 78).sort("seat")
    assert last["cash"].to_list() == [136, 230, 211]  # the last action ends OR 2.1; OR 2.2's privates paid
    assert last["shares"].to_list()[0] == "GMO=60,IC=10"
    wra = companies.filter((pl.col("seq") == 78) & (pl.col("company") == "WRA")).row(0, named=True)
    assert (wra["cash"], wra["trains"], wra["tokens"], wra["president"], wra["price"]) == (425, "2+,2+,3+", 2, 3, 70)
    assert steps.filter(pl.col("seq") == 78)["round"].item() == "OR 2.1"


def test_round_ends_events_standings(tmp_path: Path) -> None:
    with Archive.open(stored(tmp_path), read_only=True) as archive:
        rounds = archive.table("round_player_values")
        prices = archive.table("round_company_prices")
        events = archive.table("events")
        standings = archive.table("standings").sort("seat")
        games = archive.table("games")
    assert rounds["round"].unique(maintain_order=True).to_list() == ["Draft", "SR 1", "OR 1.1", "OR 1.2", "SR 2", "OR 2.1"]
    wra = prices.filter(pl.col("company") == "WRA").sort("round_index")["price"].to_list()
    assert wra == [None, 75, 70, 65, 65, 70]
    kinds = events["kind"].to_list()
    assert kinds.count("par") == 3 and kinds.count("float") == 3 and "phase" in kinds
    chattanooga_train = events.filter(pl.col("kind") == "train").row(-1, named=True)
    assert (chattanooga_train["subject"], chattanooga_train["amount"], chattanooga_train["detail"]) == ("3+-1", 80, "WRA from bank with M&O")
    values = standings["value"].to_list()
    assert values == list(replay_record(SHORT).result.values())
    # the short game is unfinished, without a result: its values are kept, but it ranks nobody
    assert standings["rank"].to_list() == standings["winner"].to_list() == [None, None, None]
    assert games.row(0, named=True)["replay_matches"] is True


def test_a_finished_game_with_a_result_ranks_its_players(tmp_path: Path) -> None:
    result = replay_record(SHORT).result
    finished = dataclasses.replace(SHORT, status="finished", result=result)
    with Archive.open(tmp_path / "finished.duckdb") as archive:
        archive.store(finished, replay=replay_record(finished, keep_going=True, snapshots=True))
        standings = archive.table("standings").sort("seat")
    values = standings["value"].to_list()
    assert standings["rank"].to_list() == [sorted(values, reverse=True).index(v) + 1 for v in values]
    assert standings.filter(pl.col("winner"))["value"].to_list() == [max(values)]


def test_flags_are_stored_and_a_new_engine_replaces_the_rows(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    text = (Path(__file__).resolve().parent / "games" / "18ms-short.rln").read_text()
    broken = notation.read(text.replace("180 p3 buy_shares WRA_4 10", "180 p3 buy_shares WRA_4 10\n185 p1 sell_shares GMO_1 10"))
    db = tmp_path / "flags.duckdb"
    with Archive.open(db) as archive:
        archive.store(broken, replay=replay_record(broken, keep_going=True, snapshots=True))
        flag = archive.table("flags").row(0, named=True)
        assert (flag["seq"], flag["action_id"], flag["rule"]) == (18, "185", "18MS/10.2-no-sale-first-sr")
        assert archive.table("games").row(0, named=True)["replay_matches"] is False
        again = replay_record(broken, keep_going=True, snapshots=True)
        assert archive.store(broken, replay=again) is StoreOutcome.UNCHANGED
        monkeypatch.setattr("railledger.replay.engine_version", lambda title, variant=None: "next")  # the archive asks replay when it stores
        assert archive.store(broken, replay=again) is StoreOutcome.REPLACED
        assert archive.table("flags").height == 1 and archive.table("steps").height == len(broken.actions)


def test_each_title_stores_its_own_engine_version_and_a_title_revision_replays_only_its_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from railledger.pipeline.storing import store_record
    from railledger.replay import engine_version
    from railledger.replay.titles import title_named

    games = [notation.read((Path(__file__).resolve().parent / "games" / name).read_text())
             for name in ("18ms-short.rln", "18texas-short.rln")]
    db = tmp_path / "versions.duckdb"
    with Archive.open(db) as archive:
        for game in games:
            store_record(archive, game)
        stored = {row["title"]: row["engine"] for row in archive.table("games").iter_rows(named=True)}
    assert stored == {"18MS": engine_version("18MS"), "18Texas": engine_version("18Texas")}
    assert len(set(stored.values())) == 2 and all(v.startswith(ENGINE_VERSION) for v in stored.values())
    monkeypatch.setattr(type(title_named("18Texas")), "revision", title_named("18Texas").revision + 1)
    with Archive.open(db) as archive:
        assert [store_record(archive, game) for game in games] == [StoreOutcome.UNCHANGED, StoreOutcome.REPLACED]
