package colosseum

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/arena-playground/arena/engine/match"
)

func init() { match.RegisterAnalyser("colosseum", analyser{}) }

// analyser is strong's search made to explain a position: iterative
// deepening where every option is searched with the window (α, ∞), α
// the K-th best exact value found so far in the iteration. An option
// that beats α gets its exact value (no bound above it can cut: β is
// ∞); one that does not is refuted at a bound, by the reply the search
// found, read from the table right after its search. The table cuts off
// only with entries of the same depth (search.exact), so the K values
// are those of a plain fixed-depth search, to the unit.
type analyser struct{}

// analysed is a root option in an iteration.
type analysed struct {
	m     Move
	v     int  // exact when exact; otherwise the option is worth at most v
	exact bool // a value, not a bound
	line  []sideMove
	reply *sideMove // for a bound: the opponent's move that refutes it
}

// analysisUnit is what a Colosseum value counts.
const analysisUnit = "cells the mover reaches first minus the cells the opponent does (a decided game: the final regions' difference)"

func (analyser) Analyse(t *match.Turn, k, maxDepth int) (*match.Analysis, error) {
	s, err := state(t)
	if err != nil {
		return nil, err
	}
	if t.Budget == (match.Budget{}) && maxDepth == 0 {
		t.Budget.Nodes = max(1000, strongWork/int64(s.board.N*s.board.N))
	}
	sr := newSearch(s, t)
	sr.exact = true
	root, depth := sr.analyse(s.Mover(), k, maxDepth)
	if depth == 0 {
		return nil, fmt.Errorf("analysis: the budget (%v) ended before the first ply was searched", t.Budget)
	}
	an := &match.Analysis{Depth: depth, Nodes: t.Nodes(), Unit: analysisUnit, Best: []match.Variation{}, Others: []match.Refutation{}}
	for _, r := range root {
		value, outcome := sr.decode(r.v)
		if r.exact && len(an.Best) < k {
			v := match.Variation{Move: r.m.String(), Action: r.m, Place: r.m.Place(), Value: value, Outcome: outcome}
			for _, lm := range r.line {
				v.Line = append(v.Line, match.LineMove{Side: lm.side, Move: lm.Move.String(), Action: lm.Move, Place: lm.Place()})
			}
			an.Best = append(an.Best, v)
			continue
		}
		ref := match.Refutation{Move: r.m.String(), Action: r.m, Place: r.m.Place(), Bound: value, Outcome: outcome}
		if r.reply != nil {
			ref.Reply = &match.LineMove{Side: r.reply.side, Move: r.reply.Move.String(), Action: r.reply.Move, Place: r.reply.Place()}
		}
		an.Others = append(an.Others, ref)
	}
	return an, nil
}

// decode turns a search value into the analysis's unit: territory as it
// is, a decided game as its final regions' difference, with its outcome.
func (sr *search) decode(v int) (float64, string) {
	switch {
	case v >= winBase/2:
		return float64((v - winBase + 63) / 64), "win"
	case v <= -winBase/2:
		return -float64((-v - winBase + 63) / 64), "loss"
	}
	return float64(v), ""
}

// analyse deepens until maxDepth (0: no bound), the budget or a decided
// best K, and returns the root's options of the deepest iteration
// completed, exact values first, best first, and that depth.
func (sr *search) analyse(side match.Side, k, maxDepth int) ([]analysed, int) {
	var root []analysed
	for _, m := range sr.moves(side, nil) {
		root = append(root, analysed{m: m})
	}
	done := 0
	for depth := 1; depth <= 64 && (maxDepth == 0 || depth <= maxDepth); depth++ {
		next := slices.Clone(root)
		var best []int // the exact values of this iteration, best first
		for i := range next {
			alpha := -inf
			if len(best) >= k {
				alpha = best[k-1]
			}
			r := &next[i]
			from := sr.play(side, r.m)
			r.reply = nil
			if over, mine, theirs := sr.ended(side, r.m); over {
				r.v = terminal(mine, theirs, 0)
			} else {
				r.v = -sr.negamax(side.Other(), depth-1, -inf, -alpha, 1)
				if e := sr.tt[sr.hash&uint64(len(sr.tt)-1)]; e.key == sr.hash && e.move >= 0 {
					reply := sr.ttMove(e.move)
					r.reply = &sideMove{side.Other(), reply}
				}
			}
			sr.unplay(side, r.m, from)
			if sr.stopped {
				break
			}
			r.exact = r.v > alpha
			if r.exact {
				at, _ := slices.BinarySearchFunc(best, r.v, func(a, b int) int { return cmp.Compare(b, a) })
				best = slices.Insert(best, at, r.v)
				r.line = sr.line(side, r.m, depth)
			}
		}
		if sr.stopped {
			break
		}
		slices.SortStableFunc(next, func(a, b analysed) int {
			if a.exact != b.exact {
				if a.exact {
					return -1
				}
				return 1
			}
			return cmp.Compare(b.v, a.v)
		})
		root, done = next, depth
		if decided(root, k) {
			break
		}
	}
	return root, done
}

// decided reports whether the K best options' values are all decided
// games: a deeper search would say the same.
func decided(root []analysed, k int) bool {
	for i := range min(k, len(root)) {
		if !root[i].exact || root[i].v < winBase/2 && root[i].v > -winBase/2 {
			return false
		}
	}
	return true
}

// ttMove is a move as the table keeps it.
func (sr *search) ttMove(key int32) Move {
	return Move{Cell{int(key/4) / sr.n, int(key/4) % sr.n}, Dir(key % 4)}
}
