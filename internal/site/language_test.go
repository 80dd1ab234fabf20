package site

import (
	"strings"
	"testing"
)

func TestMatchLanguage(t *testing.T) {
	t.Parallel()
	tab := Default()
	tests := []struct {
		name, header, want string
	}{
		{"Chrome Windows German", "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7", "de"},
		{"Chrome Windows Swiss German", "de-CH,de;q=0.9,en;q=0.8", "de"},
		{"Chrome macOS Japanese", "ja,en-US;q=0.9,en;q=0.8", "jp"},
		{"Chrome Android Japan", "ja-JP,ja;q=0.9,en-US;q=0.8,en;q=0.7", "jp"},
		{"Chrome Taiwan", "zh-TW,zh;q=0.9,en-US;q=0.8,en;q=0.7", "zh"},
		{"Chrome China", "zh-CN,zh;q=0.9", "zh"},
		{"Chrome Korean", "ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7", "ko"},
		{"Chrome Latin American Spanish", "es-419,es;q=0.9", "es"},
		{"Chrome US English", "en-US,en;q=0.9", "en"},
		{"Chrome British English then German", "en-GB,en-US;q=0.9,en;q=0.8,de;q=0.7", "en"},
		{"Chrome Dutch then German", "nl-NL,nl;q=0.9,de;q=0.8,en;q=0.7", "de"},
		{"Chrome Italian only", "it-IT,it;q=0.9", "en"},
		{"Firefox Linux French", "fr,fr-FR;q=0.8,en-US;q=0.5,en;q=0.3", "fr"},
		{"Firefox Windows Brazilian", "pt-BR,pt;q=0.8,en-US;q=0.5,en;q=0.3", "pt"},
		{"Firefox Portugal", "pt-PT,pt;q=0.8,en;q=0.5,en-US;q=0.3", "pt"},
		{"Firefox US English", "en-US,en;q=0.5", "en"},
		{"Firefox Spanish", "es-ES,es;q=0.8,en-US;q=0.5,en;q=0.3", "es"},
		{"Safari macOS Korean", "ko-KR,ko;q=0.9", "ko"},
		{"Safari iOS Japanese", "ja-JP,ja;q=0.9", "jp"},
		{"Safari iOS Traditional Chinese", "zh-Hant-TW,zh-Hant;q=0.9", "zh"},
		{"Safari macOS Simplified Chinese", "zh-Hans-CN,zh-Hans;q=0.9", "zh"},
		{"Safari French Canada", "fr-CA,fr;q=0.9", "fr"},
		{"zh-Hant alone", "zh-Hant", "zh"},
		{"exact zh-Hans", "zh-Hans", "zh"},
		{"weights beat order", "fr;q=0.5, de;q=0.9", "de"},
		{"equal weights keep order", "ko;q=0.5, de;q=0.5", "ko"},
		{"q=0 refuses", "de;q=0, fr", "fr"},
		{"bad weight skipped", "de;q=2,fr", "fr"},
		{"NaN weight skipped", "de;q=NaN,fr", "fr"},
		{"uppercase", "DE-de", "de"},
		{"spaces", "  de  ;  q=0.9  ", "de"},
		{"empty", "", "en"},
		{"wildcard", "*", "en"},
		{"garbage", ";;;,,,q=1", "en"},
		{"bad tag then good", "not_a-tag!!, jp-xx, ja", "jp"},
		{"undetermined", "und", "en"},
		{"very long", strings.Repeat("xx-", 5000) + "de", "en"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tab.MatchLanguage(tt.header).Code; got != tt.want {
				t.Errorf("MatchLanguage(%q) = %q, want %q", tt.header, got, tt.want)
			}
		})
	}
}

func FuzzMatchLanguage(f *testing.F) {
	for _, seed := range []string{"de-DE,de;q=0.9", "ja-JP", "zh-Hant", "*", "", ";q=", "en;q=NaN", "x-klingon", "de-CH-1996-u-co-phonebk"} {
		f.Add(seed)
	}
	tab := Default()
	f.Fuzz(func(t *testing.T, header string) {
		loc := tab.MatchLanguage(header)
		if _, ok := tab.Locale(loc.Code); !ok {
			t.Fatalf("MatchLanguage(%q) = %+v, not a locale", header, loc)
		}
	})
}
