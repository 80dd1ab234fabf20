package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAdminToken(t *testing.T) {
	t.Parallel()
	token := strings.Repeat("k", MinAdminToken)
	dir := t.TempDir()
	file := filepath.Join(dir, "token")
	if err := os.WriteFile(file, []byte("\n  "+token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "short")
	if err := os.WriteFile(short, []byte("s3cret-but-short\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		args      []string
		env       map[string]string
		want      string // the token, when Load succeeds
		wantInErr string
	}{
		{name: "unset", want: ""},
		{name: "flag", args: []string{"-admin-token", token}, want: token},
		{name: "environment", env: map[string]string{"HANDY_ADMIN_TOKEN": token}, want: token},
		{name: "file, trimmed", args: []string{"-admin-token-file", file}, want: token},
		{name: "file from the environment", env: map[string]string{"HANDY_ADMIN_TOKEN_FILE": file}, want: token},
		{name: "too short", args: []string{"-admin-token", "s3cret-but-short"}, wantInErr: "at least 32 characters"},
		{name: "file too short", args: []string{"-admin-token-file", short}, wantInErr: "at least 32 characters"},
		{name: "file missing", args: []string{"-admin-token-file", filepath.Join(dir, "nope")}, wantInErr: "cannot read the token file"},
		{name: "both", args: []string{"-admin-token-file", file}, env: map[string]string{"HANDY_ADMIN_TOKEN": token}, wantInErr: "at most one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := Load(tt.args, env(tt.env))
			if tt.wantInErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantInErr) {
					t.Fatalf("Load error = %v, want one mentioning %q", err, tt.wantInErr)
				}
				if strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), token) {
					t.Errorf("error %q shows the token", err)
				}
				return
			}
			if err != nil || c.AdminToken != tt.want {
				t.Errorf("Load = %q, %v; want %q", c.AdminToken, err, tt.want)
			}
		})
	}
}
