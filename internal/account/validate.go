package account

import (
	"net/mail"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// NormalizeEmail returns the address in the form accounts are keyed by: trimmed, Unicode NFC,
// lower-cased (mail providers treat the local part case-insensitively in practice, and two
// accounts differing only by case would confuse their owner), and whether it is valid: one
// plain address (no display name), at most 254 bytes, a local part of at most 64, a domain with
// a dot and no empty label.
func NormalizeEmail(raw string) (string, bool) {
	email := strings.ToLower(norm.NFC.String(strings.TrimSpace(raw)))
	if email == "" || len(email) > 254 || strings.ContainsAny(email, " \t\r\n<>\"(),;:[]\\") {
		return email, false
	}
	a, err := mail.ParseAddress(email)
	if err != nil || a.Name != "" || a.Address != email {
		return email, false
	}
	local, domain, ok := strings.Cut(email, "@")
	if !ok || local == "" || len(local) > 64 || strings.Contains(domain, "@") || !strings.Contains(domain, ".") {
		return email, false
	}
	for _, label := range strings.Split(domain, ".") {
		if label == "" || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") {
			return email, false
		}
	}
	return email, true
}

// validPassword reports whether a password's length, in characters, is within the limits.
func (s *Service) validPassword(password string) bool {
	n := utf8.RuneCountInString(password)
	return utf8.ValidString(password) && n >= s.bounds.PasswordMinLength && n <= s.bounds.PasswordMaxLength
}
