"""A game report as a page: Markdown, or one self-contained HTML file that prints well.

Both are written from the same sections (:func:`sections`), so the two formats never say
different things. The HTML has no external asset (no script, font, image or stylesheet link):
an organizer mails it and it opens anywhere, offline. Every text from a record is escaped.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from railledger.analytics.report import NOT_A_PLAYER, GameReport

STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #111; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.15rem; margin-top: 1.6rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .5rem 0; } th, td { border: 1px solid #ccc; padding: .2rem .5rem; text-align: left; vertical-align: top; }
th { background: #f2f2f2; } td.n { text-align: right; font-variant-numeric: tabular-nums; } code { font-size: .92em; }
.verdict { font-weight: 600; padding: .3rem .6rem; border: 2px solid #444; display: inline-block; }
@media print { body { margin: 0; max-width: none; font-size: 11pt; } h2 { break-after: avoid; } tr { break-inside: avoid; } }
"""


@dataclass(frozen=True)
class Section:
    """A heading, its lines of text, and optionally one table (header, rows; the last ``numbers``
    columns are numbers)."""

    title: str
    lines: tuple[str, ...] = ()
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = field(default=())
    numbers: int = 0


def sections(report: GameReport) -> list[Section]:
    """Every section of the report, in the order an organizer reads them."""
    record = report.record
    return [
        _result_section(report),
        Section("Verdict", (f"{report.verdict.kind}: {report.verdict.detail}",)),
        Section("Game", (
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
    return Section("Undo audit", _strangers(u.player for u in report.undos) if any(u.undos or u.redos for u in report.undos)
                   else ("No undo or redo.",),
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
    """The report as Markdown, every text in it escaped (:func:`md_text`): what a record holds
    (a player's name, a user's, a game id) reads as it is written and makes no tag, link, image,
    emphasis, heading or table cell of its own wherever the page is rendered."""
    parts = [f"# {md_line(heading(report))}", ""]
    for section in sections(report):
        parts += [f"## {md_line(section.title)}", ""]
        parts += [f"- {md_line(line)}" if section.title == "Game" else md_line(line) for line in section.lines]
        if section.lines:
            parts.append("")
        if section.rows:
            parts.append("| " + " | ".join(md_text(c) for c in section.header) + " |")
            first_number = len(section.header) - section.numbers
            parts.append("|" + "|".join("---:" if i >= first_number else "---" for i in range(len(section.header))) + "|")
            parts += ["| " + " | ".join(md_text(c) for c in row) + " |" for row in section.rows]
            parts.append("")
    return "\n".join(parts)


MD_PUNCTUATION = re.compile(r"([\\`*_\[\]<>|~#!])")
"""Characters that start Markdown of their own anywhere in a line (escapes, code, emphasis, links
and images, HTML and autolinks, table cells, strikethrough, headings): each is backslash-escaped."""
MD_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
"""An ampersand that would start a character reference (``&lt;``)."""
MD_AUTOLINK = re.compile(r"(?<=:)(//)|(?i:(?<=www)(\.))")
"""What makes GitHub's Markdown link a bare address (``https://``, ``www.``): escaped, it stays text."""
MD_EMAIL = re.compile(r"(?<=[0-9A-Za-z._+-])@")
"""An ``@`` GitHub's Markdown would make a mail link of (``a@b.example``): escapes do not stop it, so
an invisible word joiner (U+2060) goes before it, which GitHub does not count as part of an address."""
MD_LINE_START = re.compile(r"[-+=]|\d+[.)]")
"""What opens a list or underlines a heading at the start of a line."""


def md_text(text: str) -> str:
    """Text as Markdown that reads as that text, inside a line or a table cell (an address keeps
    an invisible word joiner before its ``@``: see :data:`MD_EMAIL`)."""
    text = MD_PUNCTUATION.sub(r"\\\1", text.replace("\r", " ").replace("\n", " "))
    text = MD_ENTITY.sub(r"\\&", text)
    text = MD_AUTOLINK.sub(lambda m: "\\/\\/" if m.group(1) else "\\.", text)
    return MD_EMAIL.sub("\u2060@", text)


def md_line(text: str) -> str:
    """Text as a line of its own (a paragraph's, a list item's, a heading's): escaped as in a
    cell, and what would open a block at its start escaped too (a list marker, a number and a
    dot; an indent, which would open a code block, as character references)."""
    escaped = md_text(text)
    body = escaped.lstrip()
    found = MD_LINE_START.match(body)
    if found is not None:
        marker = found.group()
        body = marker[:-1] + "\\" + marker[-1] + body[found.end():]
    return "&#32;" * (len(escaped) - len(escaped.lstrip())) + body


def page(report: GameReport) -> str:
    """The report as one HTML document with its style inline and nothing to fetch."""
    body = [f"<h1>{_h(heading(report))}</h1>",
            f'<p class="verdict" id="verdict">{_h(report.verdict.kind)}</p>']
    for section in sections(report):
        ident = section.title.lower().split(" (")[0].replace(" ", "-").replace("'", "")
        body.append(f'<section id="{ident}"><h2>{_h(section.title)}</h2>')
        if section.title == "Game":
            body.append("<ul>" + "".join(f"<li>{_h(line)}</li>" for line in section.lines) + "</ul>")
        else:
            body += [f"<p>{_h(line)}</p>" for line in section.lines]
        if section.rows:
            first_number = len(section.header) - section.numbers
            body.append("<table><thead><tr>" + "".join(f"<th>{_h(c)}</th>" for c in section.header) + "</tr></thead><tbody>")
            for row in section.rows:
                cells = "".join(f'<td class="n">{_h(c)}</td>' if i >= first_number else f"<td>{_h(c)}</td>"
                                for i, c in enumerate(row))
                body.append(f"<tr>{cells}</tr>")
            body.append("</tbody></table>")
        body.append("</section>")
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{_h(heading(report))}</title><style>{STYLE}</style></head>\n<body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def _h(text: str) -> str:
    return html.escape(text, quote=True)
