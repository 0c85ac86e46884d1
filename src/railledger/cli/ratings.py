"""``railledger ratings``: Weng-Lin player ratings of a population of the archive's games
(people's valid finished games unless asked otherwise)."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from railledger.cli.options import (DEFAULT_DB, DEFAULT_WAIT, DbOption, EveryVerdictOption, Games, GamesOption,
                                    ManualEndsOption, PlayersOption, WaitOption, population, reading, titled)

if TYPE_CHECKING:  # analytics (polars, openskill) and rich load when the command runs, not for --help
    import polars as pl
    from rich.table import Table
COLUMNS = ("place", "player", "id", "games", "wins", "mu", "sigma", "ordinal")


def ratings(
    title: Annotated[Optional[str], typer.Option(help="Only this title, e.g. 18MS (default: each title, then all pooled).")] = None,
    games: GamesOption = Games.people,
    every_verdict: EveryVerdictOption = False,
    manual_ends: ManualEndsOption = False,
    players: PlayersOption = None,
    db: DbOption = Path(DEFAULT_DB),
    wait: WaitOption = DEFAULT_WAIT,
) -> None:
    """Print player ratings: Weng-Lin (openskill, Plackett-Luce), per title and over all titles.

    By default people's valid finished games count: finished, with a recorded result the replay
    matched without a flag; ranks come from the final values (ties share a rank). --games,
    --every-verdict, --manual-ends and --players choose other games (docs/statistics.md); the first
    line says what was counted and left out. A game without a result ranks nobody, so it is never
    rated. Players are listed by the ordinal mu - 3 sigma and known by their 18xx.games user id (a
    hotseat or notation game's players by game and seat: docs/identity.md), shown by name, with the
    id where two names compare equal. The ratings every ingest keeps in the archive are printed
    while they are those of its games; otherwise they are rated here.

    Example: railledger ratings --title 18MS --db games.duckdb
    """
    import polars as pl
    from rich.console import Console

    from railledger.analytics.identity import labelled
    from railledger.analytics.ratings import ratings as rate_archive
    from railledger.analytics.scope import COMMAND, counted_games
    from railledger.cli.output import cell

    out = Console()
    title = None if title is None else titled(title)
    with reading(db, wait) as archive:
        scope = counted_games(archive, population(games, every_verdict, manual_ends, title, players))
        table = labelled(rate_archive(archive, scope.population, scope).table)
    out.print(cell(scope.note(COMMAND)))
    scopes = table["scope"].unique(maintain_order=True).to_list()
    if title is not None:
        scopes = [s for s in scopes if s == title]
    if not scopes:
        out.print(cell(f"ratings: no game{' of ' + title if title else ''} counted in {db}"))
    for scope_name in scopes:
        out.print(_table(scope_name, table.filter(pl.col("scope") == scope_name)))


def _table(scope: str, rows: "pl.DataFrame") -> "Table":
    from rich.table import Table

    from railledger.cli.output import cell

    table = Table(title=cell(f"{scope} ratings: {rows.height} player{'' if rows.height == 1 else 's'}"))
    for column in COLUMNS:
        table.add_column(column, justify="left" if column in ("player", "id") else "right",
                         overflow="fold", no_wrap=column not in ("player", "id"))
    for row in rows.iter_rows(named=True):
        table.add_row(*map(cell, (row["place"], row["shown"], row["short_id"], row["games"], row["wins"],
                                  f"{row['mu']:.2f}", f"{row['sigma']:.2f}", f"{row['ordinal']:.2f}")))
    return table
