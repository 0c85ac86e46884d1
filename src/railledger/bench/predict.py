"""Predicting people for ``railledger bench`` and ``railledger predict``: per title and kind of
action, how often a person's action was each bot's first choice and among its first three
(:mod:`selfplay.prediction`), with Wilson 95% intervals: a few records prove little."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from railledger.analytics.interval import wilson_interval
from railledger.bench.sections import Section
from railledger.ingest.model import Record
from railledger.selfplay.bots import bot_named
from railledger.selfplay.prediction import Guess, guesses
from railledger.selfplay.ranking import TOP

BOTS = ("random", "greedy", "strong")
"""The bots the bench asks, weakest first."""

EVERY_KIND = "every kind"
"""The row of a title and bot pooling its kinds of action."""


@dataclass
class Tally:
    """Decisions of one title, kind and bot, and how many the bot guessed first and in its top."""

    decisions: int = 0
    first: int = 0
    top: int = 0

    def add(self, guess: Guess) -> None:
        self.decisions += 1
        self.first += guess.first
        self.top += guess.top


def tallies(found: Iterable[Guess]) -> dict[tuple[str, str, str], Tally]:
    """(title, kind, bot) -> its tally; each title and bot also under :data:`EVERY_KIND`."""
    counted: dict[tuple[str, str, str], Tally] = {}
    for guess in found:
        for kind in (guess.kind, EVERY_KIND):
            counted.setdefault((guess.title, kind, guess.bot), Tally()).add(guess)
    return counted


def predict_section(records: Sequence[Record], bots: Sequence[str] = BOTS) -> Section:
    """The section: one row per title, kind and bot, then per title whether the last bot named
    guesses people's actions first more often than the one before it (by every kind pooled)."""
    players = [bot_named(name) for name in bots]
    counted = tallies(guess for record in records for guess in guesses(record, players))
    section = Section(f"predicting people: at each decision of the records with more than one legal action, the "
                      f"person's action as the bot's first choice and among its first {TOP} (95% intervals)",
                      ("title", "action", "bot", "decisions", "first choice", f"first {TOP}"), left=frozenset({0, 1, 2}))
    for (title, kind, bot), tally in sorted(counted.items(), key=lambda item: (item[0][0], item[0][1] == EVERY_KIND,
                                                                                  item[0][1], bots.index(item[0][2]))):
        section.rows.append((title, kind, bot, str(tally.decisions), _rate(tally.first, tally.decisions),
                             _rate(tally.top, tally.decisions)))
    if len(bots) >= 2:
        better, other = bots[-1], bots[-2]
        for title in sorted({title for title, _, _ in counted}):
            mine, theirs = counted[(title, EVERY_KIND, better)], counted[(title, EVERY_KIND, other)]
            verdict = "above" if mine.first > theirs.first else "not above"
            section.lines.append(f"{title}: {better} guesses first {mine.first} of {mine.decisions}, {verdict} "
                                 f"{other} ({theirs.first})")
    if not counted:
        section.lines.append("no decision with more than one legal action in the records")
    return section


def _rate(hits: int, n: int) -> str:
    low, high = wilson_interval(hits, n)
    return f"{hits / n:.0%} ({low:.0%}-{high:.0%})" if n else "-"
