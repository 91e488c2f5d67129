package pathgame

import (
	"math"
	"strconv"
)

// The 2017 BabySnakes team (rules §9), ported from its code
// (AdversarialShortestPath/asp.py and dijkstra.py of
// mathewthomas1721/HeuristicProblemSolving) rather than from its
// write-up. What the code does, where the write-up says otherwise:
//
//   - Its route lister, AllPathsN, walks out from Y and expands a node
//     again only at its hop distance, so whatever its bound it lists the
//     shortest routes alone (never one a hop longer). Both roles choose
//     among the routes of fewest hops.
//   - The player knows each raised edge's cost cut to an int (it stores
//     int(new_cost)), so "within 1.0 of the cheapest" is "as cheap".
//   - Ties go to the route whose node ids, read as numbers, come first:
//     Python's heap compares the route tuples.
//   - The adversary adds to each edge's score the best score of the
//     cheapest route on from the edge's far end (max_Penalty, which
//     recurses down the route).
//   - A duplicated edge line counts as two routes, as the team's
//     adjacency lists hold it twice.
//
// Where the port differs: the team's code lists every route and calls
// max_Penalty down the route for every edge (2^hops calls), and its cost
// matrix holds 1,000 nodes; the port scores the first snakeLook edges of
// a route, and max_Penalty only of nodes fewer than snakeLook hops down
// from the player, so that a 5,000-node path stays a game, not a lifetime.
//
// The port finds what the team's lists find without listing routes: a
// route of fewest hops is a walk down the hop layers, so costs and counts
// of routes fill in layer by layer.

// snakeLook is how many edges of a route the port scores: a course
// graph's route has under ten.
const snakeLook = 64

// snake is the per-graph part of the port: arcs in the game message's
// order (duplicates kept), each node's rank as the team's int(id) orders
// it, and the layers' work arrays.
type snake struct {
	forGame *Graph
	down    [][]Arc   // each node's arcs one hop nearer Y, in rank order, duplicates kept
	rank    []int     // int(id), or the node's number if some id is not an int
	rest    []float64 // cheapest cost on to Y down the layers
	count   []float64 // routes of fewest hops on to Y
	from    []float64 // cheapest cost to a node from the route's start
	memo    []float64 // max_Penalty of a node, NaN while unknown
	floor   int64     // max_Penalty is 0 at this many hops from Y and nearer
	only    []int     // unavoidable's memory: a layer's one node on cheap routes
}

// prepare builds the per-graph tables once.
func (s *snake) prepare(g *Graph) {
	if s.forGame == g {
		return
	}
	s.forGame = g
	n := g.N()
	s.rank = make([]int, n)
	for v, id := range g.IDs {
		k, err := strconv.Atoi(id)
		if err != nil {
			for v := range s.rank {
				s.rank[v] = v
			}
			break
		}
		s.rank[v] = k
	}
	s.down = make([][]Arc, n)
	for v, adj := range g.Adj {
		for _, m := range adj {
			if g.Hops[v] != Unreachable && g.Hops[m] == g.Hops[v]-1 {
				e, _ := g.EdgeBetween(v, m)
				s.down[v] = append(s.down[v], Arc{m, e})
			}
		}
		d := s.down[v]
		for i := 1; i < len(d); i++ { // insertion sort: a handful of arcs, stable
			for j := i; j > 0 && s.rank[d[j].To] < s.rank[d[j-1].To]; j-- {
				d[j], d[j-1] = d[j-1], d[j]
			}
		}
	}
	s.rest, s.count, s.from, s.memo = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
}

// layers fills rest and count for every node, Y's layer first, at costs
// cost(e); it returns the arcs it scanned.
func (s *snake) layers(g *Graph, byHops []int, cost func(e int) float64) int {
	scanned := 0
	for _, v := range byHops {
		if v == g.Y {
			s.rest[v], s.count[v] = 0, 1
			continue
		}
		s.rest[v], s.count[v] = math.Inf(1), 0
		for _, a := range s.down[v] {
			s.rest[v] = min(s.rest[v], cost(a.Edge)+s.rest[a.To])
			s.count[v] += s.count[a.To]
		}
		scanned += len(s.down[v])
	}
	return scanned
}

// first is the first step of the team's chosen route from v: the cheapest
// of fewest hops, the first in rank order among equals; where every such
// route costs +Inf, the team's Dijkstra tree's step (the nearer neighbour
// of least rank). -1 at Y.
func (s *snake) first(v int, cost func(e int) float64) Arc {
	best, bestCost := Arc{-1, -1}, math.Inf(1)
	for _, a := range s.down[v] {
		if c := cost(a.Edge) + s.rest[a.To]; c < bestCost {
			best, bestCost = a, c
		}
	}
	if best.To < 0 && len(s.down[v]) > 0 {
		best = s.down[v][0]
	}
	return best
}

// snakeStep is the team's player (get_move): among its routes the
// cheapest at the costs it knows (cut to ints), then, among the routes as
// cheap, the first step from which most routes go on.
func snakeStep(w *work, g *Graph, r *Round) int {
	s := &w.snake
	w.order(g)
	s.prepare(g)
	if len(s.down[r.Pos]) == 0 {
		return nearer(g, r.Pos)
	}
	costs := r.Costs()
	known := func(e int) float64 { return math.Trunc(costs[e]) }
	w.t.Spend(int64(s.layers(g, w.byHops, known)))
	best := s.first(r.Pos, known)
	cheapest := known(best.Edge) + s.rest[best.To]
	for _, a := range s.down[r.Pos] {
		if known(a.Edge)+s.rest[a.To] < cheapest+1 && s.count[a.To] > s.count[best.To] {
			best = a
		}
	}
	w.say("cheapest shortest route %s as it knows the costs, %s routes on", trimFloat(cheapest), trimFloat(s.count[best.To]))
	return best.To
}

// snakeRaise is the team's adversary (get_A_move): each edge of the
// cheapest route of fewest hops scores cost·(f^j − 1), j the hops from
// the player to the edge's far end and f the edge's factor by the team's
// min rule; times 5 when every such route that costs at most 1 more
// passes through both its ends; plus max_Penalty of the far end. The top
// score is raised, the first of equals.
func snakeRaise(w *work, g *Graph, r *Round) int {
	s := &w.snake
	w.order(g)
	s.prepare(g)
	costs := r.Costs()
	cost := func(e int) float64 { return costs[e] }
	w.t.Spend(int64(s.layers(g, w.byHops, cost)))
	for i := range s.memo {
		s.memo[i] = math.NaN()
	}
	s.floor = g.Hops[r.Pos] - snakeLook
	e, score := s.penalty(w, g, r.Pos, cost)
	if e < 0 {
		if a := s.first(r.Pos, cost); a.Edge >= 0 {
			return a.Edge
		}
		return 0
	}
	w.say("raising %s-%s: penalty %s", g.IDs[g.Edges[e].A], g.IDs[g.Edges[e].B], trimFloat(score))
	return e
}

// penalty scores the edges of the team's route from v as get_A_move and
// max_Penalty do, and returns the top edge (-1 if none) and its score;
// max_Penalty of a node is remembered, as the scores below a node do not
// depend on how the route came to it.
func (s *snake) penalty(w *work, g *Graph, v int, cost func(e int) float64) (int, float64) {
	type step struct {
		a    Arc
		from int
	}
	var route []step
	for n := v; n != g.Y && len(route) < snakeLook; {
		a := s.first(n, cost)
		if a.Edge < 0 {
			break
		}
		route = append(route, step{a, n})
		n = a.To
	}
	if len(route) == 0 {
		return -1, 0
	}
	for _, st := range route { // first, as the marks below are shared with the calls down
		s.maxPenalty(w, g, st.a.To, cost)
	}
	sealed := s.unavoidable(w, g, v, cost)
	best, bestScore := -1, -1.0
	for _, st := range route {
		k := max(g.Hops[st.a.To], 0) // the team's Dijkstra gives Y -1, taken as 0
		f := 1 + math.Sqrt(float64(k))
		c := cost(st.a.Edge)
		score := c*math.Pow(f, float64(g.Hops[v]-k)) - c
		if sealed[st.from] && sealed[st.a.To] {
			score *= 5
		}
		score += s.maxPenalty(w, g, st.a.To, cost)
		if score > bestScore {
			best, bestScore = st.a.Edge, score
		}
	}
	return best, bestScore
}

// maxPenalty is max_Penalty of node v: the top score of its route's
// edges, 0 where there is none.
func (s *snake) maxPenalty(w *work, g *Graph, v int, cost func(e int) float64) float64 {
	if !math.IsNaN(s.memo[v]) {
		return s.memo[v]
	}
	if g.Hops[v] <= s.floor {
		return 0
	}
	_, score := s.penalty(w, g, v, cost)
	score = max(score, 0)
	s.memo[v] = score
	return score
}

// unavoidable marks the nodes that every route of fewest hops from v
// costing at most 1 more than the cheapest passes through (edge_in_all
// asks it of an edge's two ends): a node is avoidable when another node
// of its layer lies on such a route. The marks are valid for the nodes
// down from v; w.reach[0] holds them.
func (s *snake) unavoidable(w *work, g *Graph, v int, cost func(e int) float64) []bool {
	sealed := w.reach[0]
	top := g.Hops[v]
	// from: the cheapest way down from v to each node below it.
	for _, u := range w.byHops {
		if g.Hops[u] > top {
			break
		}
		s.from[u] = math.Inf(1)
	}
	s.from[v] = 0
	scanned := 0
	for i := len(w.byHops) - 1; i >= 0; i-- {
		u := w.byHops[i]
		if g.Hops[u] > top || math.IsInf(s.from[u], 1) {
			continue
		}
		for _, a := range s.down[u] {
			s.from[a.To] = min(s.from[a.To], s.from[u]+cost(a.Edge))
		}
		scanned += len(s.down[u])
	}
	w.t.Spend(int64(scanned))
	limit := s.rest[v] + 1
	// only[h]: the one node of layer h that such a route passes, -1 for
	// none yet, -2 for more than one.
	if int64(cap(s.only)) < top+1 {
		s.only = make([]int, top+1)
	}
	only := s.only[:top+1]
	for i := range only {
		only[i] = -1
	}
	for _, u := range w.byHops {
		h := g.Hops[u]
		if h > top {
			break
		}
		sealed[u] = false
		if through := s.from[u] + s.rest[u]; !math.IsInf(s.from[u], 1) && through <= limit {
			if only[h] == -1 {
				only[h] = u
			} else {
				only[h] = -2
			}
		}
	}
	for _, u := range only {
		if u >= 0 {
			sealed[u] = true
		}
	}
	return sealed
}
