package pages

import "testing"

func TestAcceptedEncodings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		header   string
		br, gzip bool
	}{
		{"", false, false},
		{"gzip, deflate, br, zstd", true, true},
		{"gzip, deflate", false, true},
		{"br;q=1.0, gzip;q=0.8, *;q=0.1", true, true},
		{"BR, GZIP", true, true},
		{"br;q=0", false, false},
		{"gzip;q=0, br", true, false},
		{"*", true, true},
		{"*;q=0", false, false},
		{"*, br;q=0", false, true},
		{"identity", false, false},
		{"x-gzip", false, true},
		{"gzip;q=0.000", false, false},
		{"gzip;q=abc", false, false},
		{"gzip;q=2", false, false},
		{"gzip ; q=0.5", false, true},
		{"gzip;level=1;q=0.5", false, true},
		{",,;;==", false, false},
	}
	for _, tt := range tests {
		br, gz := acceptedEncodings([]string{tt.header})
		if br != tt.br || gz != tt.gzip {
			t.Errorf("acceptedEncodings(%q) = br %v gzip %v, want %v %v", tt.header, br, gz, tt.br, tt.gzip)
		}
	}
	if br, gz := acceptedEncodings([]string{"gzip", "br"}); !br || !gz {
		t.Error("several Accept-Encoding lines are not combined")
	}
}
