"""Which games a statistic counts (a :class:`Population`) and, in words, what it left out and why.

One definition for every statistic: ``railledger stats``, ``ratings`` and ``export`` and every
dashboard page ask :func:`counted_games` with the same population and so count the same games.
By default that is people's valid finished games: an unfinished game has every player near the
starting cash, all "winning"; an illegal or mismatched game's values are not the game the
players played; and a game bots played (``railledger simulate``) answers another question than a
game people played. A game played with a variant (``simulate --variant``, :mod:`replay.variant`)
is of another game than its title's, so a population holds the base title's games or one
variant's, never both. Each choice is a switch, named in the sentence that says what was left out
(:meth:`Scope.note`); docs/statistics.md describes them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import polars as pl

from railledger.records import Archive
from railledger.replay.verdict import KINDS

SELFPLAY = "selfplay"
"""The source of games bots played (``railledger play`` and ``simulate``)."""

PEOPLE, BOTS, BOTH = "people", "bots", "all"
GAME_KINDS = {PEOPLE: "people's games", BOTS: "bots' games", BOTH: "people's and bots' games"}
"""Whose games a population holds (``--games``, the sidebar's "Games"), in words."""

NOT_JUDGED = "not judged"
"""A game stored before verdicts were kept (ingest it again to judge it)."""

ENDED_BY_HAND = "ended by the players"
"""The engine's end reason for an ``end_game`` action (replay/game.py)."""


@dataclass(frozen=True)
class Switches:
    """How a reader changes a population where its note is read: the names of the controls."""

    games: str
    """The control choosing people's games, bots' games or both."""
    verdicts: str
    """The control counting every verdict, not only valid finished games."""
    variant: str = "--variant HASH"
    """The control choosing a variant's games in place of the base title's."""


COMMAND = Switches("--games all", "--every-verdict")
"""The options of ``stats``, ``ratings`` and ``export``."""


@dataclass(frozen=True)
class Population:
    """The games a statistic counts: whose (:data:`GAME_KINDS`), valid finished ones or every
    verdict (``every_verdict``), with the games players ended by hand or not (``manual_ends``:
    valid but for the end), of one title (ignoring case) and table size or of all; of the titles
    as published (``variant`` None) or of the variant whose hash begins with ``variant``."""

    games: str = PEOPLE
    every_verdict: bool = False
    manual_ends: bool = False
    title: str | None = None
    players: int | None = None
    variant: str | None = None

    def __post_init__(self) -> None:
        if self.games not in GAME_KINDS:
            raise ValueError(f"games are one of {', '.join(GAME_KINDS)}, not {self.games!r}")

    @property
    def all_titles(self) -> Population:
        """The same population over every title (a page or a rating that shows titles apart)."""
        return Population(self.games, self.every_verdict, self.manual_ends, players=self.players, variant=self.variant)

    def of_variant(self) -> pl.Expr:
        """Over game facts: the games of this population's variant (the base title's: none)."""
        if self.variant is None:
            return pl.col("variant_hash").is_null()
        return pl.col("variant_hash").str.starts_with(self.variant.lower()).fill_null(False)

    def of_kind(self) -> pl.Expr:
        """Over game facts: the games of this population's kind."""
        if self.games == BOTH:
            return pl.lit(True)
        bots = pl.col("source") == SELFPLAY
        return bots if self.games == BOTS else ~bots

    def counts(self) -> pl.Expr:
        """Over game facts of this population's kind (with ``ended_by_hand``): the games it counts."""
        if self.every_verdict:
            return pl.lit(True)
        valid = (pl.col("status") == "finished") & pl.col("has_result") & pl.col("replay_matches").fill_null(False)
        return valid if self.manual_ends else valid & ~pl.col("ended_by_hand")


@dataclass(frozen=True)
class Scope:
    """The games a population counts, in play order (``games``: rows of
    :meth:`records.Archive.game_facts` with ``ended_by_hand``), and those it left out: of its
    kind by verdict (``left_out``), and how many games of the other kind (``other_kind``)."""

    population: Population
    games: pl.DataFrame
    left_out: dict[str, int]
    other_kind: int
    other_variants: int = 0
    """Games of this population's kind played with another variant than its own (or the base title)."""

    @property
    def keys(self) -> frozenset[str]:
        """The counted games' keys, which the archive's per-game summaries are filtered by."""
        return frozenset(self.games["key"].to_list())

    @property
    def count(self) -> int:
        """How many games are counted."""
        return self.games.height

    def counted(self) -> str:
        """What is counted, in words: ``6 people's valid finished games``."""
        words = GAME_KINDS[self.population.games]
        if self.count == 1:
            words = words.replace("games", "game")
        if self.population.every_verdict:
            return f"{self.count} {words} of every verdict"
        quality = "valid finished" + (" or ended by hand" if self.population.manual_ends else "")
        kind, noun = words.rsplit(" ", 1)
        return f"{self.count} {kind} {quality} {noun}"

    def note(self, switches: Switches) -> str:
        """One sentence for a page or a command: the title and the table sizes counted, what is
        counted, what of its kind was left out and why, and the other kind's games not counted,
        each with the switch that counts them."""
        population = self.population
        where = population.title or "All titles"
        if population.variant is not None:
            where += f", variant {population.variant[:12]}"
        sizes = sorted(self.games["players"].unique().to_list())
        if sizes:
            where += f", {' and '.join(map(str, sizes))} player{'s' if sizes != [1] else ''}"
        text = f"{where}: {self.counted()}"
        if self.left_out:
            left = ", ".join(f"{n} {kind}" for kind, n in self.left_out.items())
            text += f"; left out: {left} ({switches.verdicts} counts them)"
        if self.other_kind:
            other = GAME_KINDS[PEOPLE if population.games == BOTS else BOTS]
            text += f"; {self.other_kind} {other if self.other_kind != 1 else other.replace('games', 'game')} not counted ({switches.games} counts them)"
        if self.other_variants:
            which = "of the base title or other variants" if population.variant is not None else "of variants"
            text += (f"; {self.other_variants} game{'s' if self.other_variants != 1 else ''} {which} not counted "
                     f"({switches.variant} counts a variant's)")
        return text + "."


def _with_manual_ends(facts: pl.DataFrame) -> pl.DataFrame:
    """Game facts with ``ended_by_hand``: an ``end_game`` action, or the engine's end reason."""
    return facts.with_columns(
        ended_by_hand=pl.col("end_game_action") | (pl.col("end_reason") == ENDED_BY_HAND).fill_null(False))


def scope_of(facts: pl.DataFrame, population: Population) -> Scope:
    """:func:`counted_games` among game facts already read (every title's)."""
    facts = _with_manual_ends(facts)
    if population.title is not None:
        facts = facts.filter(pl.col("title").str.to_lowercase() == population.title.lower())
        if facts.height:  # named as the archive spells it, whatever the case it was asked in
            population = replace(population, title=facts["title"][0])
    if population.players is not None:
        facts = facts.filter(pl.col("players") == population.players)
    kind = facts.filter(population.of_kind())
    of_kind = kind.filter(population.of_variant())
    counted = of_kind.filter(population.counts())
    rest = of_kind.filter(~population.counts())["verdict"].fill_null(NOT_JUDGED).to_list()
    left = Counter(rest)
    ordered = {kind: left[kind] for kind in (*KINDS, NOT_JUDGED) if left[kind]}
    return Scope(population, counted, ordered, facts.height - kind.height, kind.height - of_kind.height)


def counted_games(archive: Archive, population: Population = Population()) -> Scope:
    """The games ``population`` counts, in play order, and what it left out."""
    return scope_of(archive.game_facts(population.title), population)
