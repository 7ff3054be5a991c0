-- Server settings beyond the turn timer and threads, per-user turn pings.
-- computers: computer players may join new tables. rated: new tables are rated.
-- trick_lines: each trick's result is posted as a line when a table has its own thread.
-- channels: JSON list of the channel ids that may host tables ([] means any channel).
-- defaults: JSON {game: {option: value}}, each game's options checked by its engine when set.
ALTER TABLE guild_settings ADD COLUMN computers INTEGER NOT NULL DEFAULT 1 CHECK (computers IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN trick_lines INTEGER NOT NULL DEFAULT 1 CHECK (trick_lines IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN channels TEXT NOT NULL DEFAULT '[]';
ALTER TABLE guild_settings ADD COLUMN defaults TEXT NOT NULL DEFAULT '{}';

-- The server allowed computer players when this table was opened (changes apply to new tables).
ALTER TABLE game_tables ADD COLUMN computers INTEGER NOT NULL DEFAULT 1 CHECK (computers IN (0, 1));

-- A member's own settings in one server (absent row: the defaults, turn ping off).
CREATE TABLE member_settings (
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    turn_ping INTEGER NOT NULL DEFAULT 0 CHECK (turn_ping IN (0, 1)),
    PRIMARY KEY (guild_id, user_id)
);

-- The turn pings posted and not yet deleted, so a restart neither duplicates nor forgets one.
-- turn: the move number from which the pinged seat's situation is unchanged (one ping a turn).
CREATE TABLE turn_pings (
    table_id   INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    turn       INTEGER NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
