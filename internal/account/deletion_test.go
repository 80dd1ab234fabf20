package account

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"handy/internal/docstore"
	"handy/internal/docstore/value"
	"handy/internal/store"
	"handy/internal/store/storetest"
)

// A token holder cannot guess the password through deletion: wrong passwords count as failed
// sign-ins of the account, and past the limit even the right one waits.
func TestDeletePasswordGuessesAreLimited(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, c := newService(t, st, nil, WithLimits(Limits{Window: 10 * time.Minute, PerAccount: 3, PerAddress: 50}))
		_, u, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "right password"})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if err := s.Delete(ctx, u, "guess"+strconv.Itoa(i), "198.51.100.1"); !errors.Is(err, ErrWrongPassword) {
				t.Fatalf("guess %d: %v", i, err)
			}
		}
		var limited *RateLimitError
		// Three at once, then one every 10m/3 = 200 s.
		if err := s.Delete(ctx, u, "right password", "198.51.100.1"); !errors.As(err, &limited) || limited.RetryAfter != 200*time.Second {
			t.Fatalf("after 3 guesses: %v, want rate-limited for 200s", err)
		}
		if _, _, err := s.Signin(ctx, Credentials{Email: "a@example.com", Password: "right password"}, "198.51.100.2"); !errors.Is(err, ErrRateLimited) {
			t.Errorf("sign-in after 3 deletion guesses: %v, want rate-limited (one budget per account)", err)
		}
		c.advance(200 * time.Second)
		if err := s.Delete(ctx, u, "right password", "198.51.100.1"); err != nil {
			t.Fatalf("after the window: %v", err)
		}
	})
}

func TestDeleteAndExport(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s, _ := newService(t, st, nil)
		token, u, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "12345678", DisplayName: "A"})
		if err != nil {
			t.Fatal(err)
		}
		other, otherUser, _ := s.Signup(ctx, Credentials{Email: "b@example.com", Password: "12345678"})
		for _, uid := range []string{u.ID, otherUser.ID} {
			h, _ := value.ParseDocumentPath("users/" + uid + "/history/h1")
			if _, err := s.docs.Commit(ctx, uid, docstore.CommitRequest{Writes: []docstore.Write{
				{Path: h, Fields: value.Fields{"tool": {Kind: value.String, Str: "area"}}},
			}}); err != nil {
				t.Fatal(err)
			}
		}
		ex, err := s.Export(ctx, u)
		if err != nil || ex.User.ID != u.ID || len(ex.Documents) != 2 || ex.Documents[0].Path != "users/"+u.ID ||
			ex.Documents[1].Path != "users/"+u.ID+"/history/h1" || ex.Documents[1].Fields.(map[string]any)["tool"] != "area" {
			t.Fatalf("Export = %+v, %v", ex, err)
		}
		if err := s.Delete(ctx, u, "wrong pass", "192.0.2.1"); !errors.Is(err, ErrWrongPassword) {
			t.Fatalf("delete with a wrong password: %v", err)
		}
		if err := s.Delete(ctx, u, "12345678", "192.0.2.1"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, token); !errors.Is(err, ErrUnauthenticated) {
			t.Errorf("the deleted account's token: %v", err)
		}
		for table, column := range map[string]string{"users": "id", "sessions": "user_id", "docs": "owner", "doc_rate": "owner"} {
			var n int
			st.QueryRow(ctx, "SELECT COUNT(*) FROM "+table+" WHERE "+column+" = ?", u.ID).Scan(&n)
			if n != 0 {
				t.Errorf("%s keeps %d rows of the deleted account", table, n)
			}
		}
		if ex, err := s.Export(ctx, otherUser); err != nil || len(ex.Documents) != 2 {
			t.Errorf("another account's documents suffered: %+v, %v", ex, err)
		}
		if _, err := s.Authenticate(ctx, other); err != nil {
			t.Errorf("another account suffered: %v", err)
		}
		if _, _, err := s.Signup(ctx, Credentials{Email: "a@example.com", Password: "12345678"}); err != nil {
			t.Errorf("the address is free again: %v", err)
		}
	})
}
