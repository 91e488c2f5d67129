package colosseum

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/arena-playground/arena/engine/match"
)

// Bots lists the game's bots.
func (Game) Bots() []match.BotInfo {
	return []match.BotInfo{
		{Name: "random", Description: "the course's random agent, drawing from the match's stream like the original",
			New: newRandom},
		{Name: "greedy", Description: "scores each move by flood-fill area, distance to the opponent and a trapped penalty; plays the best",
			Marks: "moves, by its score: cells its flood fill reaches after the move less its distance to the opponent, less 20 when the cell is left with three walls (a move that ends the game: ±1e9)",
			New:   func(match.Options) (match.Bot, error) { return match.BotFunc(greedyAct), nil }},
		{Name: "strong", Description: "iterative-deepening alpha-beta with a territory evaluation, win/loss checks and a transposition table",
			Marks:      "moves, by its search's value: cells it reaches first less the cells the opponent does at the depth searched (≤: a bound, searched only far enough to refute it; win/loss: ± the board's cells)",
			Options:    []match.OptionInfo{match.OptNodes, match.OptTime},
			BudgetText: "nodes=28M/N²",
			New:        newStrong},
	}
}

func state(t *match.Turn) (State, error) {
	s, ok := t.State.(State)
	if !ok {
		return State{}, fmt.Errorf("colosseum bot given a %T", t.State)
	}
	return s, nil
}

// randomBot is agents/random_agent.py. It draws from the match's stream,
// as the original drew from NumPy's global one, unless given a seed of its
// own.
type randomBot struct{ own *NumPy }

func newRandom(o match.Options) (match.Bot, error) {
	b := &randomBot{}
	if o.HasSeed {
		b.own = NewNumPy(uint32(o.Seed))
	}
	return b, nil
}

func (b *randomBot) Act(t *match.Turn) (match.Action, error) {
	s, err := state(t)
	if err != nil {
		return nil, err
	}
	r := s.rng
	if b.own != nil {
		r = b.own
	}
	return s.RandomWalk(r), nil
}

// greedyAct is the greedy best-first agent of a student write-up: every
// reachable cell and free side is scored by the area the mover's flood
// fill reaches after the move (c3), the distance to the opponent (c1) and
// a penalty when the cell ends up with three walls (c4), and the best is
// played. A move that ends the game scores by its result. Ties go to the
// first move in generation order.
func greedyAct(t *match.Turn) (match.Action, error) {
	s, err := state(t)
	if err != nil {
		return nil, err
	}
	const c1, c3, c4 = 1.0, 1.0, 20.0
	side := s.Mover()
	best, bestScore := Move{}, -1e18
	cells := map[Cell]int{} // each cell's best move, in marks
	var marks []match.Mark
	b := s.board.Clone()
	opp := s.pos[side.Other()]
	for _, m := range s.Moves(nil) {
		t.Spend(1)
		b.SetWall(m.To, m.Dir)
		mine, theirs, over := b.regions(m.To, opp)
		var score float64
		if over {
			score = 1e9 * float64(sign(mine-theirs))
		} else {
			d := len(b.Path(m.To, opp, Cell{-1, -1})) - 1
			score = c3*float64(mine) - c1*float64(d)
			if bitsSet(b.Walls(m.To)) >= 3 {
				score -= c4
			}
		}
		b.clearWall(m.To, m.Dir)
		if score > bestScore {
			best, bestScore = m, score
		}
		if i, ok := cells[m.To]; !ok {
			cells[m.To] = len(marks)
			marks = append(marks, match.Mark{At: m.Place(), Value: score})
		} else if score > marks[i].Value {
			marks[i] = match.Mark{At: m.Place(), Value: score}
		}
	}
	t.Note.SetEval(bestScore)
	markBest(&t.Note, marks, s.board.N)
	return best, nil
}

// markBest marks each cell's best move, best first so that the bound on
// marks drops the worst; a move that ends the game is marked beyond any
// score of area (the board's), so that the scale still tells the others
// apart.
func markBest(n *match.Note, marks []match.Mark, size int) {
	slices.SortStableFunc(marks, func(a, b match.Mark) int { return cmp.Compare(b.Value, a.Value) })
	for _, m := range marks {
		v, label := m.Value, ""
		switch {
		case v >= 1e9:
			v, label = float64(size*size), "win"
		case v <= -1e9:
			v, label = -float64(size*size), "loss"
		}
		n.Mark(m.At, v, label)
	}
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func bitsSet(w uint8) int {
	n := 0
	for ; w != 0; w &= w - 1 {
		n++
	}
	return n
}

// clearWall removes a wall from both cells: search takes back moves.
func (b *Board) clearWall(c Cell, d Dir) {
	b.walls[c.Row*b.N+c.Col] &^= 1 << d
	if n := c.Step(d); b.In(n) {
		b.walls[n.Row*b.N+n.Col] &^= 1 << d.Opposite()
	}
}
