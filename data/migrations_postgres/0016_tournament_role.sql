-- The role whose members may run tournaments here (/tournament new, start, cancel) as server
-- managers may. NULL: none named (server managers only).
ALTER TABLE guild_settings ADD COLUMN tournament_role BIGINT;
