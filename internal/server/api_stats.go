package server

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/csv"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"handy/internal/analytics"
)

// errAdminToken answers a missing or wrong admin token alike. Whether a token is configured at
// all shows only in 404 (none) against 401 (one, not this one).
var errAdminToken = &Error{Status: http.StatusUnauthorized, Code: "unauthorized",
	Message: "This endpoint needs the operator's token: Authorization: Bearer <admin token>."}

// stats answers the report of the days asked, as JSON or, with format=csv, as the daily series
// in CSV.
func (s *Server) stats(w http.ResponseWriter, r *http.Request) error {
	if !s.isAdmin(r) {
		w.Header()["Www-Authenticate"] = []string{`Bearer realm="handy"`}
		return errAdminToken
	}
	q := r.URL.Query()
	from, to, err := statsRange(q.Get("from"), q.Get("to"), s.reports.Today())
	if err != nil {
		return err
	}
	format := q.Get("format")
	if format != "" && format != "json" && format != "csv" {
		return badRequest("invalid-format", `The parameter "format" must be json or csv.`)
	}
	report, err := s.reports.Report(r.Context(), from, to)
	if err != nil {
		return err
	}
	if format == "csv" {
		return writeStatsCSV(w, report)
	}
	writeJSON(w, http.StatusOK, report)
	return nil
}

// isAdmin reports whether the request carries the admin token. Both sides are hashed first, so
// that the comparison's time says nothing of the token's length either.
func (s *Server) isAdmin(r *http.Request) bool {
	given := sha256.Sum256([]byte(bearerToken(r)))
	return subtle.ConstantTimeCompare(given[:], s.adminToken[:]) == 1
}

// statsRange reads the range of days asked (analytics.ParseRange); a refusal is a 400 that
// names the parameter.
func statsRange(fromParam, toParam string, today time.Time) (from, to time.Time, err error) {
	from, to, err = analytics.ParseRange(fromParam, toParam, today)
	var rangeErr *analytics.RangeError
	if errors.As(err, &rangeErr) {
		return from, to, badRequest("invalid-"+rangeErr.Param, rangeErr.Message)
	}
	return from, to, err
}

// writeStatsCSV writes the daily series, one row a day: what a spreadsheet charts. The top
// lists are in the JSON.
func writeStatsCSV(w http.ResponseWriter, report *analytics.Report) error {
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	cw.Write([]string{"day", "views", "visitors", "bots"})
	for _, d := range report.Days {
		cw.Write([]string{d.Day, strconv.FormatInt(d.Views, 10), strconv.FormatInt(d.Visitors, 10), strconv.FormatInt(d.Bots, 10)})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("stats: csv: %w", err)
	}
	h := w.Header()
	h["Content-Type"] = []string{"text/csv; charset=utf-8"}
	h["Content-Disposition"] = []string{`attachment; filename="handy-stats-` + report.From + "-to-" + report.To + `.csv"`}
	h["Content-Length"] = []string{strconv.Itoa(b.Len())}
	w.WriteHeader(http.StatusOK)
	w.Write(b.Bytes())
	return nil
}
