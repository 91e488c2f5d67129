// Package bot is a shortest-path bot, in both roles: the player walks
// from X to Y paying each edge's cost, the adversary raises one edge a
// turn.
//
// Act is called for every message the side sends, with t.State, the
// position (a pathgame.State), t.Side, the side to move, t.Rand, the bot's
// own random source, and t.Spend, which counts the work done and says
// when the budget is spent. It returns pathgame.Move(graph, from, to) as
// the player and pathgame.RaiseEdge(graph, edge) as the adversary.
package bot

import (
	"fmt"
	"math"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/pathgame"
)

// paths and repl are kept from move to move: Compute reuses their
// arrays, where new ones each move would cost the garbage collector as
// much again as the search.
var (
	paths pathgame.Paths
	repl  pathgame.Replacement
)

// Act plays greedy's rule, move for move: the player steps along the
// cheapest path to Y as the costs stand now; the adversary raises the
// edge of that path whose raise makes the player's cheapest path the
// dearest.
func Act(t *match.Turn) (match.Action, error) {
	s := t.State.(pathgame.State)
	g, r := s.Graph(), s.Round()
	costs := r.Costs()
	if s.RoleOf(t.Side) == pathgame.Player {
		// Dist[n] is the cheapest cost from n to Y, Next[n] the arc that
		// starts it (Dijkstra from Y).
		t.Spend(int64(paths.Compute(g, costs)))
		for _, a := range g.Arcs(r.Pos) {
			// Mark each way on with what walking it costs, less being
			// better: Thinking (the T key) draws the marks on the graph.
			t.Note.Mark(match.AtNode(a.To), -(costs[a.Edge] + paths.Dist[a.To]), "")
		}
		next := paths.Next[r.Pos]
		if next.Edge < 0 {
			// Y is out of reach: step toward it by hops.
			return pathgame.Move(g, r.Pos, nearer(g, r.Pos)), nil
		}
		t.Note.SetEval(-r.Cost - paths.Dist[r.Pos])
		return pathgame.Move(g, r.Pos, next.To), nil
	}
	// A raise of the path's edge i leaves the player the cheaper of the
	// same path, dearer by that edge's increase, and the cheapest path
	// avoiding edge i (Avoid[i]). Replacement finds every Avoid[i] with
	// two Dijkstras, not one a path edge.
	t.Spend(int64(repl.Compute(g, costs, r.Pos)))
	raise, best := -1, 0.0
	for i, a := range repl.Path {
		c := costs[a.Edge]
		gain := math.Min(c*(g.Factor(a.Edge, r.UseMax)-1), repl.Avoid[i]-repl.Base)
		// Mark the edge with what its raise adds to the player's walk.
		e := g.Edges[a.Edge]
		t.Note.Mark(match.AtEdge(e.A, e.B), gain, "")
		// The nearest of equal raises: gains equal in exact arithmetic
		// may differ in their last bits.
		if gain > best+1e-9*math.Max(repl.Base, 1) {
			raise, best = a.Edge, gain
		}
	}
	if raise < 0 {
		if len(repl.Path) == 0 {
			return nil, fmt.Errorf("the player at %s has no path to raise", g.IDs[r.Pos])
		}
		raise = 0 // no raise lengthens the walk: any will do
	}
	t.Note.SetEval(repl.Base + best)
	return pathgame.RaiseEdge(g, raise), nil
}

// nearer is the neighbour of n fewest hops from Y.
func nearer(g *pathgame.Graph, n int) int {
	arcs := g.Arcs(n)
	best := arcs[0].To
	for _, a := range arcs[1:] {
		if g.Hops[a.To] < g.Hops[best] {
			best = a.To
		}
	}
	return best
}
