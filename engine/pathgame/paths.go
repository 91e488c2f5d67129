package pathgame

import "math"

// Arc is a way out of a node: the neighbour and the edge.
type Arc struct{ To, Edge int }

// arcs returns each node's distinct ways out, built once per graph.
func (g *Graph) arcs() [][]Arc {
	g.arcOnce.Do(func() {
		g.out = make([][]Arc, g.N())
		for e, ed := range g.Edges {
			g.out[ed.A] = append(g.out[ed.A], Arc{ed.B, e})
			if ed.A != ed.B {
				g.out[ed.B] = append(g.out[ed.B], Arc{ed.A, e})
			}
		}
	})
	return g.out
}

// Arcs returns node n's distinct neighbours and the edges to them.
func (g *Graph) Arcs(n int) []Arc { return g.arcs()[n] }

// Paths is the cheapest way from every node to Y at some costs: Dist and
// the first edge of a cheapest path (Next, -1 at Y and where Y is out of
// reach).
type Paths struct {
	Dist  []float64
	Next  []Arc
	Order []int // the nodes reached, in the order Dijkstra settled them
	heap  []heapItem
}

type heapItem struct {
	d float64
	n int
}

// Compute runs Dijkstra from Y over costs, reusing p's memory. It returns
// the work a bot counts: the edges it scanned from the nodes it settled
// (a node of a 5,000-node graph of 200,000 edges costs 80 times one of a
// path).
func (p *Paths) Compute(g *Graph, costs []float64) int { return p.ComputeFrom(g, costs, g.Y) }

// ComputeFrom is Compute toward another node than Y: Dist and Next are
// then the cheapest way from every node to src.
func (p *Paths) ComputeFrom(g *Graph, costs []float64, src int) int {
	n := g.N()
	if cap(p.Dist) < n {
		p.Dist, p.Next = make([]float64, n), make([]Arc, n)
	}
	p.Dist, p.Next = p.Dist[:n], p.Next[:n]
	for i := range p.Dist {
		p.Dist[i], p.Next[i] = math.Inf(1), Arc{-1, -1}
	}
	p.Dist[src] = 0
	h := append(p.heap[:0], heapItem{0, src})
	p.Order = p.Order[:0]
	scanned := 0
	out := g.arcs()
	for len(h) > 0 {
		it := h[0]
		h = heapPop(h)
		if it.d > p.Dist[it.n] {
			continue
		}
		p.Order = append(p.Order, it.n)
		scanned += len(out[it.n])
		for _, a := range out[it.n] {
			if d := it.d + costs[a.Edge]; d < p.Dist[a.To] {
				p.Dist[a.To] = d
				p.Next[a.To] = Arc{it.n, a.Edge}
				h = heapPush(h, heapItem{d, a.To})
			}
		}
	}
	p.heap = h
	return scanned
}

// Path returns the edges of the cheapest path from n to Y.
func (p *Paths) Path(n int) []Arc {
	var out []Arc
	for guard := 0; p.Next[n].Edge >= 0 && guard < len(p.Next); guard++ {
		out = append(out, p.Next[n])
		n = p.Next[n].To
	}
	return out
}

func heapPush(h []heapItem, it heapItem) []heapItem {
	h = append(h, it)
	i := len(h) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if h[parent].d <= h[i].d {
			break
		}
		h[parent], h[i] = h[i], h[parent]
		i = parent
	}
	return h
}

func heapPop(h []heapItem) []heapItem {
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && h[l].d < h[m].d {
			m = l
		}
		if r < len(h) && h[r].d < h[m].d {
			m = r
		}
		if m == i {
			return h
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
