"""What the game review reads and draws, below the page: the position at an action (the
spreadsheet, as the engine holds it), the revenue history, where a review opens, the stock
market's zones, the map's labels and the spreadsheet's HTML.

The games are the test games (tests/games) and the dashboard tests' archive (a flagged copy of
the short 18MS game among them); the shared 18xx.games records, when present, are held to the
same map rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest

from railledger.analytics.position import can_replay, company_colours, position_at
from railledger.analytics.review import GameTables, find_game, game_tables, market_cells, opening_seq, revenue_history
from railledger.dashboard.board import map_figure, map_scale, unclear
from railledger.dashboard.colours import company_looks
from railledger.dashboard.labels import Box, Occupied, Option, broken, place, text_size
from railledger.dashboard.review_parts import log_window, root_neighbours
from railledger.dashboard.spreadsheet import market_html, sheet_html
from railledger.ingest import notation
from railledger.ingest.model import Record
from railledger.ingest.sources import read_record
from railledger.records import Archive
from railledger.replay import Game, IllegalAction
from railledger.replay.snapshot import take_snapshot
from tests.conftest import fixture_params
from tests.test_dashboard import FLAGGED_KEY, FLAGGED_SEQ, SHORT_KEY, build_archive

GAMES = Path(__file__).resolve().parent / "games"


def short(name: str) -> Record:
    return notation.read((GAMES / name).read_text(encoding="utf-8"))


def replayed_to(record: Record, seq: int) -> Game:
    game = Game.from_record(record)
    for action in record.actions[: seq + 1]:
        try:
            game.process(action)
        except IllegalAction:
            pass
    return game


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, GameTables]]:
    db = build_archive(tmp_path_factory.mktemp("review"))
    with Archive.open(db, read_only=True) as archive:
        yield {key: game_tables(archive, key) for key in (FLAGGED_KEY, SHORT_KEY)}


# ------------------------------------------------------------------------------ the spreadsheet


@pytest.mark.parametrize("name", ["18ms-short.rln", "18texas-short.rln", "1871-short.rln"])
def test_the_spreadsheet_is_the_engine_state_at_the_action(name: str) -> None:
    """Every figure of the sheet is the engine's: each player's cash, value and certificates, each
    started company's shares (players, IPO and market make 100%), treasury, trains and stations,
    and the bank's trains (the title's count less those sold)."""
    record = short(name)
    seq = len(record.actions) - 1
    sheet = position_at(record, seq).sheet
    game = replayed_to(record, seq)
    assert sheet is not None
    values = dict(take_snapshot(game).players)
    names = {p.id: p.name for p in record.players}
    assert [p.name for p in sheet.players] == [names[pid] for pid in game.order]
    for row, pid in zip(sheet.players, game.order):
        assert (row.cash, row.value, row.certificates) == (game.players[pid].cash, values[pid].value, game.certificates(pid))
        assert dict(row.shares) == {sym: p for sym in game.corporations if (p := game.percent(pid, sym))}
    assert sum(p.priority for p in sheet.players) == 1 and sheet.cert_limit == game.cert_limit()
    assert sheet.companies and {c.sym for c in sheet.companies} | set(sheet.unstarted) == set(game.corporations)
    for company in sheet.companies:
        corp = game.corporations[company.sym]
        held = sum(dict(p.shares).get(company.sym, 0) for p in sheet.players)
        if company.price is not None and company.sym in {s.corporation for s in game.shares.values()}:
            assert held + company.ipo + company.market <= 100
        assert (company.treasury, company.trains) == (corp.cash, tuple(t.name for t in game.corporation_trains(company.sym)))
        assert company.tokens_left == company.tokens - len(corp.tokens_placed)
    bought = {t.card for t in game.trains.values() if t.owner is not None or t.rusted}
    for train in sheet.trains:
        if train.left is not None:
            assert train.left == sum(1 for t in game.trains.values() if t.card == train.name and t.owner is None
                                     and not t.rusted and not t.reserved)
    assert bought and sheet.phase == game.phase.name and sheet.train_limit == game.phase.train_limit


def test_the_operating_order_and_the_company_on_turn_are_the_round_s() -> None:
    record = short("18ms-short.rln")
    seq = next(i for i, a in enumerate(record.actions) if a.label == "220")  # IC's first tile lay, OR 1.1
    sheet = position_at(record, seq).sheet
    assert sheet is not None
    on_turn = [c.sym for c in sheet.companies if c.operating]
    assert on_turn == ["IC"] and [c.sym for c in sheet.companies][0] == "IC"  # it operates first (highest price)
    assert sorted(c.order for c in sheet.companies if c.order) == list(range(1, 4))


def test_what_else_was_legal_is_grouped_in_sentences_with_the_move_made_marked() -> None:
    record = short("18ms-short.rln")
    seq = next(i for i, a in enumerate(record.actions) if a.label == "70")  # Ada buys a GMO share in SR 1
    offers = position_at(record, seq).offers
    made = [offer.text for group in offers for offer in group.offers if offer.made]
    assert made == ["Ada buys a 10% share of GMO from the IPO for $80"]
    texts = [offer.text for group in offers for offer in group.offers]
    assert len(texts) == len(set(texts))  # no move listed twice
    assert all("_" not in text and "=" not in text for text in texts)
    assert [group.title.split(" ", 1)[1] for group in offers][:1] == ["share purchases"]


def test_a_flagged_action_has_its_flag_and_no_move_marked(tables: dict[str, GameTables]) -> None:
    record = tables[FLAGGED_KEY].record
    position = position_at(record, FLAGGED_SEQ)
    assert position.flag is not None and "10.2" in position.flag
    assert not any(offer.made for group in position.offers for offer in group.offers)


# ------------------------------------------------------------------------------ tables of the game


def test_the_steps_name_each_action_by_its_id_round_and_sentence(tables: dict[str, GameTables]) -> None:
    steps = tables[FLAGGED_KEY].steps
    flagged = steps.row(FLAGGED_SEQ, named=True)
    assert (flagged["label"], flagged["round"]) == ("185", "SR 1")
    assert flagged["sentence"] == "Ada sells a 10% share of GMO to the market"
    assert flagged["notation"] == "185 p1 sell_shares GMO_1 10"
    first_or = steps.filter(pl.col("label") == "220").row(0, named=True)
    assert first_or["round"] == "OR 1.1" and first_or["sentence"].startswith("IC lays tile 58 on B2")
    rounds = tables[FLAGGED_KEY].rounds()
    assert rounds["round"].to_list()[:3] == ["Draft", "SR 1", "OR 1.1"]
    assert rounds["first"].to_list()[2] == first_or["seq"]


def test_the_revenue_history_says_what_each_company_did_with_its_run(tables: dict[str, GameTables]) -> None:
    history = revenue_history(tables[SHORT_KEY])
    rows = {(r["round"], r["company"]): (r["revenue"], r["dividend"]) for r in history.iter_rows(named=True)}
    assert rows[("OR 1.2", "IC")] == (50, "paid") and rows[("OR 1.2", "WRA")] == (60, "withheld")
    record = tables[SHORT_KEY].record
    withheld = [a for a in record.actions if a.type == "dividend" and a.fields.get("kind") == "withhold"]
    assert len(withheld) == sum(1 for r in history.iter_rows(named=True) if r["dividend"] == "withheld" and r["revenue"])
    assert history["revenue"].to_list() == tables[SHORT_KEY].runs.sort("seq")["engine"].to_list()


def test_a_review_opens_at_the_linked_action_else_the_first_root_cause_else_the_start(
        tables: dict[str, GameTables]) -> None:
    flagged, valid = tables[FLAGGED_KEY], tables[SHORT_KEY]
    assert opening_seq(flagged, None) == FLAGGED_SEQ
    assert opening_seq(flagged, "30") == 2 and opening_seq(flagged, "no such id") == FLAGGED_SEQ
    assert opening_seq(valid, None) == 0 and opening_seq(valid, "710") == valid.steps.height - 1


def test_a_link_names_a_game_by_its_key_or_its_source_id() -> None:
    keys = ("18xx.games/14375", "railledger/14375-copy", "railledger/a", "other/a")
    assert find_game(keys, "18xx.games/14375") == "18xx.games/14375"
    assert find_game(keys, "14375") == "18xx.games/14375"
    assert find_game(keys, "a") is None  # two sources have an "a": neither is guessed
    assert find_game(keys, "nothing") is None


def test_the_log_and_the_flag_buttons_move_within_the_game(tables: dict[str, GameTables]) -> None:
    steps, flags = tables[FLAGGED_KEY].steps, tables[FLAGGED_KEY].flags
    assert log_window(steps, 0) == list(range(9)) and log_window(steps, 30) == list(range(26, 35))
    assert log_window(steps, steps.height - 1)[-1] == steps.height - 1 and len(log_window(steps, steps.height - 1)) == 9
    assert root_neighbours(flags, 0) == (None, FLAGGED_SEQ) and root_neighbours(flags, 40) == (FLAGGED_SEQ, None)
    follow_on = flags.with_columns(pl.lit(None, dtype=pl.Int32).alias("follows"))
    extra = pl.concat([follow_on, follow_on.with_columns(seq=pl.lit(FLAGGED_SEQ + 5, dtype=flags.schema["seq"]),
                                                         follows=pl.lit(FLAGGED_SEQ, dtype=pl.Int32))])
    assert root_neighbours(extra, FLAGGED_SEQ) == (None, None)  # a follow-on flag is not stepped to


# ------------------------------------------------------------------------------ market and colours


def test_the_market_cells_carry_the_zones_18xx_games_colours() -> None:
    ms = market_cells("18MS")
    assert ms.filter(pl.col("kind") == "no cert limit").height == 14 and ms.filter(pl.col("kind") == "par").height == 4
    old_prince = set(market_cells("The Old Prince 1871").select("price", "kind").iter_rows())
    assert {(80, "par until 5H"), (74, "par until 3+"), (65, "par until 7"), (58, "par")} <= old_prince
    assert {(92, "reserved start"), (86, "reserved start"), (400, "bonus")} <= old_prince
    assert set(market_cells("18Texas")["kind"]) == {"par", "plain"}


def test_company_colours_come_from_the_title() -> None:
    assert company_colours("18MS")["IC"] == ("#397641", "#ffffff")
    assert company_looks("The Old Prince 1871")["A"].fill == "#b58168"
    assert company_colours("The Old Prince 1871")["A"] != company_colours("The Old Prince 1871")["So"]


# ------------------------------------------------------------------------------ the map's labels


def test_a_label_takes_the_first_free_place_it_offers() -> None:
    taken = Occupied()
    bounds = Box(0, 0, 200, 200)
    taken.add(Box(40, 40, 60, 60))
    first = place([Option("Jackson", 50, 50), Option("Jackson", 50, 100)], 10.0, taken, bounds)
    assert (first.y, first.clear) == (100, True)  # the first option met the box
    blocked = place([Option("Jackson", 50, 100)], 10.0, taken, bounds)
    assert not blocked.clear  # on top of the label just placed
    width, height = text_size("Jackson", 10.0)
    assert 30 < width < 40 and 13 <= height < 14
    assert text_size("Charlottetown", 12.0)[0] > text_size("Charlottetown", 10.0)[0]
    assert broken("Cardigan Head & Lorne Valley", 2) == "Cardigan Head &<br>Lorne Valley"
    assert broken("Memphis", 3) == "Memphis"


def _check_map(record: Record, seq: int) -> None:
    view = position_at(record, seq)
    figure = map_figure(view, company_looks(record.title))
    assert list(unclear(figure)) == [], record.key
    traces = {trace.name: trace for trace in figure.data}
    for name in ("names", "revenues", "tile numbers", "stations"):
        size = traces[name].textfont.size
        assert size >= 10, (name, size)  # at least 10 px as drawn: the figure is drawn at its own size
    width, height = map_scale(view).size
    assert (figure.layout.width, figure.layout.height) == (width, height) and width <= 1060 and height <= 830
    laid = [h for h in view.hexes if h.tile]
    assert len(traces["tile numbers"].text) == len(laid)
    assert len(traces["revenues"].text) == sum(1 for h in view.hexes for r in h.revenues if r)


@pytest.mark.parametrize("name", ["18ms-short.rln", "18texas-short.rln", "1871-short.rln"])
def test_every_map_label_of_the_test_games_is_placed_clear_at_10_px(name: str) -> None:
    record = short(name)
    for seq in (0, len(record.actions) // 2, len(record.actions) - 1):
        _check_map(record, seq)


@pytest.mark.fixtures
@pytest.mark.parametrize("path", fixture_params())
def test_every_map_label_of_the_shared_records_is_placed_clear_at_10_px(path: Path) -> None:
    record = read_record(str(path))
    _check_map(record, len(record.actions) - 1)


# ------------------------------------------------------------------------------ the spreadsheet's HTML


def test_the_spreadsheet_escapes_names_and_marks_presidents_and_dividends(tables: dict[str, GameTables]) -> None:
    game = tables[SHORT_KEY]
    sheet = position_at(game.record, game.steps.height - 1).sheet
    assert sheet is not None
    hostile = replace(sheet, players=(replace(sheet.players[0], name="<script>x</script>"), *sheet.players[1:]))
    html = sheet_html(hostile, revenue_history(game), company_looks("18MS"), market_cells("18MS"))
    assert "<script>" not in html and "&lt;script&gt;x&lt;/script&gt;" in html
    presidents = {c.sym: c.president for c in sheet.companies}
    assert presidents["IC"] is not None and "P</b>" in html
    assert 'title="$60 withheld">60 w</td>' in html  # WRA withheld $60 in OR 1.2
    market = market_html(market_cells("18MS"), sheet.companies, company_looks("18MS"))
    assert market.count('class="rl-token"') == sum(1 for c in sheet.companies if c.cell and not c.closed)
    assert "do not count against the certificate limit" in market


def test_the_trains_table_says_what_rusts_them_only_where_trains_rust() -> None:
    for name, rusting in (("18ms-short.rln", False), ("18texas-short.rln", True)):
        record = short(name)
        sheet = position_at(record, len(record.actions) - 1).sheet
        assert sheet is not None
        html = sheet_html(sheet, pl.DataFrame(schema={"seq": pl.Int32, "round": pl.Utf8, "company": pl.Utf8,
                                                      "revenue": pl.Int32, "dividend": pl.Utf8}),
                          company_looks(record.title), market_cells(record.title))
        assert ("Rusted by" in html) is rusting and "In the bank" in html


def test_a_game_the_engine_cannot_set_up_is_stepped_through_in_notation() -> None:
    """A record of a title with an engine but a player count it has no setup for (an archive can
    hold one written by an older railledger) is not replayed for the review: no crash, its
    actions in notation."""
    record = replace(short("18texas-short.rln"), players=short("18texas-short.rln").players[:2])
    assert not can_replay(record) and can_replay(short("18texas-short.rln"))
    with pytest.raises(KeyError, match="2 players"):
        position_at(record, 0)
