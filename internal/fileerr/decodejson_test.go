package fileerr

import (
	"strings"
	"testing"
)

// Config files are read strictly: unknown keys with their line, wrong
// types, null and trailing text are refused by name.
func TestDecodeJSON(t *testing.T) {
	type conf struct {
		Size int `json:"size"`
	}
	for _, tc := range []struct{ data, want string }{
		{"{\n  \"size\": 8,\n  \"colours\": 3\n}", `c.json:3: unknown field "colours"`},
		{`{"size": "big"}`, `c.json:1:`},
		{"null", `c.json:1: want a JSON object, found null`},
		{"{\"size\": 8}\n{\"size\": 9}", `c.json:2:1: unexpected text after the JSON object`},
		{`{"size": 8} x`, `unexpected text after the JSON object`},
	} {
		var c conf
		err := DecodeJSON("c.json", []byte(tc.data), &c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.data, err, tc.want)
		}
	}
	var c conf
	if err := DecodeJSON("c.json", []byte(" {\"size\": 8}\n\n"), &c); err != nil || c.Size != 8 {
		t.Errorf("a good file: %v %+v", err, c)
	}
}
