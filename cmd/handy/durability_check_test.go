package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
	"testing"
)

func atoi(s string) int64 {
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

// checkWriter checks one writer's batches after the restart, and returns how many of its
// unanswered batches had been applied before the kill and how many had not.
func checkWriter(t *testing.T, c *apiClient, u killUser, w int, batches []*killBatch, maxAckVersion int64) (applied, notApplied int) {
	errs := 0
	fail := func(format string, args ...any) {
		if errs++; errs <= 10 {
			t.Errorf("writer %d: "+format, append([]any{w}, args...)...)
		}
	}
	defer func() {
		if errs > 10 {
			t.Errorf("writer %d: %d more failures", w, errs-10)
		}
	}()
	before, err := queryHistory(c, u)
	if err != nil {
		fail("%v", err)
		return
	}
	var maxVersion int64
	for _, d := range before {
		maxVersion = max(maxVersion, atoi(d.Version))
	}
	// contentOK checks that document k of b holds what b wrote.
	contentOK := func(b *killBatch, k int, d storedDoc) bool {
		if d.Fields["title"].StringValue != b.client || d.Fields["query"].StringValue != killQuery(b.id, k) ||
			d.Fields["tool"].StringValue != "area" || len(d.Fields) != 4 {
			fail("%s holds %+v, not what batch %d of %s wrote", b.paths[k], d.Fields, b.id, b.client)
			return false
		}
		return true
	}
	written := map[string]bool{}
	lostApplied := map[*killBatch]bool{}
	for _, b := range batches {
		for _, path := range b.paths {
			written[path] = true
		}
		found := 0
		for k, path := range b.paths {
			if d, ok := before[path]; ok {
				found++
				contentOK(b, k, d)
			}
		}
		if b.ack != nil {
			// (a) an acknowledged batch is there, whole, as its answer says.
			var a commitAnswer
			json.Unmarshal(b.ack, &a)
			for k, path := range b.paths {
				d, ok := before[path]
				switch {
				case !ok:
					fail("%s of acknowledged batch %d of %s (answer %s) is lost", path, b.id, b.client, b.ack)
				case d.UpdateTime != a.WriteResults[k].UpdateTime || d.Version != a.Version:
					fail("%s has updateTime %s version %s; acknowledged batch %d answered %s", path, d.UpdateTime, d.Version, b.id, b.ack)
				}
			}
			continue
		}
		// (c) an unanswered batch was applied whole or not at all.
		switch found {
		case 0:
			notApplied++
		case len(b.paths):
			applied++
			lostApplied[b] = true
		default:
			fail("unanswered batch %d of %s was applied in part: %d of its %d documents", b.id, b.client, found, len(b.paths))
		}
	}
	// (d) nothing that no batch wrote.
	for path := range before {
		if !written[path] {
			fail("%s exists, but no batch wrote it", path)
		}
	}

	// (b) an acknowledged batch sent again answers the first answer.
	for _, b := range batches {
		if b.ack == nil {
			continue
		}
		status, answer, err := c.post("/api/v1/db/commit", u.token, b.body)
		if err != nil || status != http.StatusOK || !bytes.Equal(answer, b.ack) {
			fail("batch %d of %s sent again: %d %v %s; first answer %s", b.id, b.client, status, err, answer, b.ack)
		}
	}
	// (c) an unanswered batch sent again is applied, once.
	for _, b := range batches {
		if b.ack != nil {
			continue
		}
		status, answer, err := c.post("/api/v1/db/commit", u.token, b.body)
		if err != nil || status != http.StatusOK {
			fail("unanswered batch %d of %s sent again: %d %v %s", b.id, b.client, status, err, answer)
			continue
		}
		var a commitAnswer
		if err := json.Unmarshal(answer, &a); err != nil || len(a.WriteResults) != len(b.paths) {
			fail("unanswered batch %d of %s sent again: answer %s (%v)", b.id, b.client, answer, err)
			continue
		}
		if lostApplied[b] {
			// Applied before the kill: the answer is that commit's, as its documents show.
			for k, path := range b.paths {
				if d := before[path]; a.WriteResults[k].UpdateTime != d.UpdateTime || a.Version != d.Version {
					fail("batch %d of %s, applied before the kill (%s at %s, version %s), answers %s when sent again",
						b.id, b.client, path, d.UpdateTime, d.Version, answer)
				}
			}
		} else if v := atoi(a.Version); v <= maxVersion || v <= maxAckVersion {
			fail("batch %d of %s, applied after the restart, has version %d, not above %d (before the kill)",
				b.id, b.client, v, max(maxVersion, maxAckVersion))
		}
		b.ack = answer
		status, again, err := c.post("/api/v1/db/commit", u.token, b.body)
		if err != nil || status != http.StatusOK || !bytes.Equal(again, answer) {
			fail("unanswered batch %d of %s sent a third time: %d %v %s; the second time %s", b.id, b.client, status, err, again, answer)
		}
	}

	// Now every batch's documents are there, as its answer says, and nothing else changed.
	after, err := queryHistory(c, u)
	if err != nil {
		fail("%v", err)
		return
	}
	for _, b := range batches {
		var a commitAnswer
		if json.Unmarshal(b.ack, &a) != nil {
			continue
		}
		for k, path := range b.paths {
			d, ok := after[path]
			switch {
			case !ok:
				fail("%s of batch %d of %s is missing after every batch was sent again", path, b.id, b.client)
			case !contentOK(b, k, d):
			case d.UpdateTime != a.WriteResults[k].UpdateTime || d.Version != a.Version:
				fail("%s has updateTime %s version %s; batch %d of %s answered %s", path, d.UpdateTime, d.Version, b.id, b.client, b.ack)
			}
		}
	}
	for path, d := range after {
		if !written[path] {
			fail("%s exists after the resends, but no batch wrote it", path)
		} else if old, ok := before[path]; ok && !reflect.DeepEqual(old, d) {
			fail("%s changed from %+v to %+v when the batches were sent again", path, old, d)
		}
	}
	// … nor anywhere else among u's documents: only the profile, users/{uid}, besides.
	if paths, err := exportedPaths(c, u); err != nil {
		fail("%v", err)
	} else {
		for _, path := range paths {
			if !written[path] && path != "users/"+u.id {
				fail("%s exists (account export), but no batch wrote it", path)
			}
		}
		if len(paths) != len(after)+1 {
			fail("the account export has %d documents, want the %d of the history and the profile", len(paths), len(after))
		}
	}
	if want := func() (n int) {
		for _, b := range batches {
			n += len(b.paths)
		}
		return n
	}(); len(after) != want {
		fail("%d documents in the history after the resends, want %d", len(after), want)
	}
	return applied, notApplied
}
