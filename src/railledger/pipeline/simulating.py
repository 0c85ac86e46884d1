"""Games played by bots and stored in the archive as source ``selfplay``, as ``railledger
simulate`` does: played, replayed and shaped into the archive's columns by workers, written by
this process alone. :func:`simulate_games` is the whole command as one call.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from railledger.ingest.titles import PLAYER_COUNTS, counts_text
from railledger.pipeline.progress import Progress, silent
from railledger.pipeline.storing import ArchiveUnavailable, IngestRun, refresh_ratings
from railledger.pipeline.workers import Workers, gathered, worker_pool
from railledger.records import ArchiveError
from railledger.records.archive import EncodedGame, encode_game
from railledger.records.connection import WaitNotice
from railledger.replay import engine_version
from railledger.selfplay import MAX_ACTIONS
from railledger.selfplay.bots import bot_names
from railledger.selfplay.play import game_id
from railledger.selfplay.simulate import Simulated, seating, simulate


@dataclass
class Simulation:
    """What one run of :func:`simulate_games` did."""

    title: str
    games: list[Simulated] = field(default_factory=list)
    """The games played, in seed order (none for seeds already stored by this engine)."""
    outcomes: Counter[str] = field(default_factory=Counter)
    """How many games were stored new, replaced or failed, and how many were left unchanged."""
    failures: list[str] = field(default_factory=list)
    """One line for each game that was played but could not be stored."""
    seconds: float = 0.0
    where: str = "this process"
    ratings: str | None = None
    """What the ratings kept in the archive became at the end, in one line."""

    @property
    def verified(self) -> int:
        """Games replayed with no flag to their end and result."""
        return sum(game.verified for game in self.games)


def seats_for(title: str, players: int, bots: str, game: int = 0, rotate: bool = False) -> tuple[str, ...]:
    """The bot of every seat of the ``game``-th table, from a comma-separated list of bot names
    (one for every seat, or one per seat in seat order), turned one seat a game when ``rotate``.

    Raises ValueError naming the unknown title, the player count the title is not played with,
    or the unknown bot.
    """
    counts = PLAYER_COUNTS.get(title)
    if counts is None:
        raise ValueError(f"unknown title {title!r}; the titles are {', '.join(PLAYER_COUNTS)}")
    if players not in counts:
        raise ValueError(f"{title} is played by {counts_text(counts)} players, not {players}")
    names = [name.strip() for name in bots.split(",")]
    unknown = [name for name in names if name not in bot_names()]
    if unknown:
        raise ValueError(f"no bot {unknown[0]!r}; the bots are {', '.join(bot_names())}")
    return seating(names, players, game, rotate)


def simulate_games(title: str, players: int, games: int, db: str | Path, *, bots: str = "greedy",
                   first_seed: int = 1, rotate: bool = False, workers: int = 1, cluster: str | None = None,
                   max_actions: int = MAX_ACTIONS, wait: float = 0.0, on_wait: WaitNotice | None = None,
                   progress: Progress = silent, variant: str | None = None) -> Simulation:
    """Play ``games`` games of ``title`` with bots on seeds from ``first_seed``, replay each as an
    ingest replays a record, and store them in the archive at ``db`` with the bot of every seat.

    ``variant``: a variant's TOML text (:mod:`replay.variant`), checked before any game is played;
    its games are stored with it under their own ids. A game already stored by this engine is not
    played again. Raises ValueError for a table
    that cannot be seated (:func:`seats_for`),
    :class:`~railledger.pipeline.storing.ArchiveUnavailable` when the archive cannot be opened,
    and :class:`~railledger.pipeline.workers.ClusterUnavailable` when the cluster cannot be used.

    Example: ``simulate_games("18MS", 3, 10, "games.duckdb", bots="greedy,random,random").verified``
    """
    tables = [seats_for(title, players, bots, n, rotate) for n in range(games)]
    seeds = range(first_seed, first_seed + games)
    run = IngestRun(Path(db), wait=wait, on_wait=on_wait)
    with run.archive() as archive:
        stored = {seed: archive.stored_version(f"selfplay/{game_id(title, seed, seats, variant)}") for seed, seats in zip(seeds, tables)}
    todo = [(seed, seats) for seed, seats in zip(seeds, tables)
            if (found := stored[seed]) is None or found[1] != engine_version(title, variant)]
    simulation = Simulation(title, outcomes=Counter({"unchanged": games - len(todo)}))
    started = time.perf_counter()
    label = f"playing {title}"
    progress(label, 0, len(todo))
    with worker_pool(1 if len(todo) <= 1 else min(workers, len(todo)), cluster) as pool:
        simulation.where = pool.where
        for played in _played(title, todo, pool, max_actions, variant):
            simulation.games.extend(game for game, _ in played)
            simulation.outcomes.update(_store(run, played, simulation.failures))
            progress(label, len(simulation.games), len(todo))
    simulation.seconds = time.perf_counter() - started
    simulation.ratings = refresh_ratings(run)
    return simulation


def play_for_archive(title: str, seed: int, seats: tuple[str, ...], max_actions: int,
                     variant: str | None = None) -> tuple[Simulated, EncodedGame | None]:
    """One game played and replayed, and shaped into the archive's columns, in a worker.

    The game comes back with its columns and without its replay's per-action snapshots (the
    columns hold them; the summary reads the flags, events and result). A game the archive
    could not hold exactly comes back whole, without columns, for the writer to say why.
    """
    game = simulate(title, seed, seats, max_actions, variant)
    if game.played is None or game.replay is None:
        return game, None
    try:
        encoded = encode_game(game.played.record, game.replay, game.runs)
    except ValueError:
        return game, None
    return replace(game, replay=replace(game.replay, states=None)), encoded


def _played(title: str, todo: list[tuple[int, tuple[str, ...]]], pool: Workers,
            max_actions: int, variant: str | None) -> Iterator[list[tuple[Simulated, EncodedGame | None]]]:
    """The games played, replayed and shaped by ``pool``'s workers, in seed order, in groups
    (:func:`pipeline.workers.gathered`) for the writer to store together; a worker that died or could
    not send its game back (a process killed, a cluster lost) is that game's error."""
    games = pool.results(play_for_archive, ((title, seed, seats, max_actions, variant) for seed, seats in todo))
    for group in gathered(zip(todo, games)):
        played = []
        for (seed, seats), future in group:
            try:
                played.append(future.result())
            except Exception as exc:
                played.append((Simulated(title, seed, seats, None, None, f"its worker failed: {type(exc).__name__}: {exc}", 0.0), None))
        yield played


def _store(run: IngestRun, played: list[tuple[Simulated, EncodedGame | None]], failures: list[str]) -> list[str]:
    """Store games with their replays in one open of the archive: those the workers shaped into
    columns in one transaction (or each alone when one is refused, so a failure is one game's),
    the others from their replays; each one's outcome name, or "failed" with a line in ``failures``."""
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
                    failures.append(f"{record.key}: not stored: {exc}")
    except ArchiveUnavailable as exc:
        for _, _, record, _ in storable:
            failures.append(f"{record.key}: not stored: {exc}")
    return outcomes


def _origin(game: Simulated) -> str:
    """Where a simulated game comes from, as the archive keeps it."""
    return f"railledger simulate (seed {game.seed})"
