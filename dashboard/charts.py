"""Plotly figures of the pages, built from analytics frames. One trace per series, named, so
a legend reads well and a test can count what is drawn."""

from __future__ import annotations

import plotly.graph_objects as go
import polars as pl

from dashboard.colours import PALETTE

MARKET_ZONES = {"plain": 0, "par": 1, "yellow": 2}
MARKET_SCALE = [[0.0, "#f4f1e8"], [0.33, "#f4f1e8"], [0.34, "#cfe3f5"], [0.66, "#cfe3f5"], [0.67, "#f3dc4b"],
                [1.0, "#f3dc4b"]]


def _layout(figure: go.Figure, title: str, x: str, y: str, height: int = 360) -> go.Figure:
    figure.update_layout(title=title, xaxis_title=x, yaxis_title=y, height=height,
                         margin={"l": 10, "r": 10, "t": 40, "b": 10},
                         legend={"orientation": "h", "yanchor": "top", "y": -0.22})
    return figure


def step_lines(frame: pl.DataFrame, series: str, value: str, step: int, title: str,
               colours: dict[str, str] | None = None) -> go.Figure:
    """One line per ``series`` value over the action number, with a vertical marker at ``step``."""
    figure = go.Figure()
    for name, rows in frame.sort("seq").group_by(series, maintain_order=True):
        label = str(name[0])
        figure.add_scatter(x=rows["seq"].to_list(), y=rows[value].to_list(), mode="lines", name=label,
                           line={"shape": "hv", "color": (colours or {}).get(label)})
    figure.add_vline(x=step, line={"color": "#444444", "dash": "dash", "width": 1})
    return _layout(figure, title, "action", value.replace("_", " "))


def market_figure(grid: pl.DataFrame, companies: pl.DataFrame, colours: dict[str, str]) -> go.Figure:
    """The stock market grid (par cells blue, yellow zone yellow) with a marker per company.

    ``companies`` has company, market_row, market_col of the companies with a price; companies
    sharing a cell are spread across it in stack order.
    """
    rows, cols = int(grid["row"].max()) + 1, int(grid["col"].max()) + 1  # type: ignore[arg-type]
    zone = [[None] * cols for _ in range(rows)]
    price = [[""] * cols for _ in range(rows)]
    for cell in grid.iter_rows(named=True):  # a market is ~60 cells
        kind = "yellow" if cell["zone"] == "yellow" else "par" if cell["par"] else "plain"
        zone[cell["row"]][cell["col"]] = MARKET_ZONES[kind]
        price[cell["row"]][cell["col"]] = str(cell["price"])
    figure = go.Figure(go.Heatmap(
        z=zone, text=price, texttemplate="%{text}", textfont={"size": 11}, colorscale=MARKET_SCALE,
        zmin=0, zmax=2, showscale=False, xgap=2, ygap=2, hoverinfo="skip", name="market",
    ))
    placed = companies.with_columns(
        stack=pl.col("company").cum_count().over("market_row", "market_col") - 1,
        size=pl.len().over("market_row", "market_col"),
    )
    offsets = ((placed["stack"] - (placed["size"] - 1) / 2) * 0.22).to_list()
    figure.add_scatter(
        x=[c + o for c, o in zip(placed["market_col"].to_list(), offsets)],
        y=(placed["market_row"] + 0.28).to_list(),
        mode="markers+text", name="companies", text=placed["company"].to_list(), textposition="bottom center",
        textfont={"size": 9}, marker={"size": 10, "color": [colours.get(c) for c in placed["company"]]},
        hovertext=[f"{c} ${p}" for c, p in zip(placed["company"], placed["price"])], hoverinfo="text",
    )
    figure.update_layout(
        height=300, margin={"l": 0, "r": 0, "t": 10, "b": 0}, showlegend=False, plot_bgcolor="white",
        xaxis={"visible": False}, yaxis={"visible": False, "autorange": "reversed"},
    )
    return figure


def rush_timeline(rush: pl.DataFrame, last_seq: int) -> go.Figure:
    """Per train type of one game: a bar from its first purchase to when it rusted (or the end)."""
    rows = rush.with_columns(end=pl.col("gone_seq").fill_null(last_seq))
    types = rows["train_type"].to_list()
    hover = [f"{t}: first bought {b}, {'gone ' + g if g else 'never rusted'}"
             for t, b, g in zip(types, rows["first_bought_round"], rows["gone_round"])]
    figure = go.Figure()
    figure.add_bar(y=types, x=(rows["end"] - rows["first_bought_seq"]).to_list(), base=rows["first_bought_seq"].to_list(),
                   orientation="h", name="in service", marker={"color": "#9ecae1"}, hovertext=hover, hoverinfo="text")
    figure.add_scatter(y=types, x=rows["first_bought_seq"].to_list(), mode="markers", name="first bought",
                       marker={"symbol": "circle", "size": 11, "color": "#2ca02c"}, hovertext=hover, hoverinfo="text")
    gone = rows.filter(pl.col("gone_seq").is_not_null())
    figure.add_scatter(y=gone["train_type"].to_list(), x=gone["gone_seq"].to_list(), mode="markers", name="gone",
                       marker={"symbol": "x", "size": 11, "color": "#d62728"}, hoverinfo="skip")
    figure.update_yaxes(type="category", categoryorder="array", categoryarray=list(reversed(types)))
    return _layout(figure, "Train types in service", "action", "train type")


def rush_distribution(distribution: pl.DataFrame, event: str) -> go.Figure:
    """Bars per train type: in how many games it was first bought (or gone) by the n-th OR."""
    figure = go.Figure()
    rows = distribution.filter(pl.col("event") == event)
    for index, (name, group) in enumerate(rows.group_by("train_type", maintain_order=True)):
        figure.add_bar(x=group["or_ordinal"].to_list(), y=group["games"].to_list(), name=str(name[0]),
                       marker={"color": PALETTE[index % len(PALETTE)]})
    figure.update_layout(barmode="group")
    figure.update_xaxes(dtick=1)
    return _layout(figure, f"Train types first {event} by operating round", "operating rounds started", "games")


def win_rates(correlations: pl.DataFrame) -> go.Figure:
    """Win rate per value of one factor, a series per scope, with 95% interval error bars and
    the sample size on each point (few games mean wide bars)."""
    figure = go.Figure()
    for name, rows in correlations.group_by("scope", maintain_order=True):
        rate = rows["win_rate"]
        figure.add_scatter(
            x=rows["value"].to_list(), y=rate.to_list(), mode="markers+text", name=str(name[0]), marker={"size": 10},
            text=[f"n={n}" for n in rows["games"]], textposition="middle right",
            error_y={"type": "data", "symmetric": False, "array": (rows["ci_high"] - rate).to_list(),
                     "arrayminus": (rate - rows["ci_low"]).to_list()},
        )
    figure.update_yaxes(range=[0, 1], tickformat=".0%")
    figure.update_xaxes(type="category")
    figure.update_layout(scattermode="group")  # scopes side by side within a value, not on top of each other
    return _layout(figure, "Win rate with 95% interval", "value", "win rate", height=420)


def flags_by_rule(summary: pl.DataFrame) -> go.Figure:
    """Flags per rule, a series per title."""
    figure = go.Figure()
    for name, rows in summary.group_by("title", maintain_order=True):
        figure.add_bar(x=rows["flags"].to_list(), y=rows["rule"].to_list(), orientation="h", name=str(name[0]),
                       hovertext=[f"{g} games" for g in rows["games"]])
    return _layout(figure, "Flags per rule", "flags", "rule", height=max(240, 40 * summary.height + 120))
