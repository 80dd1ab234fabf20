package config

import (
	"strings"
	"testing"
	"time"
)

// TestBackupSchedule: no schedule by default; -backup-dir turns it on with 24h and 7, from flags
// or the environment; nonsense intervals and counts, and PostgreSQL, are refused by name.
func TestBackupSchedule(t *testing.T) {
	t.Parallel()
	c, err := Load([]string{"-backup-every", "1h"}, env(nil))
	if err != nil || c.BackupDir != "" || c.BackupEvery != 0 || c.BackupKeep != 0 {
		t.Fatalf("without -backup-dir: %q, %s, %d, %v; want no schedule", c.BackupDir, c.BackupEvery, c.BackupKeep, err)
	}
	c, err = Load([]string{"-backup-dir", "/var/backups/handy"}, env(nil))
	if err != nil || c.BackupDir != "/var/backups/handy" || c.BackupEvery != 24*time.Hour || c.BackupKeep != 7 {
		t.Fatalf("defaults: %q, %s, %d, %v", c.BackupDir, c.BackupEvery, c.BackupKeep, err)
	}
	c, err = Load([]string{"-backup-keep", "3"}, env(map[string]string{"HANDY_BACKUP_DIR": "b", "HANDY_BACKUP_EVERY": "1s", "HANDY_BACKUP_KEEP": "9"}))
	if err != nil || c.BackupDir != "b" || c.BackupEvery != time.Second || c.BackupKeep != 3 {
		t.Fatalf("set: %q, %s, %d, %v", c.BackupDir, c.BackupEvery, c.BackupKeep, err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-backup-every", "500ms"}, "-backup-every / HANDY_BACKUP_EVERY = \"500ms\": must be a duration of at least 1s"},
		{[]string{"-backup-every", "24"}, "at least 1s, such as 24h"},
		{[]string{"-backup-keep", "0"}, "-backup-keep / HANDY_BACKUP_KEEP = \"0\": must be a whole number from 1 to 10000"},
		{[]string{"-database-url", "postgres://u@db.example/handy", "-backup-dir", "b"}, "pg_dump"},
	} {
		if _, err := Load(tt.args, env(nil)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want an error with %q", tt.args, err, tt.want)
		}
	}
}
