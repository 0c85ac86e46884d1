"""Plotly figures of the pages, built from analytics frames. One trace per series, named, so
a legend reads well and a test can count what is drawn."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

import numpy as np
import plotly.graph_objects as go
import polars as pl

from railledger.dashboard.colours import PALETTE, assign

def layout(figure: go.Figure, title: str, x: str, y: str, height: int = 360) -> go.Figure:
    """Every chart's frame: its title, axis titles in words, the legend below the plot."""
    figure.update_layout(title=title, xaxis_title=x, yaxis_title=y, height=height,
                         margin={"l": 10, "r": 10, "t": 40, "b": 10},
                         legend={"orientation": "h", "yanchor": "top", "y": -0.22})
    return figure


ROUND_BAND = "#e8eef6"
"""Stock rounds (and opening auctions or drafts) are shaded; operating rounds stay white."""


def round_axis(rounds: pl.DataFrame, shapes: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """Layout turning a step axis into rounds: a tick named after each round (SR 1, OR 1.1...) at
    its first step, and a band over every round that is not an operating round (after
    ``shapes``), so a reader sees at a glance where each round starts and ends. ``rounds``:
    round, first and last step (GameTables.rounds). A figure takes it whole when it is made:
    plotly validates the layout again on every update, a quarter of a second for a game of 40
    rounds band by band."""
    bands = [
        {"type": "rect", "xref": "x", "yref": "paper", "x0": row["first"] - 0.5, "x1": row["last"] + 0.5, "y0": 0,
         "y1": 1, "fillcolor": ROUND_BAND, "line": {"width": 0}, "layer": "below"}
        for row in rounds.filter(~pl.col("round").str.starts_with("OR ")).iter_rows(named=True)
    ]
    return {"shapes": [*shapes, *bands],
            "xaxis": {"tickmode": "array", "tickvals": rounds["first"].to_list(), "ticktext": rounds["round"].to_list(),
                      "tickangle": -60, "showgrid": True}}


def round_of(rounds: pl.DataFrame, seqs: list[int]) -> list[str]:
    """The round label of each step (rounds sorted by their first step)."""
    firsts, labels = rounds["first"].to_list(), rounds["round"].to_list()
    return [labels[max(bisect_right(firsts, seq) - 1, 0)] if labels else "" for seq in seqs]


def step_lines(frame: pl.DataFrame, series: str, value: str, step: int, title: str, rounds: pl.DataFrame,
               colours: dict[str, str], labels: Sequence[str]) -> go.Figure:
    """One line per ``series`` value over the game's actions (x: their seq), the axis in rounds,
    with a vertical marker at the action ``step``; hovering a line names the action by the
    record's id (``labels``, by seq) and its round."""
    words = value.replace("_", " ")
    lines = []
    for name, rows in frame.sort("seq").group_by(series, maintain_order=True):
        label = str(name[0])
        seqs = rows["seq"].to_list()
        hover = np.array([[labels[s] for s in seqs], round_of(rounds, seqs)], dtype=object).T
        # numpy arrays: plotly validates a list element by element, an array at once (3x faster here)
        lines.append(go.Scatter(x=rows["seq"].to_numpy(), y=rows[value].to_numpy(), mode="lines", name=label,
                                customdata=hover, line={"shape": "hv", "color": colours.get(label)},
                                hovertemplate=f"action %{{customdata[0]}} (%{{customdata[1]}}): {words} %{{y}}"
                                              f"<extra>{label}</extra>"))
    marker = {"type": "line", "name": "step", "xref": "x", "yref": "paper", "x0": step, "x1": step, "y0": 0, "y1": 1,
              "line": {"color": "#444444", "dash": "dash", "width": 1.5}}
    return layout(go.Figure(data=lines, layout=round_axis(rounds, [marker])), title, "", words, height=380)


def revenue_by_round(runs: pl.DataFrame, colours: dict[str, str]) -> go.Figure:
    """Each company's run in every operating round (what the engine counted for the declared
    routes, else what the record declared), a bar group per round in play order, the best run
    the company could have made on hover."""
    rows = runs.sort("seq").with_columns(revenue=pl.col("engine").fill_null(pl.col("declared")).fill_null(0))
    order = rows["round"].unique(maintain_order=True).to_list()
    bars = [go.Bar(x=group["round"].to_list(), y=group["revenue"].to_list(), name=str(company),
                   marker={"color": colours.get(str(company))}, customdata=group["optimum"].to_list(),
                   hovertemplate=f"{company} in %{{x}}: %{{y}} (best possible %{{customdata}})<extra></extra>")
            for (company,), group in rows.sort("company").group_by("company", maintain_order=True)]
    figure = go.Figure(data=bars, layout={"barmode": "group",
                                          "xaxis": {"type": "category", "categoryorder": "array", "categoryarray": order}})
    return layout(figure, "Revenue per operating round", "operating round", "revenue")


def rush_timeline(rush: pl.DataFrame, rounds: pl.DataFrame, colours: dict[str, str]) -> go.Figure:
    """Per train type of one game: a bar in the type's colour from its first purchase to when it
    rusted (or the end), the axis in rounds."""
    rows = rush.with_columns(end=pl.col("gone_seq").fill_null(rounds["last"].max()))
    types = rows["train_type"].to_list()
    hover = [f"{t}: first bought in {b}, {'rusted in ' + g if g else 'never rusted'}"
             for t, b, g in zip(types, rows["first_bought_round"], rows["gone_round"])]
    gone = rows.filter(pl.col("gone_seq").is_not_null())
    figure = go.Figure(data=[
        go.Bar(y=types, x=(rows["end"] - rows["first_bought_seq"]).to_list(), base=rows["first_bought_seq"].to_list(),
               orientation="h", name="in service", marker={"color": [colours.get(t) for t in types], "opacity": 0.55},
               hovertext=hover, hoverinfo="text"),
        go.Scatter(y=types, x=rows["first_bought_seq"].to_list(), mode="markers", name="first bought",
                   marker={"symbol": "circle", "size": 11, "color": "#2ca02c"}, hovertext=hover, hoverinfo="text"),
        go.Scatter(y=gone["train_type"].to_list(), x=gone["gone_seq"].to_list(), mode="markers", name="rusted",
                   marker={"symbol": "x", "size": 11, "color": "#d62728"}, hoverinfo="skip"),
    ], layout=round_axis(rounds))
    figure.update_yaxes(type="category", categoryorder="array", categoryarray=list(reversed(types)))
    return layout(figure, "Train types in service", "", "train type")


RUSH_TITLES = {"bought": "First bought, by operating round", "gone": "Rusted, by operating round"}
"""Short: two of these charts share the page's width, and Streamlit's toolbar sits over a long title."""


def rush_distribution(distribution: pl.DataFrame, event: str, colours: dict[str, str]) -> go.Figure:
    """Bars per train type, in the order of ``colours`` (the title's), each in its colour: in how
    many games it was first bought (or gone) by the n-th OR."""
    figure = go.Figure()
    rows = distribution.filter(pl.col("event") == event)
    for train in colours:
        group = rows.filter(pl.col("train_type") == train)
        if not group.is_empty():
            figure.add_bar(x=group["or_ordinal"].to_list(), y=group["games"].to_list(), name=train,
                           marker={"color": colours[train]})
    figure.update_layout(barmode="group")
    figure.update_xaxes(dtick=1)
    return layout(figure, RUSH_TITLES[event], "operating rounds started", "games")


FACTOR_WORDS = {
    "seat": "seat at the table",
    "private": "private company bought in the opening",
    "presidencies": "companies presided at the end",
    "first_par": "par price of the player's first company",
    "first_permanent": "presided the company that bought the first permanent train",
}
"""Balance factors (analytics.balance.FACTORS) in words."""
NO_VALUE = "none"


def natural_order(values: list[str]) -> list[str]:
    """Category values in their natural order: numbers by value (seat 2 before seat 10, par 65
    before par 100), then words alphabetically, then ``none`` (the factor says nothing)."""
    def key(value: str) -> tuple[int, float, str]:
        if value == NO_VALUE:
            return 2, 0.0, value
        try:
            return 0, float(value), value
        except ValueError:
            return 1, 0.0, value
    return sorted(set(values), key=key)


def win_rates(correlations: pl.DataFrame) -> go.Figure:
    """Win rate per value of one factor, a series per scope, with 95% interval error bars and
    the sample size on each point (few games mean wide bars). Values keep their natural order
    whichever scope has them, and a rate of 0% or 100% is drawn whole, not cut by the axis."""
    figure = go.Figure()
    colours = assign(correlations["scope"].unique(maintain_order=True).to_list(), PALETTE)
    for name, rows in correlations.group_by("scope", maintain_order=True):
        rate = rows["win_rate"]
        colour = colours[str(name[0])]
        figure.add_scatter(
            x=rows["value"].to_list(), y=rate.to_list(), mode="markers+text", name=str(name[0]),
            marker={"size": 10, "color": colour}, textfont={"color": colour},
            text=[f"n={n}" for n in rows["games"]], textposition="middle right", cliponaxis=False,
            customdata=rows["games"].to_list(),
            error_y={"type": "data", "symmetric": False, "array": (rows["ci_high"] - rate).to_list(),
                     "arrayminus": (rate - rows["ci_low"]).to_list(), "color": colour},
            hovertemplate="%{x}: %{y:.0%} of %{customdata} won<extra>%{fullData.name}</extra>",
        )
    figure.update_yaxes(range=[-0.06, 1.08], tickformat=".0%", tickvals=[0, 0.25, 0.5, 0.75, 1])
    figure.update_xaxes(type="category", categoryorder="array",
                        categoryarray=natural_order(correlations["value"].cast(pl.Utf8).to_list()))
    figure.update_layout(scattermode="group")  # scopes side by side within a value, not on top of each other
    factors = correlations["factor"].unique().to_list()
    words = FACTOR_WORDS.get(factors[0], factors[0]) if len(factors) == 1 else "value"
    return layout(figure, "Win rate with 95% interval", words, "win rate", height=420)


def flags_by_rule(summary: pl.DataFrame) -> go.Figure:
    """Flags per rule, a series per title."""
    figure = go.Figure()
    for name, rows in summary.group_by("title", maintain_order=True):
        figure.add_bar(x=rows["flags"].to_list(), y=rows["rule"].to_list(), orientation="h", name=str(name[0]),
                       hovertext=[f"{g} games" for g in rows["games"]])
    return layout(figure, "Flags per rule", "flags", "rule", height=max(240, 40 * summary.height + 120))
