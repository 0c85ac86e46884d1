"""railledger dashboard (Streamlit). Reads the archive named by RAILLEDGER_DB, never writes.

Run it with ``railledger dashboard``. This entry file only lays out the navigation and the
sidebar's choice of games (dashboard/population.py); each page is a small script in
``dashboard/views/`` so Streamlit reruns just the page in view.
"""

from __future__ import annotations

import streamlit as st

from railledger.dashboard import data
from railledger.dashboard.population import sidebar

st.set_page_config(page_title="railledger", layout="wide")
sidebar(data.offered_variants(data.db_path()))  # the games every page counts: drawn here, so the choice holds from page to page
navigation = st.navigation([
    st.Page("views/archive.py", title="Archive", url_path="archive", default=True),
    st.Page("views/review.py", title="Game review", url_path="review"),
    st.Page("views/players.py", title="Players", url_path="players"),
    st.Page("views/events.py", title="Events", url_path="events"),
    st.Page("views/titles.py", title="Titles", url_path="titles"),
    st.Page("views/rush.py", title="Train rush", url_path="rush"),
    st.Page("views/balance.py", title="Balance", url_path="balance"),
    st.Page("views/validation.py", title="Validation", url_path="validation"),
], position="top")  # the pages across the top: the review's first screen needs the width
navigation.run()
