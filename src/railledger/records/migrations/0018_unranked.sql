-- Schema version 18: a game with no result has no ranks. An unfinished game's replay still ends
-- with values (every player near the starting cash), but nobody won it: its standings keep the
-- values with rank and winner NULL, and its players have no seat factors, so neither a win rate
-- nor an export ranks a game that has no recorded result or is not finished.

ALTER TABLE standings ALTER COLUMN rank DROP NOT NULL;
ALTER TABLE standings ALTER COLUMN winner DROP NOT NULL;
UPDATE standings SET rank = NULL, winner = NULL
WHERE game_number IN (SELECT number FROM games
                      WHERE status IS DISTINCT FROM 'finished' OR result IS NULL OR result = '{}');
DELETE FROM seat_factors
WHERE game_key IN (SELECT key FROM games WHERE status IS DISTINCT FROM 'finished' OR result IS NULL OR result = '{}');
