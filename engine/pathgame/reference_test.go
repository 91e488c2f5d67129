package pathgame

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// routes calls visit with every route from pos to Y of at most limit
// hops, as the edges it takes: the BabySnakes player's list, written out.
func routes(g *Graph, pos int, limit int64, visit func([]Arc)) {
	var walk func(n int, route []Arc)
	walk = func(n int, route []Arc) {
		if n == g.Y {
			visit(route)
			return
		}
		if int64(len(route)) >= limit {
			return
		}
		for _, a := range g.Arcs(n) {
			walk(a.To, append(route, a))
		}
	}
	walk(pos, nil)
}

// The near-shortest player's two-state walk finds the cheapest route at
// most one hop longer than the shortest, and choke names exactly the
// edges every such route takes, as listing all the routes does, on
// generated graphs with raised costs.
func TestNearShortMatchesTheRoutes(t *testing.T) {
	for seed := range uint64(30) {
		g, r := randomRound(t, 40+int(seed)*3, seed)
		var w work
		w.t = match.NewTurn(nil, match.P1, nil, match.Budget{})
		step := nearShort(&w, g, &r)
		best, bestVia := math.Inf(1), math.Inf(1)
		on := map[int]int{} // edge: the routes that take it
		count := 0
		routes(g, r.Pos, g.Hops[r.Pos]+1, func(route []Arc) {
			c := 0.0
			seen := map[int]bool{}
			for _, a := range route {
				c += r.Costs()[a.Edge]
				if !seen[a.Edge] {
					seen[a.Edge] = true
					on[a.Edge]++
				}
			}
			count++
			best = min(best, c)
			if route[0].To == step {
				bestVia = min(bestVia, c)
			}
		})
		if count == 0 || bestVia != best {
			t.Fatalf("seed %d: %d routes, the cheapest %v; through the step to %d, %v", seed, count, best, step, bestVia)
		}
		w.order(g)
		for e := range g.Edges {
			if got, want := w.choke(g, r.Pos, e), on[e] == count; got != want {
				t.Fatalf("seed %d: edge %d taken by %d of %d routes, choke says %v", seed, e, on[e], count, got)
			}
		}
	}
}

// strong beats each reference pair on the course's graphs, in both
// seats (a pairing's second game starts from what its first told).
func TestStrongBeatsReferences(t *testing.T) {
	for _, graph := range []string{"advshort", "advshort-2016"} {
		for _, ref := range []string{"babysnakes", "choke", "raiser"} {
			for seat := range 2 {
				players := [2]play.Spec{{Name: ref}, {Name: "strong"}}
				if seat == 1 {
					players[0], players[1] = players[1], players[0]
				}
				rec, err := play.Play(t.Context(), play.Setup{Game: Game{}, Config: &Config{Graph: graph}, Seed: 1, Players: players})
				if err != nil {
					t.Fatal(err)
				}
				if r := rec.Result; r.Winner != match.Side(1-seat) || len(r.Forfeits) > 0 {
					t.Errorf("strong vs %s on %s, strong as %s: %s", ref, graph, match.Side(1-seat), r)
				}
			}
		}
	}
}

// strong's player arrives at the end of a 200-node path against the
// random adversary: it once walked to and fro between two nodes for the
// whole move cap, a step back priced cheaper than one forward by its
// play-outs' horizon, though a step back only leads back.
func TestStrongArrivesOnALongPath(t *testing.T) {
	var b strings.Builder
	b.WriteString("Starting node: 0\nEnding node: 199\nEdges:\n")
	for i := range 199 {
		fmt.Fprintf(&b, "%d %d\n", i, i+1)
	}
	for seed := range uint64(2) {
		rec, err := play.Play(t.Context(), play.Setup{Game: Game{}, Config: &Config{Text: b.String(), Name: "path200.txt"}, Seed: seed + 1,
			Players: [2]play.Spec{{Name: "strong"}, {Name: "random"}}})
		if err != nil {
			t.Fatal(err)
		}
		end := rec.State(rec.Len() - 1).(State).End(0)
		if end == nil || !end.Arrived {
			t.Errorf("seed %d: strong did not arrive: %s", seed+1, rec.Result)
		}
	}
}
