"""``railledger crosscheck``: games played by 18xx.games' own engine, or by railledger's bots,
replayed in both engines and compared.

18xx.games' engine is the oracle: what it accepts is what users' records contain. The tools in
``../shared/tools/ref18xx`` run it locally (ruby and a mirror of tobymao/18xx, neither part of
this project): ``refplay`` plays complete games with seeded random players, ``reftrace`` writes
its state after every action, ``compare_trace.py`` compares railledger's states with it. This
command plays fresh seeds of every title in that engine, and (``--selfplay``) games of
railledger's own bots (``railledger play``), replays each in railledger, traces each in the
reference, and compares every state: a generated game must be one 18xx.games accepts, action by
action, to its end and its result. Without ruby, the mirror or the tools it says "skipped" and
succeeds: it is a developer's check, not CI's.

This module declares the command (what ``railledger --help`` reads) and prints its verdicts; the
work is :mod:`railledger.crosscheck.reference`'s, loaded when the command runs.
"""

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from railledger.cli.options import titled
from railledger.crosscheck import DEFAULT_TOOLS, PLAYER_COUNTS, REFERENCE_GAMES, TOOLS_ENV

if TYPE_CHECKING:
    from railledger.crosscheck.reference import Verdict
    from railledger.crosscheck.shortfalls import ShortfallCheck


def crosscheck(
    records: Annotated[Optional[list[Path]], typer.Argument(metavar="[RECORD|FOLDER]...", help="18xx.games records (.json; a folder: every one in it) whose revenue audit --shortfalls checks too.", show_default=False)] = None,
    games: Annotated[Optional[int], typer.Option("--games", help="Games per title played in 18xx.games' engine, spread over its player counts (default: 200 of 18MS, 200 of 18Texas, 50 of The Old Prince 1871).", min=0, show_default=False)] = None,
    selfplay: Annotated[int, typer.Option("--selfplay", help="Games per title played by railledger's bots (railledger play), spread the same way.", min=0)] = 0,
    first_seed: Annotated[int, typer.Option("--first-seed", help="First seed; each player count adds 100000.")] = 1,
    jobs: Annotated[int, typer.Option("--jobs", help="Reference runs at once.", min=1)] = os.cpu_count() or 1,
    max_seconds: Annotated[int, typer.Option("--max-seconds", help="Time limit for one reference game.", min=1)] = 300,
    tools_dir: Annotated[Optional[Path], typer.Option("--tools", help=f"The ref18xx tools (default ${TOOLS_ENV} or {DEFAULT_TOOLS}).")] = None,
    keep: Annotated[Optional[Path], typer.Option("--keep", help="Keep the played records and traces in this folder.")] = None,
    titles: Annotated[Optional[list[str]], typer.Option("--title", help="Only this title (repeatable).")] = None,
    shortfalls: Annotated[bool, typer.Option("--shortfalls", help="Also check every revenue audit shortfall of the played games and of RECORD|FOLDER in 18xx.games' engine: its better routes, sent in place of the declared run, must be accepted and paid what the audit claims.")] = False,
) -> None:
    """Play games in 18xx.games' own engine and check that railledger replays each with no flag,
    its result, and the same state after every action; with --selfplay, also play games with
    railledger's bots and check that 18xx.games' engine accepts every action of each, reaches
    its end and result, and has the same state after every action. With --shortfalls, every run
    the revenue audit finds short, in the games played and in the records given, is sent to
    18xx.games' engine with the audit's better routes in place of the declared ones: the engine
    must accept them and pay each route what the audit claims.

    Needs ruby, TOBYMAO_GIT (a tobymao/18xx git mirror) and ../shared/tools/ref18xx; without
    them it says "skipped" and exits 0. Exit 1 when any game or shortfall disagrees.

    Example: TOBYMAO_GIT=/path/to/18xx.git railledger crosscheck --games 20 --selfplay 20 --first-seed 7000

    Example: TOBYMAO_GIT=/path/to/18xx.git railledger crosscheck --games 0 --shortfalls ../shared/fixtures
    """
    import tempfile

    from railledger.cli.output import consoles, progress_bars, say
    from railledger.crosscheck.reference import batches, extracted_engine, find_tools, run, selfplay_batches
    from railledger.crosscheck.shortfalls import check, records_in

    out, err = consoles(soft_wrap=True)
    if records and not shortfalls:
        say(err, "crosscheck: records are checked only with --shortfalls")
        raise typer.Exit(2)
    missing = [path for path in records or () if not path.exists()]
    if missing:
        say(err, f"crosscheck: {missing[0]}: no such file or folder")
        raise typer.Exit(2)
    titles = [titled(t) for t in titles] if titles else None
    root = tools_dir or Path(os.environ.get(TOOLS_ENV, DEFAULT_TOOLS))
    tools = find_tools(root)
    if isinstance(tools, str):
        say(out, f"crosscheck skipped: {tools}")
        return
    chosen = titles or tuple(PLAYER_COUNTS)
    with tempfile.TemporaryDirectory(prefix="railledger-crosscheck-") as scratch:
        work = keep or Path(scratch)
        for folder in ("records", "selfplay", "traces"):
            (work / folder).mkdir(parents=True, exist_ok=True)
        planned = batches(REFERENCE_GAMES if games is None else games, first_seed, jobs, chosen) if games != 0 else []
        generated = selfplay_batches(selfplay, first_seed, chosen) if selfplay else []
        engine = extracted_engine(tools) if shortfalls else None
        if isinstance(engine, str):
            say(out, f"crosscheck skipped: {engine}")
            return
        with progress_bars(err) as progress:
            verdicts = list(run(tools, planned, generated, work, jobs, max_seconds, progress)) if planned or generated else []
            played = sorted((work / "records").glob("*.json")) + sorted((work / "selfplay").glob("*.json"))
            checked = check(engine, records_in([*(records or ()), *played]), jobs, progress) if engine else None
    if planned or generated:
        report(verdicts)
    if checked is not None:
        report_shortfalls(checked)
    examined = bool(verdicts) or (checked is not None and bool(checked.audits))
    if not examined or not all(v.ok for v in verdicts) or (checked is not None and not checked.ok):
        raise typer.Exit(1)


def report(verdicts: list["Verdict"]) -> None:
    """The table of verdicts by title, then one line for each game that differs."""
    from rich.table import Table

    from railledger.cli.output import consoles, say
    from railledger.crosscheck.reference import title_of

    out = consoles(soft_wrap=True)[0]
    table = Table(title="railledger against 18xx.games' engine")
    for column in ("title", "games", "finished", "no flag", "result", "accepted", "states equal", "actions"):
        table.add_column(column, justify="left" if column == "title" else "right")
    for title in sorted({title_of(v.record) for v in verdicts}, key=list(PLAYER_COUNTS).index):
        mine = [v for v in verdicts if v.record.name.startswith(title.replace(" ", "_") + "__")]
        table.add_row(
            title, str(len(mine)), str(sum(v.finished for v in mine)), str(sum(v.flag is None for v in mine)),
            str(sum(v.result_matches for v in mine)), str(sum(v.reference is None and v.states is not None for v in mine)),
            str(sum(v.states is not None and v.states[0] == v.states[1] for v in mine)),
            str(sum(v.actions for v in mine)),
        )
    out.print(table)
    for verdict in verdicts:
        if not verdict.ok:
            why = (verdict.flag or verdict.reference or verdict.divergence
                   or ("not traced" if verdict.states is None else "result differs"))
            say(out, f"DIFFERS {verdict.record.name}: {why}")
    if not verdicts:
        say(out, "no game was played: see refplay's own output (run it by hand)")


def report_shortfalls(checked: "ShortfallCheck") -> None:
    """The table of the shortfall check by title, then one line for each claim 18xx.games' engine
    does not confirm (OLDER RULES where it does not pay the declared run as the record was paid
    either) and each record that could not be checked."""
    from rich.table import Table

    from railledger.cli.output import consoles, say

    out = consoles(soft_wrap=True)[0]
    table = Table(title="The revenue audit's better runs in 18xx.games' engine")
    for column in ("title", "records", "runs", "short", "confirmed", "differ", "older rules"):
        table.add_column(column, justify="left" if column == "title" else "right")
    order = list(PLAYER_COUNTS)
    for title in sorted({a.title for a in checked.audits}, key=lambda t: (order.index(t) if t in order else len(order), t)):
        audits = [a for a in checked.audits if a.title == title]
        mine = [v for v in checked.verdicts if v.claim.title == title]
        table.add_row(title, str(len(audits)), str(sum(a.runs for a in audits)), str(len(mine)),
                      str(sum(v.confirmed for v in mine)), str(sum(not v.ok for v in mine)),
                      str(sum(v.other_rules for v in mine)))
    out.print(table)
    for verdict in checked.verdicts:
        if not verdict.confirmed:
            say(out, f"{'OLDER RULES' if verdict.other_rules else 'DIFFERS'} {verdict.why()}")
    for why in checked.unchecked:
        say(out, f"NOT CHECKED {why}")
