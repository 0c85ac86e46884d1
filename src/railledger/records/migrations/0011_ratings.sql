-- Schema version 11: the player ratings (analytics/ratings.py) are kept in the archive, so that a
-- reader loads them instead of rating every valid game again (30 s at 100,000 games). They are a
-- result of the whole archive, not rows of one game: the archive neither copies nor deletes them
-- with a game (records.schema.WHOLE_ARCHIVE_TABLES), and they name the rated input they were
-- computed from (`rating_basis`), so a reader whose games differ computes its own instead.

CREATE TABLE rating_history (
    position BIGINT  PRIMARY KEY,  -- 0, 1, 2...: the order the ratings were computed in
    scope    VARCHAR NOT NULL,     -- a title, or "all titles"
    player   VARCHAR NOT NULL,     -- players.external_id
    game     BIGINT  NOT NULL,     -- the player's 1st, 2nd... rated game of the scope
    game_key VARCHAR NOT NULL,     -- the rated game (not a per-game row: see above)
    created  VARCHAR,              -- games.created of that game
    mu       DOUBLE  NOT NULL,     -- the rating after that game
    sigma    DOUBLE  NOT NULL,
    ordinal  DOUBLE  NOT NULL      -- mu - 3 sigma
);

-- One row (none before the first ratings are stored): what rating_history was computed from.
CREATE TABLE rating_basis (
    fingerprint VARCHAR   NOT NULL,  -- a digest of the rated results in play order, and of the model
    results     BIGINT    NOT NULL,  -- rows of rated results (one player in one game) it covers
    rated_at    TIMESTAMP NOT NULL   -- UTC
);
