-- Schema version 3: the day a game was created, which picks the version of a title's published
-- data (maps and tiles changed over the years on 18xx.games) its replay uses.

ALTER TABLE games ADD COLUMN created VARCHAR;   -- ISO date YYYY-MM-DD, NULL when the record does not say
