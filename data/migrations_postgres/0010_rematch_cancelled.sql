-- A cancelled rematch lobby frees the way for another rematch of the same game: only the
-- rematches not cancelled are unique per finished table.
DROP INDEX game_tables_rematch;
CREATE UNIQUE INDEX game_tables_rematch ON game_tables (rematch_of)
    WHERE rematch_of IS NOT NULL AND status != 'cancelled';
