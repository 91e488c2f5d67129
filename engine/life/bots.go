package life

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/arena-playground/arena/engine/match"
)

// Bots lists the game's bots.
func (Game) Bots() []match.BotInfo {
	return []match.BotInfo{
		{Name: "random", Description: "the original sample bots: random legal cells, spending the whole bank",
			New: func(match.Options) (match.Bot, error) { return match.BotFunc(randomAct), nil }},
		{Name: "greedy", Description: "adds the cell that most raises own minus enemy cells one generation ahead, while any does",
			Marks: "cells, by what one more cell there gains: its live cells less the enemy's one generation ahead",
			New:   func(match.Options) (match.Bot, error) { return match.BotFunc(greedyAct), nil }},
		{Name: "strong", Description: "searches placements several generations ahead against a predicted reply",
			Marks:   "cells of the pieces it simulated, by a piece's gain: its live cells less the enemy's after the horizon's generations against the reply it predicts (L: a cell of an L-tromino)",
			Options: []match.OptionInfo{match.OptNodes, match.OptTime, {Name: "horizon", Description: "generations simulated per evaluation (default 4)"}},
			Budget:  match.Budget{Nodes: strongNodes},
			New:     newStrong},
	}
}

// state returns the Life state of a turn.
func state(t *match.Turn) (State, error) {
	s, ok := t.State.(State)
	if !ok {
		return State{}, fmt.Errorf("life bot given a %T", t.State)
	}
	return s, nil
}

// Legal returns the cells side may colonise in s: dead cells within the
// colonisation distance of its live cells, on the torus, in scan order.
func Legal(s State, side match.Side) []Cell {
	b := &s.board
	reach := b.Reach(side, s.cfg.Distance, nil)
	for i := range reach {
		reach[i] &^= b.plane[0][i] | b.plane[1][i]
	}
	var cells []Cell
	b.ForEach(reach, func(c Cell) { cells = append(cells, c) })
	return cells
}

// randomAct is what the original sample bots (kickBot.cpp, run.py) do:
// shuffle the cells near own cells and send as many as the bank allows;
// unlike them it wraps around the torus and never sends a duplicate.
func randomAct(t *match.Turn) (match.Action, error) {
	s, err := state(t)
	if err != nil {
		return nil, err
	}
	cells := Legal(s, t.Side)
	t.Rand.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	// A copy: the match keeps every action, and a slice of the legal cells
	// would keep all of them (on a 4096x4096 board, megabytes a turn).
	return Action(slices.Clone(cells[:min(len(cells), s.bank[t.Side])])), nil
}

// greedyAct adds cells one at a time, each time the one that most raises
// own minus enemy live cells after one generation (the opponent assumed
// idle), while one raises it and the bank allows. Ties go to a random one.
func greedyAct(t *match.Turn) (match.Action, error) {
	s, err := state(t)
	if err != nil {
		return nil, err
	}
	act, score := greedy(s, t.Side, t.Rand, t.Spend, &t.Note)
	t.Note.SetEval(float64(score))
	t.Note.Text = fmt.Sprintf("%d cells, own-enemy next generation %+d", len(act), score)
	return act, nil
}

// greedy is the greedy choice and its score (own minus enemy cells after
// one generation). With r nil, ties go to the first cell in scan order;
// spend, when set, is told of each simulated generation; note, when set,
// is marked with the gain of each cell that would gain, weighed for the
// first one.
func greedy(s State, side match.Side, r *rand.Rand, spend func(int64) bool, note *match.Note) (Action, int) {
	cands := Legal(s, side)
	work := s.board.Clone()
	l := newLookahead(&work, s.cfg.Ruleset, s.cfg.Rules, side, 1, nil, spend)
	cur := l.baseScore
	act := Action{}
	var weighed []match.Mark
	for len(act) < s.bank[side] {
		best, bestScore, ties := -1, cur, 0
		for i, c := range cands {
			if work.At(c.Row, c.Col) != Dead {
				continue
			}
			gain := l.value([]Cell{c}, c)
			if note != nil && len(act) == 0 && gain > 0 { // greedy takes only a cell that gains
				weighed = append(weighed, match.Mark{At: match.AtCell(c.Row, c.Col), Value: float64(gain)})
			}
			v := cur + gain
			switch {
			case v > bestScore:
				best, bestScore, ties = i, v, 1
			case v == bestScore && best >= 0 && r != nil:
				if ties++; r.IntN(ties) == 0 {
					best = i
				}
			}
		}
		if best < 0 {
			break
		}
		c := cands[best]
		work.Set(c.Row, c.Col, OwnerOf(side))
		act = append(act, c)
		cur = bestScore
		l.reset(&work)
	}
	if note != nil {
		// The best first, so that the bound on marks drops the worst.
		slices.SortStableFunc(weighed, func(a, b match.Mark) int { return cmp.Compare(b.Value, a.Value) })
		for i, m := range weighed {
			if i == lifeMarks {
				note.MarksLeft += len(weighed) - lifeMarks
				break
			}
			note.Mark(m.At, m.Value, "")
		}
	}
	return act, cur
}
