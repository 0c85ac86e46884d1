"""Queries over the archive for the dashboard, the commands and notebooks: the heavy part inside
DuckDB (through :mod:`railledger.records`), polars on the results."""
