-- Schema version 19: a game played with a variant (a title's data changed by a TOML file,
-- replay/variant.py) keeps the variant's text as written and the hash of what it changes, so the
-- game is replayed with the same data and every statistic can tell it from the base title's games.
-- Both are NULL for a game of the title as published.

ALTER TABLE games ADD COLUMN variant VARCHAR;
ALTER TABLE games ADD COLUMN variant_hash VARCHAR;
