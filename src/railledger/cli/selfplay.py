"""``railledger play`` and ``railledger simulate``: games played by bots, written or archived.

``play`` writes one game as a record file (.json as 18xx.games writes it, or .rln notation).
``simulate`` plays many in worker processes and stores them in the archive as source
``selfplay``, each with its replay and the bot of every seat, then prints who won. The bots, the
game loop and the replay are the ``selfplay`` package's; this module only reads the options,
spreads the work and writes.
"""

import os
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from railledger.cli.options import ClusterOption, WorkersOption, fail
from railledger.selfplay import MAX_ACTIONS

if TYPE_CHECKING:  # the engine, the archive and rich load when a command runs, not for --help
    from railledger.cli.storing import IngestRun
    from railledger.cli.workers import Workers
    from railledger.records.archive import EncodedGame
    from railledger.selfplay.simulate import Simulated

TitleOption = Annotated[str, typer.Option("--title", help="18xx.games title: 18MS, 18Texas or 'The Old Prince 1871'.")]
PlayersOption = Annotated[int, typer.Option("--players", help="Players at the table.", min=1)]
BotsOption = Annotated[str, typer.Option("--bots", help="One bot for every seat, or one per seat in seat order, comma-separated (random, greedy).")]
MaxActionsOption = Annotated[int, typer.Option("--max-actions", help="The hard cap: a game not over after this many actions is an error.", min=1)]


def play(
    title: TitleOption,
    players: PlayersOption,
    seed: Annotated[int, typer.Option("--seed", help="The game's seed: the same seed plays the same game.")],
    out_file: Annotated[Path, typer.Option("--out", help="Record to write: .json (18xx.games) or .rln (notation).")],
    bots: BotsOption = "greedy",
    max_actions: MaxActionsOption = MAX_ACTIONS,
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

    seats = _seating(title, players, bots)
    if out_file.suffix not in (".json", notation.EXTENSION):
        raise fail(f"{out_file}: give a .json or {notation.EXTENSION} file name")
    game = simulate_one(title, seed, seats, max_actions)
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
) -> None:
    """Play many games with bots in parallel and store them in the archive as source 'selfplay'.

    Each game is replayed as an ingest replays a record, and stored with its states, events,
    standings and the bot of every seat; a game already stored by this engine is not played
    again. Prints the games played, how many replayed with no flag to their result, the action
    counts, how they ended, and each bot's wins. Exit 1 when any game could not be played or its
    replay disagrees. The games are played by --workers processes, or by the workers of the Dask
    cluster at --cluster (docs/scale.md); this process alone writes the archive, and brings the
    player ratings kept in it up to date at the end (bots' games are not rated themselves).

    Example: railledger simulate --title 18Texas --players 4 --games 100 --bots greedy,random --rotate
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from railledger.cli.output import consoles, say
    from railledger.cli.storing import ArchiveUnavailable, IngestRun, refresh_ratings
    from railledger.cli.workers import ClusterUnavailable, workers as pool_of
    from railledger.replay import engine_version
    from railledger.selfplay.play import game_id

    err = consoles(soft_wrap=True)[1]
    tables = [_seating(title, players, bots, n, rotate) for n in range(games)]
    run = IngestRun(db, wait=wait, on_wait=lambda busy, seconds: say(err, f"archive {busy.path} is in use; waiting up to {seconds:g} s"))
    try:
        with run.archive() as archive:
            stored = {seed: archive.stored_version(f"selfplay/{game_id(title, seed, seats)}")
                      for seed, seats in zip(range(first_seed, first_seed + games), tables)}
    except ArchiveUnavailable as exc:
        raise fail(str(exc)) from None
    todo = [(seed, seats) for seed, seats in zip(range(first_seed, first_seed + games), tables)
            if stored[seed] is None or stored[seed][1] != engine_version(title)]  # type: ignore[index]
    started = time.perf_counter()
    results: list[Simulated] = []
    outcomes: Counter[str] = Counter({"unchanged": games - len(todo)})
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    try:
        with pool_of(1 if len(todo) <= 1 else min(workers, len(todo)), cluster) as pool, \
                Progress(*columns, console=err, transient=True) as progress:
            task = progress.add_task(f"playing {title}", total=len(todo))
            for played in _played(title, todo, pool, max_actions):
                results.extend(game for game, _ in played)
                outcomes.update(_store(run, played))
                progress.advance(task, len(played))
    except ClusterUnavailable as exc:
        raise fail(str(exc)) from None
    _summary(title, results, outcomes, time.perf_counter() - started, pool.where, db)
    rated = refresh_ratings(run)
    if rated is not None:
        say(consoles(soft_wrap=True)[0], rated)
    if any(not game.verified for game in results) or outcomes["failed"]:
        raise typer.Exit(code=1)


def play_for_archive(title: str, seed: int, seats: tuple[str, ...], max_actions: int) -> tuple["Simulated", "EncodedGame | None"]:
    """One game played and replayed, and shaped into the archive's columns, in a worker.

    The game comes back with its columns and without its replay's per-action snapshots (the
    columns hold them; the summary reads the flags, events and result). A game the archive
    could not hold exactly comes back whole, without columns, for the writer to say why.
    """
    from dataclasses import replace

    from railledger.records.archive import encode_game
    from railledger.selfplay.simulate import simulate as simulate_one

    game = simulate_one(title, seed, seats, max_actions)
    if game.played is None or game.replay is None:
        return game, None
    try:
        encoded = encode_game(game.played.record, game.replay, game.runs)
    except ValueError:
        return game, None
    return replace(game, replay=replace(game.replay, snapshots=[])), encoded


def _played(title: str, todo: list[tuple[int, tuple[str, ...]]], pool: "Workers",
            max_actions: int) -> Iterator[list[tuple["Simulated", "EncodedGame | None"]]]:
    """The games played, replayed and shaped by ``pool``'s workers, in seed order, in groups
    (:func:`cli.workers.gathered`) for the writer to store together; a worker that died or could
    not send its game back (a process killed, a cluster lost) is that game's error."""
    from railledger.cli.workers import gathered
    from railledger.selfplay.simulate import Simulated

    games = pool.results(play_for_archive, ((title, seed, seats, max_actions) for seed, seats in todo))
    for group in gathered(zip(todo, games)):
        played = []
        for (seed, seats), future in group:
            try:
                played.append(future.result())
            except Exception as exc:
                played.append((Simulated(title, seed, seats, None, None, f"its worker failed: {type(exc).__name__}: {exc}", 0.0), None))
        yield played


def _store(run: "IngestRun", played: list[tuple["Simulated", "EncodedGame | None"]]) -> list[str]:
    """Store games with their replays in one open of the archive: those the workers shaped into
    columns in one transaction (or each alone when one is refused, so a failure is one game's),
    the others from their replays; each one's outcome name, or "failed"."""
    from railledger.cli.output import consoles, say
    from railledger.cli.storing import ArchiveUnavailable
    from railledger.records import ArchiveError

    outcomes = ["failed"] * len(played)
    storable = [(n, game, game.played.record, columns) for n, (game, columns) in enumerate(played) if game.played is not None]
    shaped = [(n, columns, _origin(game)) for n, game, _, columns in storable if columns is not None]
    try:
        with run.archive() as archive:
            try:
                together = archive.store_many([(columns, origin) for _, columns, origin in shaped]) if shaped else []
                for (n, _, _), outcome in zip(shaped, together):
                    outcomes[n] = outcome.value
                alone = [entry for entry in storable if entry[3] is None]
            except (ArchiveError, ValueError):
                alone = storable  # a game is refused: each alone says which
            for n, game, record, columns in alone:
                try:
                    if columns is not None:
                        stored = archive.store_encoded(columns, _origin(game))
                    else:  # the worker could not shape it into columns: storing it says why
                        stored = archive.store(record, origin=_origin(game), replay=game.replay, runs=game.runs)
                    outcomes[n] = stored.value
                except (ArchiveError, ValueError) as exc:
                    say(consoles(soft_wrap=True)[1], f"{record.key}: not stored: {exc}")
    except ArchiveUnavailable as exc:
        for _, _, record, _ in storable:
            say(consoles(soft_wrap=True)[1], f"{record.key}: not stored: {exc}")
    return outcomes


def _origin(game: "Simulated") -> str:
    """Where a simulated game comes from, as the archive keeps it."""
    return f"railledger simulate (seed {game.seed})"


def _summary(title: str, results: list["Simulated"], outcomes: Counter[str], seconds: float, where: str, db: Path) -> None:
    import statistics

    from railledger.cli.output import consoles, say
    from railledger.selfplay.simulate import winners

    out, err = consoles(soft_wrap=True)
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
        say(out, f"speed: {len(results) / seconds:.2f} games/s in {where}; "
                 f"{cpu / len(results):.2f} cpu s a game to play ({len(results) / max(cpu, 1e-9):.2f} games per cpu second)")
        seats: Counter[str] = Counter()
        wins: Counter[str] = Counter()
        for game in played:
            won = winners(game.record)
            for player in game.record.players:
                seats[str(player.bot)] += 1
                wins[str(player.bot)] += player.id in won
        say(out, "wins: " + ", ".join(f"{bot} {wins[bot]} of {seats[bot]} seats ({wins[bot] / seats[bot]:.0%})" for bot in sorted(seats)))
    for failed in results:
        if not failed.verified:
            say(err, f"seed {failed.seed} ({','.join(failed.bots)}): {failed.error or _disagreement(failed)}")


def _seating(title: str, players: int, bots: str, game: int = 0, rotate: bool = False) -> tuple[str, ...]:
    from railledger.ingest.titles import PLAYER_COUNTS, counts_text
    from railledger.selfplay.bots import bot_names
    from railledger.selfplay.simulate import seating

    counts = PLAYER_COUNTS.get(title)
    if counts is None:
        raise fail(f"unknown title {title!r}; the titles are {', '.join(PLAYER_COUNTS)}")
    if players not in counts:
        raise fail(f"{title} is played by {counts_text(counts)} players, not {players}")
    names = [name.strip() for name in bots.split(",")]
    unknown = [name for name in names if name not in bot_names()]
    if unknown:
        raise fail(f"no bot {unknown[0]!r}; the bots are {', '.join(bot_names())}")
    try:
        return seating(names, players, game, rotate)
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
        return f"flag at #{flag.index} ({flag.action_id}) {flag.rule}: {flag.message}"
    if not any(e.kind == "game_end" for e in replay.events):
        return "the replay does not reach the game's end"
    return f"the replay's result {replay.result} is not the game's {dict(replay.record.result or {})}"
