package colosseum

import (
	"math/rand/v2"
	"testing"

	"github.com/arena-playground/arena/engine/match"
)

// minimax is the plain fixed-depth search, no pruning and no table: the
// reference an analysis's values are held to.
func minimax(sr *search, side match.Side, depth, ply int) int {
	if depth == 0 {
		return sr.eval(side)
	}
	best := -inf
	for _, m := range sr.moves(side, nil) {
		from := sr.play(side, m)
		var v int
		if over, mine, theirs := sr.ended(side, m); over {
			v = terminal(mine, theirs, ply)
		} else {
			v = -minimax(sr, side.Other(), depth-1, ply+1)
		}
		sr.unplay(side, m, from)
		best = max(best, v)
	}
	return best
}

// reference is an option's value by minimax at depth plies, in the
// analysis's unit.
func reference(s State, m Move, depth int) (float64, string) {
	side := s.Mover()
	sr := newSearch(s, match.NewTurn(s, side, nil, match.Budget{}))
	sr.play(side, m)
	v := 0
	if over, mine, theirs := sr.ended(side, m); over {
		v = terminal(mine, theirs, 0)
	} else {
		v = -minimax(sr, side.Other(), depth-1, 1)
	}
	return sr.decode(v)
}

// playedOut is a 6x6 game after some random moves.
func playedOut(seed uint64, moves int) State {
	s := position(6, Cell{0, 0}, Cell{5, 5}, nil, match.P1)
	r := rand.New(rand.NewPCG(seed, 1))
	for range moves {
		sr := newSearch(s, match.NewTurn(s, s.Mover(), nil, match.Budget{}))
		ms := sr.moves(s.Mover(), nil)
		next := s.Play(ms[r.IntN(len(ms))])
		if next.over {
			break
		}
		s = next
	}
	return s
}

// An analysis's K best values are a full-window fixed-depth search's of
// each option, to the unit; every other option is worth at most its
// bound, no more than the K-th best, and the reply said to refute it is
// the opponent's legal move. Positions: the opening, games played out
// at random, and one a wall wins at once.
func TestAnalysisValuesAreTheSearchs(t *testing.T) {
	var corridor [][3]int
	for c := range 5 {
		corridor = append(corridor, [3]int{0, c, 2})
	}
	positions := []State{
		position(6, Cell{0, 0}, Cell{5, 5}, nil, match.P1),
		playedOut(1, 6), playedOut(2, 9), playedOut(3, 12),
		position(6, Cell{3, 4}, Cell{0, 0}, corridor, match.P1),
	}
	const k, depth = 3, 3
	for n, s := range positions {
		an, err := match.Analyse(Game{}, match.NewTurn(s, s.Mover(), nil, match.Budget{}), match.Query{K: k, Depth: depth})
		if err != nil {
			t.Fatal(err)
		}
		if an.Depth != depth && !(n == 4 && an.Depth >= 1) || len(an.Best) != k {
			t.Fatalf("position %d: depth %d, %d best; want %d best at depth %d", n, an.Depth, len(an.Best), k, depth)
		}
		for _, b := range an.Best {
			m := b.Action.(Move)
			want, outcome := reference(s, m, an.Depth)
			if b.Value != want || b.Outcome != outcome {
				t.Errorf("position %d, %s: the analysis says %v %s, a full-window search at depth %d %v %s", n, b.Move, b.Value, b.Outcome, an.Depth, want, outcome)
			}
			if len(b.Line) == 0 || b.Line[0].Move != b.Move || b.Line[0].Side != s.Mover() {
				t.Errorf("position %d, %s: its line %+v does not start with it", n, b.Move, b.Line)
			}
		}
		kth := an.Best[k-1].Value
		for _, o := range an.Others {
			m := o.Action.(Move)
			v, _ := reference(s, m, an.Depth)
			if v > o.Bound || v > kth {
				t.Errorf("position %d, %s: worth %v, above its bound %v or the %d-th best %v", n, o.Move, v, o.Bound, k, kth)
			}
			if o.Reply != nil {
				after := s.Play(m)
				r, ok := o.Reply.Action.(Move)
				if !ok || o.Reply.Side != after.Mover() || after.Check(after.Mover(), r) != nil {
					t.Errorf("position %d, %s: its refutation %+v is not the opponent's move", n, o.Move, o.Reply)
				}
			}
		}
		if n == 4 && an.Best[0].Outcome != "win" {
			t.Errorf("the corridor: the best option %+v is not the win", an.Best[0])
		}
	}
}
