"""Balance page: which seats, bots, openings and holdings go with winning, per title and overall.

Every rate is shown with its 95% interval and sample size: an archive of a few games proves
little, and the bars say so. Games people played and games bots played (railledger simulate)
are shown apart; mixing them is a choice the sidebar makes for every page (dashboard/population.py).
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from railledger.analytics.balance import FACTORS
from railledger.dashboard import charts, data, population
from railledger.dashboard.text import md

st.title("Balance")
db = data.db_path()
correlations, counted = data.load(data.correlations, db, population.chosen())
st.caption(md(counted))
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
