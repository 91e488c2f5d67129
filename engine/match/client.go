package match

import "time"

// Reported is an error a player reported in its own words instead of a
// move (a Python agent that raised): the match says it as it is.
type Reported string

func (r Reported) Error() string { return string(r) }

// Client is the player's end of a protocol.
type Client interface {
	// Hear reads one line from the host and says what to do with it.
	Hear(line []byte) (Heard, error)
}

// Heard is what a line from the host asks of the player: a move in State
// for Side (State non-nil), answered with WriteReply; a line to write at
// once (Say); or the end of the session (Done). A line can ask nothing.
type Heard struct {
	State State
	Side  Side
	ID    int
	Limit time.Duration
	Say   []byte
	Done  bool
}
