package server

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"

	"handy/internal/site"
)

// The JSON API under /api/v1: answers and errors are JSON, never the site's HTML pages.

const apiRoot = "/api/"

// The XSRF cookie's name and the header an unsafe request repeats it in, shared with the front
// end (internal/site/api.json).
var xsrfCookie, xsrfHeader = site.DefaultAPI().XSRF.Cookie, site.DefaultAPI().XSRF.Header

func badRequest(code, message string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: code, Message: message}
}

var (
	errAPINotFound = &Error{Status: http.StatusNotFound, Code: "not-found", Message: "There is no such API endpoint."}
	errXSRF        = &Error{Status: http.StatusForbidden, Code: "xsrf", Message: "The " + xsrfHeader + " header must match the " + xsrfCookie + " cookie."}
)

// isAPI reports whether path is the API's (the route table sends all of /api/ there), whose
// every answer, errors included, is JSON.
func isAPI(path string) bool { return strings.HasPrefix(path, apiRoot) || path == "/api" }

// api wraps an endpoint: no caching, the XSRF cookie issued and checked.
func (s *Server) api(h handlerFunc) http.Handler {
	return s.handle(func(w http.ResponseWriter, r *http.Request) error {
		w.Header()["Cache-Control"] = []string{cacheNoStore}
		if err := s.checkXSRF(w, r, s.issueXSRF(w, r)); err != nil {
			return err
		}
		return h(w, r)
	})
}

// cookieless wraps an endpoint that neither issues nor checks the XSRF cookie: the page-view
// beacon, which changes no account, is sent by navigator.sendBeacon (which cannot set a
// header), and must leave no cookie in a visitor's browser.
func (s *Server) cookieless(h handlerFunc) http.Handler {
	return s.handle(func(w http.ResponseWriter, r *http.Request) error {
		w.Header()["Cache-Control"] = []string{cacheNoStore}
		return h(w, r)
	})
}

// apiRoute is one endpoint of the API.
type apiRoute struct {
	method, path string
	handler      handlerFunc
}

// apiRoutes registers routes on mux, and for each of their paths a 405 for other methods (GET
// serves HEAD too, as ServeMux does).
func (s *Server) apiRoutes(mux *routeMux, routes []apiRoute) {
	s.registerRoutes(mux, routes, s.api, true)
}

// cookielessRoutes registers routes as apiRoutes does, but neither they nor their 405 issue or
// check the XSRF cookie (see cookieless).
func (s *Server) cookielessRoutes(mux *routeMux, routes []apiRoute) {
	s.registerRoutes(mux, routes, s.cookieless, false)
}

func (s *Server) registerRoutes(mux *routeMux, routes []apiRoute, wrap func(handlerFunc) http.Handler, issueXSRF bool) {
	var paths []string
	allowed := make(map[string][]string)
	for _, rt := range routes {
		mux.Handle(rt.method+" "+rt.path, wrap(rt.handler))
		if allowed[rt.path] == nil {
			paths = append(paths, rt.path)
		}
		allowed[rt.path] = append(allowed[rt.path], rt.method)
		if rt.method == http.MethodGet {
			allowed[rt.path] = append(allowed[rt.path], http.MethodHead)
		}
	}
	// A pattern without a method is less specific than those with one, so it gets only the
	// methods they do not take.
	for _, p := range paths {
		mux.Handle(p, s.methodNotAllowed(strings.Join(allowed[p], ", "), issueXSRF))
	}
}

// methodNotAllowed answers an API path asked with a method it does not take: 405, with the
// methods it takes in Allow, and the XSRF cookie when issue is set. It comes before the XSRF
// check: such a request does nothing, so there is nothing to forge, and any client learns what
// to send.
func (s *Server) methodNotAllowed(allow string, issue bool) http.Handler {
	return s.handle(func(w http.ResponseWriter, r *http.Request) error {
		h := w.Header()
		h["Cache-Control"] = []string{cacheNoStore}
		h["Allow"] = []string{allow}
		if issue {
			s.issueXSRF(w, r)
		}
		return &Error{Status: http.StatusMethodNotAllowed, Code: "method-not-allowed",
			Message: "This endpoint takes " + allow + ", not " + r.Method + "."}
	})
}

// issueXSRF issues the XSRF-TOKEN cookie to a client that has none, and returns the cookie the
// client sent, or nil.
func (s *Server) issueXSRF(w http.ResponseWriter, r *http.Request) *http.Cookie {
	cookie, err := r.Cookie(xsrfCookie)
	if err == nil && len(cookie.Value) >= 32 {
		return cookie
	}
	value := make([]byte, 32)
	rand.Read(value)
	http.SetCookie(w, &http.Cookie{
		Name: xsrfCookie, Value: base64.RawURLEncoding.EncodeToString(value), Path: "/",
		Secure: s.https, SameSite: http.SameSiteStrictMode, // readable by the page's script: not HttpOnly
	})
	return nil
}

// checkXSRF requires unsafe requests to repeat the XSRF-TOKEN cookie in the X-XSRF-TOKEN
// header: a page of another site can make the browser send the cookie, but cannot read it to
// set the header.
func (s *Server) checkXSRF(w http.ResponseWriter, r *http.Request, cookie *http.Cookie) error {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	header := r.Header.Get(xsrfHeader)
	if cookie == nil || header == "" || subtle.ConstantTimeCompare([]byte(header), []byte(cookie.Value)) != 1 {
		return errXSRF
	}
	return nil
}

// writeAPIError answers with {"error": {"code", "message"}}, uncached.
func writeAPIError(w http.ResponseWriter, e *Error) {
	code, message := e.Code, e.Message
	if code == "" {
		code = "error"
	}
	if message == "" {
		message = http.StatusText(e.Status) + "."
		if e.Status == http.StatusNotFound {
			message = errAPINotFound.Message
		}
	}
	w.Header()["Cache-Control"] = []string{cacheNoStore}
	writeJSON(w, e.Status, map[string]any{"error": map[string]string{"code": code, "message": message}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status, body = http.StatusInternalServerError, []byte(`{"error":{"code":"internal","message":"Something went wrong on our side."}}`)
	}
	h := w.Header()
	h["Content-Type"] = []string{"application/json; charset=utf-8"}
	h["Content-Length"] = []string{strconv.Itoa(len(body) + 1)}
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

// bearerToken reads "Authorization: Bearer<token>" or "Bearer <token>" (the client sends the
// first, as the spec has it; the second is the standard).
func bearerToken(r *http.Request) string {
	auth := r.Header.Get("Authorization")
	if len(auth) < 6 || !strings.EqualFold(auth[:6], "Bearer") {
		return ""
	}
	return strings.TrimSpace(auth[6:])
}

// clientAddress is the client's IP address, for rate limits and unique visitors: the connection's, or,
// behind a trusted reverse proxy (-client-ip-header), the last address the proxy wrote in its
// header (earlier entries of X-Forwarded-For come from the client and prove nothing).
func (s *Server) clientAddress(r *http.Request) string {
	if s.clientIPHeader != "" {
		values := r.Header.Values(s.clientIPHeader)
		if len(values) > 0 {
			parts := strings.Split(values[len(values)-1], ",")
			if ip := net.ParseIP(strings.TrimSpace(parts[len(parts)-1])); ip != nil {
				return ip.String()
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
