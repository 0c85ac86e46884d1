-- Schema version 14: the stored ratings keep their leaderboard (rating_table) beside their history,
-- and say which games they were computed from by a digest of the games themselves (each game's
-- key, content hash, engine version and whether the replay matched its result: what decides its
-- rated result). A reader compares that digest, which DuckDB computes over the games table in
-- milliseconds, instead of reading every rated result to compare their fingerprint (half a second
-- at 100,000 games), and it reads only the leaderboard and the rows of the player it shows.
-- Ratings stored before this version have neither, so they are dropped: the stored ratings are a
-- cache of what the games give, and the ingest that opens the archive for writing (and so runs
-- this migration) rates the games again at its end.

DELETE FROM rating_history;
DROP TABLE rating_basis;

CREATE TABLE rating_basis (
    fingerprint  VARCHAR   NOT NULL,  -- a digest of the rated results in play order, and of the model
    results      BIGINT    NOT NULL,  -- rows of rated results (one player in one game) it covers
    games_digest VARCHAR   NOT NULL,  -- a digest of every stored game's key, content hash, engine and replay_matches, and of the model
    rated_at     TIMESTAMP NOT NULL   -- UTC
);

-- Per scope and player, the last rating and the counts (analytics.ratings.Ratings.table).
CREATE TABLE rating_table (
    scope   VARCHAR NOT NULL,  -- a title, or "all titles"
    place   BIGINT  NOT NULL,  -- 1 = the highest ordinal of the scope; ties share a place
    player  VARCHAR NOT NULL,  -- players.external_id
    name    VARCHAR,           -- the name the player used last in the scope
    games   BIGINT  NOT NULL,
    wins    BIGINT  NOT NULL,
    mu      DOUBLE  NOT NULL,
    sigma   DOUBLE  NOT NULL,
    ordinal DOUBLE  NOT NULL
);
