-- Schema version 13: every game gets a number (games.number: 1, 2, 3... in the order the archive
-- stored the games), and every per-game table a column game_number holding it. A game's rows lie
-- together in each table, in the order games were stored, so each row group's lowest and highest
-- game_number (which DuckDB keeps) cover a few hundred games; a read of one game by its number skips
-- every other row group. Its key cannot do that: DuckDB keeps a text's first bytes as its bounds,
-- every key begins alike ("18xx.games/..."), and a row group holds games of every id. At 100,000
-- games a read of one game's steps scanned 351 row groups (0.1 to 0.3 s); by number it reads one.
-- The games already stored are numbered in the order their rows were written. The columns may be
-- NULL as far as DuckDB knows (it cannot make a column NOT NULL in the transaction that filled it);
-- the archive writes a number with every row.

ALTER TABLE games ADD COLUMN number INTEGER;
UPDATE games SET number = stored.n FROM (SELECT key, row_number() OVER (ORDER BY rowid) AS n FROM games) stored
WHERE games.key = stored.key;

ALTER TABLE actions ADD COLUMN game_number INTEGER;
UPDATE actions SET game_number = games.number FROM games WHERE games.key = actions.game_key;

ALTER TABLE company_changes ADD COLUMN game_number INTEGER;
UPDATE company_changes SET game_number = games.number FROM games WHERE games.key = company_changes.game_key;

ALTER TABLE events ADD COLUMN game_number INTEGER;
UPDATE events SET game_number = games.number FROM games WHERE games.key = events.game_key;

ALTER TABLE flags ADD COLUMN game_number INTEGER;
UPDATE flags SET game_number = games.number FROM games WHERE games.key = flags.game_key;

ALTER TABLE game_totals ADD COLUMN game_number INTEGER;
UPDATE game_totals SET game_number = games.number FROM games WHERE games.key = game_totals.game_key;

ALTER TABLE player_changes ADD COLUMN game_number INTEGER;
UPDATE player_changes SET game_number = games.number FROM games WHERE games.key = player_changes.game_key;

ALTER TABLE players ADD COLUMN game_number INTEGER;
UPDATE players SET game_number = games.number FROM games WHERE games.key = players.game_key;

ALTER TABLE programs ADD COLUMN game_number INTEGER;
UPDATE programs SET game_number = games.number FROM games WHERE games.key = programs.game_key;

ALTER TABLE runs ADD COLUMN game_number INTEGER;
UPDATE runs SET game_number = games.number FROM games WHERE games.key = runs.game_key;

ALTER TABLE seat_bots ADD COLUMN game_number INTEGER;
UPDATE seat_bots SET game_number = games.number FROM games WHERE games.key = seat_bots.game_key;

ALTER TABLE seat_factors ADD COLUMN game_number INTEGER;
UPDATE seat_factors SET game_number = games.number FROM games WHERE games.key = seat_factors.game_key;

ALTER TABLE seat_runs ADD COLUMN game_number INTEGER;
UPDATE seat_runs SET game_number = games.number FROM games WHERE games.key = seat_runs.game_key;

ALTER TABLE sources ADD COLUMN game_number INTEGER;
UPDATE sources SET game_number = games.number FROM games WHERE games.key = sources.game_key;

ALTER TABLE standings ADD COLUMN game_number INTEGER;
UPDATE standings SET game_number = games.number FROM games WHERE games.key = standings.game_key;

ALTER TABLE steps ADD COLUMN game_number INTEGER;
UPDATE steps SET game_number = games.number FROM games WHERE games.key = steps.game_key;

ALTER TABLE train_firsts ADD COLUMN game_number INTEGER;
UPDATE train_firsts SET game_number = games.number FROM games WHERE games.key = train_firsts.game_key;
