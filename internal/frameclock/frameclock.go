// Package frameclock keeps what a window's frame measurement reports
// beside its rate: the longest interval between two frames and how many
// were slow (over 250 ms, the limit the README's frame table holds the
// page and the window to). The desktop's -measure and the blank window
// it is compared with (internal/blank) keep it alike; the page keeps the
// same in JavaScript (index.html's arenaFrames).
package frameclock

import (
	"fmt"
	"time"
)

// Slow is the interval past which a frame counts as slow.
const Slow = 250 * time.Millisecond

// Clock is told of each frame as it is drawn.
type Clock struct {
	last    time.Time
	Longest time.Duration
	Slows   int
}

// Frame records a frame drawn at now.
func (c *Clock) Frame(now time.Time) {
	if !c.last.IsZero() {
		d := now.Sub(c.last)
		c.Longest = max(c.Longest, d)
		if d > Slow {
			c.Slows++
		}
	}
	c.last = now
}

// String says it as the measure lines print it.
func (c *Clock) String() string {
	return fmt.Sprintf("longest frame %.0f ms, %d over %.0f ms", float64(c.Longest)/float64(time.Millisecond), c.Slows, float64(Slow)/float64(time.Millisecond))
}
