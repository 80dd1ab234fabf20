-- The storage quota (docstore/quota.go): each live document's stored size, and each owner's
-- total, kept by every commit in its transaction. A document's size is what it takes in docs
-- (path and fields) and in doc_index (each row's parent, field, key and path): docstore's
-- storedSize, which these statements compute for the documents stored before. Lengths are in
-- bytes, as Go's len. A tombstone's size is 0: a deletion gives its space back at once.
ALTER TABLE docs ADD COLUMN size BIGINT NOT NULL DEFAULT 0;

UPDATE docs SET size = octet_length(path) + octet_length(fields) + COALESCE((
    SELECT SUM(octet_length(i.parent) + octet_length(i.field) + octet_length(i.key) + octet_length(i.path))
    FROM doc_index i WHERE i.path = docs.path), 0)
WHERE fields IS NOT NULL;

CREATE TABLE doc_usage (
    owner TEXT PRIMARY KEY,
    bytes BIGINT NOT NULL            -- the sum of size over the owner's docs
);
INSERT INTO doc_usage (owner, bytes)
    SELECT owner, SUM(size) FROM docs WHERE fields IS NOT NULL GROUP BY owner;
