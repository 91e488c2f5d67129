// Package bot is a Colosseum bot: arena's greedy, move for move.
//
// Act is called for every move with t.State, the position (a
// colosseum.State), t.Side, the side to move, t.Rand, the bot's own random
// source, and t.Spend, which counts the work done and says when the
// budget is spent. It returns a colosseum.Move: where to step and which
// side of that cell to wall.
package bot

import (
	"math"
	"math/bits"

	"github.com/arena-playground/arena/engine/colosseum"
	"github.com/arena-playground/arena/engine/match"
)

// Act scores every move by the area the mover can still reach after it,
// less the distance to the opponent, less 20 when the cell ends up
// walled on three sides; a move that ends the game scores by its
// result. It plays the best, the first in the order Moves lists them
// when several tie.
func Act(t *match.Turn) (match.Action, error) {
	s := t.State.(colosseum.State)
	opp := s.Pos(s.Mover().Other())
	var best colosseum.Move
	bestScore := math.Inf(-1)
	for _, m := range s.Moves(nil) {
		t.Spend(1)
		b := s.Board().Clone()
		b.SetWall(m.To, m.Dir)
		mine := b.Region(m.To)
		var score float64
		if !mine[opp.Row*b.N+opp.Col] { // walled apart: the game ends
			score = 1e9 * sign(count(mine)-count(b.Region(opp)))
		} else {
			d := len(b.Path(m.To, opp, colosseum.Cell{Row: -1, Col: -1})) - 1
			score = float64(count(mine) - d)
			if bits.OnesCount8(b.Walls(m.To)) >= 3 {
				score -= 20
			}
		}
		// Mark the move on the board with its score: the page and the
		// window draw marks when Thinking is on (the T key). A note keeps
		// match.MaxMarks of them and counts the rest. This bot's scores
		// are exact for every move; a bot that searches with alpha-beta
		// knows exact values for its best few only: it marks those K
		// with their values, and the others with the bound its search
		// proved, labelled "≤" (as arena analyse lists them).
		t.Note.Mark(m.Place(), score, "")
		if score > bestScore {
			best, bestScore = m, score
		}
	}
	t.Note.SetEval(bestScore)
	return best, nil
}

// count is the number of cells a region holds.
func count(region []bool) int {
	n := 0
	for _, in := range region {
		if in {
			n++
		}
	}
	return n
}

func sign(x int) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
