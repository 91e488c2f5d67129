package match

import (
	"encoding/json"
	"math"
	"testing"
)

// Counts stay integers at any size (Evasion's time-out score is Java's
// Long.MAX_VALUE, which a float64 cannot hold), and costs stay real
// numbers even when whole, so that each reads back as what it was.
func TestScoreJSON(t *testing.T) {
	for _, c := range []struct {
		s    Score
		json string
	}{
		{Count(0), "0"},
		{Count(154), "154"},
		{Count(math.MaxInt64), "9223372036854775807"},
		{Count(-3), "-3"},
		{Cost(0), "0.0"},
		{Cost(4), "4.0"},
		{Cost(14.24), "14.24"},
		{Cost(2.092e16), "2.092e+16"},
		{Cost(math.Inf(1)), "1e999"}, // a shortest-path player who never arrived
		{Cost(math.Inf(-1)), "-1e999"},
	} {
		b, err := json.Marshal(c.s)
		if err != nil || string(b) != c.json {
			t.Errorf("%#v: %s, %v; want %s", c.s, b, err, c.json)
			continue
		}
		var back Score
		if err := json.Unmarshal(b, &back); err != nil || back != c.s {
			t.Errorf("%s reads back as %#v, %v; want %#v", b, back, err, c.s)
		}
	}
	for _, bad := range []string{`"7"`, "99999999999999999999", "1e999x", "true"} {
		var s Score
		if err := json.Unmarshal([]byte(bad), &s); err == nil {
			t.Errorf("%s read as %#v, want an error", bad, s)
		}
	}
	if _, err := json.Marshal(Cost(math.NaN())); err == nil {
		t.Error("a cost that is not a number was written")
	}
}

func TestScoreString(t *testing.T) {
	for s, want := range map[Score]string{
		Count(math.MaxInt64): "9223372036854775807",
		Count(48):            "48",
		Cost(14.24):          "14.24",
		Cost(7):              "7",
		Cost(2.092e16):       "2.09e+16",
	} {
		if got := s.String(); got != want {
			t.Errorf("%#v: %q, want %q", s, got, want)
		}
	}
}
