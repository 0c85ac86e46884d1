"""Events: tournaments and leagues an organizer runs from a file, from pairings to standings.

An event file (TOML, docs/events.md) names the event's players by 18xx.games user id, its rounds
and their tables (each a game, or the players of a game not made yet), how a table is scored, the
tie-breaks in order, and the organizer's decisions on games that are not valid. This room reads
and writes such files (:mod:`events.file`), checks them against the archived games
(:mod:`events.games`), scores the tables (:mod:`events.scoring`), orders the players
(:mod:`events.standings`) and seats the next round (:mod:`events.seating`). It sits above the
pipeline (which pulls the games) and below the reports, the dashboard and the command line.
"""
