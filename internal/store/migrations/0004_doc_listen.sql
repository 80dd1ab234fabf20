-- Listening (docstore.Listen) and the pruning of old tombstones (docstore.PruneTombstones).

-- Per owner, the newest version of a tombstone pruned: a listener resuming from an older
-- version may have missed that deletion, so it is sent the owner's live documents afresh
-- (a reset) instead of the changes since.
CREATE TABLE doc_pruned (
    owner   TEXT PRIMARY KEY,
    version BIGINT NOT NULL
);
-- Tombstones oldest first, for the pruning job.
CREATE INDEX docs_tombstones ON docs (update_time) WHERE fields IS NULL;

-- A document's index rows by field: a query fetches its ordering fields' keys by (path, field),
-- which the index on path alone answered by scanning every row of the document.
DROP INDEX doc_index_path;
CREATE INDEX doc_index_path ON doc_index (path, field, key);
