"""The example notebook (examples/balance.ipynb) runs from a clean clone: it builds its own archive
with railledger's Python API, reads it back as polars frames, and draws the Balance page's figure."""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_the_example_notebook_runs_and_draws_the_balance_figure() -> None:
    notebook = nbformat.read(EXAMPLES / "balance.ipynb", as_version=4)
    NotebookClient(notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(EXAMPLES)}}).execute()
    last = notebook.cells[-1]
    figures = [output for output in last.outputs if "application/vnd.plotly.v1+json" in output.get("data", {})]
    assert len(figures) == 1
    traces = figures[0]["data"]["application/vnd.plotly.v1+json"]["data"]
    assert [trace["name"] for trace in traces] == ["18MS"] and sorted(traces[0]["x"]) == ["1", "2", "3"]
