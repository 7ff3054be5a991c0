-- The server's turn timer and trick-line setting when the table was opened: a table keeps them
-- for its life (a settings change applies to tables opened from then on).
-- NULL (a table opened before this column, or a row that does not say): the server's current one.
ALTER TABLE game_tables ADD COLUMN turn_seconds INTEGER CHECK (turn_seconds > 0);
ALTER TABLE game_tables ADD COLUMN trick_lines INTEGER CHECK (trick_lines IN (0, 1));
