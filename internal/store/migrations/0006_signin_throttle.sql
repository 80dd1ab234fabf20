-- Sign-in, sign-up and password re-entry limits as counters that one statement tests and
-- takes (account/throttle.go): a guess is counted before its password is checked, atomically,
-- on every instance sharing the database. And the networks each account has signed in from,
-- so that a stranger's guesses never lock the owner out of a network they use.

CREATE TABLE signin_throttle (
    key     TEXT PRIMARY KEY,                -- "address:{network}", "account:{email}", "signup:{network}", "signup"
    tat     BIGINT NOT NULL,                 -- GCRA's theoretical arrival time, Unix ms
    allowed INTEGER NOT NULL                 -- whether the last attempt was let through (1) or not (0)
);
CREATE INDEX signin_throttle_tat ON signin_throttle (tat);

CREATE TABLE signin_networks (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    network TEXT NOT NULL,                   -- SHA-256 of the user id and the network (an IPv4 address, an IPv6 /64), hex
    last_at BIGINT NOT NULL,                 -- the last successful sign-in from it
    PRIMARY KEY (user_id, network)
);
CREATE INDEX signin_networks_last ON signin_networks (last_at);
