package life

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/arena-playground/arena/engine/match"
)

// strongNodes is the strong bot's default budget, in simulated
// generations (of a window around a piece, or of the whole board). On the
// competition board a move takes about 3000; larger boards use more.
const strongNodes = 60000

// strong searches colonisations several generations ahead. It predicts the
// opponent's reply (the greedy choice), lists candidate pieces (single
// cells and L-trominoes, the three-cell seed of a block, which no
// one-cell-at-a-time search can find), scores each piece by simulating the
// board `horizon` generations with it, then adds the best pieces one by
// one while the simulated outcome improves and the bank allows. Near the
// end the horizon shrinks to the turns left, so the last moves maximise
// the final count exactly.
type strong struct {
	horizon int
}

func newStrong(o match.Options) (match.Bot, error) {
	h, err := o.Int("horizon", 4)
	if err != nil {
		return nil, err
	}
	if h < 1 || h > 32 {
		return nil, fmt.Errorf("horizon %d: want 1 to 32 generations", h)
	}
	return &strong{horizon: h}, nil
}

// piece is a candidate addition to an action: cells within the 2x2
// square whose top left is anchor.
type piece struct {
	cells  []Cell
	anchor Cell
	value  int
	order  int32 // its place in candidatePieces' list, which breaks ties
}

// bestFirst sorts pieces by value, the best first, equal values in
// candidatePieces' order: a stable sort's result, from an unstable sort
// that does not merge hundreds of pieces by rotations (it was a twelfth
// of a Life report's time).
func bestFirst(pieces []piece) {
	slices.SortFunc(pieces, byRank)
}

// byRank orders a before b when it ranks first: a higher value, or an
// equal one listed first by candidatePieces.
func byRank(a, b piece) int {
	return cmp.Or(cmp.Compare(b.value, a.value), cmp.Compare(a.order, b.order))
}

// Act chooses the action.
func (b *strong) Act(t *match.Turn) (match.Action, error) {
	s, err := state(t)
	if err != nil {
		return nil, err
	}
	side := t.Side
	h := min(b.horizon, s.cfg.Iterations-s.iter)
	reply, sim, pieces, _ := weigh(s, side, h, t.Spend)
	base := sim.baseScore
	// Only a piece that gains is worth adding: sorting those alone is
	// the same list, without ordering hundreds that are not.
	pieces = slices.DeleteFunc(pieces, func(p piece) bool { return p.value <= 0 })
	bestFirst(pieces)
	markPieces(&t.Note, pieces)
	const shortlist = 24
	pieces = pieces[:min(len(pieces), shortlist)]

	var act Action
	cur := base
	bank := s.bank[side]
	for t.Spend(0) {
		best, bestVal := -1, cur
		for i, p := range pieces {
			if len(act)+len(p.cells) > bank || overlaps(act, p.cells) {
				continue
			}
			v := sim.eval(append(slices.Clip(act), p.cells...))
			if v > bestVal {
				best, bestVal = i, v
			}
		}
		if best < 0 {
			break
		}
		act = append(act, pieces[best].cells...)
		cur = bestVal
		pieces = slices.Delete(pieces, best, best+1)
	}
	t.Note.Depth = h
	t.Note.Nodes = t.Nodes()
	t.Note.SetEval(float64(cur))
	t.Note.Text = fmt.Sprintf("%d cells; predicted reply %d cells; own-enemy in %d generations %+d (idle %+d)",
		len(act), len(reply), h, cur, base)
	if act == nil {
		act = Action{}
	}
	return act, nil
}

// weigh predicts the opponent's reply and values side's candidate
// pieces, each simulated h generations against it, while the budget
// lasts: it returns the pieces valued, in candidatePieces' order, and
// whether that is all of them.
func weigh(s State, side match.Side, h int, spend func(int64) bool) (Action, *lookahead, []piece, bool) {
	reply := predictReply(s, side.Other(), spend)
	sim := newLookahead(&s.board, s.cfg.Ruleset, s.cfg.Rules, side, h, reply, spend)
	pieces := candidatePieces(s, side)
	for i := range pieces {
		if !spend(0) {
			return reply, sim, pieces[:i], false
		}
		pieces[i].value = sim.value(pieces[i].cells, pieces[i].anchor)
	}
	return reply, sim, pieces, true
}

// lifeMarks is how many cells a Life bot marks a turn, its best: a
// 500-iteration match keeps two bots' marks at every turn, and its
// shortlist (strong's 24 pieces) is what it chose from.
const lifeMarks = 24

// markPieces marks each cell of the pieces that would gain with the
// best gain of a piece holding it, best first; a cell whose best is an
// L-tromino is labelled L (the seed of a block, worth nothing alone).
func markPieces(n *match.Note, pieces []piece) {
	seen := map[Cell]bool{}
	for _, p := range pieces {
		label := ""
		if len(p.cells) > 1 {
			label = "L"
		}
		for _, c := range p.cells {
			switch {
			case seen[c]:
			case len(seen) >= lifeMarks: // counted, not kept
				seen[c] = true
				n.MarksLeft++
			default:
				seen[c] = true
				n.Mark(match.AtCell(c.Row, c.Col), float64(p.value), label)
			}
		}
	}
}

func overlaps(a Action, cells []Cell) bool {
	for _, c := range cells {
		if slices.Contains(a, c) {
			return true
		}
	}
	return false
}

// predictReply is the opponent's expected action: what greedy would play,
// without its random tie-breaks. Its simulations count in the budget.
func predictReply(s State, side match.Side, spend func(int64) bool) Action {
	a, _ := greedy(s, side, nil, spend, nil)
	return a
}

// candidatePieces lists every legal cell, and every L-tromino of legal
// cells.
func candidatePieces(s State, side match.Side) []piece {
	legal := Legal(s, side)
	ok := NewBoard(s.board.rows, s.board.cols)
	for _, c := range legal {
		ok.Set(c.Row, c.Col, P1)
	}
	var ps []piece
	for _, c := range legal {
		ps = append(ps, piece{cells: []Cell{c}, anchor: c})
	}
	R, C := s.board.rows, s.board.cols
	at := func(r, c int) (Cell, bool) {
		p := Cell{floorMod(r, R), floorMod(c, C)}
		return p, ok.At(p.Row, p.Col) == P1
	}
	for _, c := range legal {
		// The four L-trominoes in the 2x2 square with c at its top left.
		sq := [4][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}}
		for skip := range 4 {
			var cells []Cell
			for k, d := range sq {
				if k == skip {
					continue
				}
				p, good := at(c.Row+d[0], c.Col+d[1])
				if !good {
					cells = nil
					break
				}
				cells = append(cells, p)
			}
			if len(cells) == 3 && !duplicateCells(cells) {
				ps = append(ps, piece{cells: cells, anchor: c})
			}
		}
	}
	for i := range ps {
		ps[i].order = int32(i)
	}
	return ps
}

func duplicateCells(cs []Cell) bool {
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			if cs[i] == cs[j] {
				return true
			}
		}
	}
	return false
}
