"""Outside text (game keys, player names, flag messages, file paths) in Streamlit's Markdown.

``st.caption``, ``st.info``, ``st.warning`` and friends read their text as Markdown, with
Streamlit's extensions (``:red[...]`` colours, ``$...$`` formulas, links). A game id or a player
name is data, not formatting: :func:`md` escapes every character Markdown could read as syntax,
so it shows as typed.
"""

from __future__ import annotations

import re

_SYNTAX = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:&=\"'])")


def md(value: object) -> str:
    """``str(value)`` safe to put in a Markdown string: syntax characters backslash-escaped, on one line."""
    return _SYNTAX.sub(r"\\\1", " ".join(str(value).splitlines()))
