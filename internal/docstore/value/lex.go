package value

import (
	"encoding/json"
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// lexer reads JSON tokens from a byte slice as json.Decoder.Token does (the same tokens and
// the same grammar), without its costs: no buffer the input is copied into, no error value
// allocated at the end of every scalar, and the REST API's own keys ("stringValue", "fields",
// …) returned without allocating. A string allocates its content and a number its digits;
// nothing else is allocated per token, so that a parse's memory follows what it builds.
type lexer struct {
	data []byte
	pos  int
	// state is where the grammar is, as json.Decoder's tokenState; stack holds the states of
	// the containers around.
	state int
	stack []int
}

const (
	lexTop = iota
	lexArrayStart
	lexArrayValue
	lexArrayComma
	lexObjectStart
	lexObjectKey
	lexObjectColon
	lexObjectValue
	lexObjectComma
)

// errLexSyntax is any syntax error; the decoder turns it into encoding/json's message.
var errLexSyntax = errors.New("syntax error")

// errLexEnd is the end of the input where a token was expected.
var errLexEnd = errors.New("end of input")

// knownStrings are the keys and constants of the REST encoding, boxed once, so that reading
// one of them allocates nothing.
var knownStrings = func() map[string]json.Token {
	m := map[string]json.Token{}
	for _, s := range []string{"nullValue", "booleanValue", "integerValue", "doubleValue", "timestampValue",
		"stringValue", "bytesValue", "geoPointValue", "arrayValue", "mapValue", "values", "fields",
		"latitude", "longitude", "NULL_VALUE", "NaN", "Infinity", "-Infinity", "writes", "update", "delete",
		"updateMask", "currentDocument", "name", "fieldPaths", "exists", "updateTime", "clientId", "batchId"} {
		m[s] = s
	}
	return m
}()

func (l *lexer) skipSpace() {
	for l.pos < len(l.data) {
		switch l.data[l.pos] {
		case ' ', '\t', '\n', '\r':
			l.pos++
		default:
			return
		}
	}
}

// more reports whether the array or object being read has another element, as
// json.Decoder.More.
func (l *lexer) more() bool {
	l.skipSpace()
	return l.pos < len(l.data) && l.data[l.pos] != ']' && l.data[l.pos] != '}'
}

// atEnd reports whether only white space is left.
func (l *lexer) atEnd() bool {
	l.skipSpace()
	return l.pos == len(l.data)
}

func (l *lexer) valueAllowed() bool {
	switch l.state {
	case lexTop, lexArrayStart, lexArrayValue, lexObjectValue:
		return true
	}
	return false
}

func (l *lexer) valueEnd() {
	switch l.state {
	case lexArrayStart, lexArrayValue:
		l.state = lexArrayComma
	case lexObjectValue:
		l.state = lexObjectComma
	}
}

// token reads the next token: json.Delim, string, json.Number, bool or nil.
func (l *lexer) token() (json.Token, error) {
	for {
		l.skipSpace()
		if l.pos == len(l.data) {
			return nil, errLexEnd
		}
		c := l.data[l.pos]
		switch c {
		case '[', '{':
			if !l.valueAllowed() {
				return nil, errLexSyntax
			}
			l.pos++
			l.stack = append(l.stack, l.state)
			if c == '[' {
				l.state = lexArrayStart
			} else {
				l.state = lexObjectStart
			}
			return json.Delim(c), nil
		case ']', '}':
			if c == ']' && l.state != lexArrayStart && l.state != lexArrayComma ||
				c == '}' && l.state != lexObjectStart && l.state != lexObjectComma {
				return nil, errLexSyntax
			}
			l.pos++
			l.state = l.stack[len(l.stack)-1]
			l.stack = l.stack[:len(l.stack)-1]
			l.valueEnd()
			return json.Delim(c), nil
		case ':':
			if l.state != lexObjectColon {
				return nil, errLexSyntax
			}
			l.pos++
			l.state = lexObjectValue
			continue
		case ',':
			switch l.state {
			case lexArrayComma:
				l.state = lexArrayValue
			case lexObjectComma:
				l.state = lexObjectKey
			default:
				return nil, errLexSyntax
			}
			l.pos++
			continue
		case '"':
			if l.state == lexObjectStart || l.state == lexObjectKey {
				s, err := l.str()
				if err != nil {
					return nil, err
				}
				l.state = lexObjectColon
				return s, nil
			}
		}
		if !l.valueAllowed() {
			return nil, errLexSyntax
		}
		t, err := l.scalar()
		if err != nil {
			return nil, err
		}
		l.valueEnd()
		return t, nil
	}
}

func (l *lexer) scalar() (json.Token, error) {
	rest := l.data[l.pos:]
	switch c := rest[0]; {
	case c == '"':
		return l.str()
	case c == 't' && len(rest) >= 4 && string(rest[:4]) == "true":
		l.pos += 4
		return true, nil
	case c == 'f' && len(rest) >= 5 && string(rest[:5]) == "false":
		l.pos += 5
		return false, nil
	case c == 'n' && len(rest) >= 4 && string(rest[:4]) == "null":
		l.pos += 4
		return nil, nil
	case c == '-' || '0' <= c && c <= '9':
		return l.number()
	}
	return nil, errLexSyntax
}

// number reads a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (l *lexer) number() (json.Token, error) {
	d, i := l.data, l.pos
	if d[i] == '-' {
		i++
	}
	digits := func() bool {
		start := i
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
		return i > start
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case !digits():
		return nil, errLexSyntax
	}
	if i < len(d) && d[i] == '.' {
		i++
		if !digits() {
			return nil, errLexSyntax
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !digits() {
			return nil, errLexSyntax
		}
	}
	n := json.Number(d[l.pos:i])
	l.pos = i
	return n, nil
}

// str reads a string token. The input is valid UTF-8 without lone surrogate escapes
// (newDecoder checked), so only the grammar is checked here.
func (l *lexer) str() (json.Token, error) {
	d := l.data
	start := l.pos + 1
	i := start
	for i < len(d) && d[i] != '"' && d[i] != '\\' && d[i] >= 0x20 {
		i++
	}
	if i < len(d) && d[i] == '"' {
		l.pos = i + 1
		if t, ok := knownStrings[string(d[start:i])]; ok {
			return t, nil
		}
		return string(d[start:i]), nil
	}
	// Escapes: decoded into a buffer of the raw length at most.
	buf := make([]byte, 0, i-start+16)
	buf = append(buf, d[start:i]...)
	for {
		if i >= len(d) || d[i] < 0x20 {
			return nil, errLexSyntax
		}
		switch d[i] {
		case '"':
			l.pos = i + 1
			return string(buf), nil
		case '\\':
			if i+1 >= len(d) {
				return nil, errLexSyntax
			}
			i++
			switch d[i] {
			case '"', '\\', '/':
				buf = append(buf, d[i])
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := hex4(d[i+1:])
				if !ok {
					return nil, errLexSyntax
				}
				i += 4
				if utf16.IsSurrogate(r) {
					lo, ok := rune(0), false
					if i+6 < len(d) && d[i+1] == '\\' && d[i+2] == 'u' {
						lo, ok = hex4(d[i+3:])
					}
					if !ok {
						return nil, errLexSyntax // newDecoder refused a lone surrogate already
					}
					r = utf16.DecodeRune(r, lo)
					i += 6
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return nil, errLexSyntax
			}
			i++
		default:
			buf = append(buf, d[i])
			i++
		}
	}
}

// count returns how many elements the array or object whose opening bracket was just read
// holds, reading no further than the valid prefix of the input (limit): the capacity to give
// what is built from it, so that nothing grows by copying. Strings are skipped whole.
func (l *lexer) count(limit int) int {
	depth, n, i := 0, 0, l.pos
	d := l.data[:max(limit, l.pos)]
	for ; i < len(d); i++ {
		switch c := d[i]; c {
		case '"':
			if depth == 0 && n == 0 {
				n = 1
			}
			for i++; i < len(d) && d[i] != '"'; i++ {
				if d[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			if depth == 0 && n == 0 {
				n = 1
			}
			depth++
		case ']', '}':
			if depth == 0 {
				return n
			}
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		case ' ', '\t', '\n', '\r':
		default:
			if depth == 0 && n == 0 {
				n = 1
			}
		}
	}
	return n
}
