"""The Streamlit dashboard (``railledger dashboard``): pages that read the archive through
:mod:`railledger.analytics` and never write it."""
