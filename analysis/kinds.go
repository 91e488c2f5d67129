package analysis

import "github.com/arena-playground/arena/engine/match"

// MoveKinds is implemented by games that say what kind of move a move
// is, in the words a course teaches the game in (Colosseum's wall beside
// the opponent, map colouring's state with the most neighbours left):
// a student's costly decisions are grouped by it, so that a pattern that
// loses across a term shows as one line.
type MoveKinds interface {
	// MoveKind names the kind of side's action a in s, a few words; ""
	// where the game has nothing to say of it.
	MoveKind(s match.State, side match.Side, a match.Action) string
}

// MoveKind is the kind of side's action a in s, as g names it; "" where
// g names none.
func MoveKind(g match.Game, s match.State, side match.Side, a match.Action) string {
	if k, ok := g.(MoveKinds); ok && a != nil {
		return k.MoveKind(s, side, a)
	}
	return ""
}
