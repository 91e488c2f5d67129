// Package fileerr says what is wrong with a file a person gave arena (a
// config, a map, a replay, a reference trace) as people read it: the
// file, the line and what was expected, never a decoder's offset.
package fileerr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// FileError is an error in a file a person gave us (a config, a map, a
// replay): it names the file, the line when known, and what was expected.
type FileError struct {
	File string
	Line int // 1-based; 0 when unknown
	Col  int // 1-based; 0 when unknown
	Msg  string
}

// Error writes file:line:col: msg, leaving out what is unknown.
func (e *FileError) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Errorf makes a FileError at the line of the JSON value at path in data
// (see JSONLine).
func Errorf(file string, data []byte, path []any, format string, args ...any) error {
	return &FileError{File: file, Line: JSONLine(data, path...), Msg: fmt.Sprintf(format, args...)}
}

// JSONError turns an error of encoding/json about data into a FileError
// that gives the line and column instead of a byte offset.
func JSONError(file string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := LineCol(data, syn.Offset)
		return &FileError{File: file, Line: line, Col: col, Msg: "invalid JSON: " + syn.Error()}
	case errors.As(err, &typ):
		line, col := LineCol(data, typ.Offset)
		what := "value"
		if typ.Field != "" {
			what = typ.Field
		}
		return &FileError{File: file, Line: line, Col: col,
			Msg: fmt.Sprintf("%s: expected %s, found %s", what, jsonKind(typ.Type.Kind().String()), typ.Value)}
	case errors.Is(err, io.ErrUnexpectedEOF):
		line, col := LineCol(data, int64(len(data)))
		return &FileError{File: file, Line: line, Col: col, Msg: "invalid JSON: unexpected end of file"}
	}
	return &FileError{File: file, Msg: err.Error()}
}

func jsonKind(goKind string) string {
	switch goKind {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "a whole number"
	case "float32", "float64":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "slice", "array":
		return "a list"
	case "struct", "map":
		return "an object"
	}
	return goKind
}

// LineCol converts a byte offset in data to a 1-based line and column.
func LineCol(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// JSONLine returns the line of the value at path in the JSON document data,
// or 0 when there is no such value. Path elements are object keys (string)
// and list indices (int); a path ending in a key gives the key's line.
func JSONLine(data []byte, path ...any) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	off, ok := seekJSON(dec, path)
	if !ok {
		return 0
	}
	for off < int64(len(data)) && bytes.IndexByte([]byte(" \t\r\n,:"), data[off]) >= 0 {
		off++
	}
	line, _ := LineCol(data, off)
	return line
}

// seekJSON reads dec up to the value at path and returns its offset.
func seekJSON(dec *json.Decoder, path []any) (int64, bool) {
	if len(path) == 0 {
		return dec.InputOffset(), true
	}
	tok, err := dec.Token()
	if err != nil {
		return 0, false
	}
	switch want := path[0].(type) {
	case string:
		if tok != json.Delim('{') {
			return 0, false
		}
		for dec.More() {
			at := dec.InputOffset()
			key, err := dec.Token()
			if err != nil {
				return 0, false
			}
			if key == want {
				if len(path) == 1 {
					return at, true
				}
				return seekJSON(dec, path[1:])
			}
			if !skipJSON(dec) {
				return 0, false
			}
		}
	case int:
		if tok != json.Delim('[') {
			return 0, false
		}
		for i := 0; dec.More(); i++ {
			if i == want {
				return seekJSON(dec, path[1:])
			}
			if !skipJSON(dec) {
				return 0, false
			}
		}
	}
	return 0, false
}

// skipJSON reads one whole value from dec.
func skipJSON(dec *json.Decoder) bool {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return true
		}
	}
}

// DecodeJSON reads data, one JSON object, into v as config files are
// read: a key v does not know, a value of the wrong type, null in place of
// the object and anything after it are errors naming the file and line.
func DecodeJSON(file string, data []byte, v any) error {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		line, _ := LineCol(data, int64(bytes.Index(data, []byte("null"))))
		return &FileError{File: file, Line: line, Msg: "want a JSON object, found null"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			key, _ := strconv.Unquote(name)
			return &FileError{File: file, Line: JSONLine(data, key), Msg: "unknown field " + name}
		}
		return JSONError(file, data, err)
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		for end < int64(len(data)) && bytes.IndexByte([]byte(" \t\r\n"), data[end]) >= 0 {
			end++
		}
		line, col := LineCol(data, end)
		return &FileError{File: file, Line: line, Col: col, Msg: "unexpected text after the JSON object"}
	}
	return nil
}
