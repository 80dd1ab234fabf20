// Command benchbare is `make bench`'s floor for handy: a bare net/http server that answers one
// path with fixed bytes, the page as handy serves it, and nothing else (no routing, no
// middleware, no per-request work beyond choosing gzip or not). scripts/bench/bench.sh (part 3) starts
// it beside handy, nginx and Caddy with the same body and handy's own response headers, and
// measures all four in alternation.
//
//	benchbare -path /de/area-calculator -addr 127.0.0.1:8081 \
//	    -gzip page.gz -plain page.html -headers handy.get \
//	    [-tls-addr 127.0.0.1:8443 -tls-cert cert.pem -tls-key key.pem \
//	     -tls-gzip page-tls.gz -tls-plain page-tls.html -tls-headers handy-tls.get]
//
// -headers is a response head as curl -D writes it (status line, "Name: value" lines); every
// header is sent as it is except those net/http writes itself (Date, Content-Length, Connection,
// Transfer-Encoding). A client whose Accept-Encoding names gzip gets -gzip, any other -plain
// (without Content-Encoding). With -tls-addr it also serves HTTPS, with the -tls-* files (each
// defaults to its plain twin: handy's page names its origin, so it differs between the two):
// Go's TLS defaults except TLS 1.2 at least, HTTP/2 offered through ALPN, as handy does.
package main

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"strconv"
	"strings"
)

func main() {
	var (
		addr     = flag.String("addr", "127.0.0.1:8081", "plain HTTP address (empty: none)")
		path     = flag.String("path", "/de/area-calculator", "the one path answered")
		gzipFile = flag.String("gzip", "", "body for clients that accept gzip (sent with Content-Encoding: gzip)")
		plain    = flag.String("plain", "", "body for the others")
		headers  = flag.String("headers", "", "response head whose headers are copied (curl -D output)")
		tlsAddr  = flag.String("tls-addr", "", "HTTPS address (needs -tls-cert and -tls-key)")
		tlsCert  = flag.String("tls-cert", "", "certificate file (PEM)")
		tlsKey   = flag.String("tls-key", "", "private key file (PEM)")
		tlsGzip  = flag.String("tls-gzip", "", "-gzip over HTTPS (default -gzip)")
		tlsPlain = flag.String("tls-plain", "", "-plain over HTTPS (default -plain)")
		tlsHead  = flag.String("tls-headers", "", "-headers over HTTPS (default -headers)")
	)
	flag.Parse()
	if *gzipFile == "" || *plain == "" || *headers == "" {
		log.Fatal("benchbare: -gzip, -plain and -headers are required")
	}
	if *addr == "" && *tlsAddr == "" {
		log.Fatal("benchbare: nothing to listen on")
	}
	if (*tlsAddr != "") != (*tlsCert != "" && *tlsKey != "") {
		log.Fatal("benchbare: -tls-addr needs -tls-cert and -tls-key, and they need it")
	}
	or := func(a, b string) string {
		if a != "" {
			return a
		}
		return b
	}

	// net/http's defaults throughout (no timeouts: the floor, for a benchmark on loopback).
	errc := make(chan error, 2)
	if *addr != "" {
		h, err := handler(*path, *gzipFile, *plain, *headers)
		if err != nil {
			log.Fatal(err)
		}
		srv := &http.Server{Addr: *addr, Handler: h}
		go func() { errc <- srv.ListenAndServe() }()
	}
	if *tlsAddr != "" {
		h, err := handler(*path, or(*tlsGzip, *gzipFile), or(*tlsPlain, *plain), or(*tlsHead, *headers))
		if err != nil {
			log.Fatal(err)
		}
		srv := &http.Server{Addr: *tlsAddr, Handler: h, TLSConfig: &tls.Config{MinVersion: tls.VersionTLS12}}
		go func() { errc <- srv.ListenAndServeTLS(*tlsCert, *tlsKey) }()
	}
	log.Fatal(<-errc)
}

// handler answers path with the body of gzipFile (to clients that accept gzip) or plainFile,
// and the headers of the response head in headFile; any other path is a 404.
func handler(path, gzipFile, plainFile, headFile string) (http.Handler, error) {
	gz, err := os.ReadFile(gzipFile)
	if err != nil {
		return nil, err
	}
	plain, err := os.ReadFile(plainFile)
	if err != nil {
		return nil, err
	}
	head, err := readHeaders(headFile)
	if err != nil {
		return nil, err
	}
	gzHead := head.Clone()
	gzHead["Content-Length"] = []string{strconv.Itoa(len(gz))}
	plainHead := head.Clone()
	plainHead.Del("Content-Encoding")
	plainHead["Content-Length"] = []string{strconv.Itoa(len(plain))}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			http.NotFound(w, r)
			return
		}
		src, body := plainHead, plain
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			src, body = gzHead, gz
		}
		dst := w.Header()
		for k, v := range src {
			dst[k] = v // shared, never modified
		}
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			_, _ = w.Write(body)
		}
	}), nil
}

// readHeaders reads a curl -D response head into a header, leaving out what net/http writes
// itself.
func readHeaders(name string) (http.Header, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	h := http.Header{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" || strings.HasPrefix(line, "HTTP/") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%s: not a header line: %q", name, line)
		}
		k = http.CanonicalHeaderKey(strings.TrimSpace(k))
		switch k {
		case "Date", "Content-Length", "Connection", "Keep-Alive", "Transfer-Encoding":
			continue
		}
		h.Add(k, strings.TrimSpace(v))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(h) == 0 {
		return nil, errors.New(name + ": no headers")
	}
	return h, nil
}
