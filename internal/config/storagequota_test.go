package config

import (
	"strings"
	"testing"

	"handy/internal/docstore"
)

// TestStorageQuota: the quota defaults to the document store's own default, takes a byte
// count or 0 (none), and refuses anything else.
func TestStorageQuota(t *testing.T) {
	t.Parallel()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tt := range []struct {
		args []string
		env  map[string]string
		want int64
	}{
		{nil, nil, docstore.DefaultStorageQuota},
		{[]string{"-storage-quota", "128MiB"}, nil, 128 << 20},
		{nil, map[string]string{"HANDY_STORAGE_QUOTA": "0"}, 0},
	} {
		c, err := Load(tt.args, env(tt.env))
		if err != nil || c.StorageQuota != tt.want {
			t.Errorf("%v %v: %d, %v; want %d", tt.args, tt.env, c.StorageQuota, err, tt.want)
		}
	}
	for _, v := range []string{"1KiB", "-1", "lots"} {
		if _, err := Load([]string{"-storage-quota", v}, env(nil)); err == nil || !strings.Contains(err.Error(), "storage-quota") {
			t.Errorf("%q: %v, want an error naming the flag", v, err)
		}
	}
}
