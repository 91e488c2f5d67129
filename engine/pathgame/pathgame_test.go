package pathgame

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// Random playouts on generated graphs: costs only rise, and only by an
// edge's factor; no side sends more than 2N messages; the player's cost
// is the sum of what its updates said; the same setup replays the same
// pairing, also from its replay file.
func TestRandomPlayouts(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		setup := play.Setup{Game: Game{}, Config: &Config{Nodes: 30 + int(seed)*3}, Seed: seed,
			Players: [2]play.Spec{{Name: "random"}, {Name: "random"}}}
		rec, err := play.Play(context.Background(), setup)
		if err != nil {
			t.Fatal(err)
		}
		paid := 0.0
		for k := 1; k < rec.Len(); k++ {
			before, after := rec.State(k-1).(State), rec.State(k).(State)
			if after.GameNum() != before.GameNum() {
				paid = 0
				continue
			}
			rb, ra := before.Round(), after.Round()
			for e, c := range ra.Costs() {
				if c < rb.Costs()[e] {
					t.Fatalf("seed %d turn %d: edge %d fell from %v to %v", seed, k, e, rb.Costs()[e], c)
				}
				if c > rb.Costs()[e] && c != rb.Costs()[e]*before.Graph().Factor(e, false) {
					t.Fatalf("seed %d turn %d: edge %d rose from %v to %v, not by its factor", seed, k, e, rb.Costs()[e], c)
				}
			}
			if ra.Msgs[Player] > ra.MoveCap()+1 || ra.Msgs[Adversary] > ra.MoveCap()+1 {
				t.Fatalf("seed %d: %v messages against a cap of %d", seed, ra.Msgs, ra.MoveCap())
			}
			if u := after.Last(); u.Role == Player && u.Valid {
				paid += u.Cost
			}
			if ra.Cost != paid {
				t.Fatalf("seed %d turn %d: cost %v, the updates add to %v", seed, k, ra.Cost, paid)
			}
		}
		again, _ := play.Play(context.Background(), setup)
		var file bytes.Buffer
		if err := play.SaveReplay(&file, rec); err != nil {
			t.Fatal(err)
		}
		loaded, err := play.LoadReplay("r.json", file.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		for _, other := range []*play.Record{again, loaded} {
			if other.Len() != rec.Len() || other.Result.String() != rec.Result.String() {
				t.Fatalf("seed %d: replayed to %d states, %q; first %d, %q", seed, other.Len(), other.Result, rec.Len(), rec.Result)
			}
		}
	}
}

// A player that never arrives stops at the cap: the (2N+1)-th message
// ends the game, scored as not arriving, and the pairing goes on.
func TestMoveCap(t *testing.T) {
	g, err := Game{}.Start(&Config{Graph: "short"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := g.(State)
	stay := Action{Msg: []byte(`{"start_node": "4", "end_node": "4"}`)}
	raise := RaiseEdge(s.g, 0)
	for s.GameNum() == 0 {
		var acts [2]match.Action
		side := s.ToMove().Side()
		if s.RoleOf(side) == Player {
			acts[side] = stay
		} else {
			acts[side] = raise
		}
		s = s.Apply(acts).(State)
	}
	e := s.End(0)
	if e.Arrived || e.Fault != Player || e.Final.Msgs[Player] != 2*4+1 || !strings.Contains(e.Why, "cap") {
		t.Errorf("game 0 ended %+v with %v messages", e, e.Final.Msgs)
	}
}

// Malformed graph files are refused with their line and what was wanted.
func TestBadGraphs(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{"Start: 1\nEnd: 2\nEdges:\n1\t2\n", "g.txt:4: want an edge as two node ids separated by one space"},
		{"Start: 1\nEnd: 2\nEdges:\n1 2 3\n", "g.txt:4:"},
		{"Start: 1\nEnd: 2\nEdges:\n1  2\n", "g.txt:4:"},
		{"Start: 1\nEnd: 2\nEdges:\nonetoken\n", "g.txt:4:"},
		{"Start 1\nEnd: 2\nEdges:\n1 2\n", "g.txt:1: want the start node"},
		{"Start: 1\nEnd:\nEdges:\n1 2\n", "g.txt:2: want the goal node"},
		{"Start: 9\nEnd: 2\nEdges:\n1 2\n", `g.txt:1: the start node "9" is not in any edge`},
		{"Start: 1\nEnd: 7\nEdges:\n1 2\n", `g.txt:2: the goal node "7" is not in any edge`},
		{"Start: 1\n", "g.txt:2:"},
	} {
		_, err := ParseGraph("g.txt", []byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.data, err, tc.want)
		}
	}
}

// Messages the original crashed on are refused; those it ignored are not.
func TestMessages(t *testing.T) {
	for _, tc := range []struct {
		role Role
		msg  string
		want string // "" accepted
	}{
		{Player, `{"start_node": "1", "end_node": "2"}`, ""},
		{Player, `{"start_node": 1, "end_node": 2}`, ""}, // ignored, not a crash
		{Player, `not json`, "not a JSON object"},
		{Player, `{"start": "1"}`, "lacks"},
		{Player, `{"start_node": "1", "end_node": "` + strings.Repeat("9", 2000) + `"}`, "at most 1024"},
		{Adversary, `{"node_1": 2, "node_2": 3}`, "not strings"},
		{Adversary, `{"node_1": 20, "node_2": 30}`, ""}, // no such edge: ignored
	} {
		s0, _ := Game{}.Start(&Config{Graph: "short"}, 1)
		s := s0.(State)
		if tc.role == Adversary {
			s = s.Apply([2]match.Action{Move(s.g, s.g.X, 1)}).(State)
		}
		err := s.Check(s.ToMove().Side(), Action{Msg: []byte(tc.msg)})
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: %v, want %q", tc.role, tc.msg, err, tc.want)
		}
	}
}

// Python 2's float repr, as the golden traces hold it.
func TestPyFloat(t *testing.T) {
	for f, want := range map[float64]string{2: "2.0", 3.23606797749979: "3.23606797749979", 1e-05: "1e-05",
		1e16: "1e+16", 414830.23874550994: "414830.23874550994", 0.0001: "0.0001", 123456789012345.6: "123456789012345.6",
		3037000500.97605: "3037000500.97605", math.Pow(2, 60): "1.152921504606847e+18"} {
		if got := pyFloat(f); got != want {
			t.Errorf("%v: %s, want %s", f, got, want)
		}
	}
}

func FuzzParseGraph(f *testing.F) {
	f.Add([]byte("Starting node: 1\nEnding node: 4\nEdges:\n1 2\n2 4\n1 3\n3 4\n2 3"))
	f.Add([]byte("Start here: 1\r\nGoal: 4\r\nx\r\n1 2\r\n2 1\r\n\r\n3 3\r\n3 4\r\n2 3\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ParseGraph("f.txt", data)
		if err != nil {
			return
		}
		if g.X >= g.N() || g.Y >= g.N() || g.Hops[g.Y] != 0 || g.AdjEntries()%2 != 0 {
			t.Fatalf("a graph that does not hold together: %+v", g)
		}
	})
}

func FuzzMessage(f *testing.F) {
	f.Add([]byte(`{"start_node": "1", "end_node": "2"}`), false)
	f.Add([]byte(`{"node_1": 2, "node_2": "3"}`), true)
	f.Fuzz(func(t *testing.T, msg []byte, adversary bool) {
		s0, _ := Game{}.Start(&Config{Graph: "short"}, 1)
		s := s0.(State)
		if adversary {
			s = s.Apply([2]match.Action{Move(s.g, s.g.X, 1)}).(State)
		}
		a := Action{Msg: msg}
		if s.Check(s.ToMove().Side(), a) == nil {
			var acts [2]match.Action
			acts[s.ToMove().Side()] = a
			s.Apply(acts)
		}
	})
}

// benchGraph is a generated 1000-node graph at random costs.
func benchGraph(b *testing.B) (*Graph, []float64) {
	data, _ := Generate(1000, 1)
	g, err := ParseGraph("g.txt", data)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	costs := make([]float64, len(g.Edges))
	for i := range costs {
		costs[i] = 1 + r.Float64()*10
	}
	return g, costs
}

// A shortest-path query from Y on 1000 nodes: Dijkstra with a heap beside
// the plain one that scans every node for the nearest.
func BenchmarkPaths(b *testing.B) {
	g, costs := benchGraph(b)
	b.Run("heap", func(b *testing.B) {
		var p Paths
		for b.Loop() {
			p.Compute(g, costs)
		}
	})
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			plainDijkstra(g, costs)
		}
	})
}

// plainDijkstra is the textbook O(N²) reference.
func plainDijkstra(g *Graph, costs []float64) []float64 {
	dist := make([]float64, g.N())
	done := make([]bool, g.N())
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	dist[g.Y] = 0
	for range g.N() {
		u := -1
		for i := range dist {
			if !done[i] && (u < 0 || dist[i] < dist[u]) {
				u = i
			}
		}
		if u < 0 || math.IsInf(dist[u], 1) {
			break
		}
		done[u] = true
		for _, a := range g.Arcs(u) {
			dist[a.To] = min(dist[a.To], dist[u]+costs[a.Edge])
		}
	}
	return dist
}

// An adversary's move on 1000 nodes: k, the factor and the update, with
// the hop distances computed once per graph beside the original's search
// from both ends on every move.
func BenchmarkRaise(b *testing.B) {
	g, _ := benchGraph(b)
	r := NewRound(g, false)
	b.Run("precomputed", func(b *testing.B) {
		i := 0
		for b.Loop() {
			r.Raise(i % len(g.Edges))
			i++
		}
	})
	b.Run("search", func(b *testing.B) {
		i := 0
		for b.Loop() {
			e := i % len(g.Edges)
			ka, kb := hopsFrom(g, g.Edges[e].A), hopsFrom(g, g.Edges[e].B)
			r.costs[e] *= 1 + math.Sqrt(float64(min(ka, kb)))
			i++
		}
	})
}

// hopsFrom is the original's path_length: a search from n to Y.
func hopsFrom(g *Graph, n int) int64 {
	dist := map[int]int64{n: 0}
	queue := []int{n}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if u == g.Y {
			return dist[u]
		}
		for _, v := range g.Adj[u] {
			if _, ok := dist[v]; !ok {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return Unreachable
}

// Node ids are byte strings that the 2017 server had to send as JSON: a
// file with ids that are not UTF-8 is refused by line, as the original
// could not play it (it crashed sending the game), so no replay of it is
// ever written that would not load.
func TestNonUTF8IdsRefused(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"Starting node: \xff\xfe\nEnding node: 4\nEdges:\n\xff\xfe 4\n", `g.txt:1: node id "\xff\xfe" is not UTF-8 text`},
		{"Starting node: 1\nEnding node: 4\nEdges:\n1 2\n2 \xc3\n", `g.txt:5: node id "\xc3" is not UTF-8 text`},
	} {
		if _, err := ParseGraph("g.txt", []byte(c.file)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.file, err, c.want)
		}
	}
	// UTF-8 ids that are not ASCII play, and their replay loads.
	g, err := ParseGraph("g.txt", []byte("Starting node: ä\nEnding node: ö\nEdges:\nä ü\nü ö\n"))
	if err != nil || len(g.IDs) != 3 {
		t.Fatalf("UTF-8 ids: %v", err)
	}
	cfg, err := ParseConfig("g.txt", []byte("Starting node: ä\nEnding node: ö\nEdges:\nä ü\nü ö\n"))
	if err != nil {
		t.Fatal(err)
	}
	var specs [2]play.Spec
	specs[0], _ = play.ParseSpec("greedy")
	specs[1], _ = play.ParseSpec("strong")
	rec, err := play.Play(t.Context(), play.Setup{Game: Game{}, Config: cfg, Seed: 1, Players: specs})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := play.SaveReplay(&b, rec); err != nil {
		t.Fatal(err)
	}
	back, err := play.LoadReplay("r.json", b.Bytes())
	if err != nil || back.Result.String() != rec.Result.String() {
		t.Errorf("the replay: %v, %v; played %v", err, back.Result, rec.Result)
	}
}
