package account

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// Params are argon2id's costs: the one place they are set. A hash records the parameters it was
// made with, so raising them later leaves existing passwords verifiable.
type Params struct {
	Memory  uint32 // KiB
	Time    uint32 // passes
	Threads uint8
	KeyLen  uint32
	SaltLen int
}

// DefaultParams follow OWASP's argon2id recommendation (19 MiB, 2 passes, 1 lane): about 30 ms
// a hash on one core here, so that a 2-core server can afford sign-ins while guessing stays slow.
var DefaultParams = Params{Memory: 19 * 1024, Time: 2, Threads: 1, KeyLen: 32, SaltLen: 16}

var b64 = base64.RawStdEncoding

// hashPassword returns the PHC string of password: $argon2id$v=19$m=…,t=…,p=…$salt$key.
func hashPassword(p Params, password string) (string, error) {
	salt := make([]byte, p.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("account: salt: %w", err)
	}
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	return encodeHash(p, salt, key), nil
}

// dummyHash returns a hash in p's form with a random salt and a random key: checking any
// password against it costs what checking a real hash costs, and none matches (that would take
// a preimage of argon2id), yet making it hashes nothing, which keeps it out of start-up.
func dummyHash(p Params) (string, error) {
	b := make([]byte, p.SaltLen+int(p.KeyLen))
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("account: dummy hash: %w", err)
	}
	return encodeHash(p, b[:p.SaltLen], b[p.SaltLen:]), nil
}

// encodeHash is the PHC string of an argon2id key.
func encodeHash(p Params, salt, key []byte) string {
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key))
}

var errBadHash = errors.New("account: not an argon2id hash")

// verifyPassword reports whether password matches the PHC string, in constant time.
func verifyPassword(encoded, password string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errBadHash
	}
	var p Params
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil {
		return false, errBadHash
	}
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, errBadHash
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false, errBadHash
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}
