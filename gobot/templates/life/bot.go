// Package bot is a Game of Life bot: arena's greedy, move for move.
//
// Act is called for every turn with t.State, the position (a life.State),
// t.Side, the side to move, t.Rand, the bot's own random source, and
// t.Spend, which counts the work done and says when the budget is spent.
// It returns a life.Action: the cells to bring to life, at most the bank.
package bot

import (
	"fmt"

	"github.com/arena-playground/arena/engine/life"
	"github.com/arena-playground/arena/engine/match"
)

// Act adds cells one at a time, each time the one that most raises its
// own minus the enemy's live cells one generation ahead (the enemy
// assumed idle), while one raises it and the bank allows. Ties go to a
// random one of them.
func Act(t *match.Turn) (match.Action, error) {
	s := t.State.(life.State)
	cfg := s.Config()
	work := s.Board().Clone()
	cands := life.Legal(s, t.Side)
	cur := score(&work, cfg.Ruleset, t.Side)
	act := life.Action{}
	for len(act) < s.Bank(t.Side) {
		best, bestScore, ties := -1, cur, 0
		for i, c := range cands {
			if work.At(c.Row, c.Col) != life.Dead {
				continue
			}
			t.Spend(1)
			work.Set(c.Row, c.Col, life.OwnerOf(t.Side))
			v := score(&work, cfg.Ruleset, t.Side)
			work.Set(c.Row, c.Col, life.Dead)
			if len(act) == 0 {
				// Mark each cell weighed for the first pick with what it
				// gains: Thinking (the T key) draws the marks.
				t.Note.Mark(match.AtCell(c.Row, c.Col), float64(v-cur), "")
			}
			switch {
			case v > bestScore:
				best, bestScore, ties = i, v, 1
			case v == bestScore && best >= 0:
				if ties++; t.Rand.IntN(ties) == 0 {
					best = i
				}
			}
		}
		if best < 0 {
			break
		}
		c := cands[best]
		work.Set(c.Row, c.Col, life.OwnerOf(t.Side))
		act = append(act, c)
		cur = bestScore
	}
	t.Note.SetEval(float64(cur))
	t.Note.Text = fmt.Sprintf("%d cells, own-enemy next generation %+d", len(act), cur)
	return act, nil
}

// score is side's live cells less the enemy's one generation after b.
func score(b *life.Board, rules life.Ruleset, side match.Side) int {
	next := life.NewBoard(b.Rows(), b.Cols())
	b.Step(&next, rules)
	return next.Count(side) - next.Count(side.Other())
}
