-- The number of live documents in each users/{uid}/history collection, kept by every commit
-- that adds or removes one there, so that enforcing the 10,000-entry limit reads one row
-- instead of counting the collection for every new entry (milliseconds at the limit).
CREATE TABLE doc_counts (
    parent TEXT PRIMARY KEY,             -- users/u1/history
    owner  TEXT NOT NULL,                -- u1, for the account's deletion
    live   BIGINT NOT NULL
);
