package pathgame

import "github.com/arena-playground/arena/engine/match"

// MoveKind names a move by the side's role in the round: the player's
// step toward Y or the adversary's raise of an edge's cost
// (analysis.MoveKinds).
func (Game) MoveKind(st match.State, side match.Side, _ match.Action) string {
	s, ok := st.(State)
	if !ok {
		return ""
	}
	if s.RoleOf(side) == Player {
		return "the player's step"
	}
	return "the adversary's raise"
}
