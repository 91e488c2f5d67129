package pathgame

import "testing"

// Generated graphs are course-style: connected, n nodes, about 4.7 edges
// per node, no duplicates or self-loops, Y several hops from X (X's
// community joins the rest by a few bridges), and the same graph for the
// same seed.
func TestGenerate(t *testing.T) {
	for _, n := range []int{50, 300, 1000} {
		hops := 0
		for seed := uint64(1); seed <= 10; seed++ {
			data, err := Generate(n, seed)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := Generate(n, seed)
			if string(again) != string(data) {
				t.Fatal("the same seed made another graph")
			}
			g, err := ParseGraph("gen.txt", data)
			if err != nil {
				t.Fatal(err)
			}
			if g.N() != n || g.AdjEntries() != 2*len(g.Edges) {
				t.Fatalf("n=%d: %d nodes, %d adjacency entries for %d edges", n, g.N(), g.AdjEntries(), len(g.Edges))
			}
			if e := len(g.Edges); e < n*4 || e > n*5 {
				t.Errorf("n=%d: %d edges", n, e)
			}
			for i, h := range g.Hops {
				if h == Unreachable {
					t.Fatalf("node %s cannot reach Y", g.IDs[i])
				}
			}
			hops += int(g.Hops[g.X])
		}
		t.Logf("n=%d: X is %.1f hops from Y on average", n, float64(hops)/10)
		if n >= 300 && hops < 10*6 {
			t.Errorf("n=%d: X only %.1f hops from Y on average; a random graph has 3, the course's 7 or 8", n, float64(hops)/10)
		}
	}
}
