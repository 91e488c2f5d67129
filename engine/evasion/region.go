package evasion

// Region is the set of free cells a player can reach from a cell, moving
// one step in any of eight directions (a diagonal step needs only its
// target free, so walls that touch at a corner do not close a region).
type Region struct {
	in    grid // the region's cells
	Area  int
	Min   Point // the bounding box
	Max   Point
	SumX  int // for the centroid
	SumY  int
	queue []int32
}

// Fill computes the region of f that contains from; Area is 0 when from
// is blocked. It reuses r's memory.
func (r *Region) Fill(f *Field, from Point) {
	r.in = grid{}
	r.Area, r.SumX, r.SumY = 0, 0, 0
	r.Min, r.Max = Point{Size, Size}, Point{-1, -1}
	if f.Blocked(from.X, from.Y) {
		return
	}
	q := append(r.queue[:0], int32(from.Y*Size+from.X))
	r.in.set(from.X, from.Y)
	for len(q) > 0 {
		c := int(q[len(q)-1])
		q = q[:len(q)-1]
		x, y := c%Size, c/Size
		r.Area++
		r.SumX += x
		r.SumY += y
		r.Min.X, r.Min.Y = min(r.Min.X, x), min(r.Min.Y, y)
		r.Max.X, r.Max.Y = max(r.Max.X, x), max(r.Max.Y, y)
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				nx, ny := x+dx, y+dy
				if f.Blocked(nx, ny) || r.in.has(nx, ny) {
					continue
				}
				r.in.set(nx, ny)
				q = append(q, int32(ny*Size+nx))
			}
		}
	}
	r.queue = q
}

// copyFrom makes r the same region as o, keeping r's queue.
func (r *Region) copyFrom(o *Region) {
	r.in, r.Area, r.Min, r.Max, r.SumX, r.SumY = o.in, o.Area, o.Min, o.Max, o.SumX, o.SumY
}

// Has reports whether a cell is in the region.
func (r *Region) Has(x, y int) bool {
	return uint(x) < Size && uint(y) < Size && r.in.has(x, y)
}

// Centroid is the mean of the region's cells.
func (r *Region) Centroid() Point {
	if r.Area == 0 {
		return Point{}
	}
	return Point{(r.SumX + r.Area/2) / r.Area, (r.SumY + r.Area/2) / r.Area}
}

// Borders reports whether wall w has a cell next to the region (eight
// neighbours): a wall that does not is no part of the region's fence.
func (r *Region) Borders(w *Wall) bool {
	touch := false
	w.Cells(func(x, y int) {
		if touch || x < r.Min.X-1 || x > r.Max.X+1 || y < r.Min.Y-1 || y > r.Max.Y+1 {
			return
		}
		for dy := -1; dy <= 1 && !touch; dy++ {
			for dx := -1; dx <= 1; dx++ {
				if r.Has(x+dx, y+dy) {
					touch = true
					break
				}
			}
		}
	})
	return touch
}
