"""Pieces of the game review: the action log around the step, where the flags are, the trains
bought and rusted, the private companies, and the column names they show.

An action is named on every part of the page by the record's own id (``label``: what
18xx.games shows and what a player finds in their game) with the round it was taken in; the
archive's 0-based ``seq`` only orders them. Frames here come from
:class:`analytics.review.GameTables` and :class:`analytics.position.Position`.
"""

from __future__ import annotations

import polars as pl

from railledger.analytics.position import Position
from railledger.dashboard.text import md

LOG_BEFORE, LOG_AFTER = 4, 4
"""Actions the log shows before and after the step."""


def step_number(seq: pl.Expr) -> pl.Expr:
    """The n-th action (1, 2, ...) for the archive's 0-based ``seq``: the Train rush page's axis."""
    return seq + 1


def log_window(steps: pl.DataFrame, seq: int) -> list[int]:
    """The seqs the log lists around ``seq``: :data:`LOG_BEFORE` before and :data:`LOG_AFTER`
    after it, more on one side where the game's start or end cuts the other short."""
    last = steps.height - 1
    first = max(0, min(seq - LOG_BEFORE, last - LOG_BEFORE - LOG_AFTER))
    return list(range(first, min(last, first + LOG_BEFORE + LOG_AFTER) + 1))


def log_line(step: dict[str, object], flag: str | None, notation: bool) -> str:
    """One line of the log as Markdown: the action's id, its round, the action in words (or its
    notation), and the rule it broke if it was flagged."""
    what = md(step["notation"] if notation else step["sentence"])
    where = f" · {md(step['round'])}" if step["round"] else ""
    mark = f" :red[⚑ {md(flag)}]" if flag else ""
    return f"**{md(step['label'])}**{where} · {what}{mark}"


def flag_rules(flags: pl.DataFrame) -> dict[int, str]:
    """Each flagged action's seq -> its rule (the rules joined, should one action break two)."""
    return dict(flags.group_by("seq").agg(pl.col("rule").str.join(", ")).iter_rows())


def root_neighbours(flags: pl.DataFrame, seq: int) -> tuple[int | None, int | None]:
    """The seq of the nearest root cause (a flag that follows from no other) before and after
    ``seq``, None where there is none: the flags a reader steps between. What follows from a root
    cause is the record going on as if the illegal action had happened, so it is counted there,
    not stepped through one by one."""
    roots = sorted(set(flags.filter(pl.col("follows").is_null())["seq"].to_list()))
    before = [s for s in roots if s < seq]
    after = [s for s in roots if s > seq]
    return (before[-1] if before else None), (after[0] if after else None)


def trains_so_far(events: pl.DataFrame, steps: pl.DataFrame, seq: int) -> pl.DataFrame:
    """Every train bought or rusted up to the step, latest first: the action (its id), what
    happened, train, price and by whom (the engine's words: ``MS from bank``)."""
    return (
        events.filter(pl.col("kind").is_in(["train", "rust"]), pl.col("seq") <= seq)
        .join(steps.select("seq", "label"), on="seq", how="left")
        .sort("ordinal", descending=True)
        .select(action="label",
                event=pl.col("kind").replace_strict({"train": "bought", "rust": "rusted"}, return_dtype=pl.Utf8),
                train=pl.col("subject"), price=pl.col("amount"), detail=pl.col("detail").fill_null(""))
    )


TRAIN_COLUMNS = {"action": "Action", "event": "What", "train": "Train", "price": "Price", "detail": "Who, from where"}


def privates_table(view: Position) -> pl.DataFrame:
    """The private companies at the step: who owns each, its value and revenue, open or closed."""
    return pl.DataFrame(
        [(p.company, p.name, p.owner, p.value, p.revenue, "closed" if p.closed else "open") for p in view.privates],
        schema={"company": pl.Utf8, "name": pl.Utf8, "owner": pl.Utf8, "value": pl.Int64, "revenue": pl.Int64,
                "state": pl.Utf8},
        orient="row",
    )


PRIVATE_COLUMNS = {"company": "Private", "name": "Name", "owner": "Owner", "value": "Value", "revenue": "Revenue",
                   "state": "State"}
