-- Schema version 2: what the rules engine found when it replayed a game, stored with the game.
--
-- Per-action states are narrow rows (numbers and short text), not copies of the whole state:
-- DuckDB's column compression keeps them small. Per-round-end tables repeat the last state of
-- each round for cheap charts. Every table has game_key, so a replaced game leaves nothing stale.

ALTER TABLE games ADD COLUMN engine VARCHAR;           -- engine version that replayed it; NULL: not replayed
ALTER TABLE games ADD COLUMN replay_matches BOOLEAN;   -- no flag and final values equal to the recorded result

CREATE TABLE steps (
    game_key  VARCHAR  NOT NULL,
    seq       INTEGER  NOT NULL,     -- action index (0-based, as in actions.seq)
    action_id VARCHAR  NOT NULL,     -- the record's id, "42" or "42.1"
    round     VARCHAR  NOT NULL,     -- "SR 2", "OR 3", "Draft" after the action
    phase     VARCHAR  NOT NULL,
    PRIMARY KEY (game_key, seq)
);

CREATE TABLE player_states (
    game_key  VARCHAR  NOT NULL,
    seq       INTEGER  NOT NULL,
    seat      SMALLINT NOT NULL,
    cash      INTEGER  NOT NULL,     -- negative while a player owes a loan
    net_worth INTEGER  NOT NULL,     -- cash + shares at market value + open privates
    shares    VARCHAR  NOT NULL,     -- percent held per company, "GMO=60,IC=10" ("" for none)
    PRIMARY KEY (game_key, seq, seat)
);

CREATE TABLE company_states (
    game_key  VARCHAR  NOT NULL,
    seq       INTEGER  NOT NULL,
    company   VARCHAR  NOT NULL,     -- corporation symbol
    price     SMALLINT,              -- share price; NULL before its par
    market_row SMALLINT,
    market_col SMALLINT,
    cash      INTEGER  NOT NULL,
    trains    VARCHAR  NOT NULL,     -- train names, "2+,3+"
    tokens    SMALLINT NOT NULL,     -- stations placed
    president SMALLINT,              -- seat of the president; NULL with none
    floated   BOOLEAN  NOT NULL,
    closed    BOOLEAN  NOT NULL,
    PRIMARY KEY (game_key, seq, company)
);

CREATE TABLE round_player_values (
    game_key    VARCHAR  NOT NULL,
    round_index SMALLINT NOT NULL,   -- 0, 1, 2... in order of play
    round       VARCHAR  NOT NULL,
    seat        SMALLINT NOT NULL,
    cash        INTEGER  NOT NULL,
    net_worth   INTEGER  NOT NULL,
    PRIMARY KEY (game_key, round_index, seat)
);

CREATE TABLE round_company_prices (
    game_key    VARCHAR  NOT NULL,
    round_index SMALLINT NOT NULL,
    round       VARCHAR  NOT NULL,
    company     VARCHAR  NOT NULL,
    price       SMALLINT,
    PRIMARY KEY (game_key, round_index, company)
);

CREATE TABLE events (
    game_key VARCHAR NOT NULL,
    seq      INTEGER NOT NULL,       -- action during (or just before) which it happened
    ordinal  INTEGER NOT NULL,       -- order among the game's events
    kind     VARCHAR NOT NULL,       -- par, float, president, train, rust, phase, private_closed, game_end
    subject  VARCHAR NOT NULL,       -- company, train id, phase name or reason
    amount   INTEGER,                -- price, treasury or salvage
    detail   VARCHAR,                -- player id, "buyer from seller", owner
    PRIMARY KEY (game_key, ordinal)
);

CREATE TABLE standings (
    game_key VARCHAR  NOT NULL,
    seat     SMALLINT NOT NULL,
    value    INTEGER  NOT NULL,      -- final value as replayed
    rank     SMALLINT NOT NULL,      -- 1 = best; ties share a rank
    winner   BOOLEAN  NOT NULL,
    PRIMARY KEY (game_key, seat)
);

CREATE TABLE flags (
    game_key  VARCHAR NOT NULL,
    seq       INTEGER NOT NULL,      -- index of the illegal action
    action_id VARCHAR NOT NULL,
    rule      VARCHAR NOT NULL,      -- e.g. 18MS/10.4-cert-limit
    section   VARCHAR NOT NULL,
    message   VARCHAR NOT NULL,
    PRIMARY KEY (game_key, seq)
);
