-- What /stats and /history read, kept so that they neither replay games nor walk other servers'.

-- The calls the seat made in the game, written with the result: JSON [[label, succeeded], ...]
-- in the order made (succeeded: true, false, or null when the game does not say). NULL: not
-- counted yet (games recorded before, abandoned ones): /stats counts a finished game's calls
-- once from a replay of its moves, and keeps them here.
ALTER TABLE result_players ADD COLUMN calls TEXT;

-- A server's history in table order (each index ends with the table number, the rowid): a page
-- is a walk along the server's own results, of all games or of one.
CREATE INDEX results_guild_table ON results (guild_id);
CREATE INDEX results_guild_game_table ON results (guild_id, game);
