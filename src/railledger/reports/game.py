"""A game report as a page: Markdown, or one self-contained HTML file that prints well, both
written from the same sections (:mod:`reports.document`)."""

from __future__ import annotations

from railledger.analytics.report import GameReport
from railledger.reports import document
from railledger.reports.document import Section


def sections(report: GameReport) -> list[Section]:
    """Every section of the report, in the order an organizer reads them."""
    record = report.record
    recorded = record.result or {}
    replayed = report.replayed
    return [
        Section("Game", bullets=True, lines=(
            f"Title: {record.title}", f"Game id: {record.key}",
            f"Players (seat order): {', '.join(p.name for p in record.players)}",
            f"Seed: {record.seed if record.seed is not None else '-'}",
            f"Optional rules: {', '.join(record.optional_rules) or 'none'}",
            f"Created: {record.created or '-'}", f"Status: {record.status or '-'}",
            f"Engine version: {report.engine or 'not replayed'}",
        )),
        Section("Verdict", (f"{report.verdict.kind}: {report.verdict.detail}",)),
        Section("Values", () if replayed is not None else ("Not replayed to the end: no replayed values.",),
                ("player", "recorded", "replayed"),
                tuple((p.name, str(recorded.get(p.id, "-")),
                       "-" if replayed is None else str(replayed.get(p.id, "-"))) for p in record.players), 2),
        Section("Rules broken (root causes)", () if report.flags else ("None.",),
                ("action", "notation", "rule", "section", "rule text", "what happened"),
                tuple((f"{f.action_id} (#{f.index})", f.action, f.rule, f.section or "-", f.rule_text, f.message)
                      for f in report.flags)),
        _undo_section(report),
        Section("Actions taken on another player's behalf", () if report.on_behalf else ("None recorded.",),
                ("who acted", "for", "when", "action"),
                tuple((b.user, b.for_whom, b.when or "-", b.action) for b in report.on_behalf)),
        Section("Time per player", () if report.times else ("The record has no action times.",),
                ("player", "longest waits (action)", "actions", "total"),
                tuple((t.player, ", ".join(f"{_duration(s)} ({label})" for s, label in t.longest),
                       str(t.actions), _duration(t.total)) for t in report.times), 2),
        Section("End of the game", (report.manual_end or "Not ended by hand.",)),
        _shortfall_section(report),
    ]


def _undo_section(report: GameReport) -> Section:
    if report.undos is None:
        return Section("Undo audit", ("The record was read from notation, which keeps no undo history.",))
    said = report.undo_remarks if any(u.undos or u.redos for u in report.undos) else ("No undo or redo.",)
    return Section("Undo audit", said,
                   ("player", "actions taken back", "undos", "redos"),
                   tuple((u.player, ", ".join(u.taken_back) or "-", str(u.undos), str(u.redos)) for u in report.undos), 2)


def _shortfall_section(report: GameReport) -> Section:
    title = "Revenue audit"
    if report.shortfalls is None:
        return Section(title, ("The runs were not audited (stored before the revenue audit; ingest it again).",))
    lead = f"{report.runs_audited} runs audited; {len(report.shortfalls)} below the best run the company had."
    if any(not s.proven for s in report.shortfalls):
        lead += " * marks a best run found within the search budget, not proven the best."
    return Section(title, (lead,), ("round", "company", "president", "run", "best", "left on the table"),
                   tuple((s.round, s.company, s.president, str(s.engine), f"{s.optimum}{'' if s.proven else ' *'}",
                          str(s.left)) for s in report.shortfalls), 3)


def _duration(seconds: int) -> str:
    """``2 d 3 h``, ``4 h 05 min``, ``3 min 07 s``: what a player reads at a glance."""
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3_600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"


def heading(report: GameReport) -> str:
    return f"{report.record.title} game {report.record.game_id}: report"


def markdown(report: GameReport) -> str:
    """The report as Markdown."""
    return document.markdown(heading(report), sections(report))


def page(report: GameReport) -> str:
    """The report as one HTML document, the verdict boxed under its title."""
    return document.page(heading(report), sections(report), report.verdict.kind)
