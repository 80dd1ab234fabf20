package config

import (
	"strings"
	"testing"
)

// TestAnswerSpool: the answer spools' budgets default to 1 GiB and 256 MiB, take bytes or
// KiB/MiB/GiB from a flag or the environment, and refuse a per-user budget over the whole and
// anything that is not a byte count; the directory must exist.
func TestAnswerSpool(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	c, err := Load(nil, env(nil))
	if err != nil || c.AnswerSpoolBytesOrDefault() != 1<<30 || c.AnswerSpoolBytesPerUserOrDefault() != 256<<20 || c.AnswerSpoolDir != "" {
		t.Fatalf("defaults: %d, %d, %q, %v", c.AnswerSpoolBytesOrDefault(), c.AnswerSpoolBytesPerUserOrDefault(), c.AnswerSpoolDir, err)
	}
	dir := t.TempDir()
	c, err = Load([]string{"-answer-spool-bytes", "4GiB", "-answer-spool-dir", dir}, env(map[string]string{"HANDY_ANSWER_SPOOL_BYTES_PER_USER": "1073741824"}))
	if err != nil || c.AnswerSpoolBytesOrDefault() != 4<<30 || c.AnswerSpoolBytesPerUserOrDefault() != 1<<30 || c.AnswerSpoolDir != dir {
		t.Fatalf("set: %d, %d, %q, %v", c.AnswerSpoolBytesOrDefault(), c.AnswerSpoolBytesPerUserOrDefault(), c.AnswerSpoolDir, err)
	}
	c, err = Load([]string{"-answer-spool-bytes", "64MiB"}, env(nil))
	if err != nil || c.AnswerSpoolBytesPerUserOrDefault() != 64<<20 {
		t.Fatalf("a small total caps the per-user default: %d, %v", c.AnswerSpoolBytesPerUserOrDefault(), err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-answer-spool-bytes", "1GB"}, "byte count"},
		{[]string{"-answer-spool-bytes", "64MiB", "-answer-spool-bytes-per-user", "128MiB"}, "must not exceed -answer-spool-bytes"},
		{[]string{"-answer-spool-bytes-per-user", "2GiB"}, "must not exceed -answer-spool-bytes"},
		{[]string{"-answer-spool-dir", dir + "/missing"}, "existing directory"},
	} {
		if _, err := Load(tt.args, env(nil)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want an error with %q", tt.args, err, tt.want)
		}
	}
}
