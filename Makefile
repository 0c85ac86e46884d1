# railledger developer targets. Everything runs from a local .venv that `make` creates.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DB ?= railledger.duckdb
FIXTURES ?= $(or $(RAILLEDGER_FIXTURES),../shared/fixtures)
# The packages' bytecode, as pip writes it for the libraries it installs: the editable install
# leaves the project's own modules as source, and where Python may not write bytecode
# (PYTHONDONTWRITEBYTECODE) every start would compile them again, a good part of what railledger
# --help spends outside typer (README). Each file's bytecode holds a hash of its source, which
# Python checks on import (checked-hash: a module edited since is compiled from source, never read
# stale, even within the second it was compiled in); `make bytecode` refreshes it.
BYTECODE := $(BIN)/python -m compileall -q -f --invalidation-mode checked-hash src/railledger

.PHONY: demo test conformance edges bench crosscheck crosscheck-undo selfplay ladder reference install bytecode fast fast-gate clean

install: $(STAMP)

# Recreate the environment whenever the dependencies change.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	$(BYTECODE)
	touch $(STAMP)

bytecode: $(STAMP)
	$(BYTECODE)

# The compiled engine (docs/fast.md): mypyc compiles the engine's hottest modules (setup.py's
# COMPILED) to C extensions, installed with the rest of railledger into an environment of its own,
# FAST_VENV. Not into .venv: its install is editable, and compiled modules beside the sources would
# hide every later edit of them until the next build. Needs a C compiler and Python's headers; a
# build takes minutes. $(FAST_VENV)/bin/railledger is then the command with the compiled engine.
FAST_VENV ?= .venv-fast
FAST_STAMP := $(FAST_VENV)/.installed
fast: $(FAST_STAMP)

$(FAST_STAMP): pyproject.toml setup.py $(shell find src/railledger -name '*.py')
	test -x $(FAST_VENV)/bin/python || $(PYTHON) -m venv $(FAST_VENV)
	$(FAST_VENV)/bin/python -m pip install --quiet --disable-pip-version-check '.[dev]'
	RAILLEDGER_MYPYC=1 nice -n 5 $(FAST_VENV)/bin/python -m pip install --quiet --disable-pip-version-check --no-cache-dir \
		--no-build-isolation --force-reinstall --no-deps .
	rm -rf build
	touch $(FAST_STAMP)

# What CI runs on the compiled engine (.ci/run): the regression gate (every test game's and shared
# record's replay, snapshots, events, audits and legal actions, and the self-play games), and the
# bots' tests (bots and evaluations written in plain Python over the compiled engine). Without a
# C compiler or Python's headers it says "skipped" and succeeds.
FAST_TESTS := tests/test_regression_gate.py tests/test_selfplay.py tests/test_strong_bot.py
fast-gate:
	@if ! command -v cc >/dev/null || ! test -f "$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h"; then \
		echo "fast-gate: skipped: no C compiler or no Python headers (python3-dev) to build the compiled engine"; \
	else \
		$(MAKE) fast && RAILLEDGER_ENGINE_BUILD=compiled $(FAST_VENV)/bin/python -m pytest -q -p no:cacheprovider $(FAST_TESTS); \
	fi

# Main job on the embedded default archive: ingest the examples (and the shared fixtures when
# present), print the summary, then serve the dashboard on http://localhost:8501.
# DEMO_SELFPLAY games per title played by the bots (railledger simulate, source selfplay) join
# them, so the cross-game charts have more than a handful of games; a rerun plays none again.
DEMO_SELFPLAY ?= 4
demo: $(STAMP)
	$(BIN)/railledger ingest examples $(wildcard $(FIXTURES)) --db $(DB)
	$(BIN)/railledger simulate --title 18MS --players 3 --games $(DEMO_SELFPLAY) --bots greedy,random,random --rotate --db $(DB)
	$(BIN)/railledger simulate --title 18Texas --players 4 --games $(DEMO_SELFPLAY) --bots greedy,random,greedy,random --rotate --db $(DB)
	$(BIN)/railledger simulate --title "The Old Prince 1871" --players 4 --games $(DEMO_SELFPLAY) --bots greedy,random,greedy,random --rotate --db $(DB)
	$(BIN)/railledger games --db $(DB)
	$(BIN)/railledger dashboard --db $(DB)

# Lint and types first (ruff's pyflakes checks and mypy over every package, configured in
# pyproject.toml), then the tests.
test: bytecode  # many tests start railledger in a new process: from current bytecode
	$(BIN)/ruff check
	$(BIN)/mypy
	$(BIN)/python -m pytest

conformance: $(STAMP)
	$(BIN)/railledger conformance $(wildcard $(FIXTURES))

# The property tests of records near the input schema's edges (tests/test_edges_property.py) at
# EDGE_EXAMPLES generated records, where CI tries 25: each stored, or refused in one line with the
# archive unchanged.
EDGE_EXAMPLES ?= 1000
edges: bytecode
	RAILLEDGER_EDGE_EXAMPLES=$(EDGE_EXAMPLES) $(BIN)/python -m pytest -q tests/test_edges_property.py

bench: bytecode  # times whole processes' starts: the code as installed
	$(BIN)/railledger bench $(wildcard $(FIXTURES)) --scale-games 1000 --ingest-games 1000 --results docs/measurements

# Games played by 18xx.games' own engine (../shared/tools/ref18xx, ruby, TOBYMAO_GIT), replayed and
# compared state by state; says "skipped" without them. Not part of CI.
# CROSSCHECK_SELFPLAY games per title played by railledger's bots go the other way: 18xx.games'
# engine must accept every action of each, with the same state after every one.
# --shortfalls: every run the revenue audit finds short, in those games and in the shared records,
# is sent to 18xx.games' engine with the audit's better routes in place of the declared ones; the
# engine must accept them and pay what the audit claims (docs/optimizer.md).
# CROSSCHECK_GAMES: games of every title played in 18xx.games' engine; unset, each title's own
# count (200 of 18MS and of 18Texas, 50 of The Old Prince 1871).
CROSSCHECK_GAMES ?=
CROSSCHECK_SELFPLAY ?= 20
CROSSCHECK_SEED ?= 1
crosscheck: $(STAMP)
	$(BIN)/railledger crosscheck $(if $(CROSSCHECK_GAMES),--games $(CROSSCHECK_GAMES)) --selfplay $(CROSSCHECK_SELFPLAY) --first-seed $(CROSSCHECK_SEED) --shortfalls $(wildcard $(FIXTURES))

# 18xx.games' own undo and redo filtering asked about every case of tests/undo_reference.json,
# compared with railledger's and with the answers recorded there for CI; says "skipped" without
# ruby, the ref18xx tools (RAILLEDGER_REF18XX, default ../shared/tools/ref18xx) and TOBYMAO_GIT.
crosscheck-undo: $(STAMP)
	RAILLEDGER_REFERENCE_UNDO=1 $(BIN)/python -m pytest -q -rs tests/test_undo_reference.py -k reference_engine

# SELFPLAY_GAMES games per title played by the bots (greedy and random, the table turned each
# game) into SELFPLAY_DB, each replayed and stored; a summary per title (games with no flag to
# their result, lengths, how they ended, speed, wins per bot). Exit 1 if any title failed.
SELFPLAY_GAMES ?= 1000
SELFPLAY_DB ?= selfplay.duckdb
selfplay: $(STAMP)
	status=0; \
	$(BIN)/railledger simulate --title 18MS --players 3 --games $(SELFPLAY_GAMES) --bots greedy,random,random --rotate --db $(SELFPLAY_DB) || status=1; \
	$(BIN)/railledger simulate --title 18Texas --players 4 --games $(SELFPLAY_GAMES) --bots greedy,random,greedy,random --rotate --db $(SELFPLAY_DB) || status=1; \
	$(BIN)/railledger simulate --title "The Old Prince 1871" --players 4 --games $(SELFPLAY_GAMES) --bots greedy,random,greedy,random --rotate --db $(SELFPLAY_DB) || status=1; \
	exit $$status

# How strongly the bots play (docs/selfplay.md): LADDER_GAMES games of each pairing at each title's
# usual table (18MS 3 players, 18Texas and 1871 4), one bot in one seat and another in the others
# (greedy against random, strong against greedy, strong against random), seats turned every game,
# on seeds from LADDER_SEED; each bot's seat win rate with its interval and its rating. Then PEOPLE_GAMES games of each title by a table of strong bots, set
# beside the people's games of LADDER_PEOPLE (the shared records and the archive DB when they
# exist: every game pulled into it counts): the spread of the winner's value, the operating
# rounds, each phase change's and the first rust's operating round, the ends, and whether the
# target holds (docs/selfplay.md#games-that-look-like-peoples). The games are not stored; with
# LADDER_DB set, every run's standings are kept in that archive for the Balance page.
LADDER_GAMES ?= 200
LADDER_SEED ?= 1
PEOPLE_GAMES ?= 100
LADDER_PEOPLE ?= $(wildcard $(FIXTURES) $(DB))
PEOPLE := $(foreach source,$(LADDER_PEOPLE),--people $(source))
LADDER_DB ?=
KEEP := $(if $(LADDER_DB),--db $(LADDER_DB))
ladder: $(STAMP)
	status=0; \
	$(BIN)/railledger ladder --title 18MS --players 3 --bots greedy,random,random --games $(LADDER_GAMES) --first-seed $(LADDER_SEED) $(KEEP) || status=1; \
	$(BIN)/railledger ladder --title 18Texas --players 4 --bots greedy,random,random,random --games $(LADDER_GAMES) --first-seed $(LADDER_SEED) $(KEEP) || status=1; \
	$(BIN)/railledger ladder --title "The Old Prince 1871" --players 4 --bots greedy,random,random,random --games $(LADDER_GAMES) --first-seed $(LADDER_SEED) $(KEEP) || status=1; \
	for other in greedy random; do \
	  $(BIN)/railledger ladder --title 18MS --players 3 --bots strong,$$other,$$other --games $(LADDER_GAMES) --first-seed $(LADDER_SEED) $(KEEP) || status=1; \
	  $(BIN)/railledger ladder --title 18Texas --players 4 --bots strong,$$other,$$other,$$other --games $(LADDER_GAMES) --first-seed $(LADDER_SEED) $(KEEP) || status=1; \
	  $(BIN)/railledger ladder --title "The Old Prince 1871" --players 4 --bots strong,$$other,$$other,$$other --games $(LADDER_GAMES) --first-seed $(LADDER_SEED) $(KEEP) || status=1; \
	done; \
	$(BIN)/railledger ladder --title 18MS --players 3 --bots strong --games $(PEOPLE_GAMES) --first-seed $(LADDER_SEED) $(PEOPLE) $(KEEP) || status=1; \
	$(BIN)/railledger ladder --title 18Texas --players 4 --bots strong --games $(PEOPLE_GAMES) --first-seed $(LADDER_SEED) $(PEOPLE) $(KEEP) || status=1; \
	$(BIN)/railledger ladder --title "The Old Prince 1871" --players 4 --bots strong --games $(PEOPLE_GAMES) --first-seed $(LADDER_SEED) $(PEOPLE) $(KEEP) || status=1; \
	exit $$status

# The latest schema the migrations build, kept (records/migrations/reference.json) so that opening
# an archive compares its catalog without building that schema in memory: run after adding a
# migration or changing DuckDB (a test fails until then; until then, opens build it).
reference: $(STAMP)
	$(BIN)/python -c "from railledger.records.schema import keep_reference; keep_reference()"

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis test-artifacts
