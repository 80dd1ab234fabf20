package account

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"handy/internal/docstore/value"
	"handy/internal/site"
)

// The documents the server reads and the front end shows have a schema, and every way of
// writing them obeys it: the account's endpoints (sign-up, sign-in, PATCH /auth/me) and the
// client's own commits through the document API, which the store hands to Schema.Check
// (docstore.Config.Check). Without it, a client could store through /db/commit what the
// profile endpoint refuses (a javascript: avatar, a name that reads backwards, a locale that
// breaks out of an attribute) and have GET /auth/me answer it. The rules live here, once:
// the endpoints check each field they set with the same functions, and the store checks the
// whole document a commit leaves, so neither can accept what the other refuses. Documents
// stored before a rule existed are not rewritten; the next write to them must pass.

// Limits of a history entry's text. A title is a result or a file name, a query a calculator's
// shareable query string, a detail a flip's facts: far below these in practice.
const (
	MaxEntryTitle  = 1_000 // characters
	MaxEntryDetail = 1_000 // characters
	MaxEntryQuery  = 8_192 // bytes
)

// historyTools are the tools whose results a history entry records (web/src/features/history/
// logic/entries.ts).
var historyTools = []string{"area", "speed", "flip"}

// serverFields are users/{uid}'s fields that come from the users row, added to every answer
// (UserDoc): a client cannot write them, so that they cannot be forged in the document.
var serverFields = []string{"email", "createdAt", "lastSignInAt"}

// preferenceValues are the settings the front end writes to users/{uid}.preferences, with
// every value each may take: the themes, and per tool page the query parameters it takes as
// preferences (web/src/lib/preferences.ts toolSettings) and their values (the calculators'
// units and decimals). A test in web/src checks this file against the front end's own tables.
//
//go:embed preferences.json
var preferencesJSON []byte

type preferenceTable struct {
	Themes []string                       `json:"themes"`
	Tools  map[string]map[string][]string `json:"tools"`
}

var preferenceValues = func() preferenceTable {
	var t preferenceTable
	if err := json.Unmarshal(preferencesJSON, &t); err != nil || len(t.Themes) == 0 || len(t.Tools) == 0 {
		panic(fmt.Sprintf("account: preferences.json: %v", err)) // embedded: a build mistake
	}
	return t
}()

// FieldError is a document refused by its schema: which kind of document, which field (a
// dotted path), and the rule it breaks, in words a client's developer can act on. Its message
// reads `users/{uid} field "avatar": must be null or a data:image/jpeg;base64 URL …`.
type FieldError struct {
	Doc   string // "users/{uid}" or "users/{uid}/history/{id}"
	Field string
	Rule  string
}

func (e *FieldError) Error() string { return fmt.Sprintf("%s field %q: %s", e.Doc, e.Field, e.Rule) }

// Schema holds the rules of users/{uid} and of the history entries users/{uid}/{history}/{id},
// with the site's limits and locales. Its zero value is not usable: see NewSchema.
type Schema struct {
	limits  site.Limits
	locales []string
	history string
}

// NewSchema returns the rules for a site with these limits (display name and avatar), locales
// and history collection: cmd/handy builds it from site.json and gives Check to the document
// store and the Schema to the account service (WithSchema).
func NewSchema(limits site.Limits, locales []site.Locale, history site.History) *Schema {
	s := &Schema{limits: limits, history: history.Collection}
	for _, l := range locales {
		s.locales = append(s.locales, l.Code)
	}
	return s
}

// defaultSchema is the schema of the site's own table, for a Service given none.
func defaultSchema(limits site.Limits) *Schema {
	t := site.Default()
	return NewSchema(limits, t.Locales(), t.History())
}

// Check is docstore.Config.Check: it refuses a users/{uid} or history entry document that
// breaks a rule, with a *FieldError; other documents are the client's own and pass.
func (s *Schema) Check(p value.Path, f value.Fields) error {
	switch {
	case p.Len() == 2 && p.Segment(0) == "users":
		return s.checkUser(f)
	case p.Len() == 4 && p.Segment(0) == "users" && p.Segment(2) == s.history:
		return s.checkEntry(f)
	}
	return nil
}

const userDoc = "users/{uid}"

// checkUser checks a whole users/{uid} document, its fields in name order so that the error
// is the same for the same document. Each field is optional: a missing one reads as its
// default (promise).
func (s *Schema) checkUser(f value.Fields) error {
	for _, name := range sortedKeys(f) {
		if err := s.checkUserField(name, f[name]); err != nil {
			return err
		}
	}
	return nil
}

// checkUserField checks one top-level field of users/{uid}: the profile endpoint checks each
// field it sets with it, and Check the whole document.
func (s *Schema) checkUserField(name string, v value.Value) *FieldError {
	fail := func(field, rule string) *FieldError { return &FieldError{Doc: userDoc, Field: field, Rule: rule} }
	switch name {
	case "displayName":
		if v.Kind != value.String || !s.validDisplayName(v.Str) {
			return fail(name, fmt.Sprintf("must be a string of at most %d characters without surrounding spaces, control, format or invisible characters", s.limits.DisplayNameMaxLength))
		}
	case "avatar":
		if v.Kind != value.Null && (v.Kind != value.String || !s.validAvatar(v.Str)) {
			return fail(name, fmt.Sprintf("must be null or a data:image/jpeg;base64 URL of a JPEG image of at most %d bytes", s.limits.AvatarMaxBytes))
		}
	case "locale":
		if v.Kind != value.String || v.Str != "" && !slices.Contains(s.locales, v.Str) {
			return fail(name, "must be \"\" or one of the site's locale codes: "+strings.Join(s.locales, ", "))
		}
	case "preferences":
		return s.checkPreferences(v)
	default:
		if slices.Contains(serverFields, name) {
			return fail(name, "is set by the server and cannot be written")
		}
		return fail(name, "is not a field of users/{uid} (displayName, avatar, locale, preferences)")
	}
	return nil
}

// checkPreferences checks users/{uid}.preferences: a map of at most MaxPreferences bytes of
// JSON whose known settings (theme, language, each tool's units and decimals) hold values the
// front end offers. Other keys are kept as they are: the server and the front end read none of
// them, and older front ends wrote some.
func (s *Schema) checkPreferences(v value.Value) *FieldError {
	fail := func(field, rule string) *FieldError { return &FieldError{Doc: userDoc, Field: field, Rule: rule} }
	if v.Kind != value.Map {
		return fail("preferences", "must be a map")
	}
	if raw, err := json.Marshal(value.PlainJSON(v.Map)); err != nil || len(raw) > MaxPreferences {
		return fail("preferences", fmt.Sprintf("must be at most %d bytes of JSON", MaxPreferences))
	}
	oneOf := func(field string, v value.Value, allowed []string) *FieldError {
		if v.Kind != value.String || !slices.Contains(allowed, v.Str) {
			return fail(field, "must be one of "+quoted(allowed))
		}
		return nil
	}
	if theme, ok := v.Map["theme"]; ok {
		if err := oneOf("preferences.theme", theme, preferenceValues.Themes); err != nil {
			return err
		}
	}
	if lang, ok := v.Map["language"]; ok {
		if err := oneOf("preferences.language", lang, s.locales); err != nil {
			return err
		}
	}
	tools, ok := v.Map["tools"]
	if !ok {
		return nil
	}
	if tools.Kind != value.Map {
		return fail("preferences.tools", "must be a map of tool pages to their settings")
	}
	for _, tool := range sortedKeys(tools.Map) {
		settings, known := preferenceValues.Tools[tool]
		if !known {
			continue
		}
		field := "preferences.tools." + tool
		got := tools.Map[tool]
		if got.Kind != value.Map {
			return fail(field, "must be a map of settings")
		}
		for _, key := range sortedKeys(got.Map) {
			allowed, known := settings[key]
			if !known {
				return fail(field+"."+key, "is not a setting of "+tool+" (one of "+quoted(sortedKeys(settings))+")")
			}
			if err := oneOf(field+"."+key, got.Map[key], allowed); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkEntry checks a history entry as the front end writes it (features/history/logic/
// documents.ts): tool, at, title, and query and detail, which may be missing (read as "").
func (s *Schema) checkEntry(f value.Fields) error {
	const doc = "users/{uid}/{history}/{id}"
	fail := func(field, rule string) error {
		return &FieldError{Doc: strings.Replace(doc, "{history}", s.history, 1), Field: field, Rule: rule}
	}
	for _, name := range []string{"tool", "at", "title"} {
		if _, ok := f[name]; !ok {
			return fail(name, "is required (an entry has tool, at, title, query, detail)")
		}
	}
	for _, name := range sortedKeys(f) {
		v := f[name]
		switch name {
		case "tool":
			if v.Kind != value.String || !slices.Contains(historyTools, v.Str) {
				return fail(name, "must be one of "+quoted(historyTools))
			}
		case "at":
			if v.Kind != value.Timestamp {
				return fail(name, "must be a timestamp")
			}
		case "title":
			if v.Kind != value.String || !plainText(v.Str, MaxEntryTitle) {
				return fail(name, fmt.Sprintf("must be a string of at most %d characters without control characters other than line breaks and tabs", MaxEntryTitle))
			}
		case "detail":
			if v.Kind != value.String || !plainText(v.Str, MaxEntryDetail) {
				return fail(name, fmt.Sprintf("must be a string of at most %d characters without control characters other than line breaks and tabs", MaxEntryDetail))
			}
		case "query":
			// The calculator's page is opened with it: a query string, never a URL of its own.
			if v.Kind != value.String || v.Str != "" && !strings.HasPrefix(v.Str, "?") || len(v.Str) > MaxEntryQuery || !plainText(v.Str, MaxEntryQuery) {
				return fail(name, fmt.Sprintf("must be \"\" or a query string starting with \"?\" of at most %d bytes", MaxEntryQuery))
			}
		default:
			return fail(name, "is not a field of a history entry (tool, at, title, query, detail)")
		}
	}
	return nil
}

// validDisplayName reports whether name is a display name as the profile keeps it (trimmed):
// the rule of displayName, which sign-up and the profile endpoint apply after trimming.
func (s *Schema) validDisplayName(name string) bool {
	return name == strings.TrimSpace(name) && utf8.ValidString(name) &&
		utf8.RuneCountInString(name) <= s.limits.DisplayNameMaxLength && visibleName(name)
}

// validAvatar reports whether a is an avatar as the profile keeps it: a data:image/jpeg;base64
// URL of a JPEG (what the front end's cropper makes) within the site's size.
func (s *Schema) validAvatar(a string) bool {
	return len(a) <= s.limits.AvatarMaxBytes && strings.HasPrefix(a, avatarURLPrefix) && isJPEG(a[len(avatarURLPrefix):])
}

// plainText reports whether s is valid UTF-8 of at most limit characters without control
// characters other than line breaks and tabs: a calculator's result is its lines of working
// (features/area/AreaResultPanel.tsx joins them with "\n"), and a file name in a title may be in
// any script, bidirectional marks included.
func plainText(s string, limit int) bool {
	return utf8.ValidString(s) && utf8.RuneCountInString(s) <= limit && !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) && r != '\n' && r != '\t'
	})
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func quoted(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}
