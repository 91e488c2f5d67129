package match

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/arena-playground/arena/internal/untrusted"
)

// Score is one side's score as its game counts it: a count (live cells,
// squares of a region, ticks survived, points) or a cost (what the
// shortest-path game's player paid). The originals printed counts as
// integers, up to Java's Long.MAX_VALUE that Evasion scores a hunter's
// time-out with, and costs as Python floats; a Score is written the same
// way in replays and JSON, so an integer stays one whatever its size.
type Score struct {
	n    int64   // the count
	x    float64 // the cost, when real
	real bool
}

// Count returns a whole-number score.
func Count(n int64) Score { return Score{n: n} }

// Cost returns a real-number score.
func Cost(x float64) Score { return Score{x: x, real: true} }

// Float returns the score as a float64, for charts and comparisons; a
// count past 2^53 is rounded.
func (s Score) Float() float64 {
	if s.real {
		return s.x
	}
	return float64(s.n)
}

// IsCost reports whether the score is a real number.
func (s Score) IsCost() bool { return s.real }

// Int returns a count, or a cost truncated.
func (s Score) Int() int64 {
	if s.real {
		return int64(s.x)
	}
	return s.n
}

// String writes a count in full and a cost with two decimals, or in
// three significant digits when it is huge (raised edges compound).
func (s Score) String() string {
	switch {
	case !s.real:
		return strconv.FormatInt(s.n, 10)
	case math.Abs(s.x) >= 1e9:
		return fmt.Sprintf("%.3g", s.x)
	case s.x == math.Trunc(s.x):
		return fmt.Sprintf("%.0f", s.x)
	}
	return fmt.Sprintf("%.2f", s.x)
}

// MarshalJSON writes a count as an integer and a cost as a number with a
// decimal point or an exponent (4.0, 2.092e+16), as Python's repr writes
// a float, so that reading it back gives a cost again.
func (s Score) MarshalJSON() ([]byte, error) {
	if !s.real {
		return strconv.AppendInt(nil, s.n, 10), nil
	}
	switch {
	case math.IsNaN(s.x):
		return nil, fmt.Errorf("score %v is not a number JSON can hold", s.x)
	case math.IsInf(s.x, 1): // a player who never arrived, or whose edges overflowed
		return []byte(infJSON), nil
	case math.IsInf(s.x, -1):
		return []byte("-" + infJSON), nil
	}
	b := strconv.AppendFloat(nil, s.x, 'g', -1, 64)
	if !bytes.ContainsAny(b, ".e") {
		b = append(b, ".0"...)
	}
	return b, nil
}

// infJSON is how an infinite cost is written: a JSON number too large for
// a double, which Go (here), JavaScript's JSON.parse and Python's json
// read as infinity; JSON has no word for it.
const infJSON = "1e999"

// UnmarshalJSON reads an integer as a count and any other number as a
// cost.
func (s *Score) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if !bytes.ContainsAny(b, ".eE") {
		n, err := strconv.ParseInt(string(b), 10, 64)
		if err != nil {
			return fmt.Errorf("score %s: want a whole number within 64 bits or a real number", untrusted.Clip(b))
		}
		*s = Count(n)
		return nil
	}
	x, err := strconv.ParseFloat(string(b), 64)
	if err != nil && !(errors.Is(err, strconv.ErrRange) && math.IsInf(x, 0)) {
		return fmt.Errorf("score %s: want a number", untrusted.Clip(b))
	}
	*s = Cost(x)
	return nil
}
