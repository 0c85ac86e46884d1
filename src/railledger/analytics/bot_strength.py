"""Which bots played the bots' games a statistic counts, how strongly they play, and the games of
the strongest only.

Win rates from bots' games describe the bots as much as the title: a weak bot's games say how a
title plays badly. So a page counting bots' games names the bots that played them with their
ladder figures (``railledger ladder --db`` keeps them, :mod:`pipeline.ladder`), and by default
counts only the games whose every seat the title's strongest bot played: the bot with the highest
ladder rating among the title's latest standings, or :data:`DEFAULT_STRONGEST` while no ladder of
the title is stored. People's games are never touched.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import polars as pl

from railledger.analytics.scope import SELFPLAY, Scope
from railledger.records import Archive

DEFAULT_STRONGEST = "strong"
"""The strongest bot of a title without a stored ladder: the built-in bot that searches."""


@dataclass(frozen=True)
class BotGames:
    """The bots of a scope's bots' games and what counting only the strongest leaves.

    ``bots``: [title, bot, games, mu, sigma, seats, wins, win_low, win_high, table_bots,
    ladder_games, recorded_at, strongest] per title and bot that played a seat of a counted game
    (its latest ladder figures; null while not on a ladder); ``strongest`` [title, bot] each title's
    strongest bot, whether it played a game in scope or not; ``counted`` the scope that is counted;
    ``left_out`` how many bots' games it leaves out."""

    bots: pl.DataFrame
    strongest: pl.DataFrame
    counted: Scope
    left_out: int
    every_bot: bool

    def note(self, control: str) -> str:
        """The sentence a page adds to its scope line; empty when no bots' game is in scope. It
        names each title's strongest bot, saying so where that bot played none of the games."""
        if self.bots.is_empty():
            return ""
        played = set(self.bots.select("title", "bot").iter_rows())
        who = "; ".join(f"{bot} on {title}" + ("" if (title, bot) in played else ", which played none of them")
                        for title, bot in self.strongest.sort("title").iter_rows())
        if self.every_bot:
            return f"Bots' games of every bot counted (the strongest: {who})."
        return (f"Bots' games: only those the strongest bot played at every seat count ({who}); "
                f"{self.left_out} other bots' game{'' if self.left_out == 1 else 's'} not counted ({control} counts them).")


def ladder_ratings(archive: Archive) -> pl.DataFrame:
    """Each title's bots with the figures of the latest stored ladder run that rated them."""
    standings = archive.ladder_standings()
    return standings.sort("recorded_at", descending=True).unique(["title", "bot"], keep="first", maintain_order=True)


def strongest_bots(archive: Archive, scope: Scope, every_bot: bool = False) -> BotGames:
    """The bots of ``scope``'s bots' games with their ladder figures, and the scope counting only
    the games the title's strongest bot played at every seat (all of them with ``every_bot``)."""
    games = scope.games.filter(pl.col("source") == SELFPLAY).select(game_key="key", title="title")
    seats = archive.select("seat_bots", ["game_key", "bot"], matching=games.select("game_key")).join(games, on="game_key")
    ratings = ladder_ratings(archive)
    strongest = _strongest(ratings, games["title"].unique().to_list())
    played = (seats.group_by("title", "bot").agg(games=pl.col("game_key").n_unique())
              .join(ratings.rename({"games": "ladder_games"}).drop("players", "first_seed", "last_seed"),
                    on=["title", "bot"], how="left")
              .join(strongest.with_columns(strongest=pl.lit(True)), on=["title", "bot"], how="left")
              .with_columns(pl.col("strongest").fill_null(False))
              .sort("title", "mu", "bot", descending=[False, True, False], nulls_last=True))
    if every_bot or games.is_empty():
        return BotGames(played, strongest, scope, 0, every_bot)
    others = (seats.join(strongest, on="title").filter(pl.col("bot") != pl.col("bot_right"))["game_key"].unique()
              .to_list())
    unseated = games.filter(~pl.col("game_key").is_in(seats["game_key"].unique().to_list()))["game_key"].to_list()
    dropped = set(others) | set(unseated)
    counted = replace(scope, games=scope.games.filter(~pl.col("key").is_in(list(dropped))))
    return BotGames(played, strongest, counted, len(dropped), every_bot)


def _strongest(ratings: pl.DataFrame, titles: list[str]) -> pl.DataFrame:
    """[title, bot]: each title's bot with the highest ladder rating, else :data:`DEFAULT_STRONGEST`."""
    rated = ratings.sort("mu", descending=True).unique("title", keep="first").select("title", "bot")
    laddered = set(rated["title"].to_list())
    missing = [title for title in titles if title not in laddered]
    return pl.concat([rated, pl.DataFrame({"title": missing, "bot": [DEFAULT_STRONGEST] * len(missing)},
                                          schema={"title": pl.Utf8, "bot": pl.Utf8})])
