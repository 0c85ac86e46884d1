"""People's games of a title, read for a ladder to compare its bots' games with
(:mod:`analytics.shape`): from an archive (its people's valid finished games of the title, as
every statistic counts them: :mod:`analytics.scope`) or from record files and folders (each record
of the title replayed, the valid finished ones kept).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from railledger.analytics.scope import SELFPLAY, Population, counted_games
from railledger.analytics.shape import GameShape, game_shape
from railledger.ingest.sources import expand, load
from railledger.records import Archive
from railledger.records.errors import ArchiveError

ARCHIVE_SUFFIXES = (".duckdb", ".db")
"""A path ending so is read as an archive; any other as records."""


class PeopleUnavailable(Exception):
    """People's games could not be read; ``str()`` is one line naming the file and why."""


@dataclass
class PeopleGames:
    """The shapes of the people's valid finished games of one title found in ``sources``, and how
    many games of that title were left out (not valid and finished)."""

    title: str
    sources: tuple[str, ...]
    shapes: list[GameShape] = field(default_factory=list)
    left_out: int = 0
    unreadable: list[str] = field(default_factory=list)
    """One line for each file that could not be read (file and why)."""


def people_games(title: str, sources: Sequence[str | Path]) -> PeopleGames:
    """The people's games of ``title`` in ``sources``: archives (``.duckdb``) and record files or
    folders. Raises :class:`PeopleUnavailable` for an archive that cannot be opened."""
    found = PeopleGames(title, tuple(map(str, sources)))
    files = [str(s) for s in sources if not str(s).endswith(ARCHIVE_SUFFIXES)]
    for archive in (Path(s) for s in sources if str(s).endswith(ARCHIVE_SUFFIXES)):
        _from_archive(found, archive)
    if files:
        _from_files(found, files)
    return found


def _from_archive(found: PeopleGames, path: Path) -> None:
    try:
        archive = Archive.open(path, read_only=True)
    except FileNotFoundError:
        raise PeopleUnavailable(f"{path}: no such archive") from None
    except ArchiveError as exc:
        raise PeopleUnavailable(f"{path}: {exc}") from None
    with archive:
        scope = counted_games(archive, Population(title=found.title))
        found.left_out += sum(scope.left_out.values())
        for key in scope.games["key"].to_list():
            shape = game_shape(archive.record(key))
            if shape is None:  # stored valid by an older engine, no longer so
                found.left_out += 1
            else:
                found.shapes.append(shape)


def _from_files(found: PeopleGames, paths: list[str]) -> None:
    """Every record of the title in ``paths``: those of another title are not counted at all, an
    unreadable file or a game that is not valid and finished is left out."""
    for origin in expand(paths):
        for loaded in load(origin):
            if loaded.record is None:
                found.unreadable.append(str(loaded.error) if loaded.error is not None else f"{origin}: no record")
                continue
            if loaded.record.title.lower() != found.title.lower() or loaded.record.source == SELFPLAY:
                continue
            shape = game_shape(loaded.record)
            if shape is None:
                found.left_out += 1
            else:
                found.shapes.append(shape)
