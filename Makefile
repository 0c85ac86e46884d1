# railledger developer targets. Everything runs from a local .venv that `make` creates.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DB ?= railledger.duckdb
FIXTURES ?= $(or $(RAILLEDGER_FIXTURES),../shared/fixtures)

.PHONY: demo test conformance bench crosscheck install clean

install: $(STAMP)

# Recreate the environment whenever the dependencies change.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

# Main job on the embedded default archive: ingest the examples (and the shared fixtures when
# present), print the summary, then serve the dashboard on http://localhost:8501.
demo: $(STAMP)
	$(BIN)/railledger ingest examples $(wildcard $(FIXTURES)) --db $(DB)
	$(BIN)/railledger games --db $(DB)
	$(BIN)/railledger dashboard --db $(DB)

# Lint and types first (ruff's pyflakes checks and mypy over every package, configured in
# pyproject.toml), then the tests.
test: $(STAMP)
	$(BIN)/ruff check
	$(BIN)/mypy
	$(BIN)/python -m pytest

conformance: $(STAMP)
	$(BIN)/railledger conformance $(wildcard $(FIXTURES))

bench: $(STAMP)
	$(BIN)/railledger bench $(wildcard $(FIXTURES)) --dashboard-games 1000

# Games played by 18xx.games' own engine (../shared/tools/ref18xx, ruby, TOBYMAO_GIT), replayed and
# compared state by state; says "skipped" without them. Not part of CI.
CROSSCHECK_GAMES ?= 200
CROSSCHECK_SEED ?= 1
crosscheck: $(STAMP)
	$(BIN)/railledger crosscheck --games $(CROSSCHECK_GAMES) --first-seed $(CROSSCHECK_SEED)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis test-artifacts
