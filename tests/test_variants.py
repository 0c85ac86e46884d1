"""Variants: a title played with its data changed by a TOML file, refused where it does not fit,
stored with each game (text and hash), and replayed with the same data."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from railledger.cli.app import app
from railledger.ingest.export import read_export, write_export
from railledger.records import Archive
from railledger.records.codec import content_hash
from railledger.replay import engine_version, replay_record
from railledger.replay.titles import title_named
from railledger.replay.variant import VariantError, load_variant, read_variant
from railledger.replay.variant_games import read_playable_variant
from railledger.selfplay.play import game_id, play_game

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "variant-18ms-cheaper-privates.toml"
APP = REPO / "src" / "railledger" / "dashboard" / "app.py"
runner = CliRunner()


def refusal(text: str) -> str:
    with pytest.raises(VariantError) as refused:
        read_variant(text, "variant.toml")
    return str(refused.value)


def test_the_example_changes_the_values_it_names_and_nothing_else() -> None:
    variant = load_variant(EXAMPLE)
    base, changed = title_named("18MS"), title_named("18MS", variant)
    assert {c.sym: c.value for c in changed.companies} == {c.sym: c.value - 10 for c in base.companies}
    assert [c.revenue for c in changed.companies] == [c.revenue for c in base.companies]
    assert changed.train_type("4+").count == base.train_type("4+").count - 1 == 2
    assert changed.train_type("5") == base.train_type("5") and changed.starting_cash == base.starting_cash
    assert variant.title == "18MS" and variant.name == "cheaper privates" and len(variant.hash) == 64


def test_any_value_of_any_data_file_may_change() -> None:
    """Values of kinds no option names: a market price, a tile count, a phase's train limit, a
    corporation's token costs, a private's ability parameter."""
    text = """title = "18MS"
[market.rows.0.0]
price = 55
[tiles.counts]
57 = 2
[phases.phases."3"]
train_limit = 2
[companies.corporations.GMO]
token_costs = [0, 50, 90, 90]
"""
    title = title_named("18MS", read_variant(text))
    assert title.market_rows[0][0] is not None and title.market_rows[0][0]["price"] == 55
    assert title.tiles.counts["57"] == 2
    assert next(p for p in title.phases if p.name == "3").train_limit == 2
    assert title.corporation_spec("GMO").token_costs == (0, 50, 90, 90)
    assert title_named("18MS").tiles.counts["57"] != 2  # the base title is untouched


@pytest.mark.parametrize(("text", "message"), [
    ('title = "18MS"\n[trains.trains."4+"]\ncount = -1', "variant.toml: trains.trains.4+.count: must be 0 or more, got -1"),
    ('title = "18MS"\n[trains.trains."4"]\ncount = 5', "variant.toml: trains.trains.4: names no element of the list (its elements: 2+, 3+, 4+"),
    ('title = "18MS"\n[game.cert_limit]\n3 = "many"', "variant.toml: game.cert_limit.3: must be a whole number as in the title"),
    ('title = "18MS"\n[game.bank]\ncash = 500', "variant.toml: game.bank.cash: 500 cannot pay the players' starting cash (2100)"),
    ('title = "18MS"\n[game]\npar_values = [70, 71]', "variant.toml: game.par_values.1: 71 is on no space of the market"),
    ('title = "18MS"\n[market.rows.0.3]\nprice = 1', "variant.toml: market.rows.0.3.price: 1 does not rise from the space to its left"),
    ('title = "18MS"\n[trains.trains."2+"]\nsalvage = 500', "variant.toml: trains.trains.2+.salvage: 500 is more than the train's price 80"),
    ('title = "18MS"\n[companies.corporations.GMO.home]\nhex = "Z99"', "variant.toml: companies.corporations.GMO.home.hex: Z99 is not a hex of the map"),
    ('title = "18MS"\n[companies.corporations.GMO]\ntokens = 6', "variant.toml: companies.corporations.GMO.tokens: 6 tokens but token_costs lists 4 costs"),
    ('title = "The Old Prince 1871"\n[companies.peir]\ntoken_costs = [0, 40]', "variant.toml: companies.peir.tokens: 5 tokens but token_costs lists 2 costs"),
    ('title = "18MS"\n[game]\nplayer_count = 5', "variant.toml: game.player_count: the title's data holds no such field here"),
    ('title = "18MS"\n[trains]\npurchase_order = "any"', "variant.toml: trains.purchase_order: is not read by the engine: the rule it describes is code"),
    ('title = "18MS"\n[game.bank]\nnote = "x"', "variant.toml: game.bank.note: is a note or rule text beside the values"),
    ('title = "18MS"\n[rules.rules.game-over]\ntext = "never"', "variant.toml: rules: rules.json holds the rulebook's words"),
    ('title = "18MS"\n[trains]\ntrains = 3', "variant.toml: trains.trains: is a list: change its fields, not the whole"),
    ('title = "18XX"\n[game]\nbank = 1', "variant.toml: title: must name a title"),
    ('title = "18MS"\n[board]\nx = 1', "variant.toml: board: 18MS has no data file board.json"),
    ('title = "18MS"', "variant.toml: changes nothing"),
    ("title = ", "variant.toml: not TOML"),
])
def test_a_variant_that_does_not_fit_is_refused_naming_its_field(text: str, message: str) -> None:
    assert refusal(text).startswith(message)


def test_a_change_the_title_cannot_set_up_with_is_refused() -> None:
    """The title's own loading and setup are the last checks: 18MS needs the hex whose station
    earns the first-token bonus (New Orleans), which a bonus of another type leaves it without."""
    text = 'title = "18MS"\n[map.hexes.I1.bonus]\ntype = "first_connection"'
    read_variant(text, "variant.toml")  # the data alone is consistent
    with pytest.raises(VariantError) as refused:
        read_playable_variant(text, "variant.toml")
    assert str(refused.value).startswith("variant.toml: the title's data is inconsistent with this change: StopIteration")
    record = dataclasses.replace(play_game("18MS", ["random", "random"], seed=1).record, variant=text)
    with pytest.raises(VariantError) as recorded:  # a record carrying it: a one-line refusal, which ingest reports
        replay_record(record)
    assert str(recorded.value).startswith("the record's variant: the title's data is inconsistent")


def test_the_hash_is_of_the_changes_not_the_layout() -> None:
    plain = read_variant('title = "18MS"\n[trains.trains."4+"]\ncount = 2')
    dressed = read_variant('# fewer 4+\ntitle = "18MS"\nname = "scarce"\n\n[trains.trains."4+"]\ncount   =  2\n')
    other = read_variant('title = "18MS"\n[trains.trains."4+"]\ncount = 1')
    assert plain.hash == dressed.hash != other.hash


def test_a_variant_game_carries_its_variant_and_replays_only_with_it() -> None:
    variant = load_variant(EXAMPLE)
    played = play_game("18MS", ["greedy", "random", "random"], seed=3, variant=variant.text)
    record = played.record
    assert record.variant == variant.text and record.game_id.endswith(f"-v{variant.short_hash}")
    assert read_export(json.loads(json.dumps(write_export(record)))).variant == variant.text
    replay = replay_record(record, keep_going=True)
    assert replay.matches_record and not replay.flags
    # the same actions on the base title's data: a private bought at the variant's price is refused
    base = replay_record(dataclasses.replace(record, variant=None), keep_going=True)
    assert base.flags or not base.matches_record
    assert engine_version("18MS", variant.text) == f"{engine_version('18MS')}+variant.{variant.short_hash}"
    assert content_hash(record) != content_hash(dataclasses.replace(record, variant=None))
    assert game_id("18MS", 3, ["greedy", "random", "random"]) != record.game_id


def test_simulate_stores_the_variant_with_each_game_and_its_replay_from_the_archive_uses_it(tmp_path: Path) -> None:
    db = tmp_path / "v.duckdb"
    common = ("simulate", "--title", "18MS", "--players", "3", "--games", "2", "--bots", "greedy,random,random",
              "--workers", "1", "--db", str(db))
    assert runner.invoke(app, [*common]).exit_code == 0
    result = runner.invoke(app, [*common, "--variant", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    assert "2 games played" in result.output and "verified: 2 of 2" in result.output
    variant = load_variant(EXAMPLE)
    with Archive.open(db, read_only=True) as archive:
        stored = sorted(archive.table("games").select("key", "variant", "variant_hash").rows(), key=lambda row: (row[1] is not None, row[0]))
        assert [(text, digest) for _, text, digest in stored] == [(None, None)] * 2 + [(variant.text, variant.hash)] * 2
        key = stored[-1][0]
        record = archive.record(key)
        assert archive.stored_version(key) is not None and archive.stored_version(key)[1] == engine_version("18MS", variant.text)  # type: ignore[index]
    assert record.variant == variant.text
    assert replay_record(record).matches_record  # the archive's record replays with its variant's data
    again = runner.invoke(app, [*common, "--variant", str(EXAMPLE)])
    assert "0 games played" in again.output and "2 unchanged" in again.output


def test_simulate_refuses_a_variant_in_one_line_naming_the_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "variant.toml"
    bad.write_text('title = "18MS"\n[trains.trains."4+"]\ncount = -2\n', encoding="utf-8")
    result = runner.invoke(app, ["simulate", "--title", "18MS", "--players", "3", "--games", "1", "--variant", str(bad),
                                 "--db", str(tmp_path / "v.duckdb")])
    assert result.exit_code != 0
    assert result.output.strip() == "variant.toml: trains.trains.4+.count: must be 0 or more, got -2"
    assert not (tmp_path / "v.duckdb").exists()
    other = runner.invoke(app, ["simulate", "--title", "18Texas", "--players", "4", "--games", "1", "--variant", str(EXAMPLE),
                                "--db", str(tmp_path / "v.duckdb")])
    assert other.exit_code != 0 and "title: the variant is of 18MS, not 18Texas" in other.output


SHORT = 'title = "18MS"\nname = "short"\n[game.game_end]\nafter_or = 6\n'
"""A variant whose games are plainly shorter: over after the 6th operating round, not the 10th."""


@pytest.fixture(scope="module")
def compared(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """An archive of four bots' games of 18MS as published and four of the short variant, and
    the variant's file."""
    from railledger.pipeline.simulating import simulate_games

    folder = tmp_path_factory.mktemp("compared")
    db, variant_file = folder / "c.duckdb", folder / "short.toml"
    variant_file.write_text(SHORT, encoding="utf-8")
    for text in (None, SHORT):
        simulation = simulate_games("18MS", 3, 4, db, bots="greedy,random,random", rotate=True, variant=text)
        assert simulation.verified == 4
    return db, variant_file


def test_a_population_counts_the_published_title_or_one_variant_never_both(compared: tuple[Path, Path]) -> None:
    from railledger.analytics.scope import COMMAND, Population, counted_games

    db, variant_file = compared
    variant = load_variant(variant_file)
    with Archive.open(db, read_only=True) as archive:
        published = counted_games(archive, Population(games="bots"))
        of_variant = counted_games(archive, Population(games="bots", variant=variant.short_hash[:8]))
        stored = {key: archive.record(key).variant for key in archive.game_keys()}
    assert {stored[key] for key in published.keys} == {None} and published.count == 4
    assert {stored[key] for key in of_variant.keys} == {variant.text} and of_variant.count == 4
    assert published.note(COMMAND).endswith("; 4 games of variants not counted (--variant HASH counts a variant's).")
    assert of_variant.note(COMMAND).startswith(f"All titles, variant {variant.short_hash[:8]}, 3 players: 4 bots'")


def test_the_side_by_side_numbers_are_each_sides_own_with_their_intervals(compared: tuple[Path, Path]) -> None:
    import statistics

    from railledger.analytics.interval import Z_95, wilson_interval
    from railledger.analytics.scope import Population, counted_games
    from railledger.analytics.variants import compare_variant
    from railledger.selfplay.simulate import winners

    db, variant_file = compared
    variant = load_variant(variant_file)
    with Archive.open(db, read_only=True) as archive:
        comparison = compare_variant(archive, Population(games="bots"), "18MS", variant.hash)
        sides = {side: [archive.record(key) for key in counted_games(archive, Population(games="bots", variant=digest)).keys]
                 for side, digest in (("base", None), ("variant", variant.hash))}
        facts = archive.game_facts("18MS")
    rows = {(r["measure"], r["value"]): r for r in comparison.rows.iter_rows(named=True)}
    for side, records in sides.items():
        for seat in (1, 2, 3):  # the seat win rates, counted here from the records' results
            wins = sum(record.players[seat - 1].id in winners(record) for record in records)
            row = rows[("seat win rate", str(seat))]
            assert (row[f"{side}_n"], row[side]) == (len(records), wins / len(records))
            assert (row[f"{side}_low"], row[f"{side}_high"]) == pytest.approx(wilson_interval(wins, len(records)))
        rounds = [float(n) for n in facts.filter(facts["key"].is_in([r.key for r in records]))["operating_rounds"]]
        row = rows[("game length", "operating rounds")]
        half = Z_95 * statistics.stdev(rounds) / len(rounds) ** 0.5
        assert row[side] == pytest.approx(statistics.mean(rounds))
        assert (row[f"{side}_low"], row[f"{side}_high"]) == pytest.approx((statistics.mean(rounds) - half, statistics.mean(rounds) + half))
    assert rows[("game length", "operating rounds")]["base"] == 10 and rows[("game length", "operating rounds")]["variant"] == 6
    assert rows[("game length", "operating rounds")]["difference"] == "differs"
    for row in rows.values():  # within noise exactly when the intervals overlap
        if None in (row["base_low"], row["variant_low"]):
            assert row["difference"] == "too few games"
        else:
            overlap = row["base_low"] <= row["variant_high"] and row["variant_low"] <= row["base_high"]
            assert row["difference"] == ("within noise" if overlap else "differs")


def test_stats_compare_variant_prints_both_sides_and_the_noise(compared: tuple[Path, Path]) -> None:
    db, variant_file = compared
    variant = load_variant(variant_file)
    by_file = runner.invoke(app, ["stats", "--db", str(db), "--games", "bots", "--compare-variant", str(variant_file)])
    assert by_file.exit_code == 0, by_file.output
    lines = by_file.output.splitlines()
    assert lines[0].startswith("base: 18MS, 3 players: 4 bots' valid finished games")
    assert lines[1].startswith(f"variant: 18MS, variant {variant.short_hash}, 3 players: 4 bots' valid finished games")
    rounds = next(line for line in lines if "operating rounds" in line)
    assert "10.0" in rounds and "6.0" in rounds and "differs" in rounds
    assert "within noise" in by_file.output
    by_hash = runner.invoke(app, ["stats", "--db", str(db), "--games", "bots", "--compare-variant", variant.hash[:10]])
    assert by_hash.exit_code == 0 and by_hash.output == by_file.output
    unknown = runner.invoke(app, ["stats", "--db", str(db), "--compare-variant", "abcdef12"])
    assert unknown.exit_code != 0 and "no game of a variant abcdef12" in unknown.output
    alone = runner.invoke(app, ["stats", "--db", str(db), "--games", "bots", "--variant", variant.hash[:10]])
    assert alone.exit_code == 0 and alone.output.startswith(f"All titles, variant {variant.hash[:10]}, 3 players: 4 bots'")


def test_a_variant_game_is_shown_with_its_variant_where_games_are_listed(compared: tuple[Path, Path]) -> None:
    from railledger.analytics.review import archive_overview
    from railledger.analytics.variants import archived_variants, game_variant

    db, variant_file = compared
    variant = load_variant(variant_file)
    listing = runner.invoke(app, ["games", "--db", str(db)])
    assert listing.exit_code == 0
    rows = [line for line in listing.output.splitlines() if line.startswith("selfplay/")]
    assert len(rows) == 8
    assert all((f"18MS (variant {variant.short_hash})" in line) == line.split()[0].endswith(f"-v{variant.short_hash}") for line in rows)
    with Archive.open(db, read_only=True) as archive:
        overview = archive_overview(archive)
        keys = {key: shown for key, shown in zip(overview["key"], overview["variant"])}
        assert Counter(keys.values()) == {None: 4, variant.short_hash: 4}
        variant_key = next(key for key, shown in keys.items() if shown is not None)
        base_key = next(key for key, shown in keys.items() if shown is None)
        assert game_variant(archive, variant_key) == "short (%s)" % variant.short_hash and game_variant(archive, base_key) is None
        assert archived_variants(archive).rows() == [(variant.hash, "18MS", f"short ({variant.short_hash})", 4)]


def test_the_balance_page_sets_a_chosen_variant_beside_the_published_title(compared: tuple[Path, Path],
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    from railledger.analytics.scope import Population
    from railledger.analytics.variants import compare_variant
    from railledger.dashboard.population import SIDEBAR

    db, variant_file = compared
    variant = load_variant(variant_file)
    monkeypatch.setenv("RAILLEDGER_DB", str(db))
    page = AppTest.from_file(str(APP), default_timeout=60).run()
    page.radio(key="scope_games").set_value("bots")
    page.selectbox(key="scope_variant").set_value(variant.hash)
    page.run()
    page.switch_page("views/balance.py").run()
    assert not page.exception and not page.error
    assert [h.value for h in page.header][:1] == [f"short ({variant.short_hash}) beside 18MS as published"]
    with Archive.open(db, read_only=True) as archive:
        expected = compare_variant(archive, Population(games="bots"), "18MS", variant.hash)
    assert page.dataframe[0].value.equals(expected.rows.to_pandas())
    assert any(f"As published: {expected.base.note(SIDEBAR)}" in c.value.replace("\\", "") for c in page.caption)
    assert any("measures differ by more than the noise" in m.value for m in page.markdown)
