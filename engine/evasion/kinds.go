package evasion

import "github.com/arena-playground/arena/engine/match"

// MoveKind names a decision by the side's role at the tick: the hunter's
// wall (built, or none) or the prey's step (analysis.MoveKinds).
func (Game) MoveKind(st match.State, side match.Side, a match.Action) string {
	s, ok := st.(State)
	act, isAction := a.(Action)
	if !ok || !isAction {
		return ""
	}
	if s.Hunter() != side {
		return "the prey's step"
	}
	if h, _, _ := s.Orders(act, PreyAction(s, 0, 0)); h.Build != NoWall {
		return "the hunter's wall"
	}
	return "the hunter's wait (no wall)"
}
