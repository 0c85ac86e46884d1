-- Schema version 1: games, their players, canonical actions and player automation settings.
--
-- Convention for every later migration: a table holding rows of one game has a `game_key`
-- column (= games.key). The archive deletes from every such table when a game is replaced,
-- so per-action snapshots, events, standings or flags added later are never left stale.
-- There are no FOREIGN KEY constraints: DuckDB cannot cascade deletes, and the records package
-- keeps the tables consistent by writing each game in one transaction.

CREATE TABLE games (
    key            VARCHAR   PRIMARY KEY,   -- source/source_id, e.g. 18xx.games/14375
    title          VARCHAR   NOT NULL,      -- e.g. 18MS
    source         VARCHAR   NOT NULL,      -- e.g. 18xx.games
    source_id      VARCHAR   NOT NULL,      -- the game's id at the source, as text
    seed           BIGINT,                  -- random seed of the game, NULL when unknown
    optional_rules VARCHAR[] NOT NULL,      -- in record order
    status         VARCHAR,                 -- e.g. finished, active; NULL when unknown
    result         VARCHAR,                 -- JSON text {"player id": value}, NULL when none recorded
    content_hash   VARCHAR   NOT NULL,      -- sha256 (hex) of the record's canonical JSON
    origin         VARCHAR,                 -- file the stored version was read from
    ingested_at    TIMESTAMP NOT NULL       -- UTC time the stored version was written
);

CREATE TABLE players (
    game_key    VARCHAR NOT NULL,
    seat        INTEGER NOT NULL,           -- 1 = first player of the record's player list
    name        VARCHAR NOT NULL,
    external_id VARCHAR NOT NULL,           -- 18xx.games user id as text; the name in hotseat games
    id_is_int   BOOLEAN NOT NULL,           -- the record's id was an int (restore int(external_id))
    PRIMARY KEY (game_key, seat)
);

CREATE TABLE actions (
    game_key      VARCHAR NOT NULL,
    seq           INTEGER NOT NULL,         -- 0-based position in the record's action list
    original_id   BIGINT  NOT NULL,         -- the source's action id (shared by automatic actions)
    auto          INTEGER NOT NULL,         -- 0 for a player's action, 1, 2... for automatic ones
    type          VARCHAR NOT NULL,         -- e.g. lay_tile, buy_shares
    entity_type   VARCHAR NOT NULL,         -- player, corporation, company, minor...
    entity        VARCHAR NOT NULL,         -- acting entity's id as text
    entity_is_int BOOLEAN NOT NULL,         -- the entity id was an int
    payload       VARCHAR NOT NULL,         -- JSON text of the action's fields
    PRIMARY KEY (game_key, seq)
);

CREATE TABLE programs (
    game_key      VARCHAR NOT NULL,
    seq           INTEGER NOT NULL,         -- 0-based position in the record's program list
    original_id   BIGINT  NOT NULL,
    auto          INTEGER NOT NULL,
    type          VARCHAR NOT NULL,         -- program_* settings
    entity_type   VARCHAR NOT NULL,
    entity        VARCHAR NOT NULL,
    entity_is_int BOOLEAN NOT NULL,
    payload       VARCHAR NOT NULL,
    PRIMARY KEY (game_key, seq)
);
