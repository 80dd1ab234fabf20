package config

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// The scheduled backups' limits (-backup-every, -backup-keep). The interval's floor only
// refuses nonsense (0, 1ns): backups never overlap, each starts -backup-every after the last
// began or right after it ends if it took longer, so a short interval costs I/O, not safety;
// the tests use 1s.
const (
	MinBackupEvery = time.Second
	MaxBackupKeep  = 10_000
)

// backupOptions are the scheduled backups' settings, in -help order. -backup-every and
// -backup-keep are kept only with -backup-dir (Config's zero value means no schedule).
func backupOptions() []option {
	return []option{
		{"backup-dir", "HANDY_BACKUP_DIR", "", "directory the server writes a backup of its SQLite database to every -backup-every (created if missing): handy-YYYYMMDDTHHMMSSZ.db, the time in UTC, checked as handy backup checks its copy; unset: no scheduled backups. With -database-url, use pg_dump instead (docs/operations.md)", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			if c.DatabaseURL != "" { // set above: the table is applied in order
				return errors.New("scheduled backups copy the SQLite database; with -database-url (PostgreSQL), back up with pg_dump -Fc (docs/operations.md)")
			}
			c.BackupDir = v
			return nil
		}},
		{"backup-every", "HANDY_BACKUP_EVERY", "24h", "interval between scheduled backups (a duration, at least 1s): the first is made at start-up when the newest in -backup-dir is older than this, else when it comes due; a failed one is logged and tried again an interval later", func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < MinBackupEvery {
				return fmt.Errorf("must be a duration of at least %s, such as 24h", MinBackupEvery)
			}
			if c.BackupDir != "" {
				c.BackupEvery = d
			}
			return nil
		}},
		{"backup-keep", "HANDY_BACKUP_KEEP", "7", "scheduled backups kept in -backup-dir: after each, the oldest beyond this many are deleted (only files named as the schedule names them)", func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > MaxBackupKeep {
				return fmt.Errorf("must be a whole number from 1 to %d, such as 7", MaxBackupKeep)
			}
			if c.BackupDir != "" {
				c.BackupKeep = n
			}
			return nil
		}},
	}
}
