"""The pipeline: records read, checked and replayed (here, in worker processes or on a Dask
cluster) and stored in the archive; bots' games played and stored; the archive's tables exported.

What ``railledger ingest``, ``simulate`` and ``export`` do, as functions a notebook, a test or
another program calls (:func:`ingest_paths`, :func:`simulate_games`, :func:`export_archive`); the
command line only parses their options and prints what they return.
"""
