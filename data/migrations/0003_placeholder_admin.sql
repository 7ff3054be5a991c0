-- Placeholder on branch admin only, so that 0005 loads here (migrations run 1..n without gaps).
-- When merging: delete this file; the real 0003 comes from another branch.
SELECT 1;
