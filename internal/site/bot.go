package site

import "regexp"

// botPattern recognises crawlers and auditors by user agent (DESIGN.md "Language resolution").
var botPattern = regexp.MustCompile(`(?i)bot\b|crawl|spider|slurp|chrome-lighthouse|facebookexternalhit|google\b`)

// IsBot reports whether userAgent belongs to a bot: bots are never redirected, get no cookie
// and see plain-text error bodies.
func IsBot(userAgent string) bool { return botPattern.MatchString(userAgent) }
