"""``railledger bench`` and ``make bench``: what railledger's work costs, measured on the machine
at hand and named with it.

:mod:`railledger.bench.figures` times each piece (ingest stages, replay beside 18xx.games' engine,
the route optimizer, whole commands, dashboard pages), :mod:`railledger.bench.search` a search's
push, pop and copy, :mod:`railledger.bench.selfplay` the bots' games; :mod:`railledger.bench.report`
gathers them into sections, which the command prints and writes as a dated results file
(``docs/measurements/``) that the docs cite.
"""
