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
// is blocked. It reuses r's memory. On a field with an occupancy grid it
// fills whole runs of a row at a time (a 90,000-cell region is a few
// hundred runs), which is what lets a hunter weigh several cuts a tick.
func (r *Region) Fill(f *Field, from Point) {
	r.reset()
	if f.Blocked(from.X, from.Y) {
		return
	}
	if f.occ == nil {
		r.fillCells(f, from)
		return
	}
	r.fillRuns(f.occ, from)
}

func (r *Region) reset() {
	r.in = grid{}
	r.Area, r.SumX, r.SumY = 0, 0, 0
	r.Min, r.Max = Point{Size, Size}, Point{-1, -1}
}

// fillRuns is a scanline fill: it takes a seed's whole run of free cells
// in its row, then seeds each free run of the rows above and below that
// touches it, diagonally included (eight neighbours). The occupancy
// grid's border ends every run.
func (r *Region) fillRuns(occ *grid, from Point) {
	q := append(r.queue[:0], int32(gridIndex(from.X, from.Y)))
	for len(q) > 0 {
		i := uint(q[len(q)-1])
		q = q[:len(q)-1]
		if r.in.hasIndex(i) {
			continue // a run is taken whole: any cell of it taken is all of it
		}
		lo, hi := occ.prevSet(i)+1, occ.nextSet(i)-1
		r.in.setRun(lo, hi)
		r.addRun(int(lo%gridW)-1, int(hi%gridW)-1, int(lo/gridW)-1)
		for _, row := range [2]int{-gridW, gridW} {
			end := uint(int(hi) + 1 + row)
			for j := uint(int(lo) - 1 + row); ; j = occ.nextSet(j) + 1 {
				if j = occ.nextClear(j); j > end {
					break
				}
				if !r.in.hasIndex(j) {
					q = append(q, int32(j))
				}
			}
		}
	}
	r.queue = q
}

// addRun counts the cells x0 to x1 of row y.
func (r *Region) addRun(x0, x1, y int) {
	n := x1 - x0 + 1
	r.Area += n
	r.SumX += (x0 + x1) * n / 2
	r.SumY += y * n
	r.Min.X, r.Min.Y = min(r.Min.X, x0), min(r.Min.Y, y)
	r.Max.X, r.Max.Y = max(r.Max.X, x1), max(r.Max.Y, y)
}

// fillCells is the plain breadth-first fill, a cell and its eight
// neighbours at a time: the reference fillRuns is tested and measured
// against, and the fill of a field that scans its walls.
func (r *Region) fillCells(f *Field, from Point) {
	q := append(r.queue[:0], int32(from.Y*Size+from.X))
	r.in.set(from.X, from.Y)
	for len(q) > 0 {
		c := int(q[len(q)-1])
		q = q[:len(q)-1]
		x, y := c%Size, c/Size
		r.addRun(x, x, y)
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
