package value

import (
	"bytes"
	"errors"
	"testing"

	"handy/internal/docstore/status"
)

// FuzzDecodeValue checks that DecodeValue never panics, fails only with
// invalid-argument, and that whatever it accepts encodes, decodes back to an
// equal value with an equal key, and encodes again to the same bytes.
func FuzzDecodeValue(f *testing.F) {
	for _, seed := range []string{
		`{"nullValue":null}`,
		`{"booleanValue":true}`,
		`{"integerValue":"-9223372036854775808"}`,
		`{"integerValue":12}`,
		`{"doubleValue":-0}`,
		`{"doubleValue":"NaN"}`,
		`{"doubleValue":1e-7}`,
		`{"timestampValue":"1969-12-31T23:59:59.9999999+01:00"}`,
		`{"stringValue":"a\u0000\ud83d\ude00"}`,
		`{"bytesValue":"AP8="}`,
		`{"geoPointValue":{"latitude":-90,"longitude":180}}`,
		`{"arrayValue":{"values":[{"mapValue":{"fields":{"a":{"arrayValue":{}}}}}]}}`,
		`{"mapValue":{"fields":{"b":{"nullValue":null},"a":{"mapValue":{}}}}}`,
		nested(19, `{"mapValue":{"fields":{"a":{"nullValue":null}}}}`),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := Decode(raw)
		if err != nil {
			if !errors.Is(err, status.ErrInvalidArgument) {
				t.Fatalf("error without invalid-argument: %v", err)
			}
			return
		}
		enc, err := v.MarshalJSON()
		if err != nil {
			t.Fatalf("accepted %q but cannot encode it: %v", raw, err)
		}
		w, err := Decode(enc)
		if err != nil {
			t.Fatalf("re-decoding %s: %v", enc, err)
		}
		if !identical(v, w) && !(hasNaN(v) && Equal(v, w)) {
			t.Fatalf("%q decodes to %#v, its encoding %s to %#v", raw, v, enc, w)
		}
		if !bytes.Equal(AppendKey(nil, v), AppendKey(nil, w)) {
			t.Fatalf("keys differ for %s", enc)
		}
		again, err := w.MarshalJSON()
		if err != nil || !bytes.Equal(enc, again) {
			t.Fatalf("re-encoding %s gave %s, %v", enc, again, err)
		}
		if Depth(v) > MaxDepth {
			t.Fatalf("accepted depth %d", Depth(v))
		}
	})
}
