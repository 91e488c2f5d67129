package pathgame

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
)

// randomRound is a generated graph of n nodes with some edges raised a few
// times each, and the player somewhere that reaches Y.
func randomRound(t testing.TB, n int, seed uint64) (*Graph, Round) {
	t.Helper()
	data, err := Generate(n, seed)
	if err != nil {
		t.Fatal(err)
	}
	g, err := ParseGraph("gen", data)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRound(g, false)
	rng := rand.New(rand.NewPCG(seed, 7))
	for range rng.IntN(3 * n) {
		r.Raise(rng.IntN(len(g.Edges)))
	}
	for {
		r.Pos = rng.IntN(g.N())
		if g.Hops[r.Pos] != Unreachable {
			return g, r
		}
	}
}

// TestReplacementPaths checks each path edge's replacement cost against a
// Dijkstra with that edge removed, on generated graphs with raised costs
// (paths under directPaths edges: each candidate paints its range), and
// on a path, a cycle and a ladder of 30 (longer: the sorted sweep), the
// ladder's every edge having an equal twin.
func TestReplacementPaths(t *testing.T) {
	type tc struct {
		name string
		g    *Graph
		r    Round
	}
	var cases []tc
	for seed := range uint64(40) {
		g, r := randomRound(t, 60+int(seed)*7, seed)
		cases = append(cases, tc{fmt.Sprintf("generated-%d", seed), g, r})
	}
	for _, shape := range []string{"path", "cycle", "ladder"} {
		g := shapeGraph(t, shape, 30)
		cases = append(cases, tc{shape, g, NewRound(g, false)})
	}
	for _, c := range cases {
		var rp Replacement
		rp.Compute(c.g, c.r.Costs(), c.r.Pos)
		var want Paths
		want.Compute(c.g, c.r.Costs())
		if rp.Base != want.Dist[c.r.Pos] || len(rp.Path) != len(want.Path(c.r.Pos)) {
			t.Fatalf("%s: base %v over %d edges, want %v over %d", c.name, rp.Base, len(rp.Path), want.Dist[c.r.Pos], len(want.Path(c.r.Pos)))
		}
		costs := slices.Clone(c.r.Costs())
		for i, a := range rp.Path {
			old := costs[a.Edge]
			costs[a.Edge] = math.Inf(1)
			want.Compute(c.g, costs)
			costs[a.Edge] = old
			got, exp := rp.Avoid[i], want.Dist[c.r.Pos]
			if !(got == exp || math.Abs(got-exp) <= 1e-9*exp) {
				t.Fatalf("%s: without path edge %d of %d: %v, want %v", c.name, i, len(rp.Path), got, exp)
			}
		}
	}
}

// TestGreedyRaiseMatchesDijkstras checks the adversary's choice against
// the plain way: a Dijkstra after each candidate raise.
func TestGreedyRaiseMatchesDijkstras(t *testing.T) {
	for seed := range uint64(60) {
		g, r := randomRound(t, 80+int(seed)*5, seed)
		b := &bot{}
		got := b.greedyRaise(newTestTurn(), g, &r)
		gains, base := plainGains(g, &r)
		best := 0.0
		for _, gain := range gains {
			best = max(best, gain)
		}
		if got < 0 {
			if best > 1e-9*base {
				t.Fatalf("seed %d: no raise chosen, but one lengthens the path by %v", seed, best)
			}
			continue
		}
		if gains[got] < best-1e-9*base {
			t.Fatalf("seed %d: raised edge %d for %v, the best adds %v", seed, got, gains[got], best)
		}
	}
}

// plainGains raises each edge of the cheapest path in turn and runs
// Dijkstra: what a raise adds, by edge.
func plainGains(g *Graph, r *Round) (map[int]float64, float64) {
	var p, q Paths
	p.Compute(g, r.Costs())
	base := p.Dist[r.Pos]
	gains := map[int]float64{}
	costs := slices.Clone(r.Costs())
	for _, a := range p.Path(r.Pos) {
		old := costs[a.Edge]
		costs[a.Edge] = old * g.Factor(a.Edge, r.UseMax)
		q.Compute(g, costs)
		gains[a.Edge] = q.Dist[r.Pos] - base
		costs[a.Edge] = old
	}
	return gains, base
}

// shapeGraph writes a path, a cycle or a ladder of n rungs from node 0 to
// the far end.
func shapeGraph(t testing.TB, shape string, n int) *Graph {
	t.Helper()
	var b strings.Builder
	switch shape {
	case "path":
		fmt.Fprintf(&b, "Starting node: 0\nEnding node: %d\nEdges:\n", n-1)
		for i := range n - 1 {
			fmt.Fprintf(&b, "%d %d\n", i, i+1)
		}
	case "cycle":
		fmt.Fprintf(&b, "Starting node: 0\nEnding node: %d\nEdges:\n", n/2)
		for i := range n {
			fmt.Fprintf(&b, "%d %d\n", i, (i+1)%n)
		}
	case "ladder":
		fmt.Fprintf(&b, "Starting node: a0\nEnding node: b%d\nEdges:\n", n-1)
		for i := range n {
			fmt.Fprintf(&b, "a%d b%d\n", i, i)
			if i+1 < n {
				fmt.Fprintf(&b, "a%d a%d\nb%d b%d\n", i, i+1, i, i+1)
			}
		}
	}
	g, err := ParseGraph(shape, []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func newTestTurn() *match.Turn {
	return match.NewTurn(nil, match.P1, rand.New(rand.NewPCG(1, 2)), match.Budget{})
}
