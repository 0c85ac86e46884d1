"""What ``railledger replay`` prints of one record's replay: the verdict, the rules broken root
cause first, and the values.

A refused action is named as the record numbers it, with its round, and said in words:
``action 22 (OR 1.1): IC lays tile 57 on H3 (Jackson), rotation 2, for $0``. A record whose
first refusal leaves the game where the record did not expect it goes on being refused (the
next actions count on the refused one): those flags follow from it and say nothing new, so each
root cause counts its followers and lists them only when asked (``--all-flags``).
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from railledger.cli.output import cell, consoles, say
from railledger.cli.text import plain
from railledger.ingest.identity import seat_labels
from railledger.replay.replayer import Flag, Replay
from railledger.replay.verdict import Verdict


def flag_line(flag: Flag) -> str:
    """``action 22 (OR 1.1): IC lays tile 57 on H3 (Jackson)...``: the action as it was refused."""
    return f"{flag.where}: {flag.sentence}"


def why(flag: Flag) -> str:
    """The rule a flag breaks and the engine's message."""
    section = f" ({flag.section})" if flag.section else ""
    return f"breaks {flag.rule}{section}: {flag.message}"


def followers(replay: Replay) -> dict[int, list[Flag]]:
    """Each root cause's index -> the flags that follow from it, in record order."""
    found: dict[int, list[Flag]] = {flag.index: [] for flag in replay.flags if flag.root}
    for flag in replay.flags:
        if flag.follows is not None:
            found.setdefault(flag.follows, []).append(flag)
    return found


def print_replay(origin: str, outcome: Replay, verdict: Verdict, all_flags: bool) -> None:
    out = consoles()[0]
    record = outcome.record
    roots = [flag for flag in outcome.flags if flag.root]
    count = f"{len(outcome.flags)} flag{'s' if len(outcome.flags) != 1 else ''}"
    if outcome.flags:
        count += f" ({len(roots)} root cause{'s' if len(roots) != 1 else ''})"
    heading = Text.assemble((plain(record.key), "bold"), f" ({plain(record.title)}) from {plain(origin)}: "
                            f"{len(record.actions)} actions, {plain(count)}")
    out.print(heading, soft_wrap=True)
    say(out, f"  verdict: {verdict}")
    following = followers(outcome)
    for root in roots:
        say(out, f"  {flag_line(root)}")
        say(out, f"      {why(root)}")
        later = following.get(root.index, [])
        if later and not all_flags:
            say(out, f"      {len(later)} later flag{'s follow' if len(later) != 1 else ' follows'} from it "
                     "(--all-flags lists them)")
        for flag in later if all_flags else ():
            say(out, f"      follows: {flag_line(flag)}; {why(flag)}")
    stopped = outcome.stopped_at is not None
    if stopped:
        first = outcome.flags[0]
        say(out, f"  stopped at {first.where}: the values there are not a result, so "
                 "none are shown (--keep-going skips illegal actions and replays to the end)")
    elif outcome.flags:
        say(out, "  the replayed values skip the refused actions: they are no result of the game")
    table = Table(show_header=True, box=None, padding=(0, 2))
    for column in ("player", "replayed", "recorded"):
        table.add_column(column, justify="left" if column == "player" else "right")
    recorded = record.result or {}
    shown = seat_labels(record)  # two players whose names compare equal, told apart
    for player in record.players:
        replayed = "-" if stopped else outcome.result.get(player.id, "")
        table.add_row(*map(cell, (shown[player.id], replayed, recorded.get(player.id, "-"))))
    out.print(table)
