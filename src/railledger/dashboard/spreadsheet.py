"""The review's spreadsheet and stock market as HTML, laid out as 18xx.games lays out its own.

The spreadsheet has a row per company (its colour, each player's percent, IPO and market
shares, price in its market zone's colour, par, treasury, trains, stations left, operating
order, then its revenue in every operating round, newest first) and, below, a row per player
figure under each player's column (cash, certificates against the limit, privates, value, the
priority deal); under it, the phase and the bank's cash, and the trains the bank still holds.
The market is a grid of prices in their zones' colours with each company's token under its
price, and a legend of the zones.

Both are plain HTML tables (``st.html``): a few dozen cells that the browser lays out, so a token
never covers a price and the first screen holds them at a readable size. Every text from a record
or an archive is escaped.
"""

from __future__ import annotations

from html import escape

import polars as pl

from railledger.analytics.position import CompanyRow, Sheet
from railledger.dashboard.colours import MARKET_LOOKS, Look

STYLE = """<style>
.rl-wrap {overflow-x: auto; max-width: 100%;}
.rl-table {border-collapse: collapse; font-size: 12.5px; line-height: 1.35; font-variant-numeric: tabular-nums;}
.rl-table th, .rl-table td {padding: 1px 4px; border-bottom: 1px solid #e6e6e6; text-align: right; white-space: nowrap;}
.rl-table thead th {font-weight: 600; color: #444; vertical-align: bottom; white-space: normal; min-width: 2.2em;}
.rl-table th.rl-row {text-align: left; font-weight: 600; color: #444;}
.rl-table td.rl-sym {text-align: center; font-weight: 700; border-radius: 3px;}
.rl-table tr.rl-now td, .rl-table tr.rl-now th {background: #fff6cc;}
.rl-table tr.rl-closed td {color: #999;}
.rl-table tbody.rl-players tr:first-child th, .rl-table tbody.rl-players tr:first-child td {border-top: 2px solid #bbb;}
.rl-table .rl-withheld {color: #8a6d00;}
.rl-table .rl-half {color: #1f5fbf;}
.rl-note {font-size: 13px; color: #333; margin: 4px 0 0 0; line-height: 1.4;}
.rl-market td {text-align: center; vertical-align: top; min-width: 42px; height: 40px; border: 1px solid #d0d0d0; padding: 1px 2px;}
.rl-market td.rl-none {border: none;}
.rl-token {display: inline-block; font-size: 11px; font-weight: 700; padding: 0 3px; margin: 1px; border-radius: 8px;}
.rl-swatch {display: inline-block; width: 12px; height: 12px; border: 1px solid #aaa; vertical-align: -1px; margin: 0 4px 0 10px;}
</style>"""
"""One style block for both tables, written once per page."""

WORDS = {"paid": "", "withheld": "w", "half": "½"}
"""How a revenue cell marks what the company did with the run (paid out: no mark)."""


def sheet_html(sheet: Sheet, revenues: pl.DataFrame, looks: dict[str, Look], market: pl.DataFrame) -> str:
    """The spreadsheet at a step. ``revenues`` is the game's revenue history up to the step
    (seq, round, company, revenue, dividend); ``market`` the title's cells (row, col, kind)."""
    players = [p.name for p in sheet.players]
    rounds = revenues["round"].unique(maintain_order=True).to_list()[::-1]  # newest first
    earned = {(r["company"], r["round"]): (r["revenue"], r["dividend"]) for r in revenues.iter_rows(named=True)}
    kinds = {(r["row"], r["col"]): r["kind"] for r in market.iter_rows(named=True)}
    head = ["Company", *players, "IPO", "Market", "Price", "Par", "Treasury", "Trains", "Stations", "Order", *rounds]
    rows = [_company(c, sheet, players, looks, kinds, [earned.get((c.sym, r)) for r in rounds]) for c in sheet.companies]
    fill = len(head) - 1 - len(players)
    figures = [
        ("Cash", [f"${p.cash:,}" for p in sheet.players]),
        ("Certificates", [f"{p.certificates}/{sheet.cert_limit}" for p in sheet.players]),
        ("Privates", [", ".join(p.privates) for p in sheet.players]),
        ("Value", [f"${p.value:,}" for p in sheet.players]),
        ("Priority deal", ["●" if p.priority else "" for p in sheet.players]),
    ]
    player_rows = "".join(f'<tr><th class="rl-row">{name}</th>' + "".join(f"<td>{escape(v)}</td>" for v in values)
                          + "<td></td>" * fill + "</tr>" for name, values in figures)
    table = ('<div class="rl-wrap"><table class="rl-table rl-sheet"><thead><tr>'
             + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr></thead><tbody>" + "".join(rows)
             + f'</tbody><tbody class="rl-players">{player_rows}</tbody></table></div>')
    return table + _bank(sheet)


def _company(company: CompanyRow, sheet: Sheet, players: list[str], looks: dict[str, Look],
             kinds: dict[tuple[int, int], str], history: list[tuple[int, str | None] | None]) -> str:
    look = looks.get(company.sym, Look("#555555", "#ffffff"))
    held = {p.name: dict(p.shares).get(company.sym, 0) for p in sheet.players}
    cells = [f'<td class="rl-sym" style="background:{escape(look.fill)};color:{escape(look.text)}" '
             f'title="{escape(company.name)}">{escape(company.sym)}</td>']
    for name in players:
        percent = held[name]
        text = "" if not percent else f"<b>{percent}P</b>" if name == company.president else str(percent)
        cells.append(f"<td>{text}</td>")
    zone = kinds.get(company.cell) if company.cell else None
    colour = MARKET_LOOKS.get(zone or "", ("", ""))[0]
    price = "" if company.price is None else f"${company.price}"
    cells += [
        f"<td>{company.ipo or ''}</td>", f"<td>{company.market or ''}</td>",
        f'<td style="background:{colour}" title="{escape(MARKET_LOOKS.get(zone or "", ("", ""))[1])}">{price}</td>'
        if colour else f"<td>{price}</td>",
        f"<td>{'' if company.par is None else f'${company.par}'}</td>", f"<td>${company.treasury:,}</td>",
        f"<td>{escape(' '.join(company.trains))}</td>", f"<td>{company.tokens_left}/{company.tokens}</td>",
        f"<td>{'closed' if company.closed else ('▶ ' if company.operating else '') + str(company.order or '')}</td>",
    ]
    cells += [_revenue(entry) for entry in history]
    style = "rl-closed" if company.closed else "rl-now" if company.operating else ""
    return f'<tr class="{style}">' + "".join(cells) + "</tr>"


def _revenue(entry: tuple[int, str | None] | None) -> str:
    if entry is None:
        return "<td></td>"
    revenue, dividend = entry
    mark = WORDS.get(dividend or "", "")
    words = {"w": "withheld", "½": "half paid", "": "paid out"}[mark] if dividend else "not decided yet"
    style = {"w": "rl-withheld", "½": "rl-half"}.get(mark, "")
    return f'<td class="{style}" title="${revenue} {words}">{revenue}{f" {mark}" if mark else ""}</td>'


def _bank(sheet: Sheet) -> str:
    """Phase and the bank's cash in a line, then the trains the bank holds as a small table:
    each type's count (∞: no limit), price, and the type whose first purchase rusts it, if any."""
    bank = "unlimited" if sheet.bank is None else f"${sheet.bank:,}"
    unstarted = f" · Not started: {escape(', '.join(sheet.unstarted))}" if sheet.unstarted else ""
    rows = [("Train", [escape(t.name) for t in sheet.trains]),
            ("In the bank", ["∞" if t.left is None else str(t.left) for t in sheet.trains]),
            ("Price", [f"${t.price}" for t in sheet.trains])]
    if any(t.rusts for t in sheet.trains):  # a title whose trains all stay (18MS) has no such row
        rows.append(("Rusted by", [escape(t.rusts or "") for t in sheet.trains]))
    trains = "".join(f'<tr><th class="rl-row">{name}</th>' + "".join(f"<td>{v}</td>" for v in values) + "</tr>"
                     for name, values in rows)
    return (f'<p class="rl-note"><b>Phase {escape(sheet.phase)}</b>: train limit {sheet.train_limit}, '
            f"{escape(', '.join(sheet.tiles))} tiles · <b>Bank</b> {bank}{unstarted} · Revenue per OR: paid out, "
            f'w withheld, ½ half</p><div class="rl-wrap"><table class="rl-table rl-trains">{trains}</table></div>')


def market_html(market: pl.DataFrame, companies: tuple[CompanyRow, ...], looks: dict[str, Look]) -> str:
    """The title's stock market with each company's token under its price (in stack order) and a
    legend of the zones the title has."""
    tokens: dict[tuple[int, int], list[str]] = {}
    for company in companies:
        if company.cell is not None and not company.closed:
            look = looks.get(company.sym, Look("#555555", "#ffffff"))
            tokens.setdefault(company.cell, []).append(
                f'<span class="rl-token" style="background:{escape(look.fill)};color:{escape(look.text)}">'
                f"{escape(company.sym)}</span>")
    cells = {(r["row"], r["col"]): r for r in market.iter_rows(named=True)}
    rows, cols = int(market["row"].max()) + 1, int(market["col"].max()) + 1  # type: ignore[arg-type]
    body = []
    for row in range(rows):
        line = []
        for col in range(cols):
            cell = cells.get((row, col))
            if cell is None:
                line.append('<td class="rl-none"></td>')
                continue
            colour = MARKET_LOOKS.get(cell["kind"], ("", ""))[0]
            style = f' style="background:{colour}"' if colour else ""
            line.append(f"<td{style}>{cell['price']}<br>{''.join(tokens.get((row, col), []))}</td>")
        body.append("<tr>" + "".join(line) + "</tr>")
    kinds = [k for k in dict.fromkeys(market["kind"].to_list()) if k in MARKET_LOOKS]
    legend = "".join(f'<span class="rl-swatch" style="background:{MARKET_LOOKS[k][0]}"></span>{escape(MARKET_LOOKS[k][1])}'
                     for k in kinds)
    return (f'<div class="rl-wrap"><table class="rl-table rl-market">{"".join(body)}</table></div>'
            f'<p class="rl-note">{legend}</p>')
