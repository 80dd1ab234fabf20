package analytics

import (
	_ "embed"
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

//go:embed bots.txt
var botsText string

// botPatterns is bots.txt compiled. It is never modified.
var botPatterns = compileBots(botsText)

// botMatcher matches a lower-cased user agent against the patterns of a bots.txt. One
// alternation of them all made Go's regexp engine step through every pattern at every byte
// (milliseconds for an in-app browser's long user agent); looking for each pattern's leading
// word with strings.Contains first takes microseconds.
type botMatcher struct {
	words    []string // patterns that are a plain word
	patterns []botPattern
}

type botPattern struct {
	word string // the pattern's literal start, which every match contains
	re   *regexp.Regexp
}

// compileBots reads the patterns of a bots.txt. A pattern that does not compile, or does not
// start with a literal word, is a programming error that TestBotPatterns catches.
func compileBots(text string) botMatcher {
	var m botMatcher
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		re, err := regexp.Compile(line)
		if err != nil {
			panic(fmt.Sprintf("analytics: bots.txt: %q: %v", line, err))
		}
		word, complete := re.LiteralPrefix()
		switch {
		case complete:
			m.words = append(m.words, word)
		case word == "":
			panic(fmt.Sprintf("analytics: bots.txt: %q does not start with a literal word", line))
		default:
			m.patterns = append(m.patterns, botPattern{word, re})
		}
	}
	return m
}

// match reports whether the lower-cased user agent ua matches a pattern.
func (m botMatcher) match(ua string) bool {
	for _, w := range m.words {
		if strings.Contains(ua, w) {
			return true
		}
	}
	for _, p := range m.patterns {
		if strings.Contains(ua, p.word) && p.re.MatchString(ua) {
			return true
		}
	}
	return false
}

// Why a request is not counted as a visitor's page view.
const (
	notBot        = ""
	botNoAgent    = "no user agent"
	botNoLanguage = "no Accept-Language"
	botPrefetch   = "prefetch"
	botNotBrowser = "user agent not a browser's"
	botListed     = "user agent in bots.txt"
)

// botReason returns why the request with header h comes from a bot, a crawler, an automated
// browser or a prefetch rather than a person's page view, or notBot. Browsers send
// Accept-Language with every request, sendBeacon's included; prefetches and prerenders that
// were never shown announce themselves in Sec-Purpose (Chromium), Purpose (older Chromium,
// Safari) or X-Moz (Firefox). Every browser's user agent starts with Mozilla/ (Opera/ for
// Presto's); bots.txt lists the rest.
func botReason(h http.Header) string {
	ua := h.Get("User-Agent")
	switch {
	case ua == "":
		return botNoAgent
	case h.Get("Accept-Language") == "":
		return botNoLanguage
	case isPrefetch(h):
		return botPrefetch
	case !strings.HasPrefix(ua, "Mozilla/") && !strings.HasPrefix(ua, "Opera/"):
		return botNotBrowser
	}
	// Cubot is a brand of phones: "CUBOT_X30" is a person.
	lower := strings.ReplaceAll(strings.ToLower(ua), "cubot", "")
	if botPatterns.match(lower) {
		return botListed
	}
	return notBot
}

// isPrefetch reports whether the request is a prefetch or prerender, by its Sec-Purpose
// (a list such as "prefetch;prerender"), Purpose or X-Moz header.
func isPrefetch(h http.Header) bool {
	for _, name := range []string{"Sec-Purpose", "Purpose", "X-Moz"} {
		for _, v := range h.Values(name) {
			if strings.Contains(strings.ToLower(v), "prefetch") {
				return true
			}
		}
	}
	return false
}

// globalPrivacyControl reports whether the browser asks not to be tracked (Sec-GPC: 1). The
// tracker sends nothing then; a beacon that comes anyway is dropped, not even counted as a bot.
func globalPrivacyControl(h http.Header) bool {
	return strings.TrimSpace(h.Get("Sec-GPC")) == "1"
}
