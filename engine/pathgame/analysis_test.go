package pathgame

import (
	"context"
	"math"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// plain is the analysis's game tree searched in full: no pruning, no
// ordering. The player pays each step and the cheapest path at the
// horizon; the adversary raises an edge of the player's cheapest path.
// It returns the remaining cost (the player's value negated).
func plain(g *Graph, useMax bool, costs []float64, role Role, pos, depth int) float64 {
	var p Paths
	p.Compute(g, costs)
	if depth == 0 {
		return p.Dist[pos]
	}
	if role == Player {
		best := math.Inf(1)
		for _, a := range g.Arcs(pos) {
			c := costs[a.Edge]
			if a.To != g.Y {
				c += plain(g, useMax, costs, Adversary, a.To, depth-1)
			}
			best = min(best, c)
		}
		return best
	}
	best := math.Inf(-1)
	for _, a := range p.Path(pos) {
		old := costs[a.Edge]
		costs[a.Edge] *= g.Factor(a.Edge, useMax)
		best = max(best, plain(g, useMax, costs, Player, pos, depth-1))
		costs[a.Edge] = old
	}
	return best
}

// An analysis's K best values are the full tree's at the same depth,
// for the player and the adversary; every other option is worth at most
// its bound and no more than the K-th best, refuted by a legal reply.
// Positions: a generated graph's start and some moves of strong against
// greedy into each game.
func TestAnalysisValuesAreTheSearchs(t *testing.T) {
	const k, depth = 3, 4
	setup := play.Setup{Game: Game{}, Config: &Config{Nodes: 50}, Seed: 5,
		Players: [2]play.Spec{{Name: "strong"}, {Name: "greedy"}}}
	rec, err := play.Play(context.Background(), setup)
	if err != nil {
		t.Fatal(err)
	}
	checked := [2]int{}
	for i := 0; i < rec.Len() && checked[0]+checked[1] < 8; i += 3 {
		s := rec.State(i).(State)
		if s.ToMove() == match.Nobody {
			continue
		}
		r := s.Round()
		side := PlayerSide(s.GameNum())
		if r.Turn == Adversary {
			side = side.Other()
		}
		an, err := match.Analyse(Game{}, match.NewTurn(s, side, nil, match.Budget{}), match.Query{K: k, Depth: depth})
		if err != nil {
			t.Fatal(err)
		}
		if an.Depth != depth {
			t.Fatalf("turn %d: depth %d, want %d", i, an.Depth, depth)
		}
		value := func(a match.Action) float64 {
			after := s.Apply(actsFor(side, a)).(State)
			ar := after.Round()
			if after.GameNum() != s.GameNum() {
				return -ar.Cost + r.Cost // arrived: the step's cost
			}
			rest := plain(s.g, r.UseMax, append([]float64(nil), ar.Costs()...), ar.Turn, ar.Pos, depth-1)
			if r.Turn == Player {
				return -(ar.Cost - r.Cost + rest)
			}
			return rest
		}
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-5*max(1, math.Abs(b)) }
		if len(an.Best) == 0 {
			t.Fatalf("turn %d: no best option", i)
		}
		for _, b := range an.Best {
			if want := value(b.Action); !near(b.Value, want) {
				t.Errorf("turn %d (%s): %s is worth %v, the full tree says %v", i, r.Turn, b.Move, b.Value, want)
			}
			if len(b.Line) != depth && b.Line[len(b.Line)-1].Place != match.AtNode(s.g.Y) {
				t.Errorf("turn %d: %s's line has %d moves and does not reach Y", i, b.Move, len(b.Line))
			}
		}
		kth := an.Best[len(an.Best)-1].Value
		for _, o := range an.Others {
			if want := value(o.Action); want > o.Bound+1e-5*max(1, math.Abs(want)) || o.Bound > kth+1e-9 {
				t.Errorf("turn %d: %s is worth %v, above its bound %v (K-th best %v)", i, o.Move, want, o.Bound, kth)
			}
			if o.Reply != nil {
				after := s.Apply(actsFor(side, o.Action)).(State)
				if err := after.Check(o.Reply.Side, o.Reply.Action); err != nil {
					t.Errorf("turn %d: %s's refutation %s: %v", i, o.Move, o.Reply.Move, err)
				}
			}
		}
		checked[r.Turn]++
	}
	t.Logf("positions checked, player and adversary: %v", checked)
	if checked[Player] < 2 || checked[Adversary] < 2 {
		t.Fatalf("positions checked, player and adversary: %v", checked)
	}
}

// actsFor puts a on side's place of a message pair.
func actsFor(side match.Side, a match.Action) [2]match.Action {
	var acts [2]match.Action
	acts[side] = a
	return acts
}
