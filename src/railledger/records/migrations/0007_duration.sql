-- How long a game took: seconds from its creation to its last action, for the title statistics
-- (game length in time). NULL when the record did not time both.

ALTER TABLE games ADD COLUMN duration BIGINT;
