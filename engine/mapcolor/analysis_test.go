package mapcolor

import (
	"math/rand/v2"
	"testing"

	"github.com/arena-playground/arena/engine/match"
)

// plain is the fixed-depth negamax with no pruning and no table, with
// strong's leaf (its evaluation and the mover's tempo): the reference
// an analysis's values are held to.
func plain(ds *deepSearch, depth int, side match.Side) int {
	moves := ds.pos.moves(nil)
	sign := 1
	if side == match.P2 {
		sign = -1
	}
	if len(moves) == 0 {
		return sign * 2 * ds.pos.score
	}
	if depth == 0 {
		return sign*ds.eval() + ds.tempo(moves, side)
	}
	best := -Inf
	for _, m := range moves {
		ds.play(m, side)
		best = max(best, -plain(ds, depth-1, side.Other()))
		ds.undo(m, side)
	}
	return best
}

// An analysis's K best values are a full-window fixed-depth search's of
// each colouring, to the half-point; every other one is worth at most
// its bound and no more than the K-th best, and its refutation is the
// opponent's legal move. Positions: each preset's start, and games
// played some moves in at random.
func TestAnalysisValuesAreTheSearchs(t *testing.T) {
	const k, depth = 3, 3
	r := rand.New(rand.NewPCG(7, 7))
	checked := 0
	for _, pr := range (Game{}).Presets() {
		st, err := Game{}.Start(pr.Config, 1)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(State)
		for moves := 0; moves < 6 && s.ToMove() != match.Nobody; moves++ {
			if moves%3 == 0 {
				checkAnalysis(t, pr.Name, s, k, depth)
				checked++
			}
			ms := s.Moves()
			s = s.Play(ms[r.IntN(len(ms))])
		}
	}
	if checked < 4 {
		t.Fatalf("%d positions checked", checked)
	}
}

func checkAnalysis(t *testing.T, name string, s State, k, depth int) {
	t.Helper()
	an, err := match.Analyse(Game{}, match.NewTurn(s, s.Mover(), nil, match.Budget{}), match.Query{K: k, Depth: depth})
	if err != nil {
		t.Fatal(err)
	}
	ref := func(a Move) float64 {
		p := s.w.p
		ds := &deepSearch{pos: s.position(), bot: &searchBot{keys: newZobrist(p)}}
		st, c, _ := s.index(a)
		m := move{st, c}
		ds.play(m, s.Mover())
		return float64(-plain(ds, an.Depth-1, s.Mover().Other())) / 2
	}
	if len(an.Best) != min(k, len(s.Moves())) {
		t.Fatalf("%s, turn %d: %d best of %d moves", name, s.Turn(), len(an.Best), len(s.Moves()))
	}
	for _, b := range an.Best {
		if want := ref(b.Action.(Move)); b.Value != want {
			t.Errorf("%s, turn %d, %s: the analysis says %v, a full-window search at depth %d %v", name, s.Turn(), b.Move, b.Value, an.Depth, want)
		}
		if len(b.Line) == 0 || b.Line[0].Move != b.Move {
			t.Errorf("%s, turn %d, %s: its line %+v", name, s.Turn(), b.Move, b.Line)
		}
	}
	kth := an.Best[len(an.Best)-1].Value
	for _, o := range an.Others {
		if v := ref(o.Action.(Move)); v > o.Bound || v > kth {
			t.Errorf("%s, turn %d, %s: worth %v, above its bound %v or the K-th best %v", name, s.Turn(), o.Move, v, o.Bound, kth)
		}
		if o.Reply != nil {
			after := s.Play(o.Action.(Move))
			if err := after.Check(after.Mover(), o.Reply.Action); err != nil || o.Reply.Side != after.Mover() {
				t.Errorf("%s, turn %d, %s: its refutation %+v: %v", name, s.Turn(), o.Move, o.Reply, err)
			}
		}
	}
}
