"""Plotly figures of the Players and Titles pages: a rating over time, final values by table
size, how games end."""

from __future__ import annotations

import math

import plotly.graph_objects as go
import polars as pl

from railledger.dashboard.charts import layout
from railledger.dashboard.colours import PALETTE, assign

POINTS = 1_000
"""Games drawn per line at most: a line of every game of a player with thousands of them takes
the browser seconds and shows nothing more."""


def rating_history(history: pl.DataFrame) -> go.Figure:
    """One player's rating after each of their games, a line per scope (a title, all titles):
    the rating (ordinal, mu - 3 sigma) solid, and a band for the skill estimate mu +- sigma. A
    line of more than :data:`POINTS` games draws every n-th one and the last, and says so."""
    figure = go.Figure()
    colours = assign(history["scope"].unique(maintain_order=True).to_list(), PALETTE)
    longest = int(history.group_by("scope").len()["len"].max() or 0)  # type: ignore[arg-type]
    every = max(1, math.ceil(longest / POINTS))
    index = pl.int_range(pl.len())
    for (scope,), rows in history.sort("game").group_by("scope", maintain_order=True):
        rows = rows.filter((index % every == 0) | (index == pl.len() - 1))
        games, mu, sigma = rows["game"].to_list(), rows["mu"], rows["sigma"]
        colour = colours[str(scope)]
        figure.add_scatter(
            x=games + games[::-1], y=(mu + sigma).to_list() + (mu - sigma).to_list()[::-1], fill="toself",
            mode="none", fillcolor=colour, opacity=0.15, name=f"{scope}: skill ± uncertainty", hoverinfo="skip",
            legendgroup=str(scope), showlegend=False)
        figure.add_scatter(
            x=games, y=rows["ordinal"].to_list(), mode="lines+markers", name=f"{scope}", legendgroup=str(scope),
            line={"color": colour}, customdata=list(zip(rows["game_key"], rows["created"].fill_null("?"), mu, sigma)),
            hovertemplate="%{customdata[0]} (%{customdata[1]})<br>rating %{y:.2f}<br>"
                          "skill %{customdata[2]:.2f} ± %{customdata[3]:.2f}<extra>%{fullData.name}</extra>")
    if history.height and history["game"].max() <= 20:  # type: ignore[operator]
        figure.update_xaxes(dtick=1)  # whole games, not 2.5
    drawn = "each game" if every == 1 else f"one game in {every}"
    return layout(figure, f"Rating after {drawn} (band: skill ± uncertainty)", "game", "rating (μ − 3σ)")


def values_by_players(values: pl.DataFrame) -> go.Figure:
    """Mean final value per table size with its spread (one standard deviation), a series per
    title; the winners' mean beside it."""
    figure = go.Figure()
    colours = assign(values["title"].unique(maintain_order=True).to_list(), PALETTE)
    for (title,), rows in values.group_by("title", maintain_order=True):
        colour = colours[str(title)]
        figure.add_scatter(
            x=rows["players"].to_list(), y=rows["mean"].to_list(), mode="markers", name=f"{title}: every player",
            marker={"size": 11, "color": colour}, error_y={"type": "data", "array": rows["std"].fill_null(0).to_list()},
            text=[f"{g} games" for g in rows["games"]], hovertemplate="%{x} players: mean %{y:.0f}, %{text}<extra></extra>")
        figure.add_scatter(
            x=rows["players"].to_list(), y=rows["winners_mean"].to_list(), mode="markers", name=f"{title}: winners",
            marker={"size": 11, "color": colour, "symbol": "star"},
            hovertemplate="%{x} players: winners' mean %{y:.0f}<extra></extra>")
    figure.update_xaxes(dtick=1)
    figure.update_layout(scattermode="group")
    return layout(figure, "Final value by number of players (mean ± one standard deviation)", "players", "final value")


def end_reasons(endings: pl.DataFrame) -> go.Figure:
    """How the games of one title ended: a bar per reason, most frequent on top."""
    rows = endings.sort("games")
    figure = go.Figure(go.Bar(
        x=rows["games"].to_list(), y=rows["reason"].to_list(), orientation="h", name="games",
        text=[f"{share:.0%}" for share in rows["share"]], textposition="auto", marker={"color": PALETTE[0]}))
    if rows.height and rows["games"].max() <= 10:  # type: ignore[operator]
        figure.update_xaxes(dtick=1)  # whole games
    return layout(figure, "How the games ended", "games", "", height=max(200, 60 * rows.height + 100))
