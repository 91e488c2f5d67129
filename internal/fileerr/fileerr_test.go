package fileerr

import "testing"

func TestJSONLine(t *testing.T) {
	data := []byte("{\n  \"a\": 1,\n  \"list\": [\n    {\"x\": 1},\n    {\"x\": [1,\n 2]}\n  ],\n  \"z\": {\"k\": true}\n}")
	for _, c := range []struct {
		path []any
		want int
	}{
		{[]any{"a"}, 2}, {[]any{"list"}, 3}, {[]any{"list", 0}, 4}, {[]any{"list", 1}, 5},
		{[]any{"list", 1, "x", 1}, 6}, {[]any{"z", "k"}, 8}, {[]any{"nope"}, 0}, {[]any{"list", 5}, 0},
	} {
		if got := JSONLine(data, c.path...); got != c.want {
			t.Errorf("JSONLine(%v) = %d, want %d", c.path, got, c.want)
		}
	}
}
