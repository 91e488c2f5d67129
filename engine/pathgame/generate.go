package pathgame

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
)

// Generate writes a course-style graph file of n nodes drawn from seed: a
// Hamiltonian path from X through every node to Y (which keeps the graph
// connected), then random extra edges, about 3.7 per node as in the
// course's 300-node advshort.txt (1410 edges), with no duplicates or
// self-loops. Ids are 0..n-1 in a random order. As in the course's file,
// an extra edge mostly joins nodes near each other along the path: its
// span is drawn from the spans of advshort.txt's extra edges (scaled to
// n). And as in both course files, X lives in a community of its own (the
// first 15% of the path) that a few bridges join to the rest, so that Y is
// 6 or 7 hops from X at 300 nodes (the course's files: 8; a uniformly
// random graph: 3) and the player must cross a choke point.
func Generate(n int, seed uint64) ([]byte, error) {
	if n < 2 || n > MaxNodes {
		return nil, fmt.Errorf("a generated graph of %d nodes: want 2 to %d", n, MaxNodes)
	}
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	perm := r.Perm(n)
	var b bytes.Buffer
	fmt.Fprintf(&b, "Starting node: %d\nEnding node: %d\nEdges:\n", perm[0], perm[n-1])
	seen := map[[2]int]bool{}
	edge := func(a, c int) {
		seen[[2]int{min(a, c), max(a, c)}] = true
		b.WriteString(strconv.Itoa(a) + " " + strconv.Itoa(c) + "\n")
	}
	for i := 0; i+1 < n; i++ {
		edge(perm[i], perm[i+1])
	}
	extra := min(n*37/10, n*(n-1)/2-(n-1))
	// X's community: the first 15% of the path, joined to the rest by
	// the path and a few bridges only, as in the course's files (about 45
	// nodes around X, 4 to 12 edges out of them): the bridges are the
	// choke points the course's adversaries fought over.
	community, bridges := n*3/20, max(1, n/30)
	for added, tries := 0, 0; added < extra && tries < 100*n; tries++ {
		i := r.IntN(n)
		span := max(2, int(math.Round(courseSpan(r.Float64())*float64(n)/300)))
		j := i + span
		if r.IntN(2) == 0 {
			j = i - span
		}
		if j < 0 || j >= n {
			continue
		}
		if (i < community) != (j < community) {
			if bridges == 0 {
				continue
			}
			bridges--
		}
		a, c := perm[i], perm[j]
		if seen[[2]int{min(a, c), max(a, c)}] {
			continue
		}
		edge(a, c)
		added++
	}
	return b.Bytes(), nil
}

// spanQuantiles are the 0, 5, ..., 100th percentiles of the distances
// along the Hamiltonian path that advshort.txt's 1111 extra edges span.
var spanQuantiles = [...]float64{2, 2, 2, 2, 3, 4, 4, 5, 6, 7, 9, 11, 14, 18, 22, 27, 33, 45, 65, 114, 243}

// courseSpan draws a span for u in [0, 1) from those percentiles.
func courseSpan(u float64) float64 {
	x := u * float64(len(spanQuantiles)-1)
	i := int(x)
	return spanQuantiles[i] + (spanQuantiles[i+1]-spanQuantiles[i])*(x-float64(i))
}
