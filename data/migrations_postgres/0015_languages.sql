-- The languages people read the bot in (see bot/i18n.py for the codes: en, ar, fi, no).
-- A server's language: its table messages and channel posts, and the ephemeral answers of
-- members who chose none of their own. NULL: none chosen (English, or the member's client's).
ALTER TABLE guild_settings ADD COLUMN language TEXT;

-- A person's own language, the same in every server (absent row: none chosen).
CREATE TABLE user_languages (
    user_id  BIGINT PRIMARY KEY,
    language TEXT NOT NULL
);
