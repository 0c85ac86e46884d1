-- Schema version 8: the bot that played each seat of a generated game (railledger play and
-- simulate; source 'selfplay'). A seat a person played has no row.

CREATE TABLE seat_bots (
    game_key VARCHAR NOT NULL,
    seat     INTEGER NOT NULL,   -- players.seat
    bot      VARCHAR NOT NULL,   -- the bot's name, e.g. greedy
    PRIMARY KEY (game_key, seat)
);
