"""Player ratings: Weng-Lin (openskill's Plackett-Luce model), per title and over all titles.

Every rated game (:func:`analytics.rated.rated_games`) is one free-for-all match, in the order the
games were played: each player's rank comes from the final values the replay agreed with (the
``standings`` table: 1 best, ties share a rank, and Plackett-Luce treats a shared rank as a
draw between those players). A rating is a mean skill ``mu`` with its uncertainty ``sigma``;
players are listed by the ordinal ``mu - 3 sigma``, a cautious estimate that a newcomer with one
lucky game does not top. Players are the same person across games by their identity
(``players.identity``, docs/identity.md: the 18xx.games user id; in a hotseat or notation game, or
a bot's seat, the game and seat) and are shown by the name they used last.

Rating 100,000 games one after another takes half a minute, so the ratings are kept in the
archive (:func:`store_ratings`, after every ``railledger ingest`` and ``simulate``) with a digest
of the games and a fingerprint of the results they were computed from. A reader (:func:`ratings`)
takes the stored leaderboard while the games still have that digest (:class:`StoredRatings`,
which reads a player's rows only when asked), loads the stored history while the rated results
still have that fingerprint, and rates in memory otherwise.
"""

from __future__ import annotations

import enum
import hashlib
from array import array
from dataclasses import dataclass
from importlib.metadata import version
from statistics import fmean

import polars as pl
from openskill.models import PlackettLuce, PlackettLuceRating

from railledger.analytics.balance import POOLED
from railledger.analytics.identity import labelled
from railledger.analytics.rated import rated_of
from railledger.analytics.scope import Population, Scope, counted_games
from railledger.records import Archive
from railledger.records.archive import RATING_HISTORY_SCHEMA, RatingBasis

MODEL = PlackettLuce()
"""openskill's defaults: a new player starts at mu 25, sigma 25/3 (ordinal 0)."""

METHOD = (f"openskill {version('openskill')} {MODEL!r} beta={MODEL.beta} kappa={MODEL.kappa} tau={MODEL.tau} "
          f"limit_sigma={MODEL.limit_sigma} balance={MODEL.balance}; polars {pl.__version__} hash_rows; players by identity")
"""What else stored ratings depend on besides the results: the model and its version (another
openskill may compute other numbers), the row hash the fingerprint is made of (polars keeps
it stable within one version only), and who a player is (``players.identity``)."""

RATED_COLUMNS = ("game_key", "title", "created", "player", "rank")
"""The columns of the results that :func:`rate` reads (with their order: play order, then seat);
the order number itself is left out, since it counts unrated games too (a bot's game played
earlier renumbers the later ones without changing a rating)."""

RESULTS_SCHEMA: dict[str, pl.DataType | type[pl.DataType]] = {
    "game_key": pl.Utf8, "title": pl.Utf8, "order": pl.Int64, "created": pl.Utf8, "players": pl.Int64,
    "seat": pl.Int64, "player": pl.Utf8, "name": pl.Utf8, "value": pl.Int64, "rank": pl.Int64,
}


@dataclass(frozen=True)
class PlayerRatings:
    """One player's part of the ratings (with the pooled scope): what the Players page shows of them."""

    history: pl.DataFrame
    """The player's rows of :attr:`Ratings.history`, every scope, in the order they were rated."""
    results: pl.DataFrame
    """Every seat of the rated games the player sat in (columns of :attr:`Ratings.results`),
    ``order`` numbering those games 1, 2... in play order."""
    versus: pl.DataFrame
    """:func:`head_to_head` over those games, opponents named as the leaderboard shows them
    (:func:`analytics.identity.labelled`)."""


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

    @property
    def games(self) -> int:
        """How many games were rated."""
        return self.results["game_key"].n_unique()

    def of_player(self, archive: Archive, player: str) -> PlayerRatings:
        """``player``'s part, taken from the frames in memory (``archive`` is not read)."""
        sat = self.results.filter(pl.col("player") == player)["game_key"]
        results = self.results.filter(pl.col("game_key").is_in(sat.implode())).with_columns(
            order=pl.col("order").rank("dense").cast(pl.Int64))
        return _player_ratings(self.table, self.history.filter(pl.col("player") == player), results, player)


@dataclass(frozen=True)
class StoredRatings:
    """The ratings the archive keeps, while they are still those of its games: the leaderboard,
    with a player's rows read only when asked. Reading every rated result and the whole history
    to check and show them took half a second at 100,000 games."""

    table: pl.DataFrame
    """As :attr:`Ratings.table`."""
    games: int
    """How many games were rated."""
    manual_ends: bool = False
    """Whether the games the players ended by hand were counted (the stored ratings of that count)."""

    def of_player(self, archive: Archive, player: str) -> PlayerRatings:
        """``player``'s part, read from ``archive`` (the one the ratings were read from)."""
        results = game_results(archive, archive.player_rated_games(player, self.manual_ends))
        return _player_ratings(self.table, archive.rating_history(player, self.manual_ends), results, player)


def _player_ratings(table: pl.DataFrame, history: pl.DataFrame, results: pl.DataFrame, player: str) -> PlayerRatings:
    names = labelled(table.filter(pl.col("scope") == POOLED)).select("player", name="shown")
    return PlayerRatings(history, results, head_to_head(results, player, names))


def game_results(archive: Archive, games: pl.DataFrame) -> pl.DataFrame:
    """The final value and rank of every player of ``games`` (rows of
    :meth:`records.Archive.game_facts`), in play order, then seat."""
    played = games.select(game_key="key", title="title", order="order", created="created", players="players")
    return archive.results(played).select(list(RESULTS_SCHEMA)).cast(RESULTS_SCHEMA)  # type: ignore[arg-type]


def ratings(archive: Archive, population: Population = Population(), scope: Scope | None = None,
            pooled: bool = True) -> Ratings | StoredRatings:
    """The ratings of every player over the ranked games of ``population`` (its ``scope``, when
    already read): for people's valid finished games (with those ended by hand or not), the
    ratings stored in the archive while they are still those of its games, else computed here (a
    reader never writes them); without the pooled scope unless ``pooled``.

    The stored leaderboard is taken as it is while every game is as it was when it was stored
    (:func:`games_digest`); when games changed but not one rated result did (a bot's game was
    added), the stored history is loaded and the leaderboard made again from the results. A game
    without a result ranks nobody, so it is rated in no population."""
    all_titles = population.all_titles
    if all_titles == Population(manual_ends=population.manual_ends):
        stored = stored_ratings(archive, population.manual_ends)
        if stored is not None:
            return stored
    games = (scope if scope is not None and scope.population == all_titles else counted_games(archive, all_titles)).games
    results = game_results(archive, games)
    unranked = results.filter(pl.col("rank").is_null())["game_key"].unique().implode()
    return ratings_of(archive, results.filter(~pl.col("game_key").is_in(unranked)), pooled)


def stored_ratings(archive: Archive, manual_ends: bool = False) -> StoredRatings | None:
    """The ratings stored in the archive with the games ended by hand counted or not
    (``manual_ends``) when every game is as it was when they were stored (:func:`games_digest`),
    else None."""
    basis = archive.rating_basis(manual_ends)
    if basis is None or basis.games_digest != games_digest(archive):
        return None
    return StoredRatings(_in_board_order(archive.rating_table(manual_ends)), archive.rated_game_count(manual_ends),
                         manual_ends)


def ratings_of(archive: Archive, results: pl.DataFrame, pooled: bool = True) -> Ratings:
    """:func:`rate` of ``results`` (as :func:`game_results` gives them), loaded from the archive
    when its stored ratings were computed from exactly these results (whichever options chose
    them), and rated here otherwise; without the pooled scope unless ``pooled``."""
    basis = archive.rating_basis()
    if basis is None or (basis.fingerprint, basis.results) != (fingerprint(results), results.height):
        return rate(results, pooled)
    history = archive.rating_history()
    if not pooled:
        history = history.filter(pl.col("scope") != POOLED)
    return Ratings(results, _table(results, history, pooled), history)


def fingerprint(results: pl.DataFrame) -> str:
    """A digest of what :func:`rate` reads of ``results`` (:data:`RATED_COLUMNS`, row by row in
    their order) and of :data:`METHOD`: any game added, dropped, replaced by other results,
    moved in play order or given another creation day changes it. Hashed row by row in polars,
    the row hashes then digested as 64-bit words (not through numpy, which a reader has not
    imported): 0.04 s for 100,000 games, where writing the rows out as text takes 0.14 s."""
    digest = hashlib.sha256(METHOD.encode())
    digest.update(array("Q", results.select(RATED_COLUMNS).hash_rows().to_list()).tobytes())
    return digest.hexdigest()


def games_digest(archive: Archive) -> str:
    """A digest of every stored game as far as its rated result goes
    (:meth:`records.Archive.games_identity`, computed inside DuckDB) and of :data:`METHOD`."""
    return hashlib.sha256(f"{METHOD}\n{archive.games_identity()}".encode()).hexdigest()


class Refresh(enum.Enum):
    """What :func:`store_ratings` did."""

    UP_TO_DATE = "up to date"
    EXTENDED = "extended"
    RECOMPUTED = "recomputed"


def store_ratings(archive: Archive) -> tuple[Refresh, int]:
    """Bring the archive's stored ratings up to date for both counts (the games the players ended
    by hand left out, the pages' default, and counted), and say what that took for the default
    count, the one the verdicts' valid games make: (what was done, rated games rated now).

    When the stored ratings of a count are those of the first rated games as they are now played
    (a new game played after all of them, the usual ingest), only the games after them are rated,
    from each player's last stored rating on, which gives the numbers rating every game again
    would; otherwise every game is rated again, unless no game was ended by hand and the other
    count's ratings, just brought up to date, are copied. When games changed but no rated
    result did (a bot's game was added), no game is rated: the leaderboard is made again (a
    player's name may have changed) and the digest of the games updated.
    """
    digest = games_digest(archive)  # before the results: a game stored in between makes it older than them
    facts = archive.game_facts()
    counted = game_results(archive, rated_of(facts, manual_ends=True))
    # the default count's results are those of its games among them, read once (0.3 s at 100,000 games)
    left_out = counted.filter(pl.col("game_key").is_in(rated_of(facts)["key"].implode()))
    done = _store_count(archive, left_out, digest, False)
    _store_count(archive, counted, digest, True)
    return done


def _store_count(archive: Archive, results: pl.DataFrame, digest: str, manual_ends: bool) -> tuple[Refresh, int]:
    """:func:`store_ratings` for one count, ``results`` being its rated results (:func:`game_results`)."""
    current = RatingBasis(fingerprint(results), results.height, digest)
    stored = archive.rating_basis(manual_ends)
    if stored == current:
        return Refresh.UP_TO_DATE, 0
    if stored is not None and _extends(results, stored):
        history = archive.rating_history(manual_ends=manual_ends)
        rated, played = _last_ratings(history)
        later = _history(results.slice(stored.results), True, rated, played)
        archive.store_ratings(later, _table(results, pl.concat([history, later]), True), current, extend=True,
                              manual_ends=manual_ends)
        count = later["game_key"].n_unique()
        return (Refresh.EXTENDED, count) if count else (Refresh.UP_TO_DATE, 0)
    if archive.rating_basis(not manual_ends) == current:  # the other count rated exactly these games
        archive.copy_ratings(current, manual_ends)
        return Refresh.RECOMPUTED, archive.rated_game_count(manual_ends)
    rated_here = rate(results)
    archive.store_ratings(rated_here.history, rated_here.table, current, manual_ends=manual_ends)
    return Refresh.RECOMPUTED, rated_here.games


def _extends(results: pl.DataFrame, stored: RatingBasis) -> bool:
    """Whether ``stored`` ratings are of the first whole games of ``results``."""
    if stored.results > results.height or fingerprint(results.head(stored.results)) != stored.fingerprint:
        return False
    keys = results["game_key"]
    return stored.results in (0, results.height) or keys[stored.results] != keys[stored.results - 1]


def _last_ratings(history: pl.DataFrame) -> tuple[dict[tuple[str, str], PlackettLuceRating], dict[tuple[str, str], int]]:
    """Each (scope, player)'s last rating in ``history`` and how many games it came after."""
    last = history.group_by("scope", "player").agg(pl.all().sort_by("game").last())
    rated = {(scope, player): MODEL.rating(mu=mu, sigma=sigma)
             for scope, player, mu, sigma in last.select("scope", "player", "mu", "sigma").iter_rows()}
    played = dict(zip(zip(last["scope"], last["player"]), last["game"]))
    return rated, played


def rate(results: pl.DataFrame, pooled: bool = True) -> Ratings:
    """Rate the games of ``results`` (as :func:`game_results` gives them) in play order, per
    title and, unless not ``pooled``, over all titles (a page showing one title's ratings needs
    no pooled ones, which cost as much again)."""
    history = _history(results, pooled, {}, {})
    return Ratings(results, _table(results, history, pooled), history)


def _history(results: pl.DataFrame, pooled: bool, current: dict[tuple[str, str], PlackettLuceRating],
             played: dict[tuple[str, str], int]) -> pl.DataFrame:
    """The rating after each game of ``results`` of each of its players, per scope, going on from
    ``current`` ratings after ``played`` games per (scope, player) (empty: everyone new); both
    are updated as the games are rated."""
    games = results.group_by("game_key", "title", "order", "created", maintain_order=True).agg("player", "rank")
    history = []
    for game_key, title, _, created, players, ranks in games.iter_rows():
        for scope in (title, POOLED) if pooled else (title,):
            before = [[current.get((scope, p)) or MODEL.rating()] for p in players]
            after = MODEL.rate(before, ranks=ranks)
            for player, rating in per_player(players, [rating for (rating,) in after]).items():
                current[scope, player] = rating
                played[scope, player] = played.get((scope, player), 0) + 1
                history.append((scope, player, played[scope, player], game_key, created,
                                rating.mu, rating.sigma, rating.ordinal()))
    return pl.DataFrame(history, orient="row", schema=RATING_HISTORY_SCHEMA)


def per_player(players: list[str], after: list[PlackettLuceRating]) -> dict[str, PlackettLuceRating]:
    """Each player's rating after a game from their seats' ratings: a bot holding several seats of
    one table (each seat rated from the bot's rating before the game) takes their mean, as the
    ladder rates bots (:mod:`railledger.pipeline.ladder`); a person holds one seat."""
    seats: dict[str, list[PlackettLuceRating]] = {}
    for player, rating in zip(players, after):
        seats.setdefault(player, []).append(rating)
    return {player: held[0] if len(held) == 1 else MODEL.rating(mu=fmean(r.mu for r in held), sigma=fmean(r.sigma for r in held))
            for player, held in seats.items()}


def _table(results: pl.DataFrame, history: pl.DataFrame, pooled: bool) -> pl.DataFrame:
    """The last rating of each player per scope, with games, wins and the name used last."""
    scopes = [results.with_columns(scope=pl.col("title"))]
    per_scope = pl.concat([*scopes, results.with_columns(scope=pl.lit(POOLED))] if pooled else scopes)
    counts = per_scope.group_by("scope", "player").agg(  # a bot may hold several seats of one game
        games=pl.col("game_key").n_unique().cast(pl.Int64),
        wins=pl.col("game_key").filter(pl.col("rank") == 1).n_unique().cast(pl.Int64),
        name=pl.col("name").sort_by("order").last())
    last = history.group_by("scope", "player").agg(pl.all().sort_by("game").last()).select(
        "scope", "player", "mu", "sigma", "ordinal")
    return _in_board_order(
        counts.join(last, on=["scope", "player"])
        .with_columns(place=pl.col("ordinal").rank("min", descending=True).over("scope").cast(pl.Int64))
        .select("scope", "place", "player", "name", "games", "wins", "mu", "sigma", "ordinal")
    )


def _in_board_order(table: pl.DataFrame) -> pl.DataFrame:
    """A leaderboard's rows as it lists them: titles, then all titles; each by place."""
    return table.sort(pl.col("scope") == POOLED, "scope", "place", "name", "player")  # two players of one name: by id


def head_to_head(results: pl.DataFrame, player: str, names: pl.DataFrame) -> pl.DataFrame:
    """[opponent, name, games, wins, losses, ties] of ``player`` against everyone met in
    ``results``: a win is finishing ahead of that opponent (a better rank), a tie the same rank.
    Opponents are named by ``names`` ([player, name])."""
    mine = results.filter(pl.col("player") == player).select("game_key", mine="rank")
    theirs = results.filter(pl.col("player") != player).select("game_key", opponent="player", theirs="rank")
    names = names.select(opponent="player", name="name")
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
    seats = archive.select("players", ["game_key", "seat", "name"], where={"identity": [player]})
    standings = archive.select("standings", ["game_key", "seat", "value", "rank"], matching=seats.select("game_key", "seat"))
    seats = seats.with_columns(pl.col("seat").cast(pl.Int64))
    standings = standings.with_columns(pl.col("seat", "value", "rank").cast(pl.Int64))
    return (
        archive.game_facts(player=player).rename({"key": "game_key"})
        .join(seats, on="game_key")
        .join(standings, on=["game_key", "seat"], how="left")
        .sort("order")
        .select("game_key", "title", "created", "status", "players", "seat", "name", "value", "rank", "end_reason")
    )
