"""An archive opened for reading from Python: its games, states, runs and verdicts as polars frames.

What the dashboard and the commands read, offered to a notebook: ``open_archive(path)`` opens the
file read-only (so an ingest elsewhere may still write it between reads) and each method returns
one frame, filtered inside DuckDB. Tables and columns are those of docs/schema.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import polars as pl

from railledger.ingest.model import Record
from railledger.records import Archive
from railledger.records.archive import ARCHIVE_TABLES


class ArchiveReader:
    """The read side of an archive: one method a kind of row, each a polars frame.

    Every per-game method takes ``game`` (a key such as ``18xx.games/14375``, or a source id
    naming one game) to read that game's rows only, or None for every game's.
    """

    tables = ARCHIVE_TABLES
    """The tables :meth:`table` reads."""

    def __init__(self, archive: Archive) -> None:
        self.archive = archive

    def games(self, title: str | None = None, player: str | None = None) -> pl.DataFrame:
        """One row per game (key, title, source, players, status, verdict, action count...),
        ordered by title and source id; ``title`` ignoring case, ``player`` a name's part or an id."""
        return self.archive.games(title=title, player=player)

    def verdicts(self) -> pl.DataFrame:
        """[key, title, source, verdict, verdict_detail] of every game: ``valid``, ``illegal``,
        ``result mismatch``, ``unfinished`` or ``no engine``, and why."""
        return self.table("games").select("key", "title", "source", "verdict", "verdict_detail")

    def player_states(self, game: str | None = None) -> pl.DataFrame:
        """Each player's cash, value and shares after every action (``seq``) of the game(s)."""
        return self.table("player_states", game)

    def company_states(self, game: str | None = None) -> pl.DataFrame:
        """Each company's price, treasury, trains, tokens and president after every action."""
        return self.table("company_states", game)

    def runs(self, game: str | None = None) -> pl.DataFrame:
        """Every run of a company: the declared revenue, the engine's, the proven optimum, and routes."""
        return self.table("runs", game)

    def flags(self, game: str | None = None) -> pl.DataFrame:
        """Every rule an action broke: the action, the rule and section, and the flag it follows from."""
        return self.table("flags", game)

    def standings(self, game: str | None = None) -> pl.DataFrame:
        """Each seat's final value, rank and whether it won, as the replay found them."""
        return self.table("standings", game)

    def table(self, name: str, game: str | None = None) -> pl.DataFrame:
        """Any table of :attr:`tables`, whole or one game's rows. KeyError for another name."""
        return self.archive.table(name, game)

    def record(self, game: str) -> Record:
        """The stored record of a game, as ingest read it: push its actions into
        :meth:`railledger.Game.from_record` to step through it."""
        return self.archive.record(game)


@contextmanager
def open_archive(path: str | Path, wait: float = 0.0) -> Iterator[ArchiveReader]:
    """The archive at ``path`` opened read-only for a ``with`` block, waiting up to ``wait``
    seconds while another process writes it.

    Raises FileNotFoundError when there is no file, and
    :class:`~railledger.records.ArchiveError` when it is busy past the wait, damaged, or not an
    archive railledger made.
    """
    with Archive.open(path, read_only=True, wait=wait) as archive:
        yield ArchiveReader(archive)
