-- Schema version 15: the stored ratings are kept for both answers to the Players and Titles pages'
-- "Count games the players ended by hand" (manual_ends), not only for the default (no). Before
-- it, turning the option on rated every game in memory, about 20 s at 100,000 games. Every row
-- says which count it belongs to; rating_basis has a row per count. The stored ratings are a
-- cache of what the games give, so those stored before are dropped: the ingest that opens the
-- archive for writing (and so runs this migration) rates the games again at its end.

DROP TABLE rating_history;
DROP TABLE rating_table;
DROP TABLE rating_basis;

CREATE TABLE rating_history (
    manual_ends BOOLEAN NOT NULL,  -- the games the players ended by hand counted (true) or not
    position    BIGINT  NOT NULL,  -- 0, 1, 2...: the order the ratings of that count were computed in
    scope       VARCHAR NOT NULL,  -- a title, or "all titles"
    player      VARCHAR NOT NULL,  -- players.external_id
    game        BIGINT  NOT NULL,  -- the player's 1st, 2nd... rated game of the scope
    game_key    VARCHAR NOT NULL,  -- the rated game (not a per-game row: records.schema.WHOLE_ARCHIVE_TABLES)
    created     VARCHAR,           -- games.created of that game
    mu          DOUBLE  NOT NULL,  -- the rating after that game
    sigma       DOUBLE  NOT NULL,
    ordinal     DOUBLE  NOT NULL,  -- mu - 3 sigma
    PRIMARY KEY (manual_ends, position)
);

-- Per count, scope and player: the last rating and the counts (analytics.ratings.Ratings.table).
CREATE TABLE rating_table (
    manual_ends BOOLEAN NOT NULL,
    scope       VARCHAR NOT NULL,  -- a title, or "all titles"
    place       BIGINT  NOT NULL,  -- 1 = the highest ordinal of the scope; ties share a place
    player      VARCHAR NOT NULL,  -- players.external_id
    name        VARCHAR,           -- the name the player used last in the scope
    games       BIGINT  NOT NULL,
    wins        BIGINT  NOT NULL,
    mu          DOUBLE  NOT NULL,
    sigma       DOUBLE  NOT NULL,
    ordinal     DOUBLE  NOT NULL
);

-- A row per count (none before its ratings are first stored): what they were computed from.
CREATE TABLE rating_basis (
    manual_ends  BOOLEAN   NOT NULL,
    fingerprint  VARCHAR   NOT NULL,  -- a digest of the rated results in play order, and of the model
    results      BIGINT    NOT NULL,  -- rows of rated results (one player in one game) it covers
    games_digest VARCHAR   NOT NULL,  -- a digest of every stored game's key, content hash, engine and replay_matches, and of the model
    rated_at     TIMESTAMP NOT NULL   -- UTC
);
