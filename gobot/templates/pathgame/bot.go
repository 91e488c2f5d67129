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

// Act plays greedy's rule: the player steps along the cheapest path to Y
// as the costs stand now; the adversary raises the edge of that path
// whose raise makes the player's cheapest path the dearest.
func Act(t *match.Turn) (match.Action, error) {
	s := t.State.(pathgame.State)
	g, r := s.Graph(), s.Round()
	costs := r.Costs()
	if s.RoleOf(t.Side) == pathgame.Player {
		dist := toGoal(t, g, costs)
		best, bestCost := -1, math.Inf(1)
		for _, a := range g.Arcs(r.Pos) {
			c := costs[a.Edge] + dist[a.To]
			// Mark each way on with what walking it costs, less being
			// better: Thinking (the T key) draws the marks on the graph.
			t.Note.Mark(match.AtNode(a.To), -c, "")
			if c < bestCost {
				best, bestCost = a.To, c
			}
		}
		if best < 0 {
			return nil, fmt.Errorf("no way on from node %s", g.IDs[r.Pos])
		}
		t.Note.SetEval(-r.Cost - bestCost)
		return pathgame.Move(g, r.Pos, best), nil
	}
	raise, worst := -1, -1.0
	for _, e := range cheapestPath(t, g, costs, r.Pos) {
		raised := append([]float64(nil), costs...)
		raised[e] *= g.Factor(e, r.UseMax)
		c := toGoal(t, g, raised)[r.Pos]
		// Mark the edge with what the player's walk would cost after it.
		t.Note.Mark(match.AtEdge(g.Edges[e].A, g.Edges[e].B), c, "")
		if c > worst {
			raise, worst = e, c
		}
	}
	if raise < 0 {
		return nil, fmt.Errorf("the player at %s has no path to raise", g.IDs[r.Pos])
	}
	t.Note.SetEval(worst)
	return pathgame.RaiseEdge(g, raise), nil
}

// toGoal is every node's cheapest cost to Y (Dijkstra from Y).
func toGoal(t *match.Turn, g *pathgame.Graph, costs []float64) []float64 {
	dist := make([]float64, g.N())
	done := make([]bool, g.N())
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	dist[g.Y] = 0
	for {
		u := -1
		for i := range dist {
			if !done[i] && !math.IsInf(dist[i], 1) && (u < 0 || dist[i] < dist[u]) {
				u = i
			}
		}
		if u < 0 {
			return dist
		}
		done[u] = true
		t.Spend(1)
		for _, a := range g.Arcs(u) {
			if d := dist[u] + costs[a.Edge]; d < dist[a.To] {
				dist[a.To] = d
			}
		}
	}
}

// cheapestPath lists the edges of the cheapest path from node to Y.
func cheapestPath(t *match.Turn, g *pathgame.Graph, costs []float64, node int) []int {
	dist := toGoal(t, g, costs)
	var path []int
	for node != g.Y && len(path) < g.N() {
		next := pathgame.Arc{To: -1}
		nextCost := math.Inf(1)
		for _, a := range g.Arcs(node) {
			if c := costs[a.Edge] + dist[a.To]; c < nextCost {
				next, nextCost = a, c
			}
		}
		if next.To < 0 {
			break
		}
		path = append(path, next.Edge)
		node = next.To
	}
	return path
}
