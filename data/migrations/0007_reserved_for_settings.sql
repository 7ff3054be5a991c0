-- Placeholder on the lobby branch only, so that 0008_lobby follows without a gap.
-- At merge: delete this file (the settings helper's migration takes its number).
SELECT 1;
