-- Placeholder for the number reserved for the ratings branch, so that this branch's 0007 loads
-- (migrations are gapless). The lead deletes this file when merging the ratings branch's 0006.
SELECT 1;
