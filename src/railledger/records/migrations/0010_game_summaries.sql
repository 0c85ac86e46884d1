-- Schema version 10: a few rows per game that statistics over many games read instead of every
-- action, step and state change (records/summaries.py derives them, inside DuckDB, from the rows
-- stored with the game, in the transaction that stores it, and for every game stored before).
-- Like every per-game table they have game_key, so a replaced or deleted game leaves none stale.

CREATE TABLE game_totals (
    game_key         VARCHAR NOT NULL,
    players          INTEGER NOT NULL,
    player_names     VARCHAR[] NOT NULL, -- their names in seat order
    actions          INTEGER NOT NULL,   -- every action of the record, automatic ones included
    end_game_action  BOOLEAN NOT NULL,   -- the record holds an end_game action
    operating_rounds INTEGER,            -- distinct "OR" round labels of its steps; NULL without a replay
    end_reason       VARCHAR             -- the engine's first game_end event; NULL when the game did not end
);

CREATE TABLE train_firsts (
    game_key   VARCHAR NOT NULL,
    title      VARCHAR NOT NULL,         -- the game's, so that counting needs no join
    train_type VARCHAR NOT NULL,         -- a train id without its last "-n": "2+-3" -> "2+"
    kind       VARCHAR NOT NULL,         -- train (first bought) or rust (first gone)
    seq        INTEGER NOT NULL,         -- the action of that event
    ordinal    INTEGER NOT NULL,         -- its order among the game's events
    round      VARCHAR,                  -- the round label after that action; NULL without a step there
    or_ordinal INTEGER,                  -- operating rounds started by then (0 before the first); NULL without a step
    company    VARCHAR,                  -- the buyer (first bought only)
    president  SMALLINT                  -- the buyer's president's seat after that action (first bought only)
);

CREATE TABLE seat_factors (
    game_key VARCHAR  NOT NULL,
    seat     SMALLINT NOT NULL,
    title    VARCHAR  NOT NULL,          -- the game's, so that counting needs no join
    factor   VARCHAR  NOT NULL,          -- seat, bot, private, presidencies, first_par, first_permanent
    value    VARCHAR  NOT NULL,
    rank     SMALLINT NOT NULL,          -- the player's final rank (standings)
    winner   BOOLEAN  NOT NULL
);

CREATE TABLE seat_runs (
    game_key      VARCHAR  NOT NULL,
    title         VARCHAR  NOT NULL,
    seat          SMALLINT,              -- the president who decided the runs; NULL for runs without one
    player        VARCHAR,               -- that seat's name; NULL without a seat
    runs          INTEGER  NOT NULL,
    below_optimum INTEGER  NOT NULL,     -- runs short of the optimum
    left_on_table BIGINT,                -- optimum minus the engine's total, summed (NULL: none to sum)
    best_possible BIGINT,                -- the optima summed
    unproven      INTEGER  NOT NULL      -- optima not proven
);
