// Package jsonwire reads JSON exactly as encoding/json's Marshal writes
// it, without reflection: no spaces between tokens, an object's keys in
// its struct's order, strings without escapes. A page following a match
// reads thousands of turns a second, each with both bots' notes, and
// encoding/json's reflection was a sixth of the page's main thread.
//
// A Reader never accepts what is not valid JSON, and accepts only the
// forms above: at the first byte it does not take it fails, and every
// later call does nothing. Its caller then hands the whole input to
// encoding/json, which reads what is valid and names what is not. So a
// Reader's use is an optimisation, checked by comparing the two
// (FuzzDecodeMessage in engine/play).
package jsonwire

import (
	"strconv"
	"unicode/utf8"
)

// Reader reads one JSON value from its bytes.
type Reader struct {
	b      []byte
	i      int
	failed bool
}

// New returns a Reader of b.
func New(b []byte) *Reader { return &Reader{b: b} }

// OK reports whether everything so far was read.
func (r *Reader) OK() bool { return !r.failed }

// Done reports whether everything was read, to the last byte.
func (r *Reader) Done() bool { return !r.failed && r.i == len(r.b) }

// Fail stops the reader: at what it, or its caller, does not read.
func (r *Reader) Fail() { r.failed = true }

// Byte reads c.
func (r *Reader) Byte(c byte) {
	if r.failed || r.i >= len(r.b) || r.b[r.i] != c {
		r.Fail()
		return
	}
	r.i++
}

// Next reports whether c comes next, and reads it if so.
func (r *Reader) Next(c byte) bool {
	if r.failed || r.i >= len(r.b) || r.b[r.i] != c {
		return false
	}
	r.i++
	return true
}

// Key reads `"name":` when it comes next, and reports whether it did.
// Any other key, or none, is left for the next call.
func (r *Reader) Key(name string) bool {
	if r.failed {
		return false
	}
	end := r.i + len(name) + 3
	if end > len(r.b) || r.b[r.i] != '"' || string(r.b[r.i+1:end-2]) != name || r.b[end-2] != '"' || r.b[end-1] != ':' {
		return false
	}
	r.i = end
	return true
}

// String reads a string without escapes, in UTF-8.
func (r *Reader) String() string {
	if r.failed || r.i >= len(r.b) || r.b[r.i] != '"' {
		r.Fail()
		return ""
	}
	start := r.i + 1
	ascii := true
	for k := start; k < len(r.b); k++ {
		switch c := r.b[k]; {
		case c == '"':
			s := r.b[start:k]
			if !ascii && !utf8.Valid(s) {
				r.Fail() // encoding/json writes U+FFFD for such bytes
				return ""
			}
			r.i = k + 1
			return string(s)
		case c == '\\' || c < 0x20:
			r.Fail() // escapes are encoding/json's to read; a control byte is not JSON
			return ""
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	r.Fail()
	return ""
}

// number reads a JSON number's bytes: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func (r *Reader) number() []byte {
	if r.failed {
		return nil
	}
	b, k := r.b, r.i
	digits := func() bool {
		start := k
		for k < len(b) && '0' <= b[k] && b[k] <= '9' {
			k++
		}
		return k > start
	}
	if k < len(b) && b[k] == '-' {
		k++
	}
	switch {
	case k < len(b) && b[k] == '0':
		k++
	case !digits():
		r.Fail()
		return nil
	}
	if k < len(b) && b[k] == '.' {
		k++
		if !digits() {
			r.Fail()
			return nil
		}
	}
	if k < len(b) && (b[k] == 'e' || b[k] == 'E') {
		k++
		if k < len(b) && (b[k] == '+' || b[k] == '-') {
			k++
		}
		if !digits() {
			r.Fail()
			return nil
		}
	}
	num := b[r.i:k]
	r.i = k
	return num
}

// Int reads an integer that fits in 64 bits.
func (r *Reader) Int() int64 {
	num := r.number()
	if r.failed {
		return 0
	}
	v, err := strconv.ParseInt(string(num), 10, 64)
	if err != nil { // a fraction, an exponent or too large: encoding/json says which
		r.Fail()
	}
	return v
}

// Float reads a number as a float64.
func (r *Reader) Float() float64 {
	num := r.number()
	if r.failed {
		return 0
	}
	v, err := strconv.ParseFloat(string(num), 64)
	if err != nil {
		r.Fail()
	}
	return v
}

// maxRawDepth is the deepest a raw value nests here; deeper ones are
// encoding/json's.
const maxRawDepth = 32

// Raw reads any JSON value without spaces and returns its bytes: the
// Reader's own, not a copy (a page following a match keeps a turn's
// notes as the bytes they came in).
func (r *Reader) Raw() []byte {
	start := r.i
	r.skip(0)
	if r.failed {
		return nil
	}
	return r.b[start:r.i:r.i]
}

// skip reads one value at nesting depth.
func (r *Reader) skip(depth int) {
	if r.failed || r.i >= len(r.b) || depth > maxRawDepth {
		r.Fail()
		return
	}
	switch c := r.b[r.i]; c {
	case '"':
		r.skipString()
	case '[':
		r.i++
		if r.Next(']') {
			return
		}
		for r.skip(depth + 1); r.Next(','); {
			r.skip(depth + 1)
		}
		r.Byte(']')
	case '{':
		r.i++
		if r.Next('}') {
			return
		}
		for ok := true; ok; ok = r.Next(',') {
			r.skipString()
			r.Byte(':')
			r.skip(depth + 1)
		}
		r.Byte('}')
	case 't':
		r.literal("true")
	case 'f':
		r.literal("false")
	case 'n':
		r.literal("null")
	default:
		r.number()
	}
}

// literal reads word.
func (r *Reader) literal(word string) {
	if r.i+len(word) > len(r.b) || string(r.b[r.i:r.i+len(word)]) != word {
		r.Fail()
		return
	}
	r.i += len(word)
}

// skipString reads a string, escapes and all, checking them.
func (r *Reader) skipString() {
	if r.failed || r.i >= len(r.b) || r.b[r.i] != '"' {
		r.Fail()
		return
	}
	for k := r.i + 1; k < len(r.b); k++ {
		switch c := r.b[k]; {
		case c == '"':
			r.i = k + 1
			return
		case c < 0x20:
			r.Fail()
			return
		case c == '\\':
			if k+1 >= len(r.b) {
				r.Fail()
				return
			}
			switch r.b[k+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				k++
			case 'u':
				if k+5 >= len(r.b) || !hex4(r.b[k+2:k+6]) {
					r.Fail()
					return
				}
				k += 5
			default:
				r.Fail()
				return
			}
		}
	}
	r.Fail()
}

// hex4 reports whether b is four hexadecimal digits.
func hex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// Null reads null when it comes next, and reports whether it did.
func (r *Reader) Null() bool {
	if r.failed || r.i+4 > len(r.b) || string(r.b[r.i:r.i+4]) != "null" {
		return false
	}
	r.i += 4
	return true
}

// List reads an array of values, each by read: empty, not nil, for [],
// as encoding/json reads it.
func List[T any](r *Reader, read func(*Reader) T) []T {
	r.Byte('[')
	if r.Next(']') {
		return []T{}
	}
	// Room for four from the start: most lists on the wire are a few
	// values (a reply's numbers), which otherwise grew two or three
	// times, a tenth of following an Evasion session in the page.
	out := make([]T, 0, 4)
	for more := true; more && r.OK(); more = r.Next(',') {
		out = append(out, read(r))
	}
	r.Byte(']')
	return out
}

// Pair reads an array of exactly two values, each by read.
func Pair[T any](r *Reader, read func(*Reader) T) (a, b T) {
	r.Byte('[')
	a = read(r)
	r.Byte(',')
	b = read(r)
	r.Byte(']')
	return a, b
}
