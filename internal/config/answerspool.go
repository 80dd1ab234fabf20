package config

import (
	"errors"
	"os"
)

// The answer spools' disk budgets (-answer-spool-bytes, -answer-spool-bytes-per-user): query
// answers, account exports and listen answers are spooled while they are sent, in memory up to
// a small bound and then in unlinked temporary files in AnswerSpoolDir (internal/server
// spool.go). The per-user default holds the largest export a legitimate account can have: its
// history's 10,000 entries at their schema's limits (about 17 KB of JSON each, 170 MB) and its
// profile; the total, four of those at once (docs/operations.md).
const (
	DefaultAnswerSpoolBytes        = 1 << 30
	DefaultAnswerSpoolBytesPerUser = 256 << 20
)

// AnswerSpoolBytesOrDefault is AnswerSpoolBytes, or its default when unset.
func (c Config) AnswerSpoolBytesOrDefault() int64 {
	return orDefault(c.AnswerSpoolBytes, DefaultAnswerSpoolBytes)
}

// AnswerSpoolBytesPerUserOrDefault is AnswerSpoolBytesPerUser, or its default (at most the
// total) when unset.
func (c Config) AnswerSpoolBytesPerUserOrDefault() int64 {
	return orDefault(c.AnswerSpoolBytesPerUser, min(DefaultAnswerSpoolBytesPerUser, c.AnswerSpoolBytesOrDefault()))
}

// answerSpoolOptions are the spools' settings, in -help order.
func answerSpoolOptions() []option {
	return []option{
		{"answer-spool-bytes", "HANDY_ANSWER_SPOOL_BYTES", "", "disk bytes all answers being sent (query answers, account exports, listen answers) may hold at once in their temporary files (bytes, or with KiB, MiB or GiB; default 1GiB); past it an answer is refused with 429 and Retry-After", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			n, err := parseBytes(v)
			c.AnswerSpoolBytes = n
			return err
		}},
		{"answer-spool-bytes-per-user", "HANDY_ANSWER_SPOOL_BYTES_PER_USER", "", "disk bytes one user's answers being sent may hold at once, within -answer-spool-bytes (default 256MiB): above the largest account export", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			n, err := parseBytes(v)
			if err != nil {
				return err
			}
			if n > c.AnswerSpoolBytesOrDefault() {
				return errors.New("must not exceed -answer-spool-bytes")
			}
			c.AnswerSpoolBytesPerUser = n
			return nil
		}},
		{"answer-spool-dir", "HANDY_ANSWER_SPOOL_DIR", "", "directory of the answers' temporary files, unlinked as soon as created (default: the system's temporary directory, $TMPDIR or /tmp)", func(c *Config, v string) error {
			if v == "" {
				return nil
			}
			if fi, err := os.Stat(v); err != nil || !fi.IsDir() {
				return errors.New("must be an existing directory")
			}
			c.AnswerSpoolDir = v
			return nil
		}},
	}
}
