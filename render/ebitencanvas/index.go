package ebitencanvas

import (
	"image"
	"slices"
)

// opIndex lists a frame's operations under the tiles of a coarse grid
// that their boxes overlap, so that finding the operations over a region
// does not take a pass over the whole frame: a frame where a board's
// cells change redraws hundreds of small regions among a thousand
// operations.
type opIndex struct {
	cols, rows int
	// Tile t's operations are ops[start[t]:start[t+1]], in drawing order.
	start []int32
	ops   []int32
	// seen marks the operations over already gathered for a region that
	// spans tiles: seen[i] == stamp.
	seen  []uint32
	stamp uint32
	out   []int32
	next  []int32 // build's cursors
}

// indexTile is the side of the index's tiles, in pixels.
const indexTile = 64

// span returns the range of tiles r overlaps, clamped to the grid.
func (x *opIndex) span(r image.Rectangle) (x0, y0, x1, y1 int) {
	clamp := func(v, n int) int { return min(max(v, 0), n-1) }
	return clamp(r.Min.X/indexTile, x.cols), clamp(r.Min.Y/indexTile, x.rows),
		clamp((r.Max.X-1)/indexTile, x.cols), clamp((r.Max.Y-1)/indexTile, x.rows)
}

// build indexes ops for a screen of the given size.
func (x *opIndex) build(ops []op, size image.Point) {
	x.cols, x.rows = max(1, (size.X+indexTile-1)/indexTile), max(1, (size.Y+indexTile-1)/indexTile)
	n := x.cols * x.rows
	x.start = append(x.start[:0], make([]int32, n+1)...)
	each := func(f func(i, t int)) {
		for i := range ops {
			if ops[i].box.Empty() {
				continue
			}
			x0, y0, x1, y1 := x.span(ops[i].box)
			for ty := y0; ty <= y1; ty++ {
				for tx := x0; tx <= x1; tx++ {
					f(i, ty*x.cols+tx)
				}
			}
		}
	}
	each(func(_, t int) { x.start[t+1]++ })
	for t := range n {
		x.start[t+1] += x.start[t]
	}
	x.ops = append(x.ops[:0], make([]int32, x.start[n])...)
	x.next = append(x.next[:0], x.start[:n]...)
	each(func(i, t int) {
		x.ops[x.next[t]] = int32(i)
		x.next[t]++
	})
	if len(x.seen) < len(ops) {
		x.seen = append(x.seen, make([]uint32, len(ops)-len(x.seen))...)
	}
}

// over returns, in drawing order, the indices of the operations whose
// boxes overlap d. The slice is the index's own, valid until the next
// call.
func (x *opIndex) over(d image.Rectangle, ops []op) []int32 {
	x.out = x.out[:0]
	if d.Empty() {
		return x.out
	}
	x0, y0, x1, y1 := x.span(d)
	if x0 == x1 && y0 == y1 {
		t := y0*x.cols + x0
		for _, i := range x.ops[x.start[t]:x.start[t+1]] {
			if ops[i].box.Overlaps(d) {
				x.out = append(x.out, i)
			}
		}
		return x.out
	}
	if x.stamp++; x.stamp == 0 {
		clear(x.seen)
		x.stamp = 1
	}
	for ty := y0; ty <= y1; ty++ {
		for tx := x0; tx <= x1; tx++ {
			t := ty*x.cols + tx
			for _, i := range x.ops[x.start[t]:x.start[t+1]] {
				if x.seen[i] != x.stamp {
					x.seen[i] = x.stamp
					if ops[i].box.Overlaps(d) {
						x.out = append(x.out, i)
					}
				}
			}
		}
	}
	slices.Sort(x.out)
	return x.out
}
