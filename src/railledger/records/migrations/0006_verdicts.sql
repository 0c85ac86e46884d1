-- Schema version 6: nothing of a record is lost, and every game carries its verdict.
--
-- The envelope of each action (what the server wrote about it: when, who sent it for the acting
-- entity, its id before a renumbering, its skip mark) gets columns of its own, so a report can
-- ask when and by whom without parsing JSON. The record's text as it was read (an 18xx.games
-- export keeps every undo, redo and chat message, which the canonical action list does not) is
-- kept compressed in `sources`: 18xx.games deletes the actions of the games it archives, so the
-- copy here may be the last one.

ALTER TABLE actions ADD COLUMN created_at BIGINT;            -- Unix time the server received it; NULL: not recorded
ALTER TABLE actions ADD COLUMN user_id VARCHAR;              -- 18xx.games' `user`: who sent it for the entity (master mode), as text
ALTER TABLE actions ADD COLUMN user_is_int BOOLEAN;          -- the user id was an int; NULL without a user
ALTER TABLE actions ADD COLUMN id_before_renumbering BIGINT; -- 18xx.games' `original_id`
ALTER TABLE actions ADD COLUMN skip BOOLEAN;                 -- 18xx.games' `skip` mark
ALTER TABLE actions ADD COLUMN revenue_strs VARCHAR;         -- JSON list of each route's display text (routes[i].revenue_str)
ALTER TABLE programs ADD COLUMN created_at BIGINT;
ALTER TABLE programs ADD COLUMN user_id VARCHAR;
ALTER TABLE programs ADD COLUMN user_is_int BOOLEAN;
ALTER TABLE programs ADD COLUMN id_before_renumbering BIGINT;
ALTER TABLE programs ADD COLUMN skip BOOLEAN;
ALTER TABLE programs ADD COLUMN revenue_strs VARCHAR;

ALTER TABLE games ADD COLUMN verdict VARCHAR;         -- valid, illegal, result mismatch, unfinished, no engine, not replayed; NULL: stored before v6
ALTER TABLE games ADD COLUMN verdict_detail VARCHAR;  -- one line: the first illegal action, the values that differ, why unfinished

CREATE TABLE sources (
    game_key  VARCHAR PRIMARY KEY,
    format    VARCHAR NOT NULL,   -- json (an 18xx.games export, or one line of JSON Lines) or notation
    size      INTEGER NOT NULL,   -- bytes of the UTF-8 text
    text_zlib BLOB    NOT NULL    -- the text as read (a byte-order mark dropped), zlib-compressed
);
