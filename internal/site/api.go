package site

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"
)

// API is what the server and the front end must agree on about the JSON API, written once in
// api.json: the server's route table and error codes are checked against it (Go tests), and the
// front end builds every API URL from it (web/src/lib/api.ts).
type API struct {
	// Base is the prefix of every endpoint's path ("/api/v1").
	Base string `json:"base"`
	// Paths are the endpoints' paths below Base ("auth/me"), by the name the front end uses.
	Paths map[string]string `json:"paths"`
	// XSRF names the cookie the server issues and the header an unsafe request repeats it in.
	XSRF struct {
		Cookie string `json:"cookie"`
		Header string `json:"header"`
	} `json:"xsrf"`
	// StatsOther is the name the reports give the referrers and browser languages counted past
	// a day's cap (analytics.Other), which the dashboard words in its own language.
	StatsOther string `json:"statsOther"`
	// AccountErrors are the stable codes of the account's domain errors, which the front end
	// turns into its own words.
	AccountErrors []string `json:"accountErrors"`
}

//go:embed api.json
var apiJSON []byte

// defaultAPI parses the embedded api.json once.
var defaultAPI = sync.OnceValue(func() API {
	var a API
	dec := json.NewDecoder(bytes.NewReader(apiJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil || a.Base == "" || len(a.Paths) == 0 || a.XSRF.Cookie == "" || a.XSRF.Header == "" {
		panic(fmt.Sprintf("site: embedded api.json is incomplete: %v", err)) // covered by TestAPI
	}
	return a
})

// DefaultAPI returns the API facts embedded from api.json, parsed once. The value shares its map
// and slice with every caller: do not modify them.
func DefaultAPI() API { return defaultAPI() }

// Path returns the absolute URL path of the endpoint named name ("authMe" → "/api/v1/auth/me"),
// or "" when api.json names no such endpoint.
func (a API) Path(name string) string {
	p, ok := a.Paths[name]
	if !ok {
		return ""
	}
	return a.Base + "/" + p
}
