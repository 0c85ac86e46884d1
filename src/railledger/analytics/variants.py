"""A variant beside its base title: the same measures over each one's games, with intervals, and
whether each difference is more than the noise of the games played.

Each measure is counted in its own population (:mod:`analytics.scope`: the base title's games,
and the variant's, of the same kind, verdicts and table size): win rates by seat, private, par
and company (presidencies), with Wilson intervals; the game's length in actions and operating
rounds and the operating round each train type was first bought in (which starts its phase), as
means with a normal 95% interval. A difference is "within noise" when the two intervals overlap,
a plain test that never calls a difference real on a handful of games.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import sqrt

import polars as pl

from railledger.analytics.balance import winner_correlations
from railledger.analytics.interval import Z_95
from railledger.analytics.rush import train_rush_distribution
from railledger.analytics.scope import Population, Scope, counted_games
from railledger.records import Archive
from railledger.replay.variant import VariantError, recorded_variant

WIN_RATE_FACTORS = {"seat": "seat win rate", "private": "private win rate", "first_par": "par win rate",
                    "presidencies": "company win rate"}
"""Factors of :func:`analytics.balance.winner_correlations` compared, and their measure's name."""

WITHIN_NOISE, DIFFERS, TOO_FEW = "within noise", "differs", "too few games"
"""What a comparison says of a difference."""

COLUMNS = ("measure", "value", "base_n", "base", "base_low", "base_high",
           "variant_n", "variant", "variant_low", "variant_high", "difference")


@dataclass(frozen=True)
class Comparison:
    """The rows of :data:`COLUMNS` comparing a variant with its base title, and the two scopes
    counted (whose notes say what each side counted and left out)."""

    rows: pl.DataFrame
    base: Scope
    variant: Scope


def compare_variant(archive: Archive, population: Population, title: str, variant_hash: str) -> Comparison:
    """The base title's games of ``population`` beside the games of the variant ``variant_hash``
    (its full hash or a prefix), of ``title``."""
    base = counted_games(archive, replace(population, title=title, variant=None))
    variant = counted_games(archive, replace(population, title=title, variant=variant_hash))
    sides = [_measures(archive, scope) for scope in (base, variant)]
    joined = sides[0].join(sides[1], on=["measure", "value"], how="full", coalesce=True, suffix="_variant")
    rows = joined.select(
        "measure", "value",
        base_n="n", base="mean", base_low="low", base_high="high",
        variant_n="n_variant", variant="mean_variant", variant_low="low_variant", variant_high="high_variant",
    ).with_columns(pl.col("base_n", "variant_n").fill_null(0))
    order = list(WIN_RATE_FACTORS.values()) + ["game length", "first bought (OR)"]
    rows = rows.with_columns(difference=_difference()).sort(
        pl.col("measure").replace_strict(order, list(range(len(order))), default=len(order)),
        pl.col("value").cast(pl.Int64, strict=False), "value", nulls_last=True)
    return Comparison(rows.select(COLUMNS), base, variant)


VARIANT_LIST_SCHEMA = pl.Schema({"variant_hash": pl.Utf8, "title": pl.Utf8, "label": pl.Utf8, "games": pl.Int64})


def archived_variants_schema() -> pl.DataFrame:
    """An empty list of :func:`archived_variants`."""
    return pl.DataFrame(schema=VARIANT_LIST_SCHEMA)


def archived_variants(archive: Archive) -> pl.DataFrame:
    """[variant_hash, title, label, games]: the variants the archive has games of, each with the
    label pages show it by (its name and short hash)."""
    found = archive.variants()
    labels = [_label(text, digest) for digest, text in zip(found["variant_hash"], found["variant"])]
    return found.select("variant_hash", "title", label=pl.Series(labels, dtype=pl.Utf8), games="games").cast(VARIANT_LIST_SCHEMA)


def _label(text: str, digest: str) -> str:
    """A stored variant's label; by its stored hash when its text no longer reads (the title's
    data may have changed since the game was played)."""
    try:
        return recorded_variant(text).label
    except VariantError:
        return f"variant {digest[:12]}"


def game_variant(archive: Archive, key: str) -> str | None:
    """How a page names the variant the game ``key`` was played with (None: the title as published)."""
    found = archive.select("games", ["variant", "variant_hash"], where={"key": [key]}).drop_nulls()
    return _label(str(found["variant"][0]), str(found["variant_hash"][0])) if found.height else None


def archived_variant(archive: Archive, variant_hash: str) -> tuple[str, str] | None:
    """(full hash, title) of the archived variant whose hash begins with ``variant_hash``."""
    found = archive.variants().filter(pl.col("variant_hash").str.starts_with(variant_hash.lower()))
    return (str(found["variant_hash"][0]), str(found["title"][0])) if found.height else None


def _difference() -> pl.Expr:
    """Within noise when the intervals overlap, differs when they do not, too few games when
    either side has no interval."""
    unknown = pl.any_horizontal(pl.col("base_low", "base_high", "variant_low", "variant_high").is_null())
    overlap = (pl.col("base_low") <= pl.col("variant_high")) & (pl.col("variant_low") <= pl.col("base_high"))
    return pl.when(unknown).then(pl.lit(TOO_FEW)).when(overlap).then(pl.lit(WITHIN_NOISE)).otherwise(pl.lit(DIFFERS))


def _measures(archive: Archive, scope: Scope) -> pl.DataFrame:
    """[measure, value, n, mean, low, high] of one side's games."""
    empty = pl.DataFrame(schema={"measure": pl.Utf8, "value": pl.Utf8, "n": pl.Int64, "mean": pl.Float64,
                                 "low": pl.Float64, "high": pl.Float64})
    if scope.count == 0:
        return empty
    rates = (winner_correlations(archive, scope)
             .filter(pl.col("scope") == scope.population.title, pl.col("factor").is_in(list(WIN_RATE_FACTORS)))
             .select(measure=pl.col("factor").replace_strict(WIN_RATE_FACTORS), value=pl.col("value").cast(pl.Utf8),
                     n=pl.col("games").cast(pl.Int64), mean="win_rate", low="ci_low", high="ci_high"))
    lengths = [_mean_row("game length", f"{column.replace('_', ' ')}", scope.games[column].drop_nulls().cast(pl.Float64).to_list())
               for column in ("actions", "operating_rounds")]
    rush = train_rush_distribution(archive, scope).filter(pl.col("event") == "bought")
    firsts = [_mean_row("first bought (OR)", str(train), [float(o) for o, g in zip(group["or_ordinal"], group["games"]) for _ in range(g)])
              for (train,), group in rush.group_by("train_type", maintain_order=True)]
    return pl.concat([rates, pl.DataFrame(lengths + firsts, schema=empty.schema, orient="row") if lengths else empty])


def _mean_row(measure: str, value: str, values: list[float]) -> tuple[str, str, int, float | None, float | None, float | None]:
    """A mean with its normal 95% interval (none from fewer than two values)."""
    n = len(values)
    if n == 0:
        return measure, value, 0, None, None, None
    mean = sum(values) / n
    if n < 2:
        return measure, value, n, mean, None, None
    spread = Z_95 * sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
    return measure, value, n, mean, mean - spread, mean + spread
