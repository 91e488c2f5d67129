package colosseum

import "github.com/arena-playground/arena/engine/match"

// MoveKind names a move by where it leaves the mover against the
// opponent, the patterns the course's agents are built on: a wall
// between the mover and the opponent beside it (fencing them off), a
// move beside the opponent with the wall elsewhere, toward them, away
// from them, or at the same distance (analysis.MoveKinds).
func (Game) MoveKind(st match.State, side match.Side, a match.Action) string {
	s, ok := st.(State)
	m, isMove := a.(Move)
	if !ok || !isMove {
		return ""
	}
	opp, from := s.Pos(side.Other()), s.Pos(side)
	near, was := manhattan(m.To, opp), manhattan(from, opp)
	switch {
	case near == 1 && m.To.Step(m.Dir) == opp:
		return "wall between you and the opponent"
	case near == 1:
		return "beside the opponent, the wall elsewhere"
	case near < was:
		return "toward the opponent"
	case near > was:
		return "away from the opponent"
	}
	return "at the same distance from the opponent"
}

func manhattan(a, b Cell) int { return abs(a.Row-b.Row) + abs(a.Col-b.Col) }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
