package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// apiClient speaks the JSON API with a fixed XSRF cookie.
type apiClient struct {
	http *http.Client
	base string
}

func newAPIClient(base string) *apiClient {
	return &apiClient{base: base, http: &http.Client{
		Timeout:   20 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: 2 * killWriters, DisableCompression: true},
	}}
}

// post sends a JSON body and returns the status and the whole answer. A POST is never retried
// by the transport (it is not idempotent): one call is one attempt.
func (c *apiClient) post(path, token string, body []byte) (int, []byte, error) {
	req, err := http.NewRequest(http.MethodPost, c.base+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Cookie", "XSRF-TOKEN="+xsrfValue)
	req.Header.Set("X-XSRF-TOKEN", xsrfValue)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, nil, err
	}
	return resp.StatusCode, answer, nil
}

type killUser struct {
	id, token string
}

func (c *apiClient) signup(email string) (killUser, error) {
	body, _ := json.Marshal(map[string]string{"email": email, "password": "correct horse battery"})
	status, answer, err := c.post("/api/v1/auth/signup", "", body)
	if err != nil || status != http.StatusCreated {
		return killUser{}, fmt.Errorf("sign-up %s: %d %v %s", email, status, err, answer)
	}
	var a struct {
		Token string `json:"token"`
		User  struct {
			ID string `json:"id"`
		} `json:"user"`
	}
	if err := json.Unmarshal(answer, &a); err != nil || a.Token == "" || a.User.ID == "" {
		return killUser{}, fmt.Errorf("sign-up answer %s: %v", answer, err)
	}
	return killUser{id: a.User.ID, token: a.Token}, nil
}

// storedDoc is a document as a query answers it.
type storedDoc struct {
	Name   string `json:"name"`
	Fields map[string]struct {
		IntegerValue string `json:"integerValue"`
		StringValue  string `json:"stringValue"`
	} `json:"fields"`
	UpdateTime string `json:"updateTime"`
	Version    string `json:"version"`
}

type commitAnswer struct {
	WriteResults []struct {
		UpdateTime string `json:"updateTime"`
	} `json:"writeResults"`
	CommitTime string `json:"commitTime"`
	Version    string `json:"version"`
}

// exportedPaths returns the paths of every live document of u's, from the account export.
func exportedPaths(c *apiClient, u killUser) ([]string, error) {
	req, err := http.NewRequest(http.MethodGet, c.base+"/api/v1/auth/me/export", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+u.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("account export: %d %v %s", resp.StatusCode, err, answer)
	}
	var a struct {
		Documents []struct {
			Path string `json:"path"`
		} `json:"documents"`
	}
	if err := json.Unmarshal(answer, &a); err != nil {
		return nil, fmt.Errorf("account export %s: %w", answer, err)
	}
	paths := make([]string, len(a.Documents))
	for i, d := range a.Documents {
		paths[i] = d.Path
	}
	return paths, nil
}

// queryHistory returns the documents of u's history collection by name.
func queryHistory(c *apiClient, u killUser) (map[string]storedDoc, error) {
	body, _ := json.Marshal(map[string]any{"parent": "users/" + u.id,
		"structuredQuery": map[string]any{"from": []any{map[string]string{"collectionId": "history"}}}})
	status, answer, err := c.post("/api/v1/db/query", u.token, body)
	if err != nil || status != http.StatusOK {
		return nil, fmt.Errorf("query the history: %d %v %s", status, err, answer)
	}
	var a struct {
		Documents []storedDoc `json:"documents"`
	}
	if err := json.Unmarshal(answer, &a); err != nil {
		return nil, fmt.Errorf("query answer %s: %w", answer, err)
	}
	docs := make(map[string]storedDoc, len(a.Documents))
	for _, d := range a.Documents {
		docs[d.Name] = d
	}
	return docs, nil
}
