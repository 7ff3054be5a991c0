-- Each round's time, chosen per tournament (/tournament new round_minutes:): a round's deadline
-- is this long after it opens. Tournaments made before it keep the hour they had.
ALTER TABLE tournaments ADD COLUMN round_minutes INTEGER NOT NULL DEFAULT 60
    CHECK (round_minutes BETWEEN 10 AND 1440);
