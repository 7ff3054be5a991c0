-- Two per-table flags fixed when the table is made, read when its game ends.
-- rated: the server rated tables when this one was opened (a server setting; changes apply to new
--        tables only). hints: the table's players may ask for hints, which makes it unrated.
ALTER TABLE game_tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
ALTER TABLE game_tables ADD COLUMN hints INTEGER NOT NULL DEFAULT 0 CHECK (hints IN (0, 1));
