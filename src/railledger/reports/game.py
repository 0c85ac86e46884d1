"""A game report as a page: Markdown, or one self-contained HTML file that prints well, both
written from the same sections (:mod:`railledger.reports.document`), every text from a record escaped."""

from __future__ import annotations

from collections.abc import Iterable

from railledger.analytics.report import NOT_A_PLAYER, GameReport
from railledger.reports import document
from railledger.reports.document import Section


def sections(report: GameReport) -> list[Section]:
    """Every section of the report, in the order an organizer reads them."""
    record = report.record
    return [
        _result_section(report),
        Section("Verdict", (f"{report.verdict.kind}: {report.verdict.detail}",)),
        Section("Game", bullets=True, lines=(
            f"Title: {record.title}", f"Game id: {record.key}",
            f"Players (seat order): {', '.join(p.name for p in record.players)}",
            f"Seed: {record.seed if record.seed is not None else '-'}",
            f"Optional rules: {', '.join(record.optional_rules) or 'none'}",
            f"Created: {record.created or '-'}", f"Status: {record.status or '-'}",
            f"Engine version: {report.engine or 'not replayed'}",
        )),
        Section("Rules broken (root causes)", _flags_lead(report),
                ("action", "what was done", "rule", "section", "rule text", "why it is refused", "later flags that follow"),
                tuple((f.where, f.sentence, f.rule, f.section or "-", f.rule_text, f.message, str(f.followers))
                      for f in report.flags), 1),
        _undo_section(report),
        Section("Actions taken on another player's behalf", _behalf_lead(report),
                ("who acted", "for", "when", "action"),
                tuple((b.user, b.for_whom, b.when or "-", b.action) for b in report.on_behalf)),
        Section("Time per player", _strangers(t.player for t in report.times) if report.times else ("The record has no action times.",),
                ("player", "longest waits", "actions", "total"),
                tuple((t.player, ", ".join(f"{_duration(s)} (action {label})" for s, label in t.longest),
                       str(t.actions), _duration(t.total)) for t in report.times), 2),
        Section("End of the game", (report.manual_end or "Not ended by hand.",)),
        _shortfall_section(report),
    ]


def _result_section(report: GameReport) -> Section:
    """The placings, the winner first, on the values the verdict allows (analytics.report.Result)."""
    result = report.result
    if result.basis == "replayed" and report.verdict.kind == "valid":
        return Section("Result", (result.summary,), ("place", "player", "value"),
                       tuple((str(p.place), p.player, _money(p.value)) for p in result.placings), 1)
    if result.basis in ("replayed", "ended"):
        replayed = "replayed" if result.basis == "replayed" else "where the record ends"
        return Section("Result", (result.summary,), ("place", "player", replayed, "recorded"),
                       tuple((str(p.place), p.player, _money(p.value), _money(p.recorded)) for p in result.placings), 2)
    return Section("Result", (result.summary,), ("place", "player", "recorded (not confirmed)"),
                   tuple((str(p.place), p.player, _money(p.recorded)) for p in result.placings), 1)


def _money(value: int | None) -> str:
    return "-" if value is None else f"${value}"


def _flags_lead(report: GameReport) -> tuple[str, ...]:
    if not report.flags:
        return ("None.",)
    return ("The actions the rules refuse that follow from no earlier refusal. The later actions that counted on one of "
            "them are refused too and are counted beside it (railledger replay --keep-going --all-flags lists them).",)


def _undo_section(report: GameReport) -> Section:
    if report.undos is None:
        return Section("Undo audit", ("The record was read from notation, which keeps no undo history.",))
    said = (*report.undo_remarks, *_strangers(u.player for u in report.undos)) if any(u.undos or u.redos for u in report.undos) \
        else ("No undo or redo.",)
    return Section("Undo audit", said,
                   ("player", "actions taken back", "undos", "redos"),
                   tuple((u.player, ", ".join(u.taken_back) or "-", str(u.undos), str(u.redos)) for u in report.undos), 2)


def _behalf_lead(report: GameReport) -> tuple[str, ...]:
    if not report.on_behalf:
        return ("None recorded.",)
    return _strangers(b.user for b in report.on_behalf)


def _strangers(names: Iterable[str]) -> tuple[str, ...]:
    """The note a section with someone who is none of the record's players carries."""
    if not any(NOT_A_PLAYER in name for name in names):
        return ()
    return (f"{NOT_A_PLAYER} marks an account the record names that is none of its players: the record does not say "
            "which of them it was.",)


def _shortfall_section(report: GameReport) -> Section:
    title = "Revenue audit"
    if report.shortfalls is None:
        return Section(title, ("The runs were not audited (stored before the revenue audit; ingest it again).",))
    lead = f"{report.runs_audited} runs audited; {len(report.shortfalls)} below the best run the company had."
    if any(not s.proven for s in report.shortfalls):
        lead += " * marks a best run found within the search budget, not proven the best."
    return Section(title, (lead,), ("round", "company", "president", "routes run", "better routes", "run", "best",
                                    "left on the table"),
                   tuple((s.round, s.company, s.president, s.ran, s.better, str(s.engine),
                          f"{s.optimum}{'' if s.proven else ' *'}", str(s.left)) for s in report.shortfalls), 3)


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
    """The report as Markdown, every text from the record escaped."""
    return document.markdown(heading(report), sections(report))


def page(report: GameReport) -> str:
    """The report as one HTML document, the verdict boxed under its title."""
    return document.page(heading(report), sections(report), report.verdict.kind)
