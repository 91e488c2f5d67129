package pathgame

import (
	"math"
	"slices"
)

// Replacement finds, for every edge of the cheapest path from a node to Y,
// the cheapest path that avoids that edge, with two Dijkstras and one
// sort of the graph's edges in all (Hershberger and Suri's replacement
// paths for undirected graphs): what a raise of each path edge would
// leave the player then follows without a Dijkstra per edge. On a graph
// at the 5,000-node limit whose path is 4,999 edges long, that is the
// difference between one adversary move and 4,999 shortest-path searches.
//
// Cut the cheapest path P = v0..vL (v0 the player, vL = Y) at edge i.
// Every node hangs from P in the tree of cheapest paths from v0 at some
// vertex a(x), and meets P on its own cheapest path to Y at b(x). A
// non-path edge (u, w) then gives a walk v0 ~> u -> w ~> Y that avoids
// the path edges a(u) .. b(w)-1, and the cheapest path avoiding edge i is
// the cheapest such walk whose range holds i (for w below the cut in the
// first tree, its cheapest path to Y cannot use the cut edge, since costs
// are positive: so b(w) >= a(w), and every candidate the theorem needs is
// among these).
type Replacement struct {
	Path  []Arc     // P's edges from the player on
	Base  float64   // P's cost
	Avoid []float64 // the cheapest cost to Y without Path[i]; +Inf when Y is cut off

	toY, fromX Paths
	a, b, idx  []int // a(x), b(x), and x's place on P (-1 off it)
	cands      []candidate
	next       []int // union-find over the path's edges: the next one not yet given a value
}

type candidate struct {
	cost     float64
	from, to int // the range of path edges avoided: from .. to-1
}

// Compute fills r for a player at pos under costs. It returns the nodes
// settled, the work a bot counts for its budget.
func (r *Replacement) Compute(g *Graph, costs []float64, pos int) int {
	work := r.toY.Compute(g, costs)
	r.Path, r.Base = r.toY.Path(pos), r.toY.Dist[pos]
	L := len(r.Path)
	r.Avoid = r.Avoid[:0]
	for range L {
		r.Avoid = append(r.Avoid, math.Inf(1))
	}
	if L == 0 {
		return work
	}
	work += r.fromX.ComputeFrom(g, costs, pos)
	n := g.N()
	r.a, r.b, r.idx = fill(r.a, n, -1), fill(r.b, n, -1), fill(r.idx, n, -1)
	v := pos
	r.a[v], r.b[v], r.idx[v] = 0, 0, 0
	for i, arc := range r.Path {
		v = arc.To
		r.a[v], r.b[v], r.idx[v] = i+1, i+1, i+1
	}
	// a: the path vertex each node's branch of the first tree hangs from,
	// parents before children (Dijkstra's order).
	for _, x := range r.fromX.Order {
		if r.a[x] < 0 {
			r.a[x] = r.a[r.fromX.Next[x].To]
		}
	}
	// b: where each node's cheapest path to Y meets P.
	for _, x := range r.toY.Order {
		if r.b[x] < 0 {
			r.b[x] = r.b[r.toY.Next[x].To]
		}
	}
	r.cands = r.cands[:0]
	for e, ed := range g.Edges {
		if i, j := r.idx[ed.A], r.idx[ed.B]; i >= 0 && j >= 0 && (i-j == 1 || j-i == 1) {
			continue // a path edge: the pair is unique, and P is simple
		}
		r.offer(ed.A, ed.B, costs[e])
		r.offer(ed.B, ed.A, costs[e])
	}
	if L <= directPaths {
		for _, c := range r.cands {
			for i := c.from; i < c.to; i++ {
				r.Avoid[i] = min(r.Avoid[i], c.cost)
			}
		}
		return work
	}
	slices.SortFunc(r.cands, func(p, q candidate) int {
		switch {
		case p.cost < q.cost:
			return -1
		case p.cost > q.cost:
			return 1
		}
		return p.from - q.from
	})
	// Paint: each path edge takes the cheapest candidate covering it.
	r.next = r.next[:0]
	for i := range L + 1 {
		r.next = append(r.next, i)
	}
	for _, c := range r.cands {
		for i := r.find(c.from); i < c.to; i = r.find(i) {
			r.Avoid[i] = c.cost
			r.next[i] = i + 1
		}
	}
	return work
}

// directPaths is the path length up to which each candidate updates its
// range directly (at most that many steps each) rather than after a sort
// of them all: on dense graphs the path is short and the candidates many.
const directPaths = 24

// offer adds the walk pos ~> u -> w ~> Y when it avoids some path edge.
func (r *Replacement) offer(u, w int, cost float64) {
	au, bw := r.a[u], r.b[w]
	if au < 0 || bw < 0 || au >= bw {
		return
	}
	r.cands = append(r.cands, candidate{r.fromX.Dist[u] + cost + r.toY.Dist[w], au, bw})
}

// find is the first path edge at or after i without a value yet.
func (r *Replacement) find(i int) int {
	root := i
	for r.next[root] != root {
		root = r.next[root]
	}
	for r.next[i] != root {
		r.next[i], i = root, r.next[i]
	}
	return root
}

func fill(s []int, n, v int) []int {
	s = slices.Grow(s[:0], n)[:n]
	for i := range s {
		s[i] = v
	}
	return s
}
