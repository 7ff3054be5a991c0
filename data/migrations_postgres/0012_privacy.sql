-- What /privacy forget and /history need: find a person by user id through an index, keep no
-- request of a closed table, and know the channel a thread table's thread belongs to.

-- A person's moves, hosted tables and rating rows, found without a scan of every one (a forget
-- holds the store's lock: every table waits for it).
CREATE INDEX moves_user ON moves (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX game_tables_host ON game_tables (host_id);
CREATE INDEX rating_history_user ON rating_history (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX rating_months_user ON rating_months (user_id) WHERE user_id IS NOT NULL;

-- Requests to sit in end when their table closes; those of tables closed before are cleared.
DELETE FROM sit_in_requests
WHERE table_id IN (SELECT id FROM game_tables WHERE status NOT IN ('lobby', 'playing'));

-- For a table in a thread (its own, or the one /table new was typed in): the thread's channel,
-- whose permissions say who may see the game in /history (a thread has none of its own).
ALTER TABLE game_tables ADD COLUMN parent_channel_id BIGINT;
