"""One page of sections, written as Markdown or as one self-contained HTML file that prints well.

The game report and the event report are each a list of :class:`Section`; both formats are
written from the same list, so that they never say different things. The HTML has no external
asset (no script, font, image or stylesheet link): an organizer mails it and it opens anywhere,
offline. Every text is escaped; a :class:`Link` is the only markup a cell may carry.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #111; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.15rem; margin-top: 1.6rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .5rem 0; } th, td { border: 1px solid #ccc; padding: .2rem .5rem; text-align: left; vertical-align: top; }
th { background: #f2f2f2; } td.n { text-align: right; font-variant-numeric: tabular-nums; } code { font-size: .92em; }
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
    """The page as Markdown (table cells with ``|`` escaped, links as ``[text](href)``)."""
    parts = [f"# {title}", ""]
    for section in sections:
        parts += [f"## {section.title}", ""]
        parts += [f"- {line}" if section.bullets else line for line in section.lines]
        if section.lines:
            parts.append("")
        if section.rows:
            parts.append("| " + " | ".join(section.header) + " |")
            parts.append("|" + "|".join("---:" if section.number(i) else "---" for i in range(len(section.header))) + "|")
            parts += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in section.rows]
            parts.append("")
    return "\n".join(parts)


def _md_cell(cell: Cell) -> str:
    text = str(cell).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")
    if isinstance(cell, Link):
        text = text.replace("[", "\\[").replace("]", "\\]")
        return f"[{text}](<{cell.href.replace('>', '%3E').replace('<', '%3C')}>)"
    return text


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
