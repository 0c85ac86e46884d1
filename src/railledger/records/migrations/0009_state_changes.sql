-- Schema version 9: a player's and a company's state is stored only at the actions after which it
-- differs from its previous one, instead of a row per player and per company after every action
-- and again at every round's end (rows and primary-key indexes that were most of an archive's
-- bytes). The state after an action is the entity's latest row at or before it, and a round-end
-- value the state at the round's last action (records/states.py rebuilds the old tables from these).
-- ``position`` is the entity's place among the players or companies after that action (the order
-- the old tables' rows of one action were written in). The tables have no primary key: its index
-- cost more than their rows; the archive writes a game's rows whole, one per entity and action.
-- The old rows are converted here.

CREATE TABLE player_changes (
    game_key  VARCHAR  NOT NULL,
    seq       INTEGER  NOT NULL,     -- first action after which the player is in this state
    seat      SMALLINT NOT NULL,
    position  SMALLINT NOT NULL,     -- place in the turn order's listing (0-based)
    cash      INTEGER  NOT NULL,     -- negative while a player owes a loan
    net_worth INTEGER  NOT NULL,     -- cash + shares at market value + open privates
    shares    VARCHAR  NOT NULL      -- percent held per company, "GMO=60,IC=10" ("" for none)
);

CREATE TABLE company_changes (
    game_key  VARCHAR  NOT NULL,
    seq       INTEGER  NOT NULL,     -- first action after which the company is in this state
    company   VARCHAR  NOT NULL,     -- corporation symbol
    position  SMALLINT NOT NULL,     -- place in the title's listing of companies (0-based)
    price     SMALLINT,              -- share price; NULL before its par
    market_row SMALLINT,
    market_col SMALLINT,
    cash      INTEGER  NOT NULL,
    trains    VARCHAR  NOT NULL,     -- train names, "2+,3+"
    tokens    SMALLINT NOT NULL,     -- stations placed
    president SMALLINT,              -- seat of the president; NULL with none
    floated   BOOLEAN  NOT NULL,
    closed    BOOLEAN  NOT NULL
);

INSERT INTO player_changes
SELECT game_key, seq, seat, position, cash, net_worth, shares
FROM (
    SELECT *, lag(state) OVER (PARTITION BY game_key, seat ORDER BY seq) AS previous
    FROM (
        SELECT *, row(position, cash, net_worth, shares) AS state
        FROM (SELECT *, (row_number() OVER (PARTITION BY game_key, seq ORDER BY rowid) - 1) AS position FROM player_states)
    )
)
WHERE previous IS DISTINCT FROM state
ORDER BY game_key, seq, position;

INSERT INTO company_changes
SELECT game_key, seq, company, position, price, market_row, market_col, cash, trains, tokens, president, floated, closed
FROM (
    SELECT *, lag(state) OVER (PARTITION BY game_key, company ORDER BY seq) AS previous
    FROM (
        SELECT *, row(position, price, market_row, market_col, cash, trains, tokens, president, floated, closed) AS state
        FROM (SELECT *, (row_number() OVER (PARTITION BY game_key, seq ORDER BY rowid) - 1) AS position FROM company_states)
    )
)
WHERE previous IS DISTINCT FROM state
ORDER BY game_key, seq, position;

DROP TABLE player_states;
DROP TABLE company_states;
DROP TABLE round_player_values;
DROP TABLE round_company_prices;
