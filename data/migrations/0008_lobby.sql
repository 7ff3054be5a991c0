-- Getting a game going and keeping it going.
-- rematch_of: the finished table this lobby is the rematch of (one rematch per table).
-- seats.confirmed: 0 for a person seated by someone else's rematch until they press Join.
-- sit_in_requests: players asking the host to take over a computer's seat mid-game.
ALTER TABLE game_tables ADD COLUMN rematch_of INTEGER REFERENCES game_tables (id);
CREATE UNIQUE INDEX game_tables_rematch ON game_tables (rematch_of) WHERE rematch_of IS NOT NULL;
ALTER TABLE seats ADD COLUMN confirmed INTEGER NOT NULL DEFAULT 1 CHECK (confirmed IN (0, 1));
CREATE TABLE sit_in_requests (
    table_id   INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (table_id, seat, user_id)
);
