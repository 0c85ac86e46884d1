-- Schema version 16: a flag says the refused action as a player reads it and the round it came
-- in, so that a listing of flags over the whole archive names them without replaying a game.
-- NULL in a row stored before: the next ingest replays every game again (a new engine version)
-- and writes them.

ALTER TABLE flags ADD COLUMN round VARCHAR;     -- the round the action came in ("OR 1.1")
ALTER TABLE flags ADD COLUMN sentence VARCHAR;  -- the action in words (replay.sentences)
