// Package bot is a Colosseum alpha-beta as a student writes one in the
// page: negamax, deepening one ply at a time, each move at most
// maxNodes positions (counted by the bot itself, so that it plays the
// same moves however fast it runs), a leaf scored by the cells each side
// can still reach. Its note says how many positions it searched and how
// deep: the benchmarks count its nodes a second beside strong's, as a
// go: file (built with Go, interpreted, in the page) and compiled into
// arena as this package.
package bot

import (
	"github.com/arena-playground/arena/engine/colosseum"
	"github.com/arena-playground/arena/engine/match"
)

const maxNodes = 20000

// search is one move's search: its positions counted.
type search struct {
	t     *match.Turn
	nodes int64
}

func Act(t *match.Turn) (match.Action, error) {
	s := t.State.(colosseum.State)
	moves := s.Moves(nil)
	best := moves[0]
	sr := &search{t: t}
	depth := 0
	for d := 1; d <= 12; d++ {
		m, ok := sr.root(s, moves, d)
		if !ok {
			break
		}
		best, depth = m, d
	}
	t.Note.Nodes, t.Note.Depth = sr.nodes, depth
	return best, nil
}

func (sr *search) root(s colosseum.State, moves []colosseum.Move, depth int) (colosseum.Move, bool) {
	best := moves[0]
	alpha := -1e9
	for _, m := range moves {
		v, ok := sr.negamax(s.Play(m), depth-1, -1e9, -alpha)
		if !ok {
			return best, false
		}
		if -v > alpha {
			alpha, best = -v, m
		}
	}
	return best, true
}

func (sr *search) negamax(s colosseum.State, depth int, alpha, beta float64) (float64, bool) {
	if sr.nodes >= maxNodes {
		return 0, false
	}
	sr.nodes++
	sr.t.Spend(1)
	moves := s.Moves(nil)
	if depth == 0 || len(moves) == 0 {
		return eval(s), true
	}
	for _, m := range moves {
		v, ok := sr.negamax(s.Play(m), depth-1, -beta, -alpha)
		if !ok {
			return 0, false
		}
		if -v > alpha {
			alpha = -v
		}
		if alpha >= beta {
			break
		}
	}
	return alpha, true
}

// eval is the mover's reachable cells less the other's.
func eval(s colosseum.State) float64 {
	me := s.Mover()
	b := s.Board()
	return float64(cells(b.Region(s.Pos(me))) - cells(b.Region(s.Pos(me.Other()))))
}

func cells(region []bool) int {
	n := 0
	for _, in := range region {
		if in {
			n++
		}
	}
	return n
}
