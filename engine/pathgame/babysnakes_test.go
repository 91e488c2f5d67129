package pathgame

import (
	"cmp"
	"container/heap"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arena-playground/arena/engine/match"
)

// snakesAsWritten is the BabySnakes team's asp.py and dijkstra.py
// transcribed line for line: Python's heap of (cost, node, route tuple),
// its lists of routes, its recursion. Nodes are the team's ints (the ids
// read as numbers). It is exponential, as theirs is: for small graphs.
type snakesAsWritten struct {
	adj   map[int][]int              // g: the game message's lists, duplicates kept
	graph map[[2]int]float64         // the team's cost matrix
	dp    map[int]struct{ c, n int } // Dpaths: hop distance and next node, (-1, -1) where unset
}

type pyEntry struct {
	cost, v int
	path    []int // the route tuple, head first
}

type pyHeap []pyEntry

func (h pyHeap) Len() int { return len(h) }
func (h pyHeap) Less(i, j int) bool {
	if c := cmp.Compare(h[i].cost, h[j].cost); c != 0 {
		return c < 0
	}
	if c := cmp.Compare(h[i].v, h[j].v); c != 0 {
		return c < 0
	}
	return slices.Compare(h[i].path, h[j].path) < 0
}
func (h pyHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *pyHeap) Push(x any)   { *h = append(*h, x.(pyEntry)) }
func (h *pyHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func cons(v int, path []int) []int { return append([]int{v}, path...) }

func (p *snakesAsWritten) dist(v int) int {
	if d, ok := p.dp[v]; ok {
		return d.c
	}
	return -1
}

// dijkstra is dijkstra(g, f).
func (p *snakesAsWritten) dijkstra(f int) {
	p.dp = map[int]struct{ c, n int }{}
	q, seen := &pyHeap{{0, f, nil}}, map[int]bool{}
	for q.Len() > 0 {
		e := heap.Pop(q).(pyEntry)
		if seen[e.v] {
			continue
		}
		seen[e.v] = true
		if len(e.path) > 0 {
			p.dp[e.v] = struct{ c, n int }{e.cost, e.path[0]}
		}
		path := cons(e.v, e.path)
		for _, v2 := range p.adj[e.v] {
			if !seen[v2] {
				heap.Push(q, pyEntry{e.cost + 1, v2, path})
			}
		}
	}
}

// allPathsN is AllPathsN(g, f, t, N, dists): the routes as node lists
// from t to f.
func (p *snakesAsWritten) allPathsN(f, t, limit int) [][]int {
	var paths [][]int
	q, seen := &pyHeap{{0, f, nil}}, map[int]bool{}
	for q.Len() > 0 {
		e := heap.Pop(q).(pyEntry)
		if seen[e.v] && e.cost != p.dist(e.v) {
			continue
		}
		seen[e.v] = true
		path := cons(e.v, e.path)
		if e.v == t {
			paths = append(paths, path)
		}
		for _, v2 := range p.adj[e.v] {
			c := e.cost + 1
			if (!seen[v2] || c == p.dist(v2)) && c <= limit {
				heap.Push(q, pyEntry{c, v2, path})
			}
		}
	}
	return paths
}

func (p *snakesAsWritten) getCost(path []int) float64 {
	c := 0.0
	for i := 1; i < len(path); i++ {
		c += p.graph[[2]int{path[i-1], path[i]}]
	}
	return c
}

// parsePath is parsePath(node, Dpaths).
func (p *snakesAsWritten) parsePath(v int) ([]int, int) {
	list := []int{v}
	d, ok := p.dp[v]
	if !ok {
		d = struct{ c, n int }{-1, -1}
	}
	for nxt := d.n; nxt != -1; {
		list = append(list, nxt)
		if d, ok := p.dp[nxt]; ok {
			nxt = d.n
		} else {
			nxt = -1
		}
	}
	return list, d.c
}

func (p *snakesAsWritten) getMove(start, end int) int {
	path, dist := p.parsePath(start)
	cost := math.Inf(1)
	paths := p.allPathsN(end, start, dist+1)
	for _, q := range paths {
		if c := p.getCost(q); c < cost {
			path, cost = q, c
		}
	}
	numpaths := len(p.allPathsN(end, path[1], dist-1))
	for _, q := range paths {
		if p.getCost(q) < cost+1.0 {
			if n := len(p.allPathsN(end, q[1], dist-1)); n > numpaths {
				numpaths, path = n, q
			}
		}
	}
	return path[1]
}

func (p *snakesAsWritten) edgeInAll(paths [][]int, cost float64, v1, v2 int) bool {
	for _, q := range paths {
		if p.getCost(q) <= cost+1 && !(slices.Contains(q, v1) && slices.Contains(q, v2)) {
			return false
		}
	}
	return true
}

// scores is the loop that get_A_move and max_Penalty share.
func (p *snakesAsWritten) scores(start, end int) ([2]int, float64) {
	path, distance := p.parsePath(start)
	cost := math.Inf(1)
	paths := p.allPathsN(end, start, distance)
	for _, q := range paths {
		if c := p.getCost(q); c < cost {
			path, cost = q, c
		}
	}
	maxPenalty, move := -1.0, [2]int{-1, -1}
	for i := 1; i < len(path); i++ {
		v1, v2 := path[i-1], path[i]
		dist := max(min(p.dist(v1), p.dist(v2)), 0)
		factor := 1.0 + math.Sqrt(float64(dist))
		c := p.graph[[2]int{v1, v2}]
		penalty := c*math.Pow(factor, float64(distance-dist)) - c
		if p.edgeInAll(paths, cost, v1, v2) {
			penalty *= 5
		}
		penalty += p.maxPenalty(v2, end)
		if penalty > maxPenalty {
			maxPenalty, move = penalty, [2]int{v1, v2}
		}
	}
	return move, maxPenalty
}

func (p *snakesAsWritten) maxPenalty(start, end int) float64 {
	_, m := p.scores(start, end)
	return max(m, 0)
}

// The port's player and adversary choose what the team's code, as
// written, chooses: in games of the port against itself on generated
// graphs (small enough for the team's lists) and in positions with
// random raises, move by move. The positions have many routes of equal
// hops and cost (ties, counts of routes, choke points) and costs cut to
// ints for the player.
func TestBabySnakesIsTheirCode(t *testing.T) {
	var w work
	w.t = match.NewTurn(nil, match.P1, nil, match.Budget{})
	checked := [2]int{}
	for seed := range uint64(40) {
		data, err := Generate(30+int(seed)%4*10, seed+1)
		if err != nil {
			t.Fatal(err)
		}
		g, err := ParseGraph("gen", data)
		if err != nil {
			t.Fatal(err)
		}
		w.snake.prepare(g)
		rank := w.snake.rank
		byRank := map[int]int{}
		py := &snakesAsWritten{adj: map[int][]int{}, graph: map[[2]int]float64{}}
		for v, adj := range g.Adj {
			byRank[rank[v]] = v
			for _, m := range adj {
				py.adj[rank[v]] = append(py.adj[rank[v]], rank[m])
			}
		}
		py.dijkstra(rank[g.Y])
		costs := func(r *Round) {
			for e, ed := range g.Edges {
				c := r.Costs()[e]
				py.graph[[2]int{rank[ed.A], rank[ed.B]}] = c
				py.graph[[2]int{rank[ed.B], rank[ed.A]}] = c
			}
		}
		rng := rand.New(rand.NewPCG(seed, 3))
		r := NewRound(g, false)
		for turn := 0; r.Pos != g.Y && turn < 40; turn++ {
			if turn%2 == 1 && rng.IntN(3) == 0 { // now and then a raise of the adversary's own
				r.Raise(rng.IntN(len(g.Edges)))
			}
			// The player knows each cost cut to an int.
			costs(&r)
			for k, c := range py.graph {
				py.graph[k] = math.Trunc(c)
			}
			want := byRank[py.getMove(rank[r.Pos], rank[g.Y])]
			if got := snakeStep(&w, g, &r); got != want {
				t.Fatalf("seed %d turn %d: the player at %s steps to %s, the team's code to %s", seed, turn, g.IDs[r.Pos], g.IDs[got], g.IDs[want])
			}
			checked[0]++
			r.Pos = want
			if r.Pos == g.Y {
				break
			}
			costs(&r)
			move, _ := py.scores(rank[r.Pos], rank[g.Y])
			wantEdge, _ := g.EdgeBetween(byRank[move[0]], byRank[move[1]])
			if got := snakeRaise(&w, g, &r); got != wantEdge {
				ed, want := g.Edges[got], g.Edges[wantEdge]
				t.Fatalf("seed %d turn %d: the adversary raises %s-%s, the team's code %s-%s", seed, turn, g.IDs[ed.A], g.IDs[ed.B], g.IDs[want.A], g.IDs[want.B])
			}
			checked[1]++
			r.Raise(wantEdge)
		}
	}
	t.Logf("%d steps and %d raises checked", checked[0], checked[1])
}
