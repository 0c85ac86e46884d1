"""The ``railledger`` command: a thin front door that wires ingest, records and the dashboard.

Each command imports what it uses when it runs: ``railledger --help`` loads typer and the
option declarations only, not DuckDB, polars, rich's console, the engine or Streamlit.
"""

import os
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Mapping, Optional

import typer

from railledger.cli.audit import audit
from railledger.cli.crosscheck import crosscheck
from railledger.cli.event import event_app
from railledger.cli.legal import legal
from railledger.cli.options import (DEFAULT_DB, DEFAULT_WAIT, ClusterOption, DbOption, EveryVerdictOption, Games,
                                   GamesOption, ManualEndsOption, PlayersOption, VariantChoiceOption, WaitOption, WorkersOption,
                                   population, variant_choice)
from railledger.cli.options import fail as _fail
from railledger.cli.options import game_record, is_record_file, write_document
from railledger.cli.options import titled as _titled
from railledger.cli.ratings import ratings
from railledger.cli.options import reading as _reading
from railledger.cli.pull import pull
from railledger.cli.options import waiting as _waiting
from railledger.cli.report import report
from railledger.cli.selfplay import ladder, play, predict, simulate
from railledger.ingest import DEFAULT_MAX_SIZE

if TYPE_CHECKING:
    from collections.abc import Iterator

    import polars as pl
    from rich.table import Table

    from railledger.analytics.scope import Population
    from railledger.ingest.model import Record
    from railledger.ingest.sources import Loaded

app = typer.Typer(
    help="railledger: archive, replay and statistics for 18xx games.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)

MaxSizeOption = Annotated[
    int,
    typer.Option("--max-size", min=1, help="Largest record file read, in bytes; bigger ones are refused unread."),
]


def ingest(
    paths: Annotated[list[str], typer.Argument(help="Record files, directories (searched recursively) or - for stdin.")],
    db: DbOption = Path(DEFAULT_DB),
    replay: Annotated[bool, typer.Option(help="Replay titles with an engine and store states, events, standings and flags.")] = True,
    wait: WaitOption = DEFAULT_WAIT,
    max_size: MaxSizeOption = DEFAULT_MAX_SIZE,
    allow_invalid: Annotated[
        bool, typer.Option("--allow-invalid", help="Exit 0 even when a game is illegal or its result differs from its replay.")
    ] = False,
    workers: WorkersOption = os.cpu_count() or 1,
    cluster: ClusterOption = None,
) -> None:
    """Read game records and store them in the archive, whole games to a transaction.

    Takes 18xx.games JSON exports (.json), JSON Lines of them (.jsonl), and railledger notation
    (.rln). Every record is checked against the input schema (docs/input.md) first; a bad one is
    one line naming the file, the action and the field, and the other files still land. Games of
    a title with a rules engine are replayed and stored with their state after every action,
    events, standings and any illegal actions found. A record already archived unchanged is left
    alone (without a replay); a changed one replaces the old. The archive is held only while
    games are written, a few tenths of a second at a time, so readers can use it during a long
    ingest. With --no-replay, stored replays
    are kept, and a changed record whose stored version was replayed is refused. At the end the
    player ratings kept in the archive are brought up to date (the games after the stored ones
    rated, or every game again when earlier ones changed), so readers load them.

    Every game gets a verdict (valid, illegal, result mismatch, unfinished, no engine, not
    replayed), stored with it and counted in the summary. A game that is illegal or whose result
    differs from its replay is stored all the same, named on stderr, and makes the exit code 1
    unless --allow-invalid.

    Records are parsed and replayed by --workers processes (1: in this one), or by the workers of
    the Dask cluster at --cluster (docs/scale.md); this process alone writes the archive.

    Example: railledger ingest ../shared/fixtures examples/ --db games.duckdb
    """
    from railledger.cli.ingesting import report_ingest
    from railledger.cli.output import progress_bars
    from railledger.pipeline.ingesting import ingest_paths
    from railledger.pipeline.workers import ClusterUnavailable

    try:
        with progress_bars() as progress:
            tally = ingest_paths(paths, db, replay=replay, workers=workers, cluster=cluster, max_size=max_size,
                                 wait=wait, on_wait=_waiting, progress=progress)
    except ClusterUnavailable as exc:
        raise _fail(str(exc)) from None
    if not report_ingest(tally, db, allow_invalid):
        raise typer.Exit(code=1)


GAMES_LISTED = 50
"""Games ``railledger games`` lists unless told otherwise: a terminal shows a few dozen rows
usefully, and printing a hundred thousand of them takes longer than reading the archive."""


def games(
    title: Annotated[Optional[str], typer.Option(help="Only games of this title, e.g. 18MS.")] = None,
    player: Annotated[Optional[str], typer.Option(help="Only games with this player (name or id).")] = None,
    limit: Annotated[int, typer.Option(
        "--limit", min=0, help="List at most this many of the matching games, the newest (0: every one).")] = GAMES_LISTED,
    db: DbOption = Path(DEFAULT_DB),
    wait: WaitOption = DEFAULT_WAIT,
) -> None:
    """List the newest --limit (50) of the archived games that match, in title and source id order.

    Newest means latest by creation day, then source id. The first line says how many games
    matched: printing a hundred thousand rows takes longer than reading them and shows a reader
    nothing, so a long archive is listed in full only with --limit 0. One game a line, in
    columns without borders, for a reader and for grep alike.

    Example: railledger games --title 18MS --player "Player 2" --limit 20
    """
    from railledger.cli.text import listing, plain
    from railledger.ingest.identity import relabelled_games

    title = None if title is None else _titled(title)
    with _reading(db, wait) as archive:
        rows = archive.game_rows(title=title, player=player, newest=limit or None)
        matched = archive.count_games(title=title, player=player) if limit and len(rows) == limit else len(rows)
        relabelled = relabelled_games({row["key"]: row["players"] for row in rows}, archive.seat_identities)
    shown = f"{matched:,} game{'' if matched == 1 else 's'} in {db}"
    if len(rows) < matched:
        shown = f"the newest {len(rows):,} of {shown} (--limit 0 lists every one)"
    lines = ((row["key"], _title_text(row), ", ".join(relabelled.get(row["key"], row["players"])), row["status"] or "",
              row["actions"], _verdict_text(row))
             for row in rows)
    table = listing(("key", "title", "players", "status", "actions", "verdict"), lines, right=frozenset({4}))
    sys.stdout.write(f"{plain(shown)}\n\n{table}\n")


def _title_text(row: Mapping[str, Any]) -> str:
    """A games row's title, with the first digits of its variant's hash when it was played with one."""
    return row["title"] if row["variant_hash"] is None else f"{row['title']} (variant {row['variant_hash'][:12]})"


def _verdict_text(row: Mapping[str, Any]) -> str:
    """A games row's verdict as one text: ``illegal: action 42 (#12) by Ann: ...``."""
    if row["verdict"] is None:
        return "not judged yet: stored before verdicts were kept; ingest it again"
    return f"{row['verdict']}: {row['verdict_detail']}"


def show(
    game: Annotated[str, typer.Argument(metavar="GAME|RECORD", help="Archive key (18xx.games/14375) or source id (14375), "
                                        "or a record file (.json, .rln, - for stdin).")],
    db: DbOption = Path(DEFAULT_DB),
    wait: WaitOption = DEFAULT_WAIT,
) -> None:
    """Print a game in railledger notation: header, then one action per line.

    A name that is a file is read; any other is looked up in the archive (--db).

    The notation writes every character a terminal would not print as itself as a JSON escape,
    so the output is safe on a terminal and reads back as the same record.

    Example: railledger show 14375 > game.rln
    """
    from railledger.ingest import notation

    record, _ = game_record(game, db, wait)
    sys.stdout.write(notation.write(record))


def convert(
    source: Annotated[str, typer.Argument(help="Record to read (.json, .rln, or - for stdin).")],
    target: Annotated[str, typer.Argument(help="File to write, or - for stdout.")],
    to: Annotated[
        Optional[str], typer.Option("--to", help="Output format: json or notation (default: by TARGET's extension).")
    ] = None,
    max_size: MaxSizeOption = DEFAULT_MAX_SIZE,
) -> None:
    """Convert one record between 18xx.games JSON and railledger notation.

    Example: railledger convert ../shared/fixtures/18MS/14375.json 14375.rln
    """
    import json

    from railledger.ingest import notation
    from railledger.ingest.errors import RecordError
    from railledger.ingest.export import write_export
    from railledger.ingest.sources import read_record

    fmt = to or ("notation" if target.endswith(notation.EXTENSION) else "json" if target.endswith(".json") else None)
    if fmt not in ("json", "notation"):
        raise _fail(f"{target}: say --to json or --to notation (or use a .json / {notation.EXTENSION} name)")
    try:
        record = read_record(source, max_size)
    except RecordError as exc:
        raise _fail(str(exc)) from None
    text = notation.write(record) if fmt == "notation" else json.dumps(write_export(record), indent=1) + "\n"
    if target == "-":
        sys.stdout.write(text)
        return
    try:
        Path(target).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise _fail(f"{target}: cannot write: {exc.strerror or exc}") from None


def dashboard(
    db: DbOption = Path(DEFAULT_DB),
    port: Annotated[int, typer.Option(help="Port on localhost.")] = 8501,
    wait: WaitOption = DEFAULT_WAIT,
    event: Annotated[Optional[list[Path]], typer.Option(
        "--event", help="An event file the Events page shows (repeat for several).")] = None,
) -> None:
    """Open the dashboard (Streamlit) on the archive, read-only, at http://localhost:PORT.

    The archive is checked first (a damaged or foreign file is refused here, not in the browser).
    The command then becomes the Streamlit server itself, so SIGTERM or Ctrl-C stops the server
    and nothing is left running. While an ingest writes, pages wait for it (up to --wait), then
    show the last data they read with a note.

    The Events page shows the standings of each --event file, counted from the archive.

    Example: railledger dashboard --db games.duckdb --port 8502 --event league.toml
    """
    import railledger.dashboard as dashboard_package

    if not db.exists():
        raise _fail(f"{db}: no archive here; run 'railledger ingest' first")
    with _reading(db, wait):
        pass
    if not _port_free(port):
        raise _fail(f"port {port} on localhost is in use (another dashboard?); choose another with --port {port + 1}")
    app_file = Path(dashboard_package.__file__).parent / "app.py"
    for path in event or []:
        if not path.is_file():
            raise _fail(f"{path}: no event file here (--event)")
    env = {**os.environ, "RAILLEDGER_DB": str(db.resolve()), "RAILLEDGER_WAIT": str(wait),
           "RAILLEDGER_EVENTS": os.pathsep.join(str(path.resolve()) for path in event or [])}
    command = [sys.executable, "-m", "streamlit", "run", str(app_file), "--server.address", "localhost",
               "--server.port", str(port), "--server.headless", "true", "--browser.gatherUsageStats", "false"]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, command, env)  # Streamlit handles SIGTERM and SIGINT by stopping its server


def _port_free(port: int) -> bool:
    """Whether a server could listen on ``port`` on localhost now: checked before Streamlit starts,
    since Streamlit itself only says so in a traceback-like log and exits."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as Streamlit's server does
        try:
            probe.bind(("localhost", port))
        except OSError:
            return False
    return True


def replay_command(
    records: Annotated[list[str], typer.Argument(metavar="RECORD|GAME...", help="Record files or directories (.json, .jsonl, "
                                                 ".rln), - for stdin, or archived games' keys or source ids.")],
    keep_going: Annotated[bool, typer.Option("--keep-going", help="Flag illegal actions, skip them and go on.")] = False,
    all_flags: Annotated[bool, typer.Option(
        "--all-flags", help="List every flag that follows from a root cause too (they are counted otherwise).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per game on stdout.")] = False,
    states: Annotated[bool, typer.Option("--states", help="With --json: the state after every action.")] = False,
    max_size: MaxSizeOption = DEFAULT_MAX_SIZE,
    db: DbOption = Path(DEFAULT_DB),
    wait: WaitOption = DEFAULT_WAIT,
) -> None:
    """Replay records through the rules: every illegal action is flagged with the rule it breaks.

    Prints per game its verdict (valid, illegal, result mismatch, unfinished), each root cause (the
    action by its id in the record and its round, in words; the rule it breaks and why) with the
    count of the flags that follow from it (listed with --all-flags), and the final values against
    the recorded result. Without --keep-going the replay stops at the first illegal action and says
    so; the values it reached there are not a result and are not shown. Exits 1 when any game has
    a flag or a different result.

    A name that is not a file or folder is looked up in the archive (--db), as show does.

    Example: railledger replay ../shared/fixtures/18MS --keep-going
    """
    import json

    from railledger.cli.output import consoles, say
    from railledger.cli.replaying import print_replay
    from railledger.replay import replay_record
    from railledger.replay.verdict import judge

    err = consoles()[1]
    if states and not as_json:
        raise _fail("--states needs --json: the states are written as JSON (railledger replay RECORD --json --states)")
    failed = False
    for loaded in _named_records(records, max_size, db, wait):
        if loaded is None or loaded.record is None:
            if loaded is not None:
                say(err, loaded.error)
            failed = True
            continue
        try:
            outcome = replay_record(loaded.record, keep_going=keep_going, snapshots=states)
        except Exception as exc:  # no engine for the title, or a bug the record meets: this record fails
            say(err, f"{loaded.origin}: {exc if isinstance(exc, NotImplementedError) else _unexpected(exc)}")
            failed = True
            continue
        failed |= not outcome.matches_record
        verdict = judge(loaded.record, outcome, loaded.source)
        if as_json:
            payload = {**outcome.as_dict(states), "verdict": {"kind": verdict.kind, "detail": verdict.detail}}
            sys.stdout.write(json.dumps(payload) + "\n")
        else:
            print_replay(loaded.origin, outcome, verdict, all_flags)
    if failed:
        raise typer.Exit(code=1)


def _named_records(names: list[str], max_size: int, db: Path, wait: float) -> "Iterator[Loaded | None]":
    """The records ``names`` give, in order: every record of a file or folder, and the archived
    game of any other name (None where there is none: that was said on stderr)."""
    from railledger.ingest.sources import Loaded, expand, load

    for name in names:
        if is_record_file(name):
            for origin in expand([name]):
                yield from load(origin, max_size)
            continue
        try:
            record, source = game_record(name, db, wait)
        except typer.Exit:
            yield None
            continue
        yield Loaded(record.key, record, source=source)


def _unexpected(exc: Exception) -> str:
    return f"unexpected error: {type(exc).__name__}: {exc}"


def conformance(
    paths: Annotated[list[str], typer.Argument(help="Record files or directories, e.g. ../shared/fixtures.")],
    max_size: MaxSizeOption = DEFAULT_MAX_SIZE,
) -> None:
    """Replay every record and compare with its recorded result: one PASS/FAIL row each, with its verdict.

    Exits 1 when a record of a supported title fails; a record of a title railledger has no
    engine for shows NO ENGINE and does not fail the run.

    Example: railledger conformance ../shared/fixtures
    """
    from rich.table import Table

    from railledger.cli.output import cell, consoles, say
    from railledger.ingest.errors import UnknownTitle
    from railledger.ingest.sources import expand, load
    from railledger.replay.conformance import check

    out, err = consoles()
    table = Table(title="conformance (values in seat order)")
    for column in ("record", "title", "actions", "flags", "recorded", "replayed", "status", "verdict"):
        table.add_column(column, justify="right" if column in ("actions", "flags") else "left", overflow="fold")
    failed = False
    for origin in expand(paths):
        for loaded in load(origin, max_size):
            if loaded.record is None:
                if isinstance(loaded.error, UnknownTitle):
                    table.add_row(cell(Path(loaded.origin).name), cell(loaded.error.title), "-", "-", "-", "-", "NO ENGINE",
                                  "no engine")
                    continue
                table.add_row(cell(loaded.origin), "?", "-", "-", "-", "-", "FAIL", "unreadable")
                say(err, loaded.error)
                failed = True
                continue
            try:
                row = check(loaded.origin, loaded.record, loaded.source)
            except Exception as exc:  # a bug the record meets: a FAIL row, and the others still run
                table.add_row(cell(Path(loaded.origin).name), cell(loaded.record.title), "-", "-", "-", "-", "FAIL", "-")
                say(err, f"{loaded.origin}: {_unexpected(exc)}")
                failed = True
                continue
            failed |= row.status == "FAIL"
            recorded = loaded.record.result or {}
            table.add_row(*map(cell, (
                Path(loaded.origin).name,
                loaded.record.title,
                len(loaded.record.actions),
                len(row.replay.flags) if row.replay else "-",
                _values(recorded, loaded.record),
                _values(row.replayed, loaded.record),
                row.status,
                row.verdict,
            )))
    out.print(table)
    if failed:
        raise typer.Exit(code=1)


def _values(values: Mapping[Any, Any] | None, record: "Record") -> str:
    if not values:
        return "-"
    return "/".join(f"{values.get(p.id, '?')}" for p in record.players)


def bench(
    paths: Annotated[list[str], typer.Argument(help="18xx.games JSON records or directories.")],
    repeat: Annotated[int, typer.Option(help="Timed repetitions per stage (medians are reported).")] = 20,
    scale_games: Annotated[
        int, typer.Option("--scale-games", min=0, help="Also build an archive of this many games (the records replayed "
                          "once, then copied, then its ratings stored) and time stats, games --title, ratings and every "
                          "dashboard page on it (0: skip).")
    ] = 0,
    selfplay_games: Annotated[
        int, typer.Option("--selfplay-games", min=0, help="Whole games each bot plays per title, timed (0: skip).")
    ] = 3,
    ingest_games: Annotated[
        int, typer.Option("--ingest-games", min=0, help="Also time 'railledger ingest DIR' whole on this many distinct games: the records, "
                          "then bots' games of every title on seeds of their own (0: skip).")
    ] = 0,
    predict: Annotated[
        bool, typer.Option("--predict/--no-predict", help="Also replay the records asking the random, greedy and strong "
                           "bots at every decision: how often the person's action is each bot's first choice and among "
                           "its first three (railledger predict alone).")
    ] = True,
    results: Annotated[
        Optional[Path], typer.Option("--results", help="Also write the figures to a dated Markdown file in this folder, "
                                                       "the machine and commit named (make bench: docs/measurements).")
    ] = None,
) -> None:
    """Print speed figures: per-record medians of each ingest stage, the replay beside 18xx.games'
    engine, and as asked whole commands, bots' games and a large archive's pages; and how often
    each bot's first choice (and first three) is what the people of the records did.

    Example: railledger bench ../shared/fixtures --repeat 50 --results docs/measurements
    """
    from railledger.bench.figures import machine
    from railledger.bench.report import run_bench, write_results
    from railledger.cli.output import consoles, print_section, say
    from railledger.ingest.sources import expand

    out = consoles()[0]
    files = [Path(p) for p in expand(paths) if p.endswith(".json")]
    if not files:
        raise _fail("bench: no .json records found in " + " ".join(paths))
    say(out, f"railledger bench on {machine()}")
    sections = []
    for section in run_bench(files, repeat, scale_games, selfplay_games, ingest_games, predict):
        sections.append(section)
        print_section(out, section)
    if results is not None:
        say(out, f"written to {write_results(sections, results, 'railledger bench ' + ' '.join(sys.argv[2:]))}")


def stats(
    title: Annotated[
        Optional[str], typer.Option(help="Only this title, e.g. 18MS (default: each title, then all pooled).")
    ] = None,
    games: GamesOption = Games.people,
    every_verdict: EveryVerdictOption = False,
    manual_ends: ManualEndsOption = False,
    players: PlayersOption = None,
    variant: VariantChoiceOption = None,
    compare_variant: Annotated[Optional[str], typer.Option(
        "--compare-variant", metavar="HASH|FILE",
        help="Print the base title and this variant side by side (win rates, game length, phase timing) "
             "with intervals, and whether each difference is within noise.")] = None,
    db: DbOption = Path(DEFAULT_DB),
    wait: WaitOption = DEFAULT_WAIT,
) -> None:
    """Print statistics of the archived games: what goes with winning, the train rush, broken rules.

    Win rates and the train rush count people's valid finished games (finished, replayed with no
    flag to their recorded result) unless --games or --every-verdict say otherwise; the first line
    says what was counted, what was left out and why (docs/statistics.md). A game without a
    result ranks nobody, so win rates never count it. Win rates come with their sample size (n)
    and a 95% Wilson interval: a few games prove little. Train rush rows count games by the
    operating round (1st, 2nd... OR of the game) in which a train type was first bought or
    rusted. Validation flags are of every game. The statistics are of the titles as published
    unless --variant names a variant (its games alone); --compare-variant prints the base title
    and a variant side by side instead (docs/designers.md#variants).

    Example: railledger stats --db games.duckdb --title 18MS --games all
    """
    if compare_variant is not None:
        return _compare(compare_variant, title, population(games, every_verdict, manual_ends, players=players), db, wait)
    from railledger.analytics.balance import winner_correlations
    from railledger.analytics.rush import train_rush_distribution
    from railledger.analytics.scope import COMMAND, counted_games
    from railledger.analytics.validation import validation_summary
    from railledger.cli.output import consoles, say

    out = consoles()[0]
    title = None if title is None else _titled(title)
    chosen = variant_choice(variant)
    with _reading(db, wait) as archive:
        scope = counted_games(archive, population(games, every_verdict, manual_ends, title, players, chosen))
        correlations = _of_title(winner_correlations(archive, scope), "scope", title)
        rush = _of_title(train_rush_distribution(archive, scope), "title", title)
        flags = _of_title(validation_summary(archive), "title", title)
    say(out, scope.note(COMMAND))
    out.print(_stats_table(
        "winner correlations (games with a result)",
        ("scope", "factor", "value", "n", "wins", "win rate", "95% CI", "mean rank"),
        [(r["scope"], r["factor"], r["value"], str(r["games"]), str(r["wins"]), f"{r['win_rate']:.2f}",
          f"{r['ci_low']:.2f}-{r['ci_high']:.2f}", f"{r['mean_rank']:.2f}")
         for r in correlations.iter_rows(named=True)],
        numbers=5,
    ))
    out.print(_stats_table(
        "train rush (games by operating round)",
        ("title", "train", "event", "OR #", "games"),
        [(r["title"], r["train_type"], r["event"], str(r["or_ordinal"]), str(r["games"]))
         for r in rush.iter_rows(named=True)],
        numbers=2,
    ))
    out.print(_stats_table(
        "validation flags (every game)",
        ("title", "rule", "flags", "games"),
        [(r["title"], r["rule"], str(r["flags"]), str(r["games"])) for r in flags.iter_rows(named=True)],
        numbers=2,
    ))


def _compare(choice: str, title: str | None, base: "Population", db: Path, wait: float) -> None:
    """``stats --compare-variant``: the base title and the variant side by side, one line each
    saying what it counted, then one row per measure with both values, their intervals and
    whether the difference is within noise."""
    from railledger.analytics.scope import COMMAND
    from railledger.analytics.variants import archived_variant, compare_variant
    from railledger.cli.output import consoles, say

    out = consoles()[0]
    chosen = variant_choice(choice)
    assert chosen is not None
    with _reading(db, wait) as archive:
        found = archived_variant(archive, chosen)
        if found is None:
            raise _fail(f"--compare-variant: no game of a variant {chosen[:12]} in {db}")
        digest, of_title = found
        if title is not None and _titled(title) != of_title:
            raise _fail(f"--compare-variant: the variant is of {of_title}, not {_titled(title)}")
        comparison = compare_variant(archive, base, of_title, digest)
    say(out, "base: " + comparison.base.note(COMMAND))
    say(out, "variant: " + comparison.variant.note(COMMAND))

    def shown(value: float | None, low: float | None, high: float | None, rate: bool) -> tuple[str, str]:
        if value is None:
            return "-", "-"
        form = "{:.2f}" if rate else "{:.1f}"
        interval = "-" if low is None or high is None else f"{form.format(low)}-{form.format(high)}"
        return form.format(value), interval

    rows: list[tuple[str, ...]] = []
    for r in comparison.rows.iter_rows(named=True):
        rate = r["measure"].endswith("win rate")
        base_value, base_interval = shown(r["base"], r["base_low"], r["base_high"], rate)
        variant_value, variant_interval = shown(r["variant"], r["variant_low"], r["variant_high"], rate)
        rows.append((str(r["measure"]), str(r["value"] or "none"), str(r["base_n"]), base_value, base_interval,
                     str(r["variant_n"]), variant_value, variant_interval, str(r["difference"])))
    out.print(_stats_table(
        f"{of_title}: base title beside variant {digest[:12]} (95% intervals; n: players for a win rate, games otherwise)",
        ("measure", "value", "base n", "base", "base 95%", "variant n", "variant", "variant 95%", "difference"),
        rows, numbers=7))


def _of_title(frame: "pl.DataFrame", column: str, title: str | None) -> "pl.DataFrame":
    """The rows of one title (ignoring case, as ``games --title`` does), or all rows without one."""
    import polars as pl

    return frame if title is None else frame.filter(pl.col(column).str.to_lowercase() == title.lower())


def _stats_table(title: str, columns: tuple[str, ...], rows: list[tuple[str, ...]], numbers: int) -> "Table":
    """A table whose last ``numbers`` columns are right-aligned numbers; text folds rather than
    losing letters in a narrow terminal. The title says "none" when there are no rows."""
    from rich.table import Table

    from railledger.cli.output import cell

    table = Table(title=title if rows else f"{title}: none")
    for i, column in enumerate(columns):
        number = i >= len(columns) - numbers
        table.add_column(column, justify="right" if number else "left", no_wrap=number,
                         overflow="ellipsis" if number else "fold")
    for row in rows:
        table.add_row(*map(cell, row))
    return table


class ExportFormat(str, Enum):
    parquet = "parquet"
    csv = "csv"
    json = "json"


def export(
    target: Annotated[str, typer.Argument(
        metavar="OUT_DIR|GAME", help="parquet, csv: the directory to write the tables into (created if missing); "
                                     "json: the game (archive key or source id).")],
    fmt: Annotated[
        ExportFormat, typer.Option("--format", help="parquet, csv (list columns as JSON text, bytes as base64), or json.")
    ] = ExportFormat.parquet,
    output: Annotated[Optional[Path], typer.Option("-o", "--output", help="json: the file to write (default: stdout).")] = None,
    anonymize: Annotated[bool, typer.Option("--anonymize", help="Replace every player's name and user id by a pseudonym, "
                                                                "the same one everywhere, and drop the chat.")] = False,
    games: GamesOption = Games.people,
    every_verdict: EveryVerdictOption = False,
    manual_ends: ManualEndsOption = False,
    db: DbOption = Path(DEFAULT_DB),
    wait: WaitOption = DEFAULT_WAIT,
) -> None:
    """Write every archive table for other tools, or give one game's original record back (--format json).

    Parquet is written as one Hive-style dataset per table, partitioned by title:
    OUT_DIR/<table>/title=<title>/part-0.parquet, which DuckDB, Spark or Trino read as one table
    with a title column (docs/scale.md); CSV as OUT_DIR/<table>.csv. The tables hold the games
    that statistics count, people's valid finished games unless --games, --every-verdict or
    --manual-ends say otherwise (docs/statistics.md), and the first line says which; the
    standings give each seat's source and bot, and no rank or winner in a game without a
    result. The tables are read in one
    open of the archive, then written with the archive closed. With
    --format json the game's export is written exactly as it was ingested (the archive keeps the
    text it read, undos and all); a game that came as notation is written as an export of it.

    With --anonymize, for sharing a dataset: each player becomes "Player N", the same N in every
    game for an 18xx.games user id, in the players, the actions' entities and user fields, the
    results, verdicts, flags and the kept texts; chat messages are dropped (docs/pull.md).

    Example: railledger export --format parquet exported/ --db games.duckdb

    Example: railledger export --format csv everything/ --games all --every-verdict

    Example: railledger export --format json 14375 -o 14375.json
    """
    from railledger.cli.output import consoles, say
    from railledger.pipeline.exporting import archive_tables, write_tables

    if fmt is ExportFormat.json:
        _export_game(target, output, db, wait, anonymize)
        return
    if output is not None:
        raise _fail("-o is for --format json; parquet and csv write one file per table into OUT_DIR")
    from railledger.analytics.scope import COMMAND, counted_games

    out = consoles()[0]
    with _reading(db, wait) as archive:
        scope = counted_games(archive, population(games, every_verdict, manual_ends))
        frames = archive_tables(archive, scope)
    say(out, scope.note(COMMAND))
    if anonymize:
        from railledger.pipeline.anonymizing import anonymize_tables

        frames = anonymize_tables(frames)
    try:
        written = write_tables(frames, target, fmt.value)
    except OSError as exc:
        raise _fail(f"{target}: cannot write: {exc.strerror or exc}") from None
    for path, rows in written:
        say(out, f"{path}{'/' if fmt is ExportFormat.parquet else ''}: {rows} row{'' if rows == 1 else 's'}")


def _export_game(game: str, output: Path | None, db: Path, wait: float, anonymize: bool) -> None:
    """The original export of one archived game, to ``output`` or stdout."""
    import json

    from railledger.cli.output import consoles, say
    from railledger.ingest.export import write_export

    err = consoles()[1]
    with _reading(db, wait) as archive:
        try:
            record = archive.record(game)
            source = archive.source(record.key)
        except KeyError as exc:
            raise _fail(str(exc.args[0] if exc.args else exc)) from None
    if anonymize:
        from railledger.pipeline.anonymizing import Pseudonyms, Table, anonymized_record, anonymized_source

        pseudonyms = Pseudonyms()
        table = Table.seated(pseudonyms, record.key, ((seat, p.name, str(p.id), isinstance(p.id, int))
                                                      for seat, p in enumerate(record.players, start=1)))
        source = None if source is None else anonymized_source(source, table, pseudonyms)
        record = anonymized_record(record, table, pseudonyms)
    if source is not None and source.format == "json":
        text = source.text  # byte for byte as read (a leading byte-order mark aside)
    else:
        say(err, f"note: {record.key} was ingested from notation" if source else
                 f"note: {record.key} was stored without its text")
        say(err, "note: this export is written from the canonical record (no undo history)")
        text = json.dumps(write_export(record), indent=1) + "\n"
    write_document(text, output)


def compact(db: DbOption = Path(DEFAULT_DB), wait: WaitOption = DEFAULT_WAIT) -> None:
    """Give the archive file's free blocks back to the disk: copy it into a new file and put that
    in its place.

    DuckDB reuses the blocks its writes free but never shrinks the file around them: an ingest
    leaves about a fifth of the file free, a migration that rebuilds a table as much as the
    table. An ingest compacts by itself once a tenth of the file (and 4 MB) is free; this does it
    now. It takes about a millisecond a stored game, holding the archive for writing; every table
    is checked to hold as many rows in the copy, and a failure leaves the archive as it was.

    Example: railledger compact --db games.duckdb
    """
    from railledger.cli.output import consoles, say
    from railledger.records import ArchiveError
    from railledger.records.compaction import compact as compact_archive

    if not db.exists():
        raise _fail(f"{db}: no archive here; run 'railledger ingest' first")
    try:
        done = compact_archive(db, wait=wait, on_wait=_waiting)
    except ArchiveError as exc:
        raise _fail(str(exc)) from None
    say(consoles()[0], done.line(db) if done is not None else f"nothing to compact: no block of {db} is free")


COMMANDS = (
    ingest, pull, games, show, report, stats, ratings, dashboard, export, compact,  # the archive: fill it, read it
    replay_command, conformance, audit, legal, convert,  # records through the engine, nothing stored
    play, simulate, ladder, predict, crosscheck, bench,  # games played by bots or by 18xx.games' engine; speed
)
"""Every command, in the order ``railledger --help`` lists them: what a user does first (store
records, then read the archive), then the engine's tools, then generated games and the bench.
Each is named after its function, but ``replay_command``, named ``replay`` (a function of that
name would read as the engine's package here)."""

for command in COMMANDS:
    app.command("replay" if command is replay_command else None)(command)
app.add_typer(event_app, name="event")  # a group of commands: typer lists groups after the commands


def main() -> None:
    app()
