-- Schema version 17: each seat keeps the player's identity (docs/identity.md), by which every
-- statistic groups players instead of by name or by the record's id alone: ``user:ID`` for a
-- person seated under a whole-number id (an 18xx.games user), else ``seat:SEAT:GAME_KEY``, a
-- player of that one game (a hotseat game's players, who go by name; a notation file's players
-- named by text; a bot's seat, numbered 1, 2... in every generated game).
-- The stored ratings were keyed by the record's id, which put bots' seats and a hotseat game's
-- "Player 1" together with other players: they are dropped, and the ingest that opens the archive
-- for writing (and so runs this migration) rates the games again at its end.

-- The table is made again (as version 12 made it) with the column last, every row keeping its place.

CREATE TABLE players_v17 (
    game_key    VARCHAR NOT NULL,
    seat        INTEGER NOT NULL,
    name        VARCHAR NOT NULL,
    external_id VARCHAR NOT NULL,
    id_is_int   BOOLEAN NOT NULL,
    game_number INTEGER,
    identity    VARCHAR NOT NULL  -- user:ID or seat:SEAT:GAME_KEY
);
INSERT INTO players_v17
SELECT p.game_key, p.seat, p.name, p.external_id, p.id_is_int, p.game_number,
       CASE WHEN p.id_is_int AND b.seat IS NULL THEN 'user:' || p.external_id
            ELSE 'seat:' || p.seat || ':' || p.game_key END
FROM players p
LEFT JOIN seat_bots b ON b.game_key = p.game_key AND b.seat = p.seat
ORDER BY p.rowid;
DROP TABLE players;
ALTER TABLE players_v17 RENAME TO players;

DELETE FROM rating_history;
DELETE FROM rating_table;
DELETE FROM rating_basis;
