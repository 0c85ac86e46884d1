"""Player ratings: Weng-Lin (openskill's Plackett-Luce model), per title and over all titles.

Every rated game (:func:`analytics.rated.rated_games`) is one free-for-all match, in the order the
games were played: each player's rank comes from the final values the replay agreed with (the
``standings`` table: 1 best, ties share a rank, and Plackett-Luce treats a shared rank as a
draw between those players). A rating is a mean skill ``mu`` with its uncertainty ``sigma``;
players are listed by the ordinal ``mu - 3 sigma``, a cautious estimate that a newcomer with one
lucky game does not top. Players are the same person across games by their id
(``players.external_id``: the 18xx.games user id; the name in hotseat and notation games) and are
shown by the name they used last.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl
from openskill.models import PlackettLuce, PlackettLuceRating

from analytics.balance import POOLED
from analytics.rated import rated_games
from records import Archive

MODEL = PlackettLuce()
"""openskill's defaults: a new player starts at mu 25, sigma 25/3 (ordinal 0)."""

RESULTS_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "game_key": pl.Utf8, "title": pl.Utf8, "order": pl.Int64, "created": pl.Utf8, "players": pl.Int64,
    "seat": pl.Int64, "player": pl.Utf8, "name": pl.Utf8, "value": pl.Int64, "rank": pl.Int64,
}


@dataclass(frozen=True)
class Ratings:
    """Everything the ratings pages show, computed in one pass over the rated games."""

    results: pl.DataFrame
    """One row per player of a rated game: game_key, title, order (of play), created, players (at
    the table), seat, player (id), name, value (final), rank."""
    table: pl.DataFrame
    """Per scope (a title, or ``all titles``) and player: place (1 = highest ordinal), player,
    name, games, wins, mu, sigma, ordinal."""
    history: pl.DataFrame
    """Per scope, player and rated game, the rating after it: scope, player, game (the player's
    1st, 2nd... game of the scope), game_key, created, mu, sigma, ordinal."""


def game_results(archive: Archive, games: pl.DataFrame) -> pl.DataFrame:
    """The final value and rank of every player of ``games`` (rows of
    :meth:`records.Archive.game_facts`), in play order, then seat."""
    standings = archive.table("standings").select(
        "game_key", pl.col("seat").cast(pl.Int64), pl.col("value").cast(pl.Int64), pl.col("rank").cast(pl.Int64))
    seats = archive.table("players").select("game_key", pl.col("seat").cast(pl.Int64), player="external_id", name="name")
    return (
        games.select(game_key="key", title="title", order="order", created="created", players="players")
        .join(standings, on="game_key")
        .join(seats, on=["game_key", "seat"])
        .select(list(RESULTS_SCHEMA))
        .cast(RESULTS_SCHEMA)  # type: ignore[arg-type]
        .sort("order", "seat")
    )


def ratings(archive: Archive, manual_ends: bool = False) -> Ratings:
    """The ratings of every player over the rated games (with the games ended by hand when
    ``manual_ends``)."""
    return rate(game_results(archive, rated_games(archive, manual_ends)))


def rate(results: pl.DataFrame, pooled: bool = True) -> Ratings:
    """Rate the games of ``results`` (as :func:`game_results` gives them) in play order, per
    title and, unless not ``pooled``, over all titles (a page showing one title's ratings needs
    no pooled ones, which cost as much again)."""
    games = results.group_by("game_key", "title", "order", "created", maintain_order=True).agg("player", "rank")
    current: dict[tuple[str, str], PlackettLuceRating] = {}
    played: dict[tuple[str, str], int] = {}
    history = []
    for game_key, title, _, created, players, ranks in games.iter_rows():
        for scope in (title, POOLED) if pooled else (title,):
            before = [[current.get((scope, p)) or MODEL.rating()] for p in players]
            after = MODEL.rate(before, ranks=ranks)
            for player, (rating,) in zip(players, after):
                current[scope, player] = rating
                played[scope, player] = played.get((scope, player), 0) + 1
                history.append((scope, player, played[scope, player], game_key, created,
                                rating.mu, rating.sigma, rating.ordinal()))
    history_frame = pl.DataFrame(history, orient="row", schema={
        "scope": pl.Utf8, "player": pl.Utf8, "game": pl.Int64, "game_key": pl.Utf8, "created": pl.Utf8,
        "mu": pl.Float64, "sigma": pl.Float64, "ordinal": pl.Float64})
    return Ratings(results, _table(results, history_frame, pooled), history_frame)


def _table(results: pl.DataFrame, history: pl.DataFrame, pooled: bool) -> pl.DataFrame:
    """The last rating of each player per scope, with games, wins and the name used last."""
    scopes = [results.with_columns(scope=pl.col("title"))]
    per_scope = pl.concat([*scopes, results.with_columns(scope=pl.lit(POOLED))] if pooled else scopes)
    counts = per_scope.group_by("scope", "player").agg(
        games=pl.len().cast(pl.Int64), wins=(pl.col("rank") == 1).sum().cast(pl.Int64),
        name=pl.col("name").sort_by("order").last())
    last = history.group_by("scope", "player").agg(pl.all().sort_by("game").last()).select(
        "scope", "player", "mu", "sigma", "ordinal")
    return (
        counts.join(last, on=["scope", "player"])
        .with_columns(place=pl.col("ordinal").rank("min", descending=True).over("scope").cast(pl.Int64))
        .select("scope", "place", "player", "name", "games", "wins", "mu", "sigma", "ordinal")
        .sort(pl.col("scope") == POOLED, "scope", "place", "name", "player")  # two players of one name: by id
    )


def head_to_head(results: pl.DataFrame, player: str) -> pl.DataFrame:
    """[opponent, name, games, wins, losses, ties] of ``player`` against everyone met in
    ``results``: a win is finishing ahead of that opponent (a better rank), a tie the same rank.
    Opponents are named as they were last called in ``results``."""
    mine = results.filter(pl.col("player") == player).select("game_key", mine="rank")
    theirs = results.filter(pl.col("player") != player).select("game_key", opponent="player", theirs="rank")
    names = results.group_by(opponent="player").agg(name=pl.col("name").sort_by("order").last())
    return (
        mine.join(theirs, on="game_key")
        .group_by("opponent")
        .agg(
            games=pl.len().cast(pl.Int64),
            wins=(pl.col("mine") < pl.col("theirs")).sum().cast(pl.Int64),
            losses=(pl.col("mine") > pl.col("theirs")).sum().cast(pl.Int64),
            ties=(pl.col("mine") == pl.col("theirs")).sum().cast(pl.Int64),
        )
        .join(names, on="opponent")
        .select("opponent", "name", "games", "wins", "losses", "ties")
        .sort("games", "wins", "name", descending=[True, True, False])
    )


def player_games(archive: Archive, player: str) -> pl.DataFrame:
    """Every archived game ``player`` sat in, rated or not, in play order: game_key, title,
    created, status, players, seat, name, value and rank (null without a replay), end_reason."""
    seats = archive.table("players").filter(pl.col("external_id") == player).select(
        "game_key", pl.col("seat").cast(pl.Int64), "name")
    standings = archive.table("standings").select(
        "game_key", pl.col("seat").cast(pl.Int64), pl.col("value").cast(pl.Int64), pl.col("rank").cast(pl.Int64))
    return (
        archive.game_facts().rename({"key": "game_key"})
        .join(seats, on="game_key")
        .join(standings, on=["game_key", "seat"], how="left")
        .sort("order")
        .select("game_key", "title", "created", "status", "players", "seat", "name", "value", "rank", "end_reason")
    )
