-- A player's report that a computer played badly at a trick of a finished hand: the position as
-- the computer's seat saw it (JSON, games/players/reports.py), for the blunder suite's fixtures.
-- One report per player per trick; no names (the reporter's id only, removed when forgotten).
CREATE TABLE hand_reports (
    table_id    INTEGER NOT NULL,
    hand        INTEGER NOT NULL,
    trick       INTEGER NOT NULL,
    reporter_id INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    position    TEXT    NOT NULL,
    created_at  REAL    NOT NULL,
    PRIMARY KEY (table_id, hand, trick, reporter_id)
);

-- Forgetting a person finds their reports by this.
CREATE INDEX hand_reports_reporter ON hand_reports (reporter_id);
