package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"handy/internal/docstore/status"
)

// Answers that hold many documents (a query's, the account export, a listen's) are spooled, the
// way nginx buffers a proxied answer: each document is encoded as the database hands it over,
// into memory up to spoolMemory bytes, then into an unlinked temporary file. The database read
// ends at the database's speed and gives its connection back; only then is the spool copied to
// the client (answer.go), so that a client that reads slowly costs its connection and a
// 32 KiB buffer, never the answer's size in memory, nor a database connection.
//
// What spools hold is bounded: in memory by spoolMemoryTotal (and spoolMemoryPerUser), past
// which an answer goes to its file from the start; on disk by the configured budgets
// (-answer-spool-bytes, -answer-spool-bytes-per-user), past which the answer is refused with
// resource-exhausted and a Retry-After. Answers are held until written or cut by the write
// deadline (answerStall), so the budgets free up within that.
const (
	spoolMemory        = 64 << 10 // one answer's bytes kept in memory before its file
	spoolMemoryTotal   = 32 << 20 // every answer's in memory together
	spoolMemoryPerUser = 2 << 20  // one user's: its 32 listens' answers of up to 64 KiB each
	// spoolRetryAfter is the wait suggested past a disk budget: answers being written free it
	// as their clients read, and a stalled one is cut by the write deadline.
	spoolRetryAfter = 5 * time.Second
)

// spools holds the budgets of every answer's spool, and where their files go.
type spools struct {
	dir  string // "" for os.TempDir
	mem  *byteBudget
	disk *byteBudget
	open atomic.Int64 // spools not yet closed: answers being built or sent
}

func newSpools(dir string, diskTotal, diskPerUser int64) *spools {
	return &spools{dir: dir, mem: newByteBudget(spoolMemoryTotal, spoolMemoryPerUser), disk: newByteBudget(diskTotal, diskPerUser)}
}

// spool is one answer's JSON elements (a JSON array's contents, without its brackets): a prefix
// in memory, the rest in an unlinked file. Not safe for concurrent use.
type spool struct {
	sp   *spools
	uid  string
	hint string // what the client can do when the answer alone is past the user's budget

	mem      []byte // the first bytes; cap(mem) is reserved from sp.mem
	file     *os.File
	fileSize int64 // bytes in file, reserved from sp.disk
	items    int
	// starts holds each element's offset (before its comma), when elements may be dropped
	// again (a listen's answer: docstore.Answer.Truncate); nil otherwise.
	starts []int64
}

// newSpool starts an empty spool for uid's answer; hint ends the message of a refusal when the
// answer alone is larger than the per-user budget. truncatable keeps the elements' offsets.
func (sp *spools) newSpool(uid, hint string, truncatable bool) *spool {
	s := &spool{sp: sp, uid: uid, hint: hint}
	sp.open.Add(1)
	if truncatable {
		s.starts = []int64{}
	}
	return s
}

// size is the bytes spooled.
func (s *spool) size() int64 { return int64(len(s.mem)) + s.fileSize }

// item encodes v as the next element (json.Marshal: the bytes it would have in the whole
// answer marshalled at once) and spools it.
func (s *spool) item(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	if s.starts != nil {
		s.starts = append(s.starts, s.size())
	}
	if s.items > 0 {
		err = s.write([]byte{','})
	}
	if err == nil {
		err = s.write(b)
	}
	if err != nil {
		if s.starts != nil {
			s.starts = s.starts[:s.items]
		}
		return err
	}
	s.items++
	return nil
}

// write appends p: to memory while the answer's bytes stay within spoolMemory and the memory
// budgets allow, else to the file, within the disk budgets.
func (s *spool) write(p []byte) error {
	if s.file == nil {
		need := len(s.mem) + len(p)
		if need <= cap(s.mem) {
			s.mem = append(s.mem, p...)
			return nil
		}
		if need <= spoolMemory {
			grown := min(spoolMemory, max(2*cap(s.mem), need, 1024))
			if which, _ := s.sp.mem.take(s.uid, int64(grown-cap(s.mem))); which == fits {
				m := make([]byte, len(s.mem), grown)
				copy(m, s.mem)
				s.mem = append(m, p...)
				return nil
			}
		}
	}
	switch which, _ := s.sp.disk.take(s.uid, int64(len(p))); which {
	case overOwner:
		if s.size()+int64(len(p)) > s.sp.disk.perOwner {
			return &status.Error{Code: status.ErrResourceExhausted, RetryAfter: spoolRetryAfter, Message: fmt.Sprintf(
				"this answer is larger than the %d MiB one account's answers may hold while they are sent (-answer-spool-bytes-per-user): %s", s.sp.disk.perOwner>>20, s.hint)}
		}
		return &status.Error{Code: status.ErrResourceExhausted, RetryAfter: spoolRetryAfter, Message: fmt.Sprintf(
			"this account's answers being sent hold %d MiB, the most one account may (-answer-spool-bytes-per-user): read them, then try again", s.sp.disk.perOwner>>20)}
	case overTotal:
		return &status.Error{Code: status.ErrResourceExhausted, RetryAfter: spoolRetryAfter, Message: fmt.Sprintf(
			"the answers the server is sending hold %d MiB, the most it may (-answer-spool-bytes): try again in a moment", s.sp.disk.total>>20)}
	}
	if s.file == nil {
		f, err := os.CreateTemp(s.sp.dir, "handy-answer-*")
		if err == nil {
			// Unlinked at once: the file lives as long as it is open, and a crash leaves nothing.
			err = os.Remove(f.Name())
			if err != nil {
				f.Close()
			}
		}
		if err != nil {
			s.sp.disk.give(s.uid, int64(len(p)))
			return &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", RetryAfter: spoolRetryAfter,
				Message: "The server cannot hold this answer now; try again.", Cause: fmt.Errorf("spool: %w", err)}
		}
		s.file = f
	}
	if _, err := s.file.Write(p); err != nil {
		s.sp.disk.give(s.uid, int64(len(p)))
		// The file's end is unknown now: keep no more.
		return &Error{Status: http.StatusServiceUnavailable, Code: "unavailable", RetryAfter: spoolRetryAfter,
			Message: "The server cannot hold this answer now; try again.", Cause: fmt.Errorf("spool: %w", err)}
	}
	s.fileSize += int64(len(p))
	return nil
}

// truncate drops the elements after the first n (a spool made truncatable).
func (s *spool) truncate(n int) error {
	if s.starts == nil || n < 0 || n > s.items {
		return fmt.Errorf("spool: truncate to %d of %d elements", n, s.items)
	}
	if n == s.items {
		return nil
	}
	off := s.starts[n]
	s.starts, s.items = s.starts[:n], n
	if off <= int64(len(s.mem)) {
		s.mem = s.mem[:off]
		s.closeFile()
		return nil
	}
	keep := off - int64(len(s.mem))
	if err := s.file.Truncate(keep); err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	if _, err := s.file.Seek(keep, 0); err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	s.sp.disk.give(s.uid, s.fileSize-keep)
	s.fileSize = keep
	return nil
}

// closeFile drops the file and gives its bytes back.
func (s *spool) closeFile() {
	if s.file == nil {
		return
	}
	s.file.Close() // unlinked: closing it frees its blocks, and there is nothing to lose
	s.file = nil
	s.sp.disk.give(s.uid, s.fileSize)
	s.fileSize = 0
}

// close gives back everything the spool holds; call it once.
func (s *spool) close() {
	s.closeFile()
	s.sp.mem.give(s.uid, int64(cap(s.mem)))
	s.mem = nil
	s.sp.open.Add(-1) // last: a spool counted closed holds nothing
}
