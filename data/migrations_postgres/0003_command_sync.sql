-- What the bot last published as slash commands, per application and scope, so that a restart
-- with the same commands does not sync again (global syncs are rate limited and slow to appear).

CREATE TABLE command_syncs (
    application_id BIGINT NOT NULL,
    scope          BIGINT NOT NULL,           -- 0: global; else the guild (server) ID
    fingerprint    TEXT    NOT NULL,           -- sha256 of the command payloads, sorted JSON
    synced_at      DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (application_id, scope)
);
