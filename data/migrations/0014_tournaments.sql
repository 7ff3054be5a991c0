-- Tournaments: what the organiser set, who entered, each round's tables and their results.
-- The pure core (bot/tournaments/) rebuilds the standings and pairs the next round from these
-- rows. The keys make the promises hold in the database itself: a round opens once (one row per
-- tournament and round), a result counts once (one row per round table), a person enters once.

CREATE TABLE tournaments (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    message_id    INTEGER,                     -- the sign-up and standings message
    organiser_id  INTEGER NOT NULL,
    game          TEXT    NOT NULL,
    format        TEXT    NOT NULL CHECK (format IN ('swiss', 'knockout')),
    entry         TEXT    NOT NULL CHECK (entry IN ('pairs', 'individuals')),
    rounds        INTEGER CHECK (rounds IS NULL OR rounds >= 1),  -- NULL for a knockout
    duplicate     INTEGER NOT NULL CHECK (duplicate IN (0, 1)),
    options       TEXT    NOT NULL,            -- JSON: the validated game options
    seed          INTEGER NOT NULL,            -- every draw and deal of the tournament
    starts_at     REAL,                        -- sign-up closes; NULL: when the organiser starts
    status        TEXT    NOT NULL DEFAULT 'signup'
                  CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL
);
CREATE INDEX tournaments_open ON tournaments (status) WHERE status IN ('signup', 'running');
CREATE INDEX tournaments_guild ON tournaments (guild_id);
CREATE INDEX tournaments_organiser ON tournaments (organiser_id);

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    entrant       INTEGER NOT NULL CHECK (entrant >= 1),  -- its number in the tournament
    name          TEXT    NOT NULL,
    rating        REAL    NOT NULL DEFAULT 0,             -- seeds the bracket and round one
    created_at    REAL    NOT NULL,
    PRIMARY KEY (tournament_id, entrant)
);

-- The people of an entrant (one, or a pair's two); nobody in two entrants of one tournament.
CREATE TABLE tournament_members (
    tournament_id INTEGER NOT NULL,
    entrant       INTEGER NOT NULL,
    member        INTEGER NOT NULL CHECK (member IN (0, 1)),
    user_id       INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, entrant, member),
    UNIQUE (tournament_id, user_id),
    FOREIGN KEY (tournament_id, entrant)
        REFERENCES tournament_entrants (tournament_id, entrant) ON DELETE CASCADE
);
CREATE INDEX tournament_members_user ON tournament_members (user_id);

-- One row per round opened: inserting a round twice fails, so a round never opens twice.
CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL CHECK (round >= 1),
    byes          TEXT    NOT NULL,            -- JSON: entrant numbers with a bye
    deadline      REAL,                        -- unfinished games are finished by computers
    opened_at     REAL    NOT NULL,
    closed_at     REAL,
    PRIMARY KEY (tournament_id, round)
);

CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    number        INTEGER NOT NULL CHECK (number >= 1),
    sides         TEXT    NOT NULL,            -- JSON: [[entrant, ...] per hand]
    seats         TEXT    NOT NULL,            -- JSON: [[entrant, member] per game seat]
    seed          INTEGER NOT NULL,            -- the game's seed (shared in a duplicate round)
    table_id      INTEGER REFERENCES game_tables (id),  -- the game, once its table is open
    PRIMARY KEY (tournament_id, round, number),
    UNIQUE (table_id),
    FOREIGN KEY (tournament_id, round)
        REFERENCES tournament_rounds (tournament_id, round) ON DELETE CASCADE
);

-- One row per finished round table: inserting a result twice fails, so it counts once.
CREATE TABLE tournament_results (
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    number        INTEGER NOT NULL,
    places        TEXT    NOT NULL,            -- JSON: each hand's finishing place (1 first)
    deals         TEXT    NOT NULL,            -- JSON: [[each hand's score] per deal]
    stand_ins     TEXT    NOT NULL,            -- JSON: entrants a computer played for
    finished_at   REAL    NOT NULL,
    PRIMARY KEY (tournament_id, round, number),
    FOREIGN KEY (tournament_id, round, number)
        REFERENCES tournament_tables (tournament_id, round, number) ON DELETE CASCADE
);

-- A pair signs up together: one invites, the other accepts (then both are entered at once).
-- One open invitation per inviter; it goes when either of the two enters.
CREATE TABLE tournament_invites (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    inviter       INTEGER NOT NULL,
    invitee       INTEGER NOT NULL CHECK (invitee <> inviter),
    created_at    REAL    NOT NULL,
    PRIMARY KEY (tournament_id, inviter)
);
CREATE INDEX tournament_invites_invitee ON tournament_invites (tournament_id, invitee);
CREATE INDEX tournament_invites_user ON tournament_invites (invitee);
CREATE INDEX tournament_invites_from ON tournament_invites (inviter);
