package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"handy/internal/account"
	"handy/internal/docstore"
)

// xsrf answers 204: the api wrapper has set the XSRF cookie, which is all a client asks for.
func (s *Server) xsrf(w http.ResponseWriter, r *http.Request) error {
	w.WriteHeader(http.StatusNoContent)
	return nil
}

type credentials struct {
	Email       string `json:"email"`
	Password    string `json:"password"`
	DisplayName string `json:"displayName"`
	Locale      string `json:"locale"`
}

func (s *Server) readCredentials(w http.ResponseWriter, r *http.Request, signup bool) (account.Credentials, error) {
	var c credentials
	if err := s.readBody(w, r, "", jsonOnly, maxJSONBody, &c); err != nil {
		return account.Credentials{}, err
	}
	if c.DisplayName != "" && !signup {
		return account.Credentials{}, badRequest("unknown-field", "The body has an unknown field: \"displayName\".")
	}
	if c.Locale != "" {
		if _, ok := s.table.Locale(c.Locale); !ok {
			return account.Credentials{}, badRequest("invalid-locale", "The locale must be one of the site's language codes.")
		}
	}
	return account.Credentials{Email: c.Email, Password: c.Password, DisplayName: c.DisplayName, Locale: c.Locale, Address: s.clientAddress(r)}, nil
}

func (s *Server) signup(w http.ResponseWriter, r *http.Request) error {
	c, err := s.readCredentials(w, r, true)
	if err != nil {
		return err
	}
	token, u, err := s.accounts.Signup(r.Context(), c)
	if err != nil {
		return err
	}
	return s.writeSession(w, r, http.StatusCreated, token, u)
}

func (s *Server) signin(w http.ResponseWriter, r *http.Request) error {
	c, err := s.readCredentials(w, r, false)
	if err != nil {
		return err
	}
	token, u, err := s.accounts.Signin(r.Context(), c, s.clientAddress(r))
	if err != nil {
		return err
	}
	return s.writeSession(w, r, http.StatusOK, token, u)
}

func (s *Server) writeSession(w http.ResponseWriter, r *http.Request, status int, token string, u account.User) error {
	profile, err := s.accounts.UserDoc(r.Context(), u)
	if err != nil {
		return err
	}
	writeJSON(w, status, map[string]any{"token": token, "user": u, "profile": profile})
	return nil
}

func (s *Server) signout(w http.ResponseWriter, r *http.Request) error {
	if err := s.accounts.Signout(r.Context(), bearerToken(r)); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) signoutEverywhere(w http.ResponseWriter, r *http.Request) error {
	u, err := s.signedIn(r)
	if err != nil {
		return err
	}
	if err := s.accounts.SignoutEverywhere(r.Context(), u); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) changePassword(w http.ResponseWriter, r *http.Request) error {
	u, err := s.signedIn(r)
	if err != nil {
		return err
	}
	var body struct {
		CurrentPassword string `json:"currentPassword"`
		NewPassword     string `json:"newPassword"`
	}
	if err := s.readBody(w, r, u.ID, jsonOnly, maxJSONBody, &body); err != nil {
		return err
	}
	if err := s.accounts.ChangePassword(r.Context(), u, body.CurrentPassword, body.NewPassword, bearerToken(r), s.clientAddress(r)); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// signedIn returns the user of the request's token.
func (s *Server) signedIn(r *http.Request) (account.User, error) {
	return s.accounts.Authenticate(r.Context(), bearerToken(r))
}

func (s *Server) me(w http.ResponseWriter, r *http.Request) error {
	u, err := s.signedIn(r)
	if err != nil {
		return err
	}
	profile, err := s.accounts.UserDoc(r.Context(), u)
	if err != nil {
		return err
	}
	// The storage used and the quota: the account's data panel shows them.
	storage, err := s.accounts.Storage(r.Context(), u)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"user": u, "profile": profile, "storage": storage})
	return nil
}

func (s *Server) updateMe(w http.ResponseWriter, r *http.Request) error {
	u, err := s.signedIn(r)
	if err != nil {
		return err
	}
	var body struct {
		DisplayName *string        `json:"displayName"`
		Avatar      *string        `json:"avatar"`
		Locale      *string        `json:"locale"`
		Preferences map[string]any `json:"preferences"`
	}
	if err := s.readBody(w, r, u.ID, jsonOnly, maxJSONBody, &body); err != nil {
		return err
	}
	if body.Locale != nil {
		if _, ok := s.table.Locale(*body.Locale); !ok {
			return badRequest("invalid-locale", "The locale must be one of the site's language codes.")
		}
	}
	profile, err := s.accounts.UpdateProfile(r.Context(), u, account.ProfileUpdate{
		DisplayName: body.DisplayName, Avatar: body.Avatar, Locale: body.Locale, Preferences: body.Preferences,
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"user": u, "profile": profile})
	return nil
}

func (s *Server) deleteMe(w http.ResponseWriter, r *http.Request) error {
	u, err := s.signedIn(r)
	if err != nil {
		return err
	}
	var body struct {
		Password string `json:"password"`
	}
	if err := s.readBody(w, r, u.ID, jsonOnly, maxJSONBody, &body); err != nil {
		return err
	}
	if err := s.accounts.Delete(r.Context(), u, body.Password, s.clientAddress(r)); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) exportMe(w http.ResponseWriter, r *http.Request) error {
	u, err := s.signedIn(r)
	if err != nil {
		return err
	}
	// Spooled (spool.go): the documents are encoded as they are read, then the export's other
	// fields, the documents and the closing "]}" are sent: the same bytes as one json.Marshal
	// of account.Export.
	sp := s.spools.newSpool(u.ID, "the account's data is larger than this server lets one account export; its operator can raise the limit", false)
	defer sp.close()
	head, err := s.accounts.ExportEach(r.Context(), u, func(d docstore.ExportDoc) error { return sp.item(d) })
	if err != nil {
		return err
	}
	b, err := json.Marshal(head)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	open, ok := bytes.CutSuffix(b, []byte(`[]}`))
	if !ok {
		return fmt.Errorf("export: the head %.40q… does not end with its documents", b)
	}
	w.Header().Set("Content-Disposition", `attachment; filename="handy-tools-account.json"`)
	s.sendSpooled(w, r, http.StatusOK, append(open, '['), sp, []byte("]}\n"))
	return nil
}
