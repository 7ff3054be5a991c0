-- Who held each seat of a game, and from when: a row when the game starts (every seat) and one
-- each time a seat changes hands mid-game (a person leaves for a computer, a person sits in).
-- after_move: the number of moves made when the holder took the seat, so the events of move
-- number m (from 1) name the seat's last holder with after_move < m. The history shows who
-- acted then, and a person who held a seat may come back only to her own team.
CREATE TABLE seat_holders (
    id         INTEGER PRIMARY KEY,            -- the order of the changes
    table_id   INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    after_move INTEGER NOT NULL CHECK (after_move >= 0),
    user_id    INTEGER,                        -- NULL for a computer player
    name       TEXT    NOT NULL
);
CREATE INDEX seat_holders_table ON seat_holders (table_id, id);
CREATE INDEX seat_holders_user ON seat_holders (user_id) WHERE user_id IS NOT NULL;
-- Games under way before this migration: their seats as they are now held.
INSERT INTO seat_holders (table_id, seat, after_move, user_id, name)
SELECT s.table_id, s.seat, 0, s.user_id, s.name
FROM seats s JOIN game_tables t ON t.id = s.table_id
WHERE t.status = 'playing'
ORDER BY s.table_id, s.seat;
