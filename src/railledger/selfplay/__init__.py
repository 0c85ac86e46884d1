"""Self-play: bots that play whole games by the rules (docs/selfplay.md)."""

MAX_ACTIONS = 5_000
"""No game of the built-in bots reaches this (docs/selfplay.md gives the longest measured). Here,
not in :mod:`selfplay.play`, so that the command line shows it without loading the engine."""
