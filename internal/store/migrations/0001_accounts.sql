-- Accounts: users, their sign-in sessions, their documents (users/{uid} and below) and the
-- failed sign-ins that rate limiting counts. Times are Unix milliseconds (BIGINT), documents
-- JSON text: types that SQLite and PostgreSQL share.

CREATE TABLE users (
    id              TEXT PRIMARY KEY,        -- 128 random bits, hex
    email           TEXT NOT NULL UNIQUE,    -- normalised (account.NormalizeEmail)
    password_hash   TEXT NOT NULL,           -- argon2id, PHC string
    created_at      BIGINT NOT NULL,
    last_sign_in_at BIGINT NOT NULL
);

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,             -- SHA-256 of the token, hex; the token is never stored
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE documents (
    path       TEXT PRIMARY KEY,             -- users/{uid}, users/{uid}/history/{id}
    owner      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    data       TEXT NOT NULL,                -- a JSON object
    version    BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX documents_owner ON documents (owner);

CREATE TABLE signin_failures (
    email   TEXT NOT NULL,                   -- as entered, normalised
    address TEXT NOT NULL,                   -- the client's IP address
    at      BIGINT NOT NULL
);
CREATE INDEX signin_failures_email ON signin_failures (email, at);
CREATE INDEX signin_failures_address ON signin_failures (address, at);
