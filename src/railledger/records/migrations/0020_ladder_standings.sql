-- Schema version 20: the standings of the ladders run with `railledger ladder --db` (bots' games
-- played at one table with the seats turned, not stored as games), so that a page counting bots'
-- games can say how strongly each bot plays. One row per ladder run and bot; a run is known by
-- the moment it was recorded, and a newer run of the same title, table and seeds does not replace
-- an older one (both are kept: the reader takes the latest per title and bot). No key: the table is
-- read whole, a few rows a run.

CREATE TABLE ladder_standings (
    recorded_at TIMESTAMP NOT NULL,  -- UTC, when the run's standings were stored
    title       VARCHAR   NOT NULL,
    players     INTEGER   NOT NULL,  -- seats at the table
    table_bots  VARCHAR   NOT NULL,  -- the bot of every seat before turning, comma-separated
    first_seed  BIGINT    NOT NULL,
    last_seed   BIGINT    NOT NULL,
    games       INTEGER   NOT NULL,  -- games played to their end (the counted ones)
    bot         VARCHAR   NOT NULL,
    seats       INTEGER   NOT NULL,  -- the bot's seats over those games
    wins        INTEGER   NOT NULL,  -- its seats that finished with the highest value
    win_low     DOUBLE    NOT NULL,  -- Wilson 95% interval of wins / seats
    win_high    DOUBLE    NOT NULL,
    mu          DOUBLE    NOT NULL,  -- its rating (openskill Plackett-Luce), as players are rated
    sigma       DOUBLE    NOT NULL
);
