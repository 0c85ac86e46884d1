"""Analytics over a tiny hand-made archive, where every answer can be worked out on paper.

Three replayed games (two 18MS, one 18Texas) are stored through ``Archive.store`` with
hand-written snapshots, events, results and flags, plus one 1871 game stored without a replay.
The comments beside each game list the facts the expected answers are computed from.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import polars as pl
import pytest

from railledger.analytics.balance import winner_correlations
from railledger.analytics.interval import wilson_interval
from railledger.analytics.prices import net_worth_by_step, net_worth_paths, share_price_paths, share_prices_by_step
from railledger.analytics.rush import train_rush, train_rush_distribution
from railledger.analytics.scope import BOTH, BOTS, GAME_KINDS, SELFPLAY, Population, Scope, counted_games
from railledger.analytics.validation import validation_summary
from railledger.ingest import notation
from railledger.ingest.model import Action, Entity, Player, PlayerId, Record
from railledger.records import Archive
from railledger.replay import Flag, Replay, replay_record
from railledger.replay.snapshot import CorporationView, PlayerView, Snapshot
from railledger.replay.state import Event
from tests.conftest import state_columns

Company = dict[str, list[tuple[int | None, PlayerId | None]]]
"""Company symbol -> (price, president id) after each action."""


def replayed(
    title: str,
    game_id: str,
    players: list[tuple[PlayerId, str]],
    rounds: list[str],
    companies: Company,
    worth: dict[PlayerId, list[int]],
    events: list[Event],
    result: dict[PlayerId, int],
    flags: list[Flag],
) -> tuple[Record, Replay]:
    """A finished record of passes, its replay's result recorded, and a replay of it made by hand:
    one snapshot per round label."""
    record = Record(
        title=title,
        game_id=game_id,
        source="test",
        players=tuple(Player(pid, name) for pid, name in players),
        actions=tuple(Action("pass", Entity("player", players[0][0]), id=i + 1) for i in range(len(rounds))),
        status="finished",
        result=result,
    )
    snapshots = [
        Snapshot(
            round=label,
            phase="2",
            players=tuple((pid, PlayerView(worth[pid][seq], (), worth[pid][seq])) for pid, _ in players),
            corporations=tuple(
                (sym, CorporationView(price, 0, (), president, price is not None, 0))
                for sym, states in companies.items()
                for price, president in [states[seq]]
            ),
        )
        for seq, label in enumerate(rounds)
    ]
    return record, Replay(record, flags=flags, result=result, states=state_columns(snapshots), events=events)


# Game A (18MS): Ann (seat 1, id 11) beats Bob (seat 2, id 12), 500 to 350.
# Rounds by seq: Draft, SR 1, SR 1, OR 1.1, OR 1.1, SR 2, OR 2.1 -> ORs started: 0 0 0 1 1 1 2.
# Ann drafts BS and AGS, Bob M&O; Ann pars GMO at 80 (then WRA at 65), Bob IC at 90.
# Ann takes IC's presidency at seq 5, so she presides both at the end (2; Bob 0) and presides IC
# when it buys the first permanent train (5-0, seq 6). 2+ trains rust at seq 6.
GAME_A = replayed(
    "18MS", "a", [(11, "Ann"), (12, "Bob")],
    ["Draft", "SR 1", "SR 1", "OR 1.1", "OR 1.1", "SR 2", "OR 2.1"],
    {
        "GMO": [(None, None), (80, 11), (80, 11), (85, 11), (85, 11), (85, 11), (100, 11)],
        "IC": [(None, None), (None, None), (90, 12), (80, 12), (80, 12), (80, 11), (70, 11)],
    },
    {11: [400, 400, 400, 405, 410, 420, 500], 12: [400, 400, 400, 395, 390, 380, 350]},
    [
        Event(0, "private", "BS", 40, "11"),
        Event(0, "private", "M&O", 70, "12"),
        Event(0, "private", "AGS", 30, "11"),
        Event(1, "par", "GMO", 80, "11"),
        Event(2, "par", "IC", 90, "12"),
        Event(3, "train", "2+-0", 80, "GMO from bank"),
        Event(3, "train", "2+-1", 80, "IC from bank"),
        Event(4, "train", "3+-0", 180, "GMO from bank"),
        Event(5, "par", "WRA", 65, "11"),
        Event(6, "train", "3+-0", 100, "IC from GMO"),
        Event(6, "train", "5-0", 500, "IC from bank"),
        Event(6, "rust", "2+-0", 20, "GMO"),
        Event(6, "rust", "2+-1", 20, "IC"),
    ],
    {11: 500, 12: 350},
    [
        Flag(5, "6", "18MS/10.4-cert-limit", "10.4", "Ann holds too many certificates"),
        Flag(6, "7", "18MS/10.4-cert-limit", "10.4", "Ann still holds too many certificates"),
    ],
)

# Game B (18MS): Eve (seat 2, id 22) beats Dee (seat 1, id 21), 360 to 300.
# Rounds: SR 1, OR 1.1, OR 1.2, SR 2 -> ORs started: 0 1 2 2. Dee drafts nothing, Eve BS.
# Dee pars L&N at 70, Eve GMO at 90. Eve's GMO buys a 2D as a 4D (id 2D-0, permanent) at seq 2;
# at the end Eve presides both companies (Dee 0). The 2+ rusts at seq 3 (SR 2).
GAME_B = replayed(
    "18MS", "b", [(21, "Dee"), (22, "Eve")],
    ["SR 1", "OR 1.1", "OR 1.2", "SR 2"],
    {"L&N": [(70, 21), (75, 21), (70, 21), (70, 22)], "GMO": [(90, 22), (95, 22), (100, 22), (100, 22)]},
    {21: [300, 310, 300, 300], 22: [300, 320, 340, 360]},
    [
        Event(0, "private", "BS", 40, "22"),
        Event(0, "par", "L&N", 70, "21"),
        Event(0, "par", "GMO", 90, "22"),
        Event(1, "train", "2+-0", 80, "L&N from bank"),
        Event(2, "train", "2D-0", 750, "GMO from bank"),
        Event(3, "rust", "2+-0", 20, "L&N"),
    ],
    {21: 300, 22: 360},
    [
        Flag(1, "2", "18MS/10.4-cert-limit", "10.4", "Dee holds too many certificates"),
        Flag(2, "3", "18MS/11.8-train-order", "11.8", "trains are bought in order"),
    ],
)

# Game C (18Texas): Fay (seat 1, id 31) and Gus (seat 2, id 32) tie at 200: both rank 1, both win.
# Fay drafts TP and pars nothing; Gus pars T&P at 80 and presides it. No trains.
GAME_C = replayed(
    "18Texas", "c", [(31, "Fay"), (32, "Gus")],
    ["Auction", "SR 1"],
    {"T&P": [(None, None), (80, 32)]},
    {31: [200, 200], 32: [200, 200]},
    [Event(0, "private", "TP", 50, "31"), Event(1, "par", "T&P", 80, "32")],
    {31: 200, 32: 200},
    [Flag(1, "2", "18Texas/5.1-bid", "5.1", "a bid below the minimum")],
)

# Game D (1871): stored without a replay, so no analytics sees it.
GAME_D = Record(
    title="The Old Prince 1871", game_id="d", source="test",
    players=(Player("Ida", "Ida"), Player("Jo", "Jo")),
    actions=(Action("pass", Entity("player", "Ida"), id=1),),
)


@pytest.fixture()
def archive(tmp_path: Path):  # type: ignore[no-untyped-def]
    db = tmp_path / "tiny.duckdb"
    with Archive.open(db) as writable:
        for record, replay in (GAME_A, GAME_B, GAME_C):
            writable.store(record, replay=replay)
        writable.store(GAME_D)
    with Archive.open(db, read_only=True) as opened:
        yield opened


def rows(frame: pl.DataFrame) -> list[tuple]:
    return [tuple(row) for row in frame.rows()]


def test_wilson_interval_known_values() -> None:
    assert [round(b, 4) for b in wilson_interval(5, 10)] == [0.2366, 0.7634]
    assert [round(b, 4) for b in wilson_interval(0, 10)] == [0.0, 0.2775]
    assert [round(b, 4) for b in wilson_interval(1, 2)] == [0.0945, 0.9055]
    assert [round(b, 4) for b in wilson_interval(2, 2)] == [0.3424, 1.0]
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert [round(b, 4) for b in wilson_interval(5, 10, z=1.0)] == [0.3492, 0.6508]


def test_share_price_paths_skip_rounds_before_par(archive: Archive) -> None:
    assert share_price_paths(archive, "test/a").columns == ["company", "round_index", "round", "price"]
    assert rows(share_price_paths(archive, "test/a")) == [
        ("GMO", 1, "SR 1", 80), ("GMO", 2, "OR 1.1", 85), ("GMO", 3, "SR 2", 85), ("GMO", 4, "OR 2.1", 100),
        ("IC", 1, "SR 1", 90), ("IC", 2, "OR 1.1", 80), ("IC", 3, "SR 2", 80), ("IC", 4, "OR 2.1", 70),
    ]


def test_net_worth_paths_name_the_players(archive: Archive) -> None:
    assert rows(net_worth_paths(archive, "test/b")) == [
        (1, "Dee", 0, "SR 1", 300), (1, "Dee", 1, "OR 1.1", 310),
        (1, "Dee", 2, "OR 1.2", 300), (1, "Dee", 3, "SR 2", 300),
        (2, "Eve", 0, "SR 1", 300), (2, "Eve", 1, "OR 1.1", 320),
        (2, "Eve", 2, "OR 1.2", 340), (2, "Eve", 3, "SR 2", 360),
    ]
    assert net_worth_paths(archive, "test/a").filter(pl.col("player") == "Ann")["net_worth"].to_list() == [
        400, 400, 410, 420, 500]


def test_step_paths(archive: Archive) -> None:
    prices = share_prices_by_step(archive, "test/a")
    assert prices.columns == ["seq", "company", "price"]
    assert rows(prices) == [
        (1, "GMO", 80), (2, "GMO", 80), (3, "GMO", 85), (4, "GMO", 85), (5, "GMO", 85), (6, "GMO", 100),
        (2, "IC", 90), (3, "IC", 80), (4, "IC", 80), (5, "IC", 80), (6, "IC", 70),
    ]
    worth = net_worth_by_step(archive, "test/a")
    assert worth.columns == ["seq", "seat", "player", "net_worth"]
    bob = [400, 400, 400, 395, 390, 380, 350]
    assert rows(worth.filter(pl.col("seat") == 2)) == [(seq, 2, "Bob", value) for seq, value in enumerate(bob)]


def test_train_rush_first_purchase_and_rust_per_type(archive: Archive) -> None:
    rush = train_rush(archive)
    assert rush.columns == ["game_key", "title", "train_type", "first_bought_round", "first_bought_seq", "first_bought_action",
                            "gone_round", "gone_seq", "gone_action"]
    assert rows(rush) == [  # the actions as the records number them: from 1, one more than the seq
        ("test/a", "18MS", "2+", "OR 1.1", 3, "4", "OR 2.1", 6, "7"),
        ("test/a", "18MS", "3+", "OR 1.1", 4, "5", None, None, None),  # the later 3+-0 sale between companies is no first
        ("test/a", "18MS", "5", "OR 2.1", 6, "7", None, None, None),
        ("test/b", "18MS", "2+", "OR 1.1", 1, "2", "SR 2", 3, "4"),
        ("test/b", "18MS", "2D", "OR 1.2", 2, "3", None, None, None),  # bought as a 4D, counted as its 2D card
    ]
    assert rows(train_rush(archive, "test/b")) == rows(rush)[3:]


def test_train_rush_distribution_counts_operating_rounds(archive: Archive) -> None:
    assert rows(train_rush_distribution(archive)) == [
        ("18MS", "2+", "bought", 1, 2),
        ("18MS", "2+", "gone", 2, 2),  # A: in OR 2.1 (2nd OR); B: in SR 2 after OR 1.2 (2nd OR)
        ("18MS", "2D", "bought", 2, 1),
        ("18MS", "3+", "bought", 1, 1),
        ("18MS", "5", "bought", 2, 1),
    ]


def test_validation_summary_counts_flags_and_games(archive: Archive) -> None:
    assert rows(validation_summary(archive)) == [
        ("18MS", "18MS/10.4-cert-limit", 3, 2),
        ("18MS", "18MS/11.8-train-order", 1, 1),
        ("18Texas", "18Texas/5.1-bid", 1, 1),
    ]


def every_game(archive: Archive, games: str = BOTH) -> Scope:
    """Every game of a kind, whatever its verdict (the hand-made games' flags make some illegal)."""
    return counted_games(archive, Population(games, every_verdict=True))


def test_winner_correlations(archive: Archive) -> None:
    found = winner_correlations(archive, every_game(archive))
    assert found.columns == ["scope", "factor", "value", "games", "wins", "win_rate", "mean_rank", "ci_low", "ci_high"]
    for row in found.iter_rows(named=True):
        assert (row["ci_low"], row["ci_high"]) == wilson_interval(row["wins"], row["games"])
    table = [(s, f, v, n, w, round(r, 4), round(m, 4)) for s, f, v, n, w, r, m, _, _ in found.rows()]
    third, two_thirds = round(1 / 3, 4), round(2 / 3, 4)
    assert table == [
        # 18MS: Ann (seat 1) and Eve (seat 2) won; Bob and Dee came 2nd.
        ("18MS", "seat", "1", 2, 1, 0.5, 1.5),
        ("18MS", "seat", "2", 2, 1, 0.5, 1.5),
        ("18MS", "private", "AGS", 1, 1, 1.0, 1.0),
        ("18MS", "private", "BS", 2, 2, 1.0, 1.0),
        ("18MS", "private", "M&O", 1, 0, 0.0, 2.0),
        ("18MS", "private", "none", 1, 0, 0.0, 2.0),
        ("18MS", "presidencies", "0", 2, 0, 0.0, 2.0),
        ("18MS", "presidencies", "2", 2, 2, 1.0, 1.0),
        ("18MS", "first_par", "70", 1, 0, 0.0, 2.0),
        ("18MS", "first_par", "80", 1, 1, 1.0, 1.0),  # Ann's WRA par at 65 came second
        ("18MS", "first_par", "90", 2, 1, 0.5, 1.5),
        ("18MS", "first_permanent", "no", 2, 0, 0.0, 2.0),
        ("18MS", "first_permanent", "yes", 2, 2, 1.0, 1.0),
        # 18Texas: a tie, both win; no train was bought, so no first_permanent rows.
        ("18Texas", "seat", "1", 1, 1, 1.0, 1.0),
        ("18Texas", "seat", "2", 1, 1, 1.0, 1.0),
        ("18Texas", "private", "TP", 1, 1, 1.0, 1.0),
        ("18Texas", "private", "none", 1, 1, 1.0, 1.0),
        ("18Texas", "presidencies", "0", 1, 1, 1.0, 1.0),
        ("18Texas", "presidencies", "1", 1, 1, 1.0, 1.0),
        ("18Texas", "first_par", "80", 1, 1, 1.0, 1.0),
        ("18Texas", "first_par", "none", 1, 1, 1.0, 1.0),
        # Pooled: 6 players of 3 games (the 1871 game has no standings).
        ("all titles", "seat", "1", 3, 2, two_thirds, round(4 / 3, 4)),
        ("all titles", "seat", "2", 3, 2, two_thirds, round(4 / 3, 4)),
        ("all titles", "private", "AGS", 1, 1, 1.0, 1.0),
        ("all titles", "private", "BS", 2, 2, 1.0, 1.0),
        ("all titles", "private", "M&O", 1, 0, 0.0, 2.0),
        ("all titles", "private", "TP", 1, 1, 1.0, 1.0),
        ("all titles", "private", "none", 2, 1, 0.5, 1.5),
        ("all titles", "presidencies", "0", 3, 1, third, round(5 / 3, 4)),
        ("all titles", "presidencies", "1", 1, 1, 1.0, 1.0),
        ("all titles", "presidencies", "2", 2, 2, 1.0, 1.0),
        ("all titles", "first_par", "70", 1, 0, 0.0, 2.0),
        ("all titles", "first_par", "80", 2, 2, 1.0, 1.0),
        ("all titles", "first_par", "90", 2, 1, 0.5, 1.5),
        ("all titles", "first_par", "none", 1, 1, 1.0, 1.0),
        ("all titles", "first_permanent", "no", 2, 0, 0.0, 2.0),
        ("all titles", "first_permanent", "yes", 2, 2, 1.0, 1.0),
    ]


def test_simulations_are_kept_apart_unless_mixed_and_have_win_rates_per_bot(tmp_path: Path) -> None:
    """Game C played by bots (source selfplay, Fay's seat greedy, Gus's random) beside the two
    real 18MS games: the real table never sees it, the simulations' table is it alone, with one
    row per bot; mixed, seat 1 counts the three games."""
    record, replay = GAME_C
    simulated = dataclasses.replace(record, source="selfplay", players=(
        Player(31, "Fay", bot="greedy"), Player(32, "Gus", bot="random")))
    with Archive.open(tmp_path / "mixed.duckdb") as archive:
        for real, real_replay in (GAME_A, GAME_B):
            archive.store(real, replay=real_replay)
        archive.store(simulated, replay=dataclasses.replace(replay, record=simulated))
        real_rows = winner_correlations(archive, every_game(archive, "people"))
        bots = winner_correlations(archive, every_game(archive, BOTS))
        mixed = winner_correlations(archive, every_game(archive))
        with pytest.raises(ValueError, match="games are one of people, bots, all"):
            Population("selfplay")
        # a page showing one kind says how many games of that kind it counted, and of the other kind left out
        counted = {kind: every_game(archive, kind) for kind in GAME_KINDS}
    assert {kind: len(scope.keys) for kind, scope in counted.items()} == {"people": 2, "bots": 1, "all": 3}
    assert {kind: scope.other_kind for kind, scope in counted.items()} == {"people": 1, "bots": 2, "all": 0}
    assert counted["bots"].games["source"].to_list() == [SELFPLAY]
    assert counted["bots"].keys == {simulated.key}
    assert set(real_rows["scope"]) == {"18MS", "all titles"} and "bot" not in set(real_rows["factor"])
    assert set(bots["scope"]) == {"18Texas", "all titles"}
    assert rows(bots.filter(pl.col("factor") == "bot").select("scope", "value", "games", "wins")) == [
        ("18Texas", "greedy", 1, 1), ("18Texas", "random", 1, 1),  # a tie: both win
        ("all titles", "greedy", 1, 1), ("all titles", "random", 1, 1)]
    seat_one = mixed.filter((pl.col("scope") == "all titles") & (pl.col("factor") == "seat") & (pl.col("value") == "1"))
    assert rows(seat_one.select("games", "wins")) == [(3, 2)]


def test_the_short_18ms_game(tmp_path: Path) -> None:
    """A real replay: WRA's price path and the train rush of tests/games/18ms-short.rln."""
    record = notation.read((Path(__file__).resolve().parent / "games" / "18ms-short.rln").read_text())
    with Archive.open(tmp_path / "short.duckdb") as archive:
        archive.store(record, replay=replay_record(record, keep_going=True, snapshots=True))
        wra = share_price_paths(archive, record.key).filter(pl.col("company") == "WRA")
        assert rows(wra.select("round", "price")) == [
            ("SR 1", 75), ("OR 1.1", 70), ("OR 1.2", 65), ("SR 2", 65), ("OR 2.1", 70)]
        rush = train_rush(archive).select("train_type", "first_bought_round", "gone_round")
        assert rows(rush) == [("2+", "OR 1.1", None), ("3+", "OR 2.1", None)]  # the record stops before OR 4
        # unfinished, without a result: its values are kept, but nobody is ranked and nobody won
        standings = archive.table("standings")
        assert standings.height == 3 and standings["value"].null_count() == 0
        assert standings["rank"].null_count() == standings["winner"].null_count() == 3
        assert winner_correlations(archive, every_game(archive)).is_empty()
        finished = dataclasses.replace(record, status="finished", result=replay_record(record, keep_going=True).result)
        archive.store(finished, replay=replay_record(finished, keep_going=True, snapshots=True))
        correlations = winner_correlations(archive, every_game(archive))
        # Ada (seat 1) won; nobody bought a permanent train, so that factor has no rows.
        assert rows(correlations.filter((pl.col("scope") == "18MS") & (pl.col("factor") == "seat")).select(
            "value", "games", "wins")) == [("1", 1, 1), ("2", 1, 0), ("3", 1, 0)]
        assert correlations.filter(pl.col("factor") == "first_permanent").is_empty()


@pytest.mark.parametrize("game", ["18ms-short.rln", "1871-short.rln"])  # a pointy map and a flat one
def test_the_review_map_puts_neighbours_one_hex_apart(game: str) -> None:
    """Both hex orientations draw every pair of neighbouring hexes sqrt(3) apart (hex size 1),
    and the board shows the game's own setup (1871's seeded stations)."""
    from railledger.analytics.position import position_at
    from railledger.dashboard.board import centre
    from railledger.replay.hexgrid import neighbour

    record = notation.read((Path(__file__).resolve().parent / "games" / game).read_text())
    view = position_at(record, len(record.actions) - 1)
    hexes = {h.hex: h for h in view.hexes}
    pairs = [(h, other) for h in hexes.values() for edge in range(6)
             if (other := hexes.get(neighbour(h.hex, edge, h.layout) or ""))]
    assert len(pairs) > 100
    for a, b in pairs:
        (ax, ay), (bx, by) = centre(a), centre(b)
        assert abs(((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 - 3 ** 0.5) < 1e-9, (a.hex, b.hex)
    if game.startswith("1871"):
        assert {h.layout for h in hexes.values()} == {"flat"}
        assert "PEIR" in hexes["D6"].cities[0] and "C" in hexes["L16"].cities[0]
