package store

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// Collector returns the Prometheus collector of the store's connection pool (database/sql's
// DBStats: connections open, in use and idle, the pool's bound, and the waits for a free
// connection), labelled db_name="sqlite" or "postgres". The store has one pool: SQLite's
// readers and its one writer share it (_txlock=immediate serialises the writers).
func (s *Store) Collector() prometheus.Collector {
	return collectors.NewDBStatsCollector(s.db, s.engine)
}
