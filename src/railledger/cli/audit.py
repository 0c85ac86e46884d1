"""``railledger audit RECORD``: every declared run beside the best run the company had.

Its own module so that the command's table and JSON live apart from ``cli/app.py``, which only
registers it.
"""

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from railledger.cli.options import DEFAULT_DB, DEFAULT_WAIT, DbOption, WaitOption, game_record

if TYPE_CHECKING:  # the engine and rich load when the command runs, not for railledger --help
    from rich.table import Table

    from railledger.replay.optimizer.audit import RunAudit


def audit(
    record: Annotated[str, typer.Argument(metavar="RECORD|GAME", help="A record (.json, .rln, - for stdin) or an archived game's key.")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object: {\"runs\": [...]} on stdout.")] = False,
    db: DbOption = Path(DEFAULT_DB),
    wait: WaitOption = DEFAULT_WAIT,
) -> None:
    """Audit the revenue of every run: declared, the engine's, and the best possible.

    Replays the record and, at each run_routes, computes the maximum-revenue set of routes for
    all of the company's trains (proven optimal unless marked *) and the shortfall: how much the
    declared run left on the table. A name that is not a file is looked up in the archive
    (``--db``), as ``railledger show`` does.

    Example: railledger audit ../shared/fixtures/18MS/14375.json --json
    """
    import json

    from railledger.cli.output import consoles
    from railledger.replay.optimizer.audit import audit_record

    out, err = consoles()
    loaded, _ = game_record(record, db, wait)
    try:
        runs = audit_record(loaded)
    except (NotImplementedError, KeyError) as exc:
        err.print(f"{record}: {exc}", markup=False, highlight=False, soft_wrap=True)
        raise typer.Exit(code=1) from None
    if as_json:
        payload = {"game": loaded.key, "title": loaded.title, "runs": [run.as_dict() for run in runs]}
        sys.stdout.write(json.dumps(payload) + "\n")
        return
    out.print(_table(f"{loaded.key} ({loaded.title}): {len(runs)} runs", runs))
    out.print(_summary(runs), markup=False, highlight=False)
    for line in _shortfalls(runs):
        out.print(line, markup=False, highlight=False, soft_wrap=True)


def _money(value: int | None) -> str:
    return "-" if value is None else str(value)


def _table(title: str, runs: list["RunAudit"]) -> "Table":
    from rich.table import Table

    table = Table(title=title)
    for column in ("round", "company", "trains", "declared", "engine", "optimum", "shortfall", "optimal routes"):
        numeric = column in ("declared", "engine", "optimum", "shortfall")
        table.add_column(column, justify="right" if numeric else "left", no_wrap=numeric, overflow="fold")
    for run in runs:
        trains = ", ".join(i if i.rsplit("-", 1)[0] == t else f"{i} ({t})" for i, t in run.trains)
        optimum = f"{run.optimum.revenue}{'' if run.optimum.proven else '*'}"
        engine = _money(run.engine) if run.error is None else "illegal"
        table.add_row(run.round, run.company, trains, _money(run.declared), engine, optimum,
                      _money(run.shortfall), run.better_run)
    return table


def _shortfalls(runs: list["RunAudit"]) -> list[str]:
    """Three lines per run below the optimum, naming the routes run and the better ones: what an
    organizer sends a player, who can lay each route on the map."""
    lines = []
    for run in runs:
        if run.shortfall:
            unproven = "" if run.optimum.proven else " (best found, not proven the best)"
            lines += [f"{run.round} {run.company}: {run.shortfall} short{unproven}",
                      f"  ran     {run.declared_run}", f"  better  {run.better_run}"]
    return lines


def _summary(runs: list["RunAudit"]) -> str:
    short = [r for r in runs if r.shortfall]
    lost = sum(r.shortfall or 0 for r in runs)
    unproven = sum(1 for r in runs if not r.optimum.proven)
    illegal = sum(1 for r in runs if r.error is not None)
    text = f"{len(short)} of {len(runs)} runs below the optimum, {lost} left on the table"
    if illegal:
        text += f"; {illegal} declared run{'s' if illegal != 1 else ''} refused by the engine"
    text += "; every optimum proven" if not unproven else f"; {unproven} optimum not proven (*: best found)"
    return text
