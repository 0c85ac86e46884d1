"""Record formats: 18xx.games exports, the notation, normalization and the input schema."""

DEFAULT_MAX_SIZE = 64 * 1024 * 1024
"""Bytes read from one file at most: the largest shared export is 118 KB, the longest games on
18xx.games a few MB. Here rather than in :mod:`ingest.sources` so that the command line shows it
without loading the readers."""
