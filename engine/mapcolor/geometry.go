package mapcolor

import (
	"math"
	"math/rand/v2"
)

// Point is a position in the unit square, y down.
type Point struct{ X, Y float64 }

// Geometry is how a map is drawn: each state's position and, for maps of
// regions, its polygon. Without polygons the map is drawn as a graph.
// Everything is in the unit square, indexed like Problem.States.
type Geometry struct {
	Pos   []Point
	Cells [][]Point // nil for a graph
}

// The geometry of random maps decides which regions are neighbours, so it
// must come out the same on every machine: each product is converted to
// float64 before it is added, which keeps the compiler from fusing them
// into multiply-adds (as it may on arm64) and so from rounding otherwise.

// voronoi returns the Voronoi cells of sites in the unit square and which
// cells share an edge. Each cell is the square clipped by the half-planes
// nearer its site than each other site; the clipping labels each new edge
// with the site across it, and two cells are neighbours when an edge of
// one is labelled with the other and is longer than a sliver.
func voronoi(sites []Point) ([][]Point, [][]int) {
	cells := make([][]Point, len(sites))
	adj := make([][]int, len(sites))
	for i, s := range sites {
		poly := []Point{{0, 0}, {1, 0}, {1, 1}, {0, 1}}
		labels := []int{-1, -1, -1, -1}
		for j, t := range sites {
			if j != i {
				poly, labels = clip(poly, labels, s, t, j)
			}
		}
		cells[i] = poly
		for k, l := range labels {
			if l >= 0 && dist2(poly[k], poly[(k+1)%len(poly)]) > 1e-12 {
				adj[i] = append(adj[i], l)
			}
		}
	}
	// Keep only mutual edges: rounding must not make a one-sided neighbour.
	for i := range adj {
		var keep []int
		for _, j := range adj[i] {
			for _, k := range adj[j] {
				if k == i {
					keep = append(keep, j)
					break
				}
			}
		}
		adj[i] = keep
	}
	return cells, adj
}

// clip keeps the part of a convex polygon nearer s than t; the edge the
// cut makes is labelled j.
func clip(poly []Point, labels []int, s, t Point, j int) ([]Point, []int) {
	m := Point{(s.X + t.X) / 2, (s.Y + t.Y) / 2}
	n := Point{t.X - s.X, t.Y - s.Y}
	side := func(p Point) float64 { return float64((p.X-m.X)*n.X) + float64((p.Y-m.Y)*n.Y) }
	var out []Point
	var outL []int
	for k, p := range poly {
		q := poly[(k+1)%len(poly)]
		dp, dq := side(p), side(q)
		pin, qin := dp <= 0, dq <= 0
		if pin {
			out, outL = append(out, p), append(outL, labels[k])
		}
		if pin != qin {
			f := dp / (dp - dq)
			x := Point{p.X + float64((q.X-p.X)*f), p.Y + float64((q.Y-p.Y)*f)}
			l := labels[k]
			if pin {
				l = j // leaving: the cut runs from here to where the polygon comes back
			}
			out, outL = append(out, x), append(outL, l)
		}
	}
	return out, outL
}

func dist(a, b Point) float64 { return math.Sqrt(dist2(a, b)) }

// dist2 is the squared distance, rounded the same everywhere.
func dist2(a, b Point) float64 {
	dx, dy := a.X-b.X, a.Y-b.Y
	return float64(dx*dx) + float64(dy*dy)
}

// centroid is the centre of mass of a polygon.
func centroid(poly []Point) Point {
	var a, cx, cy float64
	for k, p := range poly {
		q := poly[(k+1)%len(poly)]
		cross := float64(p.X*q.Y) - float64(q.X*p.Y)
		a += cross
		cx += float64((p.X + q.X) * cross)
		cy += float64((p.Y + q.Y) * cross)
	}
	if math.Abs(a) < 1e-12 {
		return poly[0]
	}
	return Point{cx / float64(3*a), cy / float64(3*a)}
}

// randomRegions makes a map of n regions from a seed: random sites moved
// twice to their cells' centres (Lloyd's relaxation, for even regions).
func randomRegions(n int, seed uint64) ([][]Point, [][]int, []Point) {
	r := rand.New(rand.NewPCG(seed, 0x766f726f6e6f69))
	sites := make([]Point, n)
	for i := range sites {
		x, y := r.Float64(), r.Float64()
		sites[i] = Point{0.05 + float64(0.9*x), 0.05 + float64(0.9*y)}
	}
	var cells [][]Point
	var adj [][]int
	for range 3 {
		cells, adj = voronoi(sites)
		for i, c := range cells {
			sites[i] = centroid(c)
		}
	}
	cells, adj = voronoi(sites)
	return cells, adj, sites
}

// project maps longitude and latitude to the unit square, keeping shapes
// (an equirectangular projection scaled by the cosine of the middle
// latitude), with a margin.
func project(lonlat []Point) []Point {
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, p := range lonlat {
		minX, maxX, minY, maxY = min(minX, p.X), max(maxX, p.X), min(minY, p.Y), max(maxY, p.Y)
	}
	k := math.Cos((minY + maxY) / 2 * math.Pi / 180)
	w, h := (maxX-minX)*k, maxY-minY
	scale := 0.9 / max(w, h)
	out := make([]Point, len(lonlat))
	for i, p := range lonlat {
		out[i] = Point{0.05 + ((p.X-minX)*k)*scale + (0.9-w*scale)/2, 0.05 + (maxY-p.Y)*scale + (0.9-h*scale)/2}
	}
	return out
}

// spread pushes apart positions closer than gap, a few times, so that the
// crowded corner of a map (the north-east of the United States) stays
// readable.
func spread(pos []Point, gap float64) {
	for range 60 {
		moved := false
		for i := range pos {
			for j := i + 1; j < len(pos); j++ {
				d := dist(pos[i], pos[j])
				if d >= gap {
					continue
				}
				moved = true
				dx, dy := pos[j].X-pos[i].X, pos[j].Y-pos[i].Y
				if d < 1e-9 {
					dx, dy, d = 1, 0, 1
				}
				push := (gap - d) / 2 / d
				pos[i].X, pos[i].Y = pos[i].X-dx*push, pos[i].Y-dy*push
				pos[j].X, pos[j].Y = pos[j].X+dx*push, pos[j].Y+dy*push
			}
		}
		if !moved {
			return
		}
	}
}

// forceLayout places a graph with no positions: nodes on a circle, then
// springs along edges and repulsion between all nodes, deterministically.
func forceLayout(adj [][]int) []Point {
	n := len(adj)
	pos := make([]Point, n)
	for i := range pos {
		a := 2 * math.Pi * float64(i) / float64(n)
		pos[i] = Point{0.5 + 0.4*math.Cos(a), 0.5 + 0.4*math.Sin(a)}
	}
	k := math.Sqrt(1 / float64(max(n, 1)))
	for it := range 300 {
		temp := 0.1 * (1 - float64(it)/300)
		disp := make([]Point, n)
		for i := range n {
			for j := range n {
				if i == j {
					continue
				}
				dx, dy := pos[i].X-pos[j].X, pos[i].Y-pos[j].Y
				d := max(math.Hypot(dx, dy), 1e-4)
				f := k * k / d
				disp[i].X += dx / d * f
				disp[i].Y += dy / d * f
			}
			for _, j := range adj[i] {
				dx, dy := pos[i].X-pos[j].X, pos[i].Y-pos[j].Y
				d := max(math.Hypot(dx, dy), 1e-4)
				f := d * d / k
				disp[i].X -= dx / d * f
				disp[i].Y -= dy / d * f
			}
		}
		for i := range pos {
			d := max(math.Hypot(disp[i].X, disp[i].Y), 1e-9)
			step := min(d, temp)
			pos[i].X = min(0.95, max(0.05, pos[i].X+disp[i].X/d*step))
			pos[i].Y = min(0.95, max(0.05, pos[i].Y+disp[i].Y/d*step))
		}
	}
	return pos
}
