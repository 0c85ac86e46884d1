"""Tables of the game review beside its charts: the action log around the step, trains bought and
rusted, the private companies, what else was legal, and the column names they show.

A step is numbered one way on every part of the page: the n-th action of the game is step n
(1, 2, ...), whatever id the record gave it (:func:`step_number`). Frames here come from
:class:`analytics.review.GameTables` and :class:`analytics.review.BoardView`.
"""

from __future__ import annotations

from typing import Any

import polars as pl
import streamlit as st

from railledger.analytics.review import BoardView

LOG_AROUND = 6
"""Actions shown on each side of the step in the log."""

PLAYER_COLUMNS = {"player": "Player", "cash": "Cash", "net_worth": "Net worth", "shares": "Shares held"}
COMPANY_COLUMNS = {
    "company": "Company", "price": "Share price", "cash": "Treasury", "trains": "Trains", "tokens": "Stations left",
    "president": "President", "floated": "Floated", "closed": "Closed",
}
LOG_COLUMNS: dict[str, Any] = {"here": " ", "step": "Step", "round": "Round", "who": "Who",
                               "does": st.column_config.TextColumn("Action", width="medium"), "flag": "Flag"}


def step_number(seq: pl.Expr) -> pl.Expr:
    """The step a reader sees for the archive's 0-based ``seq`` (see also links.review_url)."""
    return seq + 1


def action_log(steps: pl.DataFrame, flags: pl.DataFrame, seq: int, around: int = LOG_AROUND) -> pl.DataFrame:
    """The actions from ``around`` before the step to ``around`` after it: a marker (▶ on the step
    itself, ⚑ on a flagged action, in the first column so a narrow table still shows it), step,
    round, who acted, what they did, and the rule of a flag raised there."""
    flagged = flags.group_by("seq").agg(flag=pl.col("rule").str.join(", "))
    return (
        steps.filter(pl.col("seq").is_between(seq - around, seq + around))
        .join(flagged, on="seq", how="left")
        .sort("seq")
        .select(here=pl.when(pl.col("seq") == seq).then(pl.lit("▶")).otherwise(pl.lit(""))
                + pl.when(pl.col("flag").is_not_null()).then(pl.lit("⚑")).otherwise(pl.lit("")),
                step=step_number(pl.col("seq")), round=pl.col("round").fill_null(""), who="who", does="does",
                flag=pl.col("flag").fill_null(""))
    )


def flag_neighbours(flags: pl.DataFrame, seq: int) -> tuple[int | None, int | None]:
    """The seq of the nearest flagged action before and after ``seq`` (None where there is none)."""
    flagged = sorted(set(flags["seq"].to_list()))
    before = [s for s in flagged if s < seq]
    after = [s for s in flagged if s > seq]
    return (before[-1] if before else None), (after[0] if after else None)


def trains_so_far(events: pl.DataFrame, seq: int) -> pl.DataFrame:
    """Every train bought or rusted up to the step, latest first: step, what happened, train,
    price and by whom (the engine's words: ``MS from bank``)."""
    return (
        events.filter(pl.col("kind").is_in(["train", "rust"]), pl.col("seq") <= seq)
        .sort("ordinal", descending=True)
        .select(step=step_number(pl.col("seq")),
                event=pl.col("kind").replace_strict({"train": "bought", "rust": "rusted"}, return_dtype=pl.Utf8),
                train=pl.col("subject"), price=pl.col("amount"), detail=pl.col("detail").fill_null(""))
    )


TRAIN_COLUMNS = {"step": "Step", "event": "What", "train": "Train", "price": "Price", "detail": "Who, from where"}


def privates_table(view: BoardView) -> pl.DataFrame:
    """The private companies at the step: who owns each, its value and revenue, open or closed."""
    return pl.DataFrame(
        [(p.company, p.name, p.owner, p.value, p.revenue, "closed" if p.closed else "open") for p in view.privates],
        schema={"company": pl.Utf8, "name": pl.Utf8, "owner": pl.Utf8, "value": pl.Int64, "revenue": pl.Int64,
                "state": pl.Utf8},
        orient="row",
    )


PRIVATE_COLUMNS = {"company": "Private", "name": "Name", "owner": "Owner", "value": "Value", "revenue": "Revenue",
                   "state": "State"}


def alternatives_table(view: BoardView) -> pl.DataFrame:
    """Every action the rules allowed before the step, the one the record made first."""
    return pl.DataFrame(
        [(a.taken, a.who, a.kind.replace("_", " "), a.action) for a in view.alternatives],
        schema={"taken": pl.Boolean, "who": pl.Utf8, "kind": pl.Utf8, "action": pl.Utf8}, orient="row",
    ).sort("taken", descending=True, maintain_order=True)


ALTERNATIVE_COLUMNS = {"taken": "Made", "who": "Who", "kind": "Kind", "action": "Action"}
