"""Balance page: which seats, bots, openings and holdings go with winning, per title and overall.

Every rate is shown with its 95% interval and sample size: an archive of a few games proves
little, and the bars say so. Games people played and games bots played (railledger simulate)
are shown apart; mixing them is a choice the sidebar makes for every page (dashboard/population.py).
Where bots' games count, the page names the bots that played them with their ladder figures and
counts only the strongest bot's games unless asked (analytics/bot_strength.py): a weak bot's games
say how a title plays badly.
With a variant chosen on the sidebar, its games are set beside the title's as published, measure
by measure, each difference said to be within noise or not (analytics/variants.py).
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from railledger.analytics.balance import FACTORS
from railledger.analytics.scope import PEOPLE
from railledger.analytics.variants import WIN_RATE_FACTORS
from railledger.dashboard import charts, data, population
from railledger.dashboard.text import md

st.title("Balance")
db = data.db_path()
chosen_population = population.chosen()


def beside_published(variant_hash: str) -> None:
    """The variant's games beside the title's as published: a chart of one measure's win rates
    and the table of every measure, each difference within noise or not."""
    variants = data.load(data.variants, db).filter(pl.col("variant_hash") == variant_hash)
    if variants.is_empty():
        return
    title, label = variants["title"][0], variants["label"][0]
    rows, base_note, variant_note = data.load(data.variant_comparison, db, chosen_population, title, variant_hash)
    st.header(f"{label} beside {title} as published")
    st.caption(md(f"As published: {base_note} Variant: {variant_note}"))
    measures = [m for m in WIN_RATE_FACTORS.values() if m in set(rows["measure"])]
    if measures:
        measure = st.selectbox("Win rate by", measures, key="variant_measure")
        sides = [rows.filter(pl.col("measure") == measure, pl.col(f"{side}_n") > 0).select(
            scope=pl.lit(name), factor=pl.lit(next(f for f, m in WIN_RATE_FACTORS.items() if m == measure)), value="value",
            games=f"{side}_n", win_rate=side, ci_low=f"{side}_low", ci_high=f"{side}_high")
            for side, name in (("base", f"{title} as published"), ("variant", label))]
        st.plotly_chart(charts.win_rates(pl.concat(sides)), key="variant_win_rates")
    differs = rows.filter(pl.col("difference") == "differs").height
    st.markdown(md(f"{differs} of {rows.height} measures differ by more than the noise of the games played: "
                   "the other differences are within noise (the intervals overlap) or have too few games."))
    st.dataframe(rows, hide_index=True, width="stretch", column_config={
        "measure": "Measure", "value": "Value", "base_n": "n (published)",
        "base": st.column_config.NumberColumn("As published", format="%.2f"),
        "base_low": st.column_config.NumberColumn("95% from", format="%.2f"),
        "base_high": st.column_config.NumberColumn("to", format="%.2f"),
        "variant_n": "n (variant)",
        "variant": st.column_config.NumberColumn("Variant", format="%.2f"),
        "variant_low": st.column_config.NumberColumn("95% from ", format="%.2f"),
        "variant_high": st.column_config.NumberColumn("to ", format="%.2f"),
        "difference": "Difference"})
    st.caption("n: players for a win rate, games for a length or a first purchase (the operating round a train "
               "type was first bought in, which starts its phase).")


every_bot = chosen_population.games != PEOPLE and st.toggle(
    population.EVERY_BOT, key="balance_every_bot",
    help="Bots' games count only when the strongest bot (the highest ladder rating: railledger ladder --db) "
         "played every seat, unless this is on.")
correlations, counted, bots = data.load(data.correlations, db, chosen_population, every_bot)
st.caption(md(counted))
if chosen_population.variant is not None:
    beside_published(chosen_population.variant)
    st.header("The variant's games by factor")
if not bots.is_empty():
    st.subheader("Bots of the bots' games")
    percent = "{:.1%}".format
    shown = bots.with_columns(
        ladder=pl.when(pl.col("mu").is_null()).then(pl.lit("not on a ladder yet")).otherwise(
            pl.format("{} games at {} ({})", pl.col("ladder_games"), pl.col("table_bots"),
                      pl.col("recorded_at").dt.strftime("%Y-%m-%d"))),
        rating=pl.when(pl.col("mu").is_null()).then(pl.lit("")).otherwise(
            pl.format("{} ± {}", pl.col("mu").round(1), pl.col("sigma").round(1))),
        win_rate=pl.when(pl.col("seats").is_null() | (pl.col("seats") == 0)).then(pl.lit("")).otherwise(
            pl.format("{} ({} to {})", (pl.col("wins") / pl.col("seats")).map_elements(percent, return_dtype=pl.Utf8),
                      pl.col("win_low").map_elements(percent, return_dtype=pl.Utf8),
                      pl.col("win_high").map_elements(percent, return_dtype=pl.Utf8))))
    st.dataframe(shown.select("title", "bot", "games", "strongest", "rating", "win_rate", "ladder"),
                 hide_index=True, width="stretch", column_config={
                     "title": "Title", "bot": "Bot", "games": "Games here", "strongest": "Strongest",
                     "rating": "Rating (mu ± sigma)", "win_rate": "Ladder seat win rate (95% interval)",
                     "ladder": "Ladder"})
    st.caption("Games here: bots' games of the sidebar's choice with the bot in a seat. Rating and win rate: the "
               "bot's latest ladder of the title (railledger ladder --db), seats turned every game; a rating "
               "compares bots met at one table.")
if correlations.is_empty():
    st.info("No game counted here has a result yet: the sidebar chooses which games count.")
    st.stop()

factor_col, scope_col = st.columns(2)
factor = factor_col.selectbox("Factor", [f for f in FACTORS if f in set(correlations["factor"])],
                              format_func=lambda f: charts.FACTOR_WORDS.get(str(f), str(f)).capitalize())
scopes = correlations["scope"].unique(maintain_order=True).to_list()
chosen = scope_col.multiselect("Titles", scopes, default=scopes)
rows = correlations.filter(pl.col("factor") == factor, pl.col("scope").is_in(chosen))
st.plotly_chart(charts.win_rates(rows), key="win_rates")
st.caption("Players: how many players had that value (the sample size); the interval is Wilson's at 95%.")
st.dataframe(rows, hide_index=True, width="stretch",
             column_config={"scope": "Scope", "factor": "Factor", "value": "Value", "games": "Players", "wins": "Wins",
                            "win_rate": st.column_config.NumberColumn("Win rate", format="percent"),
                            "ci_low": st.column_config.NumberColumn("95% interval from", format="percent"),
                            "ci_high": st.column_config.NumberColumn("to", format="percent"),
                            "mean_rank": st.column_config.NumberColumn("Mean place", format="%.2f")})
