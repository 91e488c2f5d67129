// Package bot is a node-budgeted search written as a person would write
// one in the page: Colosseum negamax with alpha-beta, deepening one ply
// at a time while t.Spend allows, scoring a leaf by the cells each side
// can still reach. The benchmarks count its nodes a second, interpreted
// and compiled, beside compiled strong's.
package bot

import (
	"github.com/arena-playground/arena/engine/colosseum"
	"github.com/arena-playground/arena/engine/match"
)

// Act deepens while the budget lasts and plays the best move of the
// deepest search it finished.
func Act(t *match.Turn) (match.Action, error) {
	s := t.State.(colosseum.State)
	moves := s.Moves(nil)
	best := moves[0]
	for depth := 1; depth <= 8; depth++ {
		m, ok := root(t, s, moves, depth)
		if !ok {
			break
		}
		best = m
	}
	return best, nil
}

func root(t *match.Turn, s colosseum.State, moves []colosseum.Move, depth int) (colosseum.Move, bool) {
	best := moves[0]
	alpha := -1e9
	for _, m := range moves {
		v, ok := negamax(t, s.Play(m), depth-1, -1e9, -alpha)
		if !ok {
			return best, false
		}
		if -v > alpha {
			alpha, best = -v, m
		}
	}
	return best, true
}

func negamax(t *match.Turn, s colosseum.State, depth int, alpha, beta float64) (float64, bool) {
	if !t.Spend(1) {
		return 0, false
	}
	if s.ToMove() == match.Nobody || depth == 0 {
		return eval(s), true
	}
	for _, m := range s.Moves(nil) {
		v, ok := negamax(t, s.Play(m), depth-1, -beta, -alpha)
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
