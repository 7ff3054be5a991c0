-- Whether a computer chose the move: a computer seat's, or a stand-in's for a person who was away
-- (timed out); 0 for a person's own click. Kept apart from user_id, which forgetting a person
-- clears: their own moves must never pass for a computer's ("Report this hand" offers only the
-- cards a computer chose).
ALTER TABLE moves ADD COLUMN by_computer INTEGER NOT NULL DEFAULT 0;
-- The moves made before: a move without a person's id was a computer's, unless the seat's holder
-- then (or, before seat_holders, its last) is a forgotten person, who may have clicked it: not
-- known, so not offered.
UPDATE moves SET by_computer = 1
WHERE user_id IS NULL
  AND COALESCE(
        (SELECT h.name FROM seat_holders h
         WHERE h.table_id = moves.table_id AND h.seat = moves.seat AND h.after_move <= moves.seq
         ORDER BY h.id DESC LIMIT 1),
        (SELECT s.name FROM seats s WHERE s.table_id = moves.table_id AND s.seat = moves.seat),
        ''
      ) != 'Former player';
