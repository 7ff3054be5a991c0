-- The level the table's computer players play at, chosen by the host in the lobby.
-- A column, not one of the table's options: the options are the game's rules (validated by the
-- engine, replayed into every game), and the level changes no rule.
ALTER TABLE game_tables ADD COLUMN computer_level TEXT NOT NULL DEFAULT 'normal'
    CHECK (computer_level IN ('easy', 'normal', 'hard'));
