-- Schema version 15: the stored ratings are kept for both answers to the Players and Titles pages'
-- "Count games the players ended by hand" (manual_ends), not only for the default (no). Before
-- it, turning the option on rated every game in memory, about 20 s at 100,000 games. Every row
-- says which count it belongs to; rating_basis has a row per count. The stored ratings are a
-- cache of what the games give, so those stored before are dropped: the ingest that opens the
-- archive for writing (and so runs this migration) rates the games again at its end.

DELETE FROM rating_table;
ALTER TABLE rating_table ADD COLUMN manual_ends BOOLEAN NOT NULL DEFAULT false;  -- the games the players ended by hand counted (true) or not
ALTER TABLE rating_table ALTER COLUMN manual_ends DROP DEFAULT;  -- every row says which, or fails
DELETE FROM rating_basis;  -- from now on a row per count
ALTER TABLE rating_basis ADD COLUMN manual_ends BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE rating_basis ALTER COLUMN manual_ends DROP DEFAULT;

-- The history is made again: its key becomes the count and the position within it.
DROP TABLE rating_history;
CREATE TABLE rating_history (
    manual_ends BOOLEAN NOT NULL,
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
