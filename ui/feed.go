package ui

import (
	"github.com/arena-playground/arena/engine/match"
)

// Host computes matches away from the thread that draws: on a goroutine on
// the desktop, in a Web Worker in the browser, where Go has one thread and
// a thinking bot would take the page's frames.
type Host interface {
	// Compute starts computing the match st describes.
	Compute(st match.Start) Feed
}

// Feed is one match being computed: its messages (JSON-encoded
// match.Messages) come in, a person's moves go out.
type Feed interface {
	// Poll returns the messages that arrived since the last call, in
	// order, without waiting.
	Poll() [][]byte
	// Act sends a person's move.
	Act(a match.Act)
	// Stop ends the computation; no message arrives after it.
	Stop()
}
