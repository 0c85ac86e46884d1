-- Schema version 12: the per-game tables lose their primary keys, as the tables of changes and the
-- summaries never had one. Each key was an index (an ART over the game's key and the row's number)
-- that no read used, since a game's rows are found by a scan; in an archive of 1,000 games ingested
-- the indexes held 49 of the 165 blocks of 256 KB in use. What they guarded holds without them: the
-- archive deletes a game's rows from every per-game table before it writes the game's rows whole,
-- in one transaction. `games` keeps its key, by which one game is looked up; the ratings' history
-- and schema_version (not per game) keep theirs.
-- Each table is made again with the same columns, in the same order, and its rows in theirs.

CREATE TABLE players_v12 (
    game_key    VARCHAR NOT NULL,
    seat        INTEGER NOT NULL,
    name        VARCHAR NOT NULL,
    external_id VARCHAR NOT NULL,
    id_is_int   BOOLEAN NOT NULL
);
INSERT INTO players_v12 SELECT * FROM players;
DROP TABLE players;
ALTER TABLE players_v12 RENAME TO players;

CREATE TABLE actions_v12 (
    game_key              VARCHAR NOT NULL,
    seq                   INTEGER NOT NULL,
    original_id           BIGINT  NOT NULL,
    auto                  INTEGER NOT NULL,
    type                  VARCHAR NOT NULL,
    entity_type           VARCHAR NOT NULL,
    entity                VARCHAR NOT NULL,
    entity_is_int         BOOLEAN NOT NULL,
    payload               VARCHAR NOT NULL,
    created_at            BIGINT,
    user_id               VARCHAR,
    user_is_int           BOOLEAN,
    id_before_renumbering BIGINT,
    skip                  BOOLEAN,
    revenue_strs          VARCHAR
);
INSERT INTO actions_v12 SELECT * FROM actions;
DROP TABLE actions;
ALTER TABLE actions_v12 RENAME TO actions;

CREATE TABLE programs_v12 (
    game_key              VARCHAR NOT NULL,
    seq                   INTEGER NOT NULL,
    original_id           BIGINT  NOT NULL,
    auto                  INTEGER NOT NULL,
    type                  VARCHAR NOT NULL,
    entity_type           VARCHAR NOT NULL,
    entity                VARCHAR NOT NULL,
    entity_is_int         BOOLEAN NOT NULL,
    payload               VARCHAR NOT NULL,
    created_at            BIGINT,
    user_id               VARCHAR,
    user_is_int           BOOLEAN,
    id_before_renumbering BIGINT,
    skip                  BOOLEAN,
    revenue_strs          VARCHAR
);
INSERT INTO programs_v12 SELECT * FROM programs;
DROP TABLE programs;
ALTER TABLE programs_v12 RENAME TO programs;

CREATE TABLE steps_v12 (
    game_key  VARCHAR NOT NULL,
    seq       INTEGER NOT NULL,
    action_id VARCHAR NOT NULL,
    round     VARCHAR NOT NULL,
    phase     VARCHAR NOT NULL
);
INSERT INTO steps_v12 SELECT * FROM steps;
DROP TABLE steps;
ALTER TABLE steps_v12 RENAME TO steps;

CREATE TABLE events_v12 (
    game_key VARCHAR NOT NULL,
    seq      INTEGER NOT NULL,
    ordinal  INTEGER NOT NULL,
    kind     VARCHAR NOT NULL,
    subject  VARCHAR NOT NULL,
    amount   INTEGER,
    detail   VARCHAR
);
INSERT INTO events_v12 SELECT * FROM events;
DROP TABLE events;
ALTER TABLE events_v12 RENAME TO events;

CREATE TABLE standings_v12 (
    game_key VARCHAR  NOT NULL,
    seat     SMALLINT NOT NULL,
    value    INTEGER  NOT NULL,
    rank     SMALLINT NOT NULL,
    winner   BOOLEAN  NOT NULL
);
INSERT INTO standings_v12 SELECT * FROM standings;
DROP TABLE standings;
ALTER TABLE standings_v12 RENAME TO standings;

CREATE TABLE flags_v12 (
    game_key  VARCHAR NOT NULL,
    seq       INTEGER NOT NULL,
    action_id VARCHAR NOT NULL,
    rule      VARCHAR NOT NULL,
    section   VARCHAR NOT NULL,
    message   VARCHAR NOT NULL,
    follows   INTEGER
);
INSERT INTO flags_v12 SELECT * FROM flags;
DROP TABLE flags;
ALTER TABLE flags_v12 RENAME TO flags;

CREATE TABLE runs_v12 (
    game_key        VARCHAR  NOT NULL,
    seq             INTEGER  NOT NULL,
    action_id       VARCHAR  NOT NULL,
    company         VARCHAR  NOT NULL,
    round           VARCHAR  NOT NULL,
    seat            SMALLINT,
    declared        INTEGER,
    engine          INTEGER,
    optimum         INTEGER  NOT NULL,
    proven          BOOLEAN  NOT NULL,
    declared_routes VARCHAR  NOT NULL,
    optimal_routes  VARCHAR  NOT NULL
);
INSERT INTO runs_v12 SELECT * FROM runs;
DROP TABLE runs;
ALTER TABLE runs_v12 RENAME TO runs;

CREATE TABLE sources_v12 (
    game_key  VARCHAR NOT NULL,
    format    VARCHAR NOT NULL,
    size      INTEGER NOT NULL,
    text_zlib BLOB    NOT NULL
);
INSERT INTO sources_v12 SELECT * FROM sources;
DROP TABLE sources;
ALTER TABLE sources_v12 RENAME TO sources;

CREATE TABLE seat_bots_v12 (
    game_key VARCHAR NOT NULL,
    seat     INTEGER NOT NULL,
    bot      VARCHAR NOT NULL
);
INSERT INTO seat_bots_v12 SELECT * FROM seat_bots;
DROP TABLE seat_bots;
ALTER TABLE seat_bots_v12 RENAME TO seat_bots;
