package frameclock

import (
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	var c Clock
	t0 := time.Unix(0, 0)
	for _, ms := range []int{0, 16, 33, 300, 316, 567, 583} {
		c.Frame(t0.Add(time.Duration(ms) * time.Millisecond))
	}
	// Intervals 16, 17, 267, 16, 251, 16: two over 250 ms, the longest 267.
	if c.Longest != 267*time.Millisecond || c.Slows != 2 {
		t.Errorf("longest %v, %d slow; want 267ms, 2", c.Longest, c.Slows)
	}
	if got, want := c.String(), "longest frame 267 ms, 2 over 250 ms"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	var first Clock
	first.Frame(t0)
	if first.Longest != 0 || first.Slows != 0 {
		t.Errorf("one frame has no interval: longest %v, %d slow", first.Longest, first.Slows)
	}
}
