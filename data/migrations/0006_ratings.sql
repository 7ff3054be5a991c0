-- The game record and the ratings. Rows from before keep their meaning: an old
-- result has no record, counts as unrated, and its players have no team or place.

-- The record of a finished (or abandoned) game, beside the outcome JSON it already had.
-- record: JSON with the options, every seat (human or computer and its level, team, place,
--         whether it was played mostly by a computer), the final score, the finishing order,
--         the winners and the duration. unrated_reason: why the game (or a seat) is not rated.
ALTER TABLE results ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
ALTER TABLE results ADD COLUMN unrated_reason TEXT;
ALTER TABLE results ADD COLUMN record TEXT;
ALTER TABLE results ADD COLUMN duration REAL;
CREATE INDEX results_guild_game ON results (guild_id, game, finished_at);
CREATE INDEX results_guild_finished ON results (guild_id, finished_at);

-- Per human seat: the team, the finishing place (1 = first) and whether the seat was rated.
ALTER TABLE result_players ADD COLUMN team INTEGER;
ALTER TABLE result_players ADD COLUMN place INTEGER;
ALTER TABLE result_players ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));

-- The current rating of each player per server and game: a person (user_id) or a computer
-- level (level, user_id NULL). player: the key, the user id as text or "computer:<level>".
-- ordinal: mu - 3 sigma, kept as a column so the leaderboard is an index range.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    player     TEXT    NOT NULL,
    user_id    INTEGER,
    level      TEXT,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    ordinal    REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, player)
);
-- The ladder in its order, covering what a page shows: a page is a walk along this index.
CREATE INDEX ratings_ladder
    ON ratings (guild_id, game, ordinal DESC, player, user_id, games, wins, level);
CREATE INDEX ratings_user ON ratings (user_id) WHERE user_id IS NOT NULL;

-- Every rating change, one row per rated player per game: the trend chart and "this month".
CREATE TABLE rating_history (
    table_id    INTEGER NOT NULL REFERENCES results (table_id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    player      TEXT    NOT NULL,
    user_id     INTEGER,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    ordinal     REAL    NOT NULL,
    delta       REAL    NOT NULL,              -- the change of the ordinal by this game
    won         INTEGER NOT NULL CHECK (won IN (0, 1)),
    finished_at REAL    NOT NULL,
    PRIMARY KEY (table_id, player)
);
CREATE INDEX rating_history_player ON rating_history (guild_id, game, player, finished_at);

-- Per calendar month (UTC, "YYYY-MM"): each player's rated games, wins and rating gained, kept
-- with the ratings so that "this month" on the leaderboard is an index range too.
CREATE TABLE rating_months (
    guild_id INTEGER NOT NULL,
    game     TEXT    NOT NULL,
    month    TEXT    NOT NULL,
    player   TEXT    NOT NULL,
    user_id  INTEGER,
    games    INTEGER NOT NULL DEFAULT 0,
    wins     INTEGER NOT NULL DEFAULT 0,
    change   REAL    NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, game, month, player)
);
CREATE INDEX rating_months_ladder
    ON rating_months (guild_id, game, month, change DESC, player, user_id, games, wins);
