"""A bench's results as sections, each a table or a few lines, shown on the terminal and written
as Markdown: the same figures in both places, laid out once."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Section:
    """One part of the results: a title, and a table (``columns`` and ``rows``) or ``lines``.

    ``left`` holds the indexes of the columns of text, aligned left; the others hold figures.
    """

    title: str
    columns: tuple[str, ...] = ()
    rows: list[tuple[str, ...]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    left: frozenset[int] = frozenset({0})


def markdown(sections: list[Section], heading: str, preamble: list[str]) -> str:
    """The sections as one Markdown document under ``heading``, ``preamble``'s lines first."""
    out = [f"# {heading}", "", *preamble, ""]
    for section in sections:
        out += [f"## {_escaped(section.title)}", ""]
        if section.columns:
            out.append("| " + " | ".join(map(_escaped, section.columns)) + " |")
            out.append("|" + "|".join(":---" if n in section.left else "---:" for n in range(len(section.columns))) + "|")
            out += ["| " + " | ".join(map(_escaped, row)) + " |" for row in section.rows]
            out.append("")
        out += [*(f"{line}" for line in section.lines), ""] if section.lines else []
    return "\n".join(out).rstrip() + "\n"


def _escaped(text: str) -> str:
    return text.replace("|", "\\|")
