package play

import (
	"encoding/json"
	"github.com/arena-playground/arena/engine/match"
)

// Forfeit records a side that lost by breaking the rules of the match: an
// invalid action, a panic, an error or running out of time.
type Forfeit struct {
	Side   match.Side `json:"side"`
	Turn   int        `json:"turn"` // the state the side failed to act in
	Reason string     `json:"reason"`
	// Action is the offending action as the bot returned it, when there was
	// one that could be written down.
	Action json.RawMessage `json:"action,omitempty"`
}

// Result is how a match ended: by the game's rules or by forfeit. When both
// sides forfeit in the same turn the match is a draw.
type Result struct {
	match.Outcome
	Turns    int       `json:"turns"`
	Forfeits []Forfeit `json:"forfeits,omitempty"`
}

// Points is what side scored: 1 for a win, 0.5 for a draw, 0 for a loss.
func (r *Result) Points(side match.Side) float64 {
	switch r.Winner {
	case side:
		return 1
	case match.NoSide:
		return 0.5
	}
	return 0
}

// String summarises the result on one line: "P1 wins: more live cells".
func (r *Result) String() string {
	head := "draw"
	if r.Winner != match.NoSide {
		head = r.Winner.String() + " wins"
	}
	return head + ": " + r.Reason
}

// MaxMatchNotes bounds the bytes of all the notes of one match (each
// note's size as notesBytes counts it): past it a match keeps its moves
// and no more notes, and the first note it drops says so.
const MaxMatchNotes = 64 << 20
