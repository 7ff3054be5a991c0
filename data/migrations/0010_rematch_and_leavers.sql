-- A cancelled rematch lobby frees the way for another rematch of the same game: only the
-- rematches not cancelled are unique per finished table.
DROP INDEX game_tables_rematch;
CREATE UNIQUE INDEX game_tables_rematch ON game_tables (rematch_of)
    WHERE rematch_of IS NOT NULL AND status != 'cancelled';

-- Who left a seat of a running game (its first person to leave; the computer or person who
-- plays it on is the seat's user_id). Leaving a game counts as playing it out: the game's
-- record rates the leaver with the seat's result, and whoever took over is not rated for it.
ALTER TABLE seats ADD COLUMN left_by INTEGER;
ALTER TABLE seats ADD COLUMN left_name TEXT;
