// Package pathgame is Adversarial Shortest Path, as the fall-2017 NYU
// Heuristic Problem Solving server played it (rules/asp.md): a player
// walks a graph from X to Y paying each edge's cost at the time it
// crosses it, while an adversary multiplies the cost of one edge per turn
// by 1 + sqrt(k), k the fewer hops from the edge's ends to Y.
package pathgame

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/arena-playground/arena/internal/fileerr"
)

// Graph is a game's board as the original reads it from its text file.
// Node ids are strings, as the original never converts them; nodes are
// numbered in order of first appearance in the edge lines.
type Graph struct {
	IDs   []string       // node ids by number
	index map[string]int // number of an id
	// Adj lists each node's neighbours in file order: every edge line
	// appends each end to the other's list, so a duplicate line or a
	// self-loop repeats entries, as in the original's game message.
	Adj [][]int
	// Edges are the distinct unordered pairs; an edge's cost is shared by
	// its duplicate lines. edgeOf finds one by its key.
	Edges  []Edge
	edgeOf map[[2]int]int
	X, Y   int // start and goal
	// Hops is each node's hop distance to Y on the fixed graph (the k of
	// the factor); Unreachable when there is no path.
	Hops []int64

	arcOnce sync.Once
	out     [][]Arc
}

// Edge joins two nodes, A <= B by number.
type Edge struct{ A, B int }

// Unreachable is the k of a node that cannot reach Y: Python 2's
// sys.maxint, as the original's Dijkstra leaves it.
const Unreachable = math.MaxInt64

// Limits that keep a graph file's memory and time finite: the course's
// graphs have up to 1000 nodes.
const (
	MaxNodes = 5000
	MaxEdges = 200_000
)

// ParseGraph reads a graph file in the original's format (spec §7):
//
//	Starting node: 257
//	Ending node: 161
//	Edges:
//	257 134
//	...
//
// Lines lose their line ending and surrounding whitespace (CRLF works);
// lines 1 and 2 give X and Y after their first ':' (labels unchecked);
// line 3 is ignored; every later non-empty line is two ids split by one
// space. X and Y must be nodes of the edges.
// notText refuses a node id that is not UTF-8: the 2017 server read ids
// as Python 2 byte strings, and its json.dumps of the game message raised
// UnicodeDecodeError on them, so such a graph never played there.
const notText = "node id %q is not UTF-8 text: the 2017 server could not send it to the clients (Python 2's json.dumps failed on it)"

func ParseGraph(file string, data []byte) (*Graph, error) {
	fail := func(line int, format string, args ...any) error {
		return &fileerr.FileError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	lines := strings.Split(string(data), "\n")
	if len(lines) < 3 {
		return nil, fail(len(lines), "want a start line, a goal line and an edges line before the edges")
	}
	header := func(n int, what string) (string, error) {
		_, v, ok := strings.Cut(strings.TrimSpace(lines[n]), ":")
		v = strings.TrimSpace(v)
		if !ok || v == "" {
			return "", fail(n+1, "want %s as \"label: id\", found %q", what, clip(lines[n]))
		}
		if !utf8.ValidString(v) {
			return "", fail(n+1, notText, v)
		}
		return v, nil
	}
	x, err := header(0, "the start node")
	if err != nil {
		return nil, err
	}
	y, err := header(1, "the goal node")
	if err != nil {
		return nil, err
	}
	g := &Graph{index: map[string]int{}, edgeOf: map[[2]int]int{}}
	node := func(id string) int {
		if i, ok := g.index[id]; ok {
			return i
		}
		g.index[id] = len(g.IDs)
		g.IDs = append(g.IDs, id)
		g.Adj = append(g.Adj, nil)
		return len(g.IDs) - 1
	}
	lineCount := 0
	for n := 3; n < len(lines); n++ {
		l := strings.TrimSpace(lines[n])
		if l == "" {
			continue
		}
		parts := strings.Split(l, " ")
		if len(parts) != 2 || parts[0] == "" || parts[1] == "" {
			return nil, fail(n+1, "want an edge as two node ids separated by one space, found %q", clip(l))
		}
		for _, id := range parts {
			if !utf8.ValidString(id) {
				return nil, fail(n+1, notText, id)
			}
		}
		if lineCount++; lineCount > MaxEdges {
			return nil, fail(n+1, "more than %d edges", MaxEdges)
		}
		a, b := node(parts[0]), node(parts[1])
		if len(g.IDs) > MaxNodes {
			return nil, fail(n+1, "more than %d nodes", MaxNodes)
		}
		g.Adj[a] = append(g.Adj[a], b)
		g.Adj[b] = append(g.Adj[b], a)
		key := edgeKey(a, b)
		if _, ok := g.edgeOf[key]; !ok {
			g.edgeOf[key] = len(g.Edges)
			g.Edges = append(g.Edges, Edge{key[0], key[1]})
		}
	}
	g.canonical()
	var ok bool
	if g.X, ok = g.index[x]; !ok {
		return nil, fail(1, "the start node %q is not in any edge", clip(x))
	}
	if g.Y, ok = g.index[y]; !ok {
		return nil, fail(2, "the goal node %q is not in any edge", clip(y))
	}
	g.hops()
	return g, nil
}

// canonical numbers the nodes in the order of their ids and sorts the
// edges, so that a graph read from its file and one rebuilt from the game
// message (`arena bot`, which gets the lists without the file's order)
// are numbered alike, and bots decide alike on both. The adjacency lists
// keep the file's order, as the game message has it.
func (g *Graph) canonical() {
	order := make([]int, len(g.IDs))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return g.IDs[order[i]] < g.IDs[order[j]] })
	renum := make([]int, len(order))
	ids := make([]string, len(order))
	adj := make([][]int, len(order))
	for n, old := range order {
		renum[old], ids[n] = n, g.IDs[old]
	}
	for n, old := range order {
		for _, m := range g.Adj[old] {
			adj[n] = append(adj[n], renum[m])
		}
	}
	g.IDs, g.Adj = ids, adj
	for i, e := range g.Edges {
		k := edgeKey(renum[e.A], renum[e.B])
		g.Edges[i] = Edge{k[0], k[1]}
	}
	sort.Slice(g.Edges, func(i, j int) bool {
		a, b := g.Edges[i], g.Edges[j]
		return a.A < b.A || a.A == b.A && a.B < b.B
	})
	g.index, g.edgeOf = make(map[string]int, len(ids)), make(map[[2]int]int, len(g.Edges))
	for n, id := range ids {
		g.index[id] = n
	}
	for i, e := range g.Edges {
		g.edgeOf[[2]int{e.A, e.B}] = i
	}
}

func edgeKey(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// hops computes every node's hop distance to Y by breadth-first search.
func (g *Graph) hops() {
	g.Hops = make([]int64, len(g.IDs))
	for i := range g.Hops {
		g.Hops[i] = Unreachable
	}
	g.Hops[g.Y] = 0
	queue := []int{g.Y}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, m := range g.Adj[n] {
			if g.Hops[m] == Unreachable {
				g.Hops[m] = g.Hops[n] + 1
				queue = append(queue, m)
			}
		}
	}
}

// Node returns the number of an id.
func (g *Graph) Node(id string) (int, bool) {
	i, ok := g.index[id]
	return i, ok
}

// EdgeBetween returns the edge joining a and b, in either order.
func (g *Graph) EdgeBetween(a, b int) (int, bool) {
	e, ok := g.edgeOf[edgeKey(a, b)]
	return e, ok
}

// N is the number of nodes; the move cap is 2N messages per side.
func (g *Graph) N() int { return len(g.IDs) }

// Factor is the multiplier of a raise of edge e: 1 + sqrt(min(k_a, k_b))
// (or the max, in the variant the README's stale sentence describes).
func (g *Graph) Factor(e int, useMax bool) float64 {
	ka, kb := g.Hops[g.Edges[e].A], g.Hops[g.Edges[e].B]
	k := min(ka, kb)
	if useMax {
		k = max(ka, kb)
	}
	return 1 + math.Sqrt(float64(k))
}

// AdjacencyJSON writes the game message's "graph" object as Python's
// json.dumps(sort_keys=True) does: ids sorted as strings, lists in file
// order.
func (g *Graph) AdjacencyJSON() []byte {
	ids := make([]int, len(g.IDs))
	for i := range ids {
		ids[i] = i
	}
	sort.Slice(ids, func(i, j int) bool { return g.IDs[ids[i]] < g.IDs[ids[j]] })
	var b bytes.Buffer
	b.WriteByte('{')
	for i, n := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		b.Write(pyString(g.IDs[n]))
		b.WriteString(": [")
		for j, m := range g.Adj[n] {
			if j > 0 {
				b.WriteString(", ")
			}
			b.Write(pyString(g.IDs[m]))
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.Bytes()
}

// AdjEntries is the sum of the adjacency lists' lengths.
func (g *Graph) AdjEntries() int {
	n := 0
	for _, a := range g.Adj {
		n += len(a)
	}
	return n
}
