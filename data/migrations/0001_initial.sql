-- Tables, seats, deals, the append-only moves log, results and server settings.
-- The moves log is the source of truth: a restart rebuilds every open table from its deals and moves.

CREATE TABLE game_tables (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    message_id    INTEGER,                     -- the one table message, edited in place
    host_id       INTEGER NOT NULL,
    game          TEXT    NOT NULL,
    options       TEXT    NOT NULL,            -- JSON: the validated variant options
    seed          INTEGER NOT NULL,            -- shuffles of this table's deals
    first_dealer  INTEGER,                     -- set when the game starts
    status        TEXT    NOT NULL DEFAULT 'lobby'
                  CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled', 'abandoned')),
    turn_deadline REAL,                        -- unix time when the seat to act times out
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL
);
CREATE INDEX game_tables_open ON game_tables (status) WHERE status IN ('lobby', 'playing');
CREATE INDEX game_tables_channel ON game_tables (channel_id);

CREATE TABLE seats (
    table_id  INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    user_id   INTEGER,                         -- NULL for a computer player
    name      TEXT    NOT NULL,
    away      INTEGER NOT NULL DEFAULT 0,      -- a human whose turns a computer plays for now
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX seats_user ON seats (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE deals (
    table_id   INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    deal_index INTEGER NOT NULL CHECK (deal_index >= 0),
    deal       TEXT    NOT NULL,               -- JSON: {"hands": [...], "stock": [...]}
    PRIMARY KEY (table_id, deal_index)
);

CREATE TABLE moves (
    table_id   INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    seat       INTEGER NOT NULL,
    move       TEXT    NOT NULL,               -- JSON transcript move without its seat
    user_id    INTEGER,                        -- who clicked; NULL for a computer move
    created_at REAL    NOT NULL,
    UNIQUE (table_id, seq)
);

CREATE TABLE results (
    table_id    INTEGER PRIMARY KEY REFERENCES game_tables (id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    outcome     TEXT    NOT NULL,              -- JSON: winners, score, abandoned
    finished_at REAL    NOT NULL
);

CREATE TABLE result_players (
    table_id INTEGER NOT NULL REFERENCES results (table_id) ON DELETE CASCADE,
    user_id  INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    won      INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX result_players_user ON result_players (user_id);

CREATE TABLE guild_settings (
    guild_id     INTEGER PRIMARY KEY,
    turn_seconds INTEGER NOT NULL DEFAULT 60,
    use_threads  INTEGER NOT NULL DEFAULT 0
);
