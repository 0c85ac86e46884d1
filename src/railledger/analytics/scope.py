"""Which games statistics count: by default only ``valid`` ones, saying how many were left out.

An unfinished example game has every player at the starting cash, all "winning"; an illegal or
mismatched game's values are not the game the players played. Counting them would make the win
rates and the train rush say what no finished game said, so every statistic starts from this
scope, and says what it left out and how to include it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import polars as pl

from railledger.records import Archive
from railledger.replay.verdict import KINDS, VALID

NOT_JUDGED = "not judged"
"""A game stored before verdicts were kept (ingest it again to judge it)."""


@dataclass(frozen=True)
class Scope:
    """The replayed games a statistic counts (``keys``) and, by verdict, those it leaves out."""

    keys: frozenset[str]
    left_out: dict[str, int] = field(default_factory=dict)
    everything: bool = False

    def note(self, switch: str) -> str:
        """One sentence for a page or a command: what is counted, what is not and why, and
        ``switch``, the name of the control that includes the rest."""
        counted = f"{len(self.keys)} {'replayed' if self.everything else 'valid'} game{'s' if len(self.keys) != 1 else ''}"
        if not self.left_out:
            return f"Counting {counted}."
        left = ", ".join(f"{n} {kind}" for kind, n in self.left_out.items())
        return f"Counting {counted}; left out: {left} ({switch} to include them)."


def counted_games(archive: Archive, everything: bool = False, title: str | None = None,
                  bots: str | None = None, selfplay: bool | None = None) -> Scope:
    """The replayed games (those with standings) a statistic counts, of one title (ignoring case)
    or of all: the ``valid`` ones, or every replayed game with ``everything``; with ``selfplay``,
    only the games of source ``bots`` (True) or only the others (False), so that a page showing
    one kind of game says how many of that kind it counted and left out."""
    verdicts = archive.replayed_verdicts(title, selfplay, bots).with_columns(pl.col("verdict").fill_null(NOT_JUDGED))
    if everything:
        return Scope(frozenset(verdicts["key"].to_list()), everything=True)
    left = Counter(verdict for verdict in verdicts["verdict"].to_list() if verdict != VALID)
    ordered = {kind: left[kind] for kind in (*KINDS, NOT_JUDGED) if left[kind]}
    return Scope(frozenset(verdicts.filter(pl.col("verdict") == VALID)["key"].to_list()), ordered)
