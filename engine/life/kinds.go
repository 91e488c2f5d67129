package life

import "github.com/arena-playground/arena/engine/match"

// MoveKind names a placement by what it is placed beside: the enemy's
// cells (within two, where it changes their next generations), the
// mover's own, or open space; or no placement (analysis.MoveKinds).
func (Game) MoveKind(st match.State, side match.Side, a match.Action) string {
	s, ok := st.(State)
	cells, isAction := a.(Action)
	if !ok || !isAction {
		return ""
	}
	if len(cells) == 0 {
		return "no placement"
	}
	b := s.Board()
	own, enemy := P1, P2
	if side == match.P2 {
		own, enemy = enemy, own
	}
	near := func(who Owner) bool {
		for _, c := range cells {
			for dr := -2; dr <= 2; dr++ {
				for dc := -2; dc <= 2; dc++ {
					r, col := (c.Row+dr+b.Rows())%b.Rows(), (c.Col+dc+b.Cols())%b.Cols()
					if b.At(r, col) == who {
						return true
					}
				}
			}
		}
		return false
	}
	switch {
	case near(enemy):
		return "beside the enemy's cells"
	case near(own):
		return "beside your own cells"
	}
	return "in open space"
}
