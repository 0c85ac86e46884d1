"""``railledger play`` and ``railledger simulate``: games played by bots, written or archived.

``play`` writes one game as a record file (.json as 18xx.games writes it, or .rln notation).
``simulate`` plays many in worker processes and stores them in the archive as source
``selfplay``, each with its replay and the bot of every seat, then prints who won. The bots and
the game loop are :mod:`railledger.selfplay`'s, the workers and the storing
:mod:`railledger.pipeline.simulating`'s; this module only reads the options and prints.
"""

import os
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from railledger.cli.options import ClusterOption, WorkersOption, fail, titled
from railledger.cli.resemblance import comparison_json, comparison_lines
from railledger.selfplay import MAX_ACTIONS

if TYPE_CHECKING:  # the engine, the archive and rich load when a command runs, not for --help
    from railledger.pipeline.simulating import Simulation
    from railledger.selfplay.simulate import Simulated

TitleOption = Annotated[str, typer.Option("--title", help="18xx.games title: 18MS, 18Texas or 'The Old Prince 1871' "
                                                           "(any case; texas, 1871, old prince).")]
PlayersOption = Annotated[int, typer.Option("--players", help="Players at the table.", min=1)]
BotsOption = Annotated[str, typer.Option("--bots", help="One bot for every seat, or one per seat in seat order, comma-separated (random, greedy, strong).")]
VariantOption = Annotated[Path | None, typer.Option(
    "--variant", help="A variant file (.toml, docs/designers.md#variants): the title played with its data changed.")]
MaxActionsOption = Annotated[int, typer.Option("--max-actions", help="The hard cap: a game not over after this many actions is an error.", min=1)]


def play(
    title: TitleOption,
    players: PlayersOption,
    seed: Annotated[int, typer.Option("--seed", help="The game's seed: the same seed plays the same game.")],
    out_file: Annotated[Path, typer.Option("--out", help="Record to write: .json (18xx.games) or .rln (notation).")],
    bots: BotsOption = "greedy",
    max_actions: MaxActionsOption = MAX_ACTIONS,
    variant: VariantOption = None,
) -> None:
    """Play one complete game with bots, from setup to the game's own end, and write its record.

    The record is a finished 18xx.games game (id, players, settings.seed, actions with ids,
    result, status) that 18xx.games' own engine loads; each seat is named after its bot, which
    the record also names (players[i].bot). Deterministic: the same title, seed and bots give
    the same file.

    Example: railledger play --title 18MS --players 3 --seed 7 --bots greedy,random,random --out g.json
    """
    import json

    from railledger.cli.output import consoles, say
    from railledger.ingest import notation
    from railledger.selfplay.simulate import simulate as simulate_one

    title = titled(title)
    seats = _seating(title, players, bots)
    variant_text = _variant_text(title, variant)
    if out_file.suffix not in (".json", notation.EXTENSION):
        raise fail(f"{out_file}: give a .json or {notation.EXTENSION} file name")
    if variant_text is not None and out_file.suffix == notation.EXTENSION:
        raise fail(f"{out_file}: the notation has no place for a variant; write the game as .json, which carries it")
    game = simulate_one(title, seed, seats, max_actions, variant_text)
    if game.played is None:
        raise fail(str(game.error))
    played = game.played
    text = notation.write(played.record) if out_file.suffix == notation.EXTENSION else json.dumps(played.export, indent=1) + "\n"
    try:
        out_file.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise fail(f"{out_file}: cannot write: {exc.strerror or exc}") from None
    say(consoles(soft_wrap=True)[0], f"{out_file}: {title}, {players} players ({', '.join(seats)}), {len(played.record.actions)} actions, "
             f"ended by {played.end_reason}; won by {_won_by(game)}")
    if not game.verified:
        raise fail(f"{out_file}: written, but the replay disagrees: {_disagreement(game)}")


def simulate(
    title: TitleOption,
    players: PlayersOption,
    games: Annotated[int, typer.Option("--games", help="Games to play.", min=1)],
    bots: BotsOption = "greedy",
    first_seed: Annotated[int, typer.Option("--first-seed", help="Seeds are this one and the following ones.")] = 1,
    rotate: Annotated[bool, typer.Option("--rotate", help="Turn the table one seat per game, so every bot sits everywhere.")] = False,
    workers: WorkersOption = os.cpu_count() or 1,
    cluster: ClusterOption = None,
    max_actions: MaxActionsOption = MAX_ACTIONS,
    db: Annotated[Path, typer.Option("--db", envvar="RAILLEDGER_DB", help="DuckDB archive file (env RAILLEDGER_DB).")] = Path("railledger.duckdb"),
    wait: Annotated[float, typer.Option("--wait", min=0, help="Seconds to wait while another process holds the archive.")] = 30.0,
    variant: VariantOption = None,
) -> None:
    """Play many games with bots in parallel and store them in the archive as source 'selfplay'.

    Each game is replayed as an ingest replays a record, and stored with its states, events,
    standings and the bot of every seat; a game already stored by this engine is not played
    again. Prints the games played, how many replayed with no flag to their result, the action
    counts, how they ended, and each bot's wins. Exit 1 when any game could not be played or its
    replay disagrees. The games are played by --workers processes, or by the workers of the Dask
    cluster at --cluster (docs/scale.md); this process alone writes the archive, and brings the
    player ratings kept in it up to date at the end (bots' games are not rated themselves).
    With --variant, the title's data is changed as the variant file says (refused, naming the
    field, when it does not fit the title) and every game is stored with the variant.

    Example: railledger simulate --title 18Texas --players 4 --games 100 --bots greedy,random,greedy,random --rotate
    """
    from railledger.cli.output import consoles, progress_bars, say
    from railledger.pipeline.simulating import simulate_games
    from railledger.pipeline.storing import ArchiveUnavailable
    from railledger.pipeline.workers import ClusterUnavailable

    err = consoles(soft_wrap=True)[1]
    title = titled(title)
    variant_text = _variant_text(title, variant)
    try:
        with progress_bars(err) as progress:
            simulation = simulate_games(
                title, players, games, db, bots=bots, first_seed=first_seed, rotate=rotate, workers=workers,
                cluster=cluster, max_actions=max_actions, wait=wait, progress=progress, variant=variant_text,
                on_wait=lambda busy, seconds: say(err, f"archive {busy.path} is in use; waiting up to {seconds:g} s"))
    except (ValueError, ArchiveUnavailable, ClusterUnavailable) as exc:
        raise fail(str(exc)) from None
    for line in simulation.failures:
        say(err, line)
    _summary(simulation, db)
    if simulation.ratings is not None:
        say(consoles(soft_wrap=True)[0], simulation.ratings)
    if simulation.verified < len(simulation.games) or simulation.outcomes["failed"]:
        raise typer.Exit(code=1)


def _variant_text(title: str, path: Path | None) -> str | None:
    """The text of the variant file at ``path``, checked against ``title``; the command fails with
    the variant's one-line refusal (file, field, why) when it does not fit."""
    if path is None:
        return None
    from railledger.replay.variant import VariantError
    from railledger.replay.variant_games import load_playable_variant

    try:
        variant = load_playable_variant(path)
    except VariantError as refused:
        raise fail(str(refused)) from None
    if variant.title != title:
        raise fail(f"{path.name}: title: the variant is of {variant.title}, not {title}")
    return variant.text


def _summary(simulation: "Simulation", db: Path) -> None:
    """Games played and stored, how many replayed to their result, their lengths and ends, the
    speed, and each bot's wins; then one line for each game that did not replay to its result."""
    import statistics

    from railledger.cli.output import consoles, say
    from railledger.selfplay.simulate import winners

    out, err = consoles(soft_wrap=True)
    title, results, outcomes, seconds = simulation.title, simulation.games, simulation.outcomes, simulation.seconds
    played = [g.played for g in results if g.played is not None]
    stored = ", ".join(f"{outcomes[k]} {k}" for k in ("new", "replaced", "unchanged", "failed"))
    say(out, f"{title}: {len(results)} game{'' if len(results) == 1 else 's'} played into {db} ({stored})")
    say(out, f"verified: {sum(g.verified for g in results)} of {len(results)} replayed with no flag to the game's end and result")
    if played:
        lengths = [len(p.record.actions) for p in played]
        ends = Counter(p.end_reason for p in played)
        say(out, f"actions: mean {statistics.mean(lengths):.0f}, max {max(lengths)}; ended by: "
                 + ", ".join(f"{reason} ({count})" for reason, count in ends.most_common()))
        cpu = sum(g.cpu_seconds for g in results)
        say(out, f"speed: {len(results) / seconds:.2f} games/s in {simulation.where}; "
                 f"{cpu / len(results):.2f} cpu s a game to play ({len(results) / max(cpu, 1e-9):.2f} games per cpu second)")
        seats: Counter[str] = Counter()
        wins: Counter[str] = Counter()
        for game in played:
            won = winners(game.record)
            for player in game.record.players:
                seats[str(player.bot)] += 1
                wins[str(player.bot)] += player.id in won
        say(out, "wins: " + ", ".join(f"{bot} {_rate(wins[bot], seats[bot])}" for bot in sorted(seats)))
    for failed in results:
        if not failed.verified:
            say(err, f"seed {failed.seed} ({','.join(failed.bots)}): {failed.error or _disagreement(failed)}")


def _rate(wins: int, seats: int) -> str:
    """A bot's wins in words with the rate's 95% Wilson interval: a few games prove little."""
    from railledger.analytics.interval import wilson_interval

    low, high = wilson_interval(wins, seats)
    return f"{wins} of {seats} seats ({wins / seats:.0%}, 95% interval {low:.0%}-{high:.0%})"


def _seating(title: str, players: int, bots: str) -> tuple[str, ...]:
    from railledger.pipeline.simulating import seats_for

    try:
        return seats_for(title, players, bots)
    except ValueError as exc:
        raise fail(str(exc)) from None


def _won_by(game: "Simulated") -> str:
    from railledger.selfplay.simulate import winners

    assert game.played is not None
    record = game.played.record
    won = winners(record)
    return ", ".join(f"{p.name} (${(record.result or {})[p.id]:,})" for p in record.players if p.id in won)


def _disagreement(game: "Simulated") -> str:
    replay = game.replay
    if replay is None:
        return "not replayed"
    if replay.flags:
        flag = replay.roots_first()[0]
        return f"flag at {flag.where}: {flag.sentence}; {flag.rule}: {flag.message}"
    if not any(e.kind == "game_end" for e in replay.events):
        return "the replay does not reach the game's end"
    return f"the replay's result {replay.result} is not the game's {dict(replay.record.result or {})}"


def ladder(
    title: TitleOption,
    players: PlayersOption,
    bots: Annotated[str, typer.Option("--bots", help="The bot of every seat in seat order, comma-separated (random, greedy, strong).")],
    games: Annotated[int, typer.Option("--games", help="Games to play.", min=1)] = 200,
    first_seed: Annotated[int, typer.Option("--first-seed", help="Seeds are this one and the following ones.")] = 1,
    workers: WorkersOption = os.cpu_count() or 1,
    cluster: ClusterOption = None,
    max_actions: MaxActionsOption = MAX_ACTIONS,
    as_json: Annotated[bool, typer.Option("--json", help="Print the standings as JSON.")] = False,
    people: Annotated[list[str] | None, typer.Option(
        "--people", help="People's games to set the bots' games beside: an archive (.duckdb: its people's valid finished "
                         "games of the title) or record files and folders (the valid finished records of the title); "
                         "repeatable.")] = None,
    db: Annotated[Path | None, typer.Option(
        "--db", help="Also keep the standings in this archive, where the Balance page reads how strongly the bots "
                     "of its games play (the games are not stored).")] = None,
    wait: Annotated[float, typer.Option("--wait", min=0, help="Seconds to wait while another process holds the archive.")] = 30.0,
) -> None:
    """Measure how strongly bots play: many games at one table, the seats turned one a game.

    Prints each bot's seat win rate (its seats that finished with the highest value) with a
    Wilson 95% interval beside what chance gives, and its openskill rating as players are rated,
    mu with its 95% interval. The games are not stored; with --db the standings are (one row per
    bot, beside earlier runs'). Exit 1 when any game could not be played to its end (the others
    are counted).

    With --people, also prints the bots' games beside people's games of the title: min, median
    and max of the winner's final value, the operating rounds, the operating round of each phase
    change and of the first rust, and how the games ended; and whether the bots' median winner
    value and median operating rounds lie within the people's range widened by a quarter of its
    width on each side (docs/selfplay.md).

    Example: railledger ladder --title 18MS --players 3 --bots greedy,random,random --games 200
    """
    import json

    from railledger.cli.output import consoles, progress_bars, say
    from railledger.pipeline.ladder import run_ladder
    from railledger.pipeline.people import PeopleUnavailable, people_games
    from railledger.pipeline.workers import ClusterUnavailable

    title = titled(title)
    out, err = consoles(soft_wrap=True)
    try:
        real = people_games(title, people) if people else None
    except PeopleUnavailable as exc:
        raise fail(str(exc)) from None
    for line in real.unreadable if real is not None else ():
        say(err, line)
    try:
        with progress_bars(err) as progress:
            found = run_ladder(title, players, bots, games, first_seed=first_seed, workers=workers, cluster=cluster,
                               max_actions=max_actions, progress=progress)
    except (ValueError, ClusterUnavailable) as exc:
        raise fail(str(exc)) from None
    for table in found.tables:
        if table.error is not None:
            say(err, f"seed {table.seed}: {table.error}")
    standings = found.standings()
    comparison = found.beside(real.shapes) if real is not None else None
    if as_json:
        print(json.dumps({"title": title, "players": players, "games": len(found.tables),
                          "finished": len(found.finished), "chance": found.chance, "bots": [
                              {"bot": s.bot, "seats": s.seats, "wins": s.wins, "win_rate": s.win_rate,
                               "win_interval": s.win_interval, "mu": s.mu, "sigma": s.sigma,
                               "rating_interval": s.rating_interval} for s in standings],
                          **({"people": comparison_json(comparison)} if comparison is not None else {})}, indent=1))
    else:
        last = first_seed + games - 1
        say(out, f"{title}, {players} players: {len(found.finished)} of {len(found.tables)} games finished on seeds "
                 f"{first_seed}-{last}, table {bots} turned one seat a game ({found.where}, {found.seconds:.0f} s)")
        say(out, f"{'bot':<12} {'seats':>6} {'won':>5} {'win rate':>9}  {'95% interval':<15} rating (95% interval)")
        for s in standings:
            low, high = s.win_interval
            bottom, top = s.rating_interval
            say(out, f"{s.bot:<12} {s.seats:>6} {s.wins:>5} {s.win_rate:>9.1%}  {low:>6.1%}-{high:<8.1%} "
                     f"{s.mu:5.1f} ({bottom:.1f} to {top:.1f})")
        say(out, f"Chance alone wins {found.chance:.1%} of seats.")
        if found.finished:
            lengths = sorted(table.actions for table in found.finished)
            ends = Counter(table.end_reason for table in found.finished)
            say(out, f"games: median {lengths[len(lengths) // 2]} actions; ended by: "
                     + ", ".join(f"{reason} ({n})" for reason, n in ends.most_common()))
        if comparison is not None and real is not None:
            for line in comparison_lines(comparison, real.left_out):
                say(out, line)
    if db is not None:
        from railledger.pipeline.ladder import keep_standings
        from railledger.pipeline.storing import ArchiveUnavailable

        try:
            kept = keep_standings(found, bots, first_seed, db, wait)
        except ArchiveUnavailable as exc:
            raise fail(str(exc)) from None
        say(err, f"standings of {kept} bot{'' if kept == 1 else 's'} kept in {db}")
    if len(found.finished) < len(found.tables):
        raise typer.Exit(code=1)


def predict(
    paths: Annotated[list[str], typer.Argument(help="People's records (18xx.games JSON or notation) or folders of them.")],
    bots: Annotated[str, typer.Option("--bots", help="The bots asked, comma-separated, weakest first.")] = "random,greedy,strong",
) -> None:
    """Predicting people: how often each bot's first choice, and its first three, is what the person did.

    Replays each record; at every decision where more than one action was legal, each bot ranks the
    legal actions of the seat and its first choice and first three are compared with the person's
    action (the same type, entity and deciding fields: docs/selfplay.md). Prints per title and kind
    of action the decisions and both rates with Wilson 95% intervals, and whether the last bot
    named guesses first more often than the one before it. A file that cannot be read is named on
    stderr with why, and the command then exits 1.

    Example: railledger predict ../shared/fixtures --bots random,greedy,strong
    """
    from railledger.bench.predict import predict_section
    from railledger.cli.output import consoles, print_section, say
    from railledger.ingest.sources import expand, load
    from railledger.selfplay.bots import bot_names

    out, err = consoles(soft_wrap=True)
    names = tuple(name.strip() for name in bots.split(","))
    unknown = [name for name in names if name not in bot_names()]
    if unknown:
        raise fail(f"--bots: no bot {unknown[0]!r}; the bots are {', '.join(bot_names())}")
    records, unreadable = [], 0
    for origin in expand(paths):
        for loaded in load(origin):
            if loaded.record is None:
                unreadable += 1
                say(err, str(loaded.error))
            else:
                records.append(loaded.record)
    print_section(out, predict_section(records, names))
    if unreadable:
        raise typer.Exit(code=1)
