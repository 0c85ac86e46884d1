"""An event's standings as something to send: one page (Markdown or HTML) of the standings, every
game's verdict and placings, the organizer's decisions with their reasons, and the games not
counted set apart; or the standings alone as CSV for a spreadsheet.

The same rows feed ``railledger event check``'s listing, the page and the CSV, so that they never
say different things. Each game links to its own report (written beside the page by
``railledger event report -o``) or, without one, to the game on 18xx.games.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable

from railledger.events.checking import EventCheck
from railledger.events.model import ACCEPT, ADJUST, MARGIN, RANK_POINTS, VALUE, WINNER_SHARE, Event
from railledger.events.scoring import shown
from railledger.events.standings import COUNTED, PENDING, TO_PLAY, VOIDED, TableResult
from railledger.pipeline.site import BASE_URL
from railledger.reports import document
from railledger.reports.document import Cell, Link, Section

GameLink = Callable[[int], str]
"""The address a game's id links to."""


def site_link(game: int) -> str:
    """The game's page on 18xx.games."""
    return f"{BASE_URL}/game/{game}"


def heading(check: EventCheck) -> str:
    return f"{check.event.name}: standings"


def multistage(event: Event) -> bool:
    return len({round_.stage for round_ in event.rounds}) > 1


def standings_header(event: Event) -> tuple[str, ...]:
    stages = ("stage", "stage score") if multistage(event) else ()
    return ("place", "player", "18xx.games id", *(r.name for r in event.rounds), *stages, "total", "tie-breaks", "notes")


def score_columns(event: Event) -> frozenset[int]:
    """The standings' columns of numbers: the rounds' scores, the stage and its score, the total."""
    header = standings_header(event)
    return frozenset(range(3, header.index("total") + 1))


def standings_rows(check: EventCheck) -> list[tuple[str, ...]]:
    """One row per player, in order: place (``=3`` when shared), name, id, each round's mark, the
    stage and its score in an event of stages, the total, the tie-breaks applied and notes."""
    stages = multistage(check.event)
    return [(f"={line.place}" if line.tied else str(line.place), line.player.name, str(line.player.id), *line.rounds,
             *((str(line.stage), shown(line.stage_score)) if stages else ()), shown(line.total), line.tie_breaks,
             "; ".join(line.notes)) for line in check.standings]


def state_line(check: EventCheck) -> str:
    """Whether the standings are final: every game counted or decided, none left to play."""
    waiting = [r for r in check.results if r.state == PENDING]
    to_play = [r for r in check.results if r.state == TO_PLAY]
    if not waiting and not to_play:
        return "final: every game is counted or decided"
    parts = []
    if waiting:
        parts.append(f"{len(waiting)} game{'s' if len(waiting) != 1 else ''} not counted (not valid, no decision yet)")
    if to_play:
        parts.append(f"{len(to_play)} table{'s' if len(to_play) != 1 else ''} to play")
    return "provisional: " + ", ".join(parts)


def scoring_line(event: Event) -> str:
    """How the event scores a table, in a sentence."""
    scoring = event.scoring
    if scoring.system == RANK_POINTS:
        tables = "; ".join(f"{size} players: {', '.join(map(shown, points))}" for size, points in sorted(scoring.points.items()))
        how = f"rank points ({tables}; tied players get the {_TIES[scoring.ties]})"
    else:
        how = _SYSTEMS[scoring.system]
    breaks = ", then ".join(scoring.tie_breaks) or "none"
    return f"Scored by {how}. Tie-breaks: {breaks}."


_TIES = {"share": "mean of the points of the places they cover", "higher": "best of those points",
         "lower": "worst of those points"}
_SYSTEMS = {WINNER_SHARE: "share of the table winner's value (100 = the winner)",
            MARGIN: "margin: the winner's lead over the runner-up, every other player's distance to the winner",
            VALUE: "final value"}


def table_label(result: TableResult) -> str:
    number = result.round.tables.index(result.table) + 1
    return f"{result.round.name}, table {number}"


def game_cell(result: TableResult, link: GameLink | None) -> Cell:
    game = result.table.game
    if game is None:
        return "not made yet"
    return Link(str(game), link(game)) if link is not None else str(game)


def games_rows(check: EventCheck, link: GameLink | None = None) -> list[tuple[Cell, ...]]:
    """One row per seat of every table: round and table, game, state, verdict, player, value, place, score."""
    rows: list[tuple[Cell, ...]] = []
    for result in check.results:
        verdict = result.verdict.kind if result.verdict is not None else "-"
        for seat in result.seats:
            who = seat.seat.name + (" (substitute)" if seat.seat.substitute else "") + (" (abandoned)" if seat.abandoned else "")
            rows.append((table_label(result), game_cell(result, link), result.state, verdict, who,
                         "-" if seat.value is None else f"{seat.value:,}", "-" if seat.place is None else str(seat.place),
                         "-" if seat.score is None else shown(seat.score)))
    return rows


def set_apart_rows(check: EventCheck, link: GameLink | None = None) -> list[tuple[Cell, ...]]:
    """The games not counted, each with the reason: its verdict and what it rests on."""
    return [(table_label(r), game_cell(r, link), r.why) for r in check.results if r.state == PENDING]


def decision_rows(check: EventCheck, link: GameLink | None = None) -> list[tuple[Cell, ...]]:
    """Every decision of the organizer, with its reason."""
    rows: list[tuple[Cell, ...]] = []
    for r in check.results:
        decision = r.table.decision
        if decision is None:
            continue
        ruling = {ACCEPT: "accepted as played", ADJUST: "adjusted", "void": "void"}[decision.ruling]
        if decision.values:
            ruling += ": " + ", ".join(f"{check.event.name_of(u)} {v:,}" for u, v in decision.values.items())
        rows.append((table_label(r), game_cell(r, link), ruling, decision.reason,
                     r.verdict.kind if r.verdict is not None else "-"))
    return rows


def sections(check: EventCheck, link: GameLink | None = site_link) -> list[Section]:
    """Every section of the event's page, in the order an organizer reads them."""
    event = check.event
    header = standings_header(event)
    pending = set_apart_rows(check, link)
    decisions = decision_rows(check, link)
    voided = sum(1 for r in check.results if r.state == VOIDED)
    counted = sum(1 for r in check.results if r.state == COUNTED)
    return [
        Section("Event", bullets=True, lines=(
            f"Titles: {', '.join(event.titles)}", f"Players: {len(event.players)}",
            f"Rounds: {', '.join(r.name + (f' (stage {r.stage})' if multistage(event) else '') for r in event.rounds) or 'none'}",
            f"Games counted: {counted}; void: {voided}; not counted: {len(pending)}",
            scoring_line(event), f"Standings: {state_line(check)}",
        )),
        Section("Standings", (
            ("Players are ordered by the last stage they reached, then by their score in it, then by the tie-breaks. "
             if multistage(event) else "")
            + "For players who were tied, the tie-breaks column gives each tie-break applied, in order, with its value "
              "(lot: placed by the event's seeded draw); = marks a place still shared.",),
                header, tuple(standings_rows(check)), numeric=score_columns(event)),
        Section("Games not counted", () if pending else ("None: every game is valid or decided.",),
                ("table", "game", "why"), tuple(pending)),
        Section("Decisions", () if decisions else ("None.",), ("table", "game", "ruling", "reason", "verdict"),
                tuple(decisions)),
        Section("Games", () if check.results else ("No table yet.",),
                ("table", "game", "counted", "verdict", "player", "value", "place", "score"),
                tuple(games_rows(check, link)), 3),
    ]


def markdown(check: EventCheck, link: GameLink | None = site_link) -> str:
    return document.markdown(heading(check), sections(check, link))


def page(check: EventCheck, link: GameLink | None = site_link) -> str:
    return document.page(heading(check), sections(check, link), state_line(check))


def csv_text(check: EventCheck) -> str:
    """The standings as CSV, one row per player: the place as a number with a ``shared`` column (a
    spreadsheet would read ``=3`` as a formula), and any text a spreadsheet would take for one
    (a name starting with ``=``, ``+``, ``-`` or ``@``) quoted with a leading apostrophe."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = standings_header(check.event)
    writer.writerow(("place", "shared", *header[1:]))
    texts = {header.index(column) for column in ("player", "tie-breaks", "notes")}
    for row, line in zip(standings_rows(check), check.standings):
        cells = [_inert(cell) if n in texts else cell for n, cell in enumerate(row)]
        writer.writerow((str(line.place), "yes" if line.tied else "no", *cells[1:]))
    return out.getvalue()


def _inert(text: str) -> str:
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text
