-- The document store (internal/docstore). Times are Unix microseconds (Firestore's precision),
-- fields the Firestore REST v1 JSON of a document's fields (docstore.EncodeFields). Index keys
-- are binary (docstore.AppendKey), hence a file per engine: BYTEA here, BLOB in the SQLite one;
-- text columns are COLLATE "C" here, to compare bytewise as SQLite's do. Paths and field
-- names are compared in Go or by bytes, never by a locale's collation.

-- One row per document path; a deleted document stays as a tombstone (fields NULL) so that a
-- listener resuming from an older version learns of the deletion.
CREATE TABLE docs (
    path        TEXT COLLATE "C" PRIMARY KEY,  -- users/u1/history/h1
    parent      TEXT COLLATE "C" NOT NULL,     -- the collection: users/u1/history
    owner       TEXT COLLATE "C" NOT NULL,     -- u1: access rule, listen, quotas, account deletion
    fields      TEXT,                          -- EncodeFields JSON; NULL: a tombstone
    create_time BIGINT NOT NULL,
    update_time BIGINT NOT NULL,
    version     BIGINT NOT NULL                -- store-wide, strictly increasing in commit order
);
CREATE INDEX docs_owner_version ON docs (owner, version);
-- The live documents of a collection, oldest first: history pruning picks from the front
-- without reading the tombstones, which pile up in exactly that collection.
CREATE INDEX docs_parent_live ON docs (parent, create_time, path) WHERE fields IS NOT NULL;

-- Single-field index entries of live documents, as Firestore keeps them automatically: one row
-- per (document, field path, value), key = AppendKey(value), for every field path reachable
-- through maps (a map as a whole and each of its fields); each distinct element of an array also
-- gets a row under "<path>[]" for ARRAY_CONTAINS(_ANY); field "__name__" holds the document's
-- path, its key ordering as Firestore orders names (see docstore.indexRows). Within one parent,
-- ORDER BY key, path is Firestore's order with the name as the tie-break: the paths of one
-- collection differ only in their last segment, and compare by bytes.
CREATE TABLE doc_index (
    parent TEXT COLLATE "C" NOT NULL,
    field  TEXT COLLATE "C" NOT NULL,    -- FieldPath.String(), "<path>[]" or "__name__"
    key    BYTEA NOT NULL,
    path   TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (parent, field, key, path)
);
CREATE INDEX doc_index_path ON doc_index (path);

-- One row, id 1. Its row lock serialises commits (on PostgreSQL across instances too), so
-- versions are handed out in commit order. update_time is the last commit time handed out, so
-- that commit times strictly increase even when the wall clock steps back or two instances read
-- the same microsecond: an updateTime precondition then names one state of a document.
CREATE TABLE doc_clock (
    id          INTEGER PRIMARY KEY,
    version     BIGINT NOT NULL,
    update_time BIGINT NOT NULL
);
INSERT INTO doc_clock (id, version, update_time) VALUES (1, 0, 0);

-- Exactly-once commits: the last batches answered per client, with the answer given first.
CREATE TABLE doc_batches (
    owner     TEXT COLLATE "C" NOT NULL,
    client_id TEXT COLLATE "C" NOT NULL,
    batch_id  BIGINT NOT NULL,
    result    TEXT NOT NULL,                     -- JSON: the commit's result, or its permanent error
    PRIMARY KEY (owner, client_id, batch_id)
);

-- The per-user write rate: a token bucket, updated in the commit's transaction so that it holds
-- across instances.
CREATE TABLE doc_rate (
    owner  TEXT COLLATE "C" PRIMARY KEY,
    tokens DOUBLE PRECISION NOT NULL,
    at     BIGINT NOT NULL                     -- Unix microseconds of the last refill
);
