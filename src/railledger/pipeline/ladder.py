"""How strongly bots play: many games at one title's table with the seats turned every game, each
bot's seat win rate with its interval, and a rating as players are rated.

A bot's strength is relative to the bots it meets, so a ladder is one table (``strong,greedy,
greedy``: the bot of every seat) played again and again on new seeds, turned one seat a game so
that every bot sits everywhere as often. Two numbers answer "how well does it play":

- its **seat win rate**, the share of its seats that finished with the highest value (a tie at the
  top is a win for each tied seat), with a Wilson 95% interval, beside what chance gives
  (one seat in as many as there are players);
- its **rating**, openskill's Plackett-Luce model as :mod:`railledger.analytics.ratings` rates
  people, every game one free-for-all match ranked by final value. A bot may hold several seats of
  one table; each seat is rated as a player holding the bot's rating before the game, and the bot
  then takes the mean of its seats' ratings after it.

The games are played and not stored: a ladder measures bots, it does not feed the statistics of
a title (``railledger simulate`` stores bots' games for that). Its standings may be kept in an
archive (:func:`keep_standings`), where a page counting bots' games reads how strongly each bot
plays. Each keeps its shape
(:mod:`analytics.shape`), so that :meth:`Ladder.beside` can say whether the bots' games run like
people's.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl
from openskill.models import PlackettLuceRating

from railledger.analytics.interval import Z_95, wilson_interval
from railledger.analytics.ratings import MODEL, per_player
from railledger.analytics.shape import Comparison, GameShape, compare_shapes, game_shape
from railledger.pipeline.progress import Progress, silent
from railledger.pipeline.storing import ArchiveUnavailable
from railledger.pipeline.simulating import seats_for
from railledger.pipeline.workers import Workers, worker_pool
from railledger.records import Archive
from railledger.records.errors import ArchiveError
from railledger.replay.titles import title_named
from railledger.selfplay import MAX_ACTIONS
from railledger.selfplay.bots import bot_named
from railledger.selfplay.play import SelfPlayError, play


@dataclass(frozen=True)
class Table:
    """One ladder game: its seed, the bot of every seat, and each seat's final value (None: the
    game could not be played to its end, ``error`` says why)."""

    seed: int
    bots: tuple[str, ...]
    values: tuple[int, ...] | None
    error: str | None = None
    actions: int = 0
    end_reason: str = ""
    shape: GameShape | None = None
    """The game's shape (:mod:`analytics.shape`), to set beside people's games."""

    @property
    def winners(self) -> frozenset[int]:
        """The seats (0-based) with the highest final value."""
        if self.values is None:
            return frozenset()
        best = max(self.values)
        return frozenset(seat for seat, value in enumerate(self.values) if value == best)


@dataclass(frozen=True)
class BotStanding:
    """One bot's figures over a ladder's finished games."""

    bot: str
    seats: int
    wins: int
    mu: float
    sigma: float

    @property
    def win_rate(self) -> float:
        """Its seats won, as a share of its seats."""
        return self.wins / self.seats if self.seats else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of :attr:`win_rate`."""
        return wilson_interval(self.wins, self.seats)

    @property
    def rating_interval(self) -> tuple[float, float]:
        """The rating within 1.96 sigma of mu: where its skill lies with 95% confidence under the model."""
        return self.mu - Z_95 * self.sigma, self.mu + Z_95 * self.sigma


@dataclass
class Ladder:
    """What one run of :func:`run_ladder` played and how each bot did."""

    title: str
    players: int
    tables: list[Table] = field(default_factory=list)
    seconds: float = 0.0
    where: str = "this process"

    @property
    def finished(self) -> list[Table]:
        """The games played to their end: the ones counted."""
        return [table for table in self.tables if table.values is not None]

    @property
    def chance(self) -> float:
        """The seat win rate of a bot no better than its opponents."""
        return 1 / self.players

    def beside(self, people: Sequence[GameShape]) -> Comparison:
        """The finished games' shapes beside ``people``'s games of the title, measure by measure."""
        phases = [phase.name for phase in title_named(self.title).phases]
        return compare_shapes(self.title, phases, [t.shape for t in self.finished if t.shape is not None], people)

    def standings(self) -> list[BotStanding]:
        """Every bot of the table, the highest seat win rate first."""
        ratings = rate_bots(self.finished)
        seats: dict[str, int] = {}
        wins: dict[str, int] = {}
        for table in self.finished:
            for seat, bot in enumerate(table.bots):
                seats[bot] = seats.get(bot, 0) + 1
                wins[bot] = wins.get(bot, 0) + (seat in table.winners)
        standings = [BotStanding(bot, seats[bot], wins[bot], ratings[bot].mu, ratings[bot].sigma) for bot in seats]
        return sorted(standings, key=lambda standing: (-standing.win_rate, -standing.mu, standing.bot))


def keep_standings(ladder: Ladder, table: str, first_seed: int, db: Path, wait: float = 30.0) -> int:
    """Store the ladder's standings in the archive ``db`` (one row per bot, beside earlier runs'),
    ``table`` the bots of its seats as given; how many rows were stored. Raises
    :class:`~railledger.pipeline.storing.ArchiveUnavailable` when the archive cannot be written."""
    rows = pl.DataFrame([{
        "title": ladder.title, "players": ladder.players, "table_bots": table, "first_seed": first_seed,
        "last_seed": first_seed + len(ladder.tables) - 1, "games": len(ladder.finished), "bot": s.bot, "seats": s.seats,
        "wins": s.wins, "win_low": s.win_interval[0], "win_high": s.win_interval[1], "mu": s.mu, "sigma": s.sigma}
        for s in ladder.standings()])
    if rows.is_empty():
        return 0
    try:
        with Archive.open(db, wait=wait) as archive:
            archive.store_ladder(rows)
    except ArchiveError as exc:
        raise ArchiveUnavailable(exc) from exc
    return rows.height


def rate_bots(tables: Sequence[Table]) -> dict[str, PlackettLuceRating]:
    """Each bot's rating after ``tables`` in seed order: every game a free-for-all ranked by final
    value (equal values share a rank), each seat rated from its bot's rating before the game, the
    bot's rating after it the mean of its seats'."""
    current: dict[str, PlackettLuceRating] = {}
    for table in tables:
        if table.values is None:
            continue
        before = [[current.get(bot) or MODEL.rating(name=bot)] for bot in table.bots]
        ranks = [float(sum(other > value for other in table.values) + 1) for value in table.values]
        after = MODEL.rate(before, ranks=ranks)
        current.update(per_player(list(table.bots), [rating for (rating,) in after]))
    return current


def ladder_game(title: str, seed: int, bots: tuple[str, ...], max_actions: int) -> Table:
    """One ladder game, played in a worker; a game that cannot be played is a result, not an exception."""
    try:
        played = play(title, seed, [bot_named(name) for name in bots], max_actions)
    except SelfPlayError as failed:
        return Table(seed, bots, None, str(failed))
    result = played.record.result or {}
    return Table(seed, bots, tuple(result.get(player.id, 0) for player in played.record.players),
                 actions=len(played.record.actions), end_reason=played.end_reason, shape=game_shape(played.record))


def run_ladder(title: str, players: int, bots: str, games: int, *, first_seed: int = 1, workers: int = 1,
               cluster: str | None = None, max_actions: int = MAX_ACTIONS, progress: Progress = silent) -> Ladder:
    """Play ``games`` games of ``title`` at a table of ``players`` seats, ``bots`` naming the bot of
    every seat (comma-separated, seat order), turned one seat a game, on seeds from ``first_seed``.

    Raises ValueError for a table that cannot be seated
    (:func:`~railledger.pipeline.simulating.seats_for`), and
    :class:`~railledger.pipeline.workers.ClusterUnavailable` when the cluster cannot be used.

    Example: ``run_ladder("18MS", 3, "greedy,random,random", 50).standings()``
    """
    tables = [seats_for(title, players, bots, n, rotate=True) for n in range(games)]
    ladder = Ladder(title, players)
    started = time.perf_counter()
    label = f"ladder {title}"
    progress(label, 0, games)
    with worker_pool(1 if games <= 1 else min(workers, games), cluster) as pool:
        ladder.where = pool.where
        for table in _played(title, first_seed, tables, pool, max_actions):
            ladder.tables.append(table)
            progress(label, len(ladder.tables), games)
    ladder.seconds = time.perf_counter() - started
    return ladder


def _played(title: str, first_seed: int, tables: list[tuple[str, ...]], pool: Workers,
            max_actions: int) -> Iterator[Table]:
    """Each table's game in seed order; a worker that died is that game's error."""
    calls = ((title, first_seed + n, seats, max_actions) for n, seats in enumerate(tables))
    for n, future in enumerate(pool.results(ladder_game, calls)):
        try:
            yield future.result()
        except Exception as exc:
            yield Table(first_seed + n, tables[n], None, f"its worker failed: {type(exc).__name__}: {exc}")
