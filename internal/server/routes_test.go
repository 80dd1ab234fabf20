package server

import (
	"slices"
	"strings"
	"testing"

	"handy/internal/site"
)

// TestRoutesMatchAPIJSON: the route table's API paths are exactly those of
// internal/site/api.json, from which the front end builds its URLs, so that neither side can
// rename or add an endpoint alone.
func TestRoutesMatchAPIJSON(t *testing.T) {
	t.Parallel()
	s := &Server{}
	var table []string
	for _, group := range [][]apiRoute{s.authRoutes(), s.dbRoutes(), s.pageviewRoutes(), s.statsRoutes()} {
		for _, rt := range group {
			// A document's path is the documents endpoint's, with the document's path after it.
			if p := strings.TrimSuffix(rt.path, "/{path...}"); !slices.Contains(table, p) {
				table = append(table, p)
			}
		}
	}
	api := site.DefaultAPI()
	var named []string
	for name := range api.Paths {
		named = append(named, api.Path(name))
	}
	slices.Sort(table)
	slices.Sort(named)
	if !slices.Equal(table, named) {
		t.Errorf("route table's API paths:\n%q\napi.json's:\n%q", table, named)
	}
	if apiRoot != api.Base[:strings.LastIndex(api.Base, "/")+1] {
		t.Errorf("apiRoot %q is not the root of api.json's base %q", apiRoot, api.Base)
	}
}

// TestAccountErrorCodesMatchAPIJSON: the codes the account's domain errors answer with are
// exactly api.json's accountErrors, which the front end turns into its own words.
func TestAccountErrorCodesMatchAPIJSON(t *testing.T) {
	t.Parallel()
	var codes []string
	for _, d := range newDomainErrorTable(site.Default().Limits()) {
		if !slices.Contains(codes, d.code) {
			codes = append(codes, d.code)
		}
	}
	want := slices.Clone(site.DefaultAPI().AccountErrors)
	slices.Sort(codes)
	slices.Sort(want)
	if !slices.Equal(codes, want) {
		t.Errorf("domain error codes %q, api.json's accountErrors %q", codes, want)
	}
}
