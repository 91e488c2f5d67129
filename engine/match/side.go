package match

import "fmt"

// Side is one of the two players. P1 is the first player of the config and
// moves first in alternating games.
type Side int8

// The two sides, and NoSide for "neither" (a draw's winner).
const (
	P1     Side = 0
	P2     Side = 1
	NoSide Side = -1
)

// Sides lists both sides in order, for loops.
var Sides = [2]Side{P1, P2}

// Other returns the opponent of s.
func (s Side) Other() Side { return 1 - s }

// String returns "P1", "P2" or "none".
func (s Side) String() string {
	switch s {
	case P1:
		return "P1"
	case P2:
		return "P2"
	}
	return "none"
}

// MarshalText writes the side as "P1", "P2" or "none".
func (s Side) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads "P1", "P2" or "none".
func (s *Side) UnmarshalText(b []byte) error {
	switch string(b) {
	case "P1":
		*s = P1
	case "P2":
		*s = P2
	case "none":
		*s = NoSide
	default:
		return fmt.Errorf("side %q: want P1, P2 or none", b)
	}
	return nil
}

// Movers is the set of sides that act in a state: one side in alternating
// games, both in simultaneous ones, none when the game is over.
type Movers uint8

// Common mover sets.
const (
	Nobody Movers = 0
	Both   Movers = 1<<P1 | 1<<P2
)

// Only returns the set holding just s.
func Only(s Side) Movers { return 1 << s }

// Has reports whether s is in the set.
func (m Movers) Has(s Side) bool { return m&(1<<s) != 0 }

// Side returns the side of a set with one side (alternating games), or
// P1 when both or none move.
func (m Movers) Side() Side {
	if m == Only(P2) {
		return P2
	}
	return P1
}
