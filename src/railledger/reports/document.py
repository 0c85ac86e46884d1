"""One page of sections, written as Markdown or as one self-contained HTML file that prints well.

The game report and the event report are each a list of :class:`Section`; both formats are
written from the same list, so that they never say different things. The HTML has no external
asset (no script, font, image or stylesheet link): an organizer mails it and it opens anywhere,
offline. Every text is escaped, in HTML and in Markdown alike (:func:`md_text`): what a record holds
(a player's name, a user's, a game id) reads as it is written and makes no tag, link, image,
emphasis, heading or table cell of its own wherever the page is rendered. A :class:`Link` is the
only markup a cell may carry.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #111; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.15rem; margin-top: 1.6rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .5rem 0; } th, td { border: 1px solid #ccc; padding: .2rem .5rem; text-align: left; vertical-align: top; }
th { background: #f2f2f2; } td:first-child { white-space: nowrap; } td.n { text-align: right; font-variant-numeric: tabular-nums; } code { font-size: .92em; }
.verdict { font-weight: 600; padding: .3rem .6rem; border: 2px solid #444; display: inline-block; }
@media print { body { margin: 0; max-width: none; font-size: 11pt; } h2 { break-after: avoid; } tr { break-inside: avoid; } }
"""


@dataclass(frozen=True)
class Link:
    """A cell's text that leads to another page (relative, or the game on 18xx.games)."""

    text: str
    href: str

    def __str__(self) -> str:
        return self.text


Cell = str | Link


@dataclass(frozen=True)
class Section:
    """A heading, its lines of text (a list when ``bullets``), and optionally one table (header,
    rows; the last ``numbers`` columns, and those numbered in ``numeric``, are numbers)."""

    title: str
    lines: tuple[str, ...] = ()
    header: tuple[str, ...] = ()
    rows: tuple[tuple[Cell, ...], ...] = field(default=())
    numbers: int = 0
    bullets: bool = False
    numeric: frozenset[int] = frozenset()

    def number(self, column: int) -> bool:
        """Whether a column holds numbers (aligned right)."""
        return column >= len(self.header) - self.numbers or column in self.numeric

    @property
    def ident(self) -> str:
        """The section's anchor in the HTML page."""
        return self.title.lower().split(" (")[0].replace(" ", "-").replace("'", "").replace(",", "")


def markdown(title: str, sections: list[Section]) -> str:
    """The page as Markdown, every text escaped (:func:`md_text`, :func:`md_line`), links as
    ``[text](<href>)``."""
    parts = [f"# {md_line(title)}", ""]
    for section in sections:
        parts += [f"## {md_line(section.title)}", ""]
        parts += [f"- {md_line(line)}" if section.bullets else md_line(line) for line in section.lines]
        if section.lines:
            parts.append("")
        if section.rows:
            parts.append("| " + " | ".join(md_text(c) for c in section.header) + " |")
            parts.append("|" + "|".join("---:" if section.number(i) else "---" for i in range(len(section.header))) + "|")
            parts += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in section.rows]
            parts.append("")
    return "\n".join(parts)


def _md_cell(cell: Cell) -> str:
    if isinstance(cell, Link):
        return f"[{md_text(cell.text)}](<{cell.href.replace('>', '%3E').replace('<', '%3C')}>)"
    return md_text(cell)


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


def page(title: str, sections: list[Section], badge: str | None = None) -> str:
    """The page as one HTML document with its style inline and nothing to fetch; ``badge`` is a
    boxed line under the title (a verdict, the standings' state)."""
    body = [f"<h1>{_h(title)}</h1>"]
    if badge is not None:
        body.append(f'<p class="verdict" id="verdict">{_h(badge)}</p>')
    for section in sections:
        body.append(f'<section id="{_h(section.ident)}"><h2>{_h(section.title)}</h2>')
        if section.bullets:
            body.append("<ul>" + "".join(f"<li>{_h(line)}</li>" for line in section.lines) + "</ul>")
        else:
            body += [f"<p>{_h(line)}</p>" for line in section.lines]
        if section.rows:
            body.append("<table><thead><tr>" + "".join(f"<th>{_h(c)}</th>" for c in section.header) + "</tr></thead><tbody>")
            for row in section.rows:
                cells = "".join(f'<td class="n">{_html_cell(c)}</td>' if section.number(i) else f"<td>{_html_cell(c)}</td>"
                                for i, c in enumerate(row))
                body.append(f"<tr>{cells}</tr>")
            body.append("</tbody></table>")
        body.append("</section>")
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{_h(title)}</title><style>{STYLE}</style></head>\n<body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def _html_cell(cell: Cell) -> str:
    if isinstance(cell, Link):
        return f'<a href="{_h(cell.href)}">{_h(cell.text)}</a>'
    return _h(cell)


def _h(text: str) -> str:
    return html.escape(text, quote=True)
