-- What the bot has announced of each table: the move number through which its results were
-- posted, and the state ("status:moves") its table message last showed. A restart compares
-- them with the moves log and re-announces what a crash left unsaid.
CREATE TABLE announcements (
    table_id        BIGINT PRIMARY KEY REFERENCES game_tables (id) ON DELETE CASCADE,
    results_through INTEGER NOT NULL DEFAULT 0 CHECK (results_through >= 0),
    board           TEXT    NOT NULL DEFAULT ''
);

-- Tables from before this migration count as announced.
INSERT INTO announcements (table_id, results_through, board)
SELECT t.id,
       (SELECT COUNT(*) FROM moves m WHERE m.table_id = t.id),
       t.status || ':' || (SELECT COUNT(*) FROM moves m WHERE m.table_id = t.id)
FROM game_tables t;
