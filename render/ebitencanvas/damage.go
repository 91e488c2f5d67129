package ebitencanvas

import (
	"cmp"
	"image"
	"math"
	"slices"

	"github.com/arena-playground/arena/render"
)

// damageOf appends to damage the pixels o may touch, its points being in
// pts: its box, but for an outline, the boxes of its four sides, and for
// a polyline, the boxes of pieces of its segments at most damagePiece
// long. The box of a long slanting edge of a graph holds many times its
// pixels, and the boxes of the few edges that changed would chain into
// most of the graph.
func (s *Screen) damageOf(o *op, pts []render.Point, damage []image.Rectangle) []image.Rectangle {
	screen := image.Rectangle{Max: s.size}
	switch {
	case o.box.Dx()*o.box.Dy() <= damagePiece*damagePiece:
	case o.kind == opStroke:
		for _, side := range outline(o.r, o.a) {
			damage = append(damage, box(side, 1).Intersect(screen))
		}
		return damage
	case o.kind == opPolyline:
		m := o.a/2 + 2
		line := pts[o.p0:o.p1]
		for i := range len(line) - 1 {
			a, b := line[i], line[i+1]
			n := max(1, int(math.Ceil(math.Hypot(b.X-a.X, b.Y-a.Y)/damagePiece)))
			for k := range n {
				p, q := lerpPoint(a, b, float64(k)/float64(n)), lerpPoint(a, b, float64(k+1)/float64(n))
				damage = append(damage, pointsBox([]render.Point{p, q}, m).Intersect(screen))
			}
		}
		return damage
	}
	return append(damage, o.box)
}

// damagePiece is the length of the pieces of a polyline that damage the
// screen on their own, in pixels.
const damagePiece = 24

func lerpPoint(a, b render.Point, t float64) render.Point {
	return render.Point{X: a.X + t*(b.X-a.X), Y: a.Y + t*(b.Y-a.Y)}
}

// maxRegions is the number of regions a frame redraws one by one at most;
// past it (a large board all changing), they are merged as dear ones are.
const maxRegions = 1024

// regions returns the rectangles Present redraws for a frame's damaged
// boxes, cheap and dear. Overlapping boxes are joined where that draws no
// more. A region that costs no draw call of its own (see cheap) is
// redrawn as it is, however many there are: the cells of a board that
// changed are redrawn cell by cell, not as the few large rectangles
// around them that merging them made, which painted a third of the
// screen for the Life view's fading cells. A dear region is drawn
// through its own scissor, a draw call or a few; they are merged into at
// most maxDamage.
func (s *Screen) regions(damage []image.Rectangle) (cheap, dear []image.Rectangle) {
	damage = joinOverlapping(slices.DeleteFunc(damage, func(r image.Rectangle) bool { return r.Empty() }), worthJoining)
	if len(damage) > maxRegions {
		return nil, merge(damage, maxDamage, always)
	}
	cheap, dear = s.cheapRegions[:0], s.dearRegions[:0]
	for _, d := range damage {
		if s.cheap(d) {
			cheap = append(cheap, d)
		} else {
			dear = append(dear, d)
		}
	}
	dear = merge(dear, maxDamage, worthJoining)
	// A cheap region within a merged one is redrawn with it.
	cheap = slices.DeleteFunc(cheap, func(c image.Rectangle) bool {
		return slices.ContainsFunc(dear, func(d image.Rectangle) bool { return c.In(d) })
	})
	s.cheapRegions, s.dearRegions = cheap, dear
	return cheap, dear
}

// cheap reports whether redrawing d adds no draw call: an opaque
// operation covers d, and each one over d after it is one the canvas
// clips itself (all but text and pixel images) or lies within d, so that
// all of them join the batch drawn on the whole screen.
func (s *Screen) cheap(d image.Rectangle) bool {
	over := s.index.over(d, s.ops)
	for k := len(over) - 1; k >= 0; k-- {
		o := &s.ops[over[k]]
		if o.covers(d) {
			return true
		}
		if !o.clippable() && !o.box.In(d) {
			return false
		}
	}
	return false
}

// merge joins overlapping boxes where join says so, then the pairs whose
// union adds the least area, until at most n are left. Many boxes (the
// cells of a board that changed) are first gathered into the tiles of a
// coarse grid.
func merge(boxes []image.Rectangle, n int, join func(a, b image.Rectangle) bool) []image.Rectangle {
	boxes = slices.DeleteFunc(boxes, func(r image.Rectangle) bool { return r.Empty() })
	if len(boxes) > 2*n {
		boxes = tiles(boxes)
	}
	area := func(r image.Rectangle) int { return r.Dx() * r.Dy() }
	for {
		boxes = joinOverlapping(boxes, join)
		if len(boxes) <= n {
			return boxes
		}
		bi, bj, best := 0, 1, math.MaxInt
		for i := range boxes {
			for j := i + 1; j < len(boxes); j++ {
				if cost := area(boxes[i].Union(boxes[j])) - area(boxes[i]) - area(boxes[j]); cost < best {
					bi, bj, best = i, j, cost
				}
			}
		}
		boxes[bi] = boxes[bi].Union(boxes[bj])
		boxes = slices.Delete(boxes, bj, bj+1)
	}
}

// joinOverlapping replaces two boxes that overlap by their union, when
// join says so, until no such two are left. It sweeps the boxes in order
// of their left edges, so that a frame's hundreds of changed cells, which
// mostly overlap nothing, cost about a sort.
func joinOverlapping(boxes []image.Rectangle, join func(a, b image.Rectangle) bool) []image.Rectangle {
	for {
		slices.SortFunc(boxes, func(a, b image.Rectangle) int { return cmp.Compare(a.Min.X, b.Min.X) })
		joined := false
		for i := 0; i < len(boxes); i++ {
			// Only boxes that start left of i's right edge can overlap it.
			for j := i + 1; j < len(boxes) && boxes[j].Min.X < boxes[i].Max.X; {
				if !boxes[i].Overlaps(boxes[j]) || !join(boxes[i], boxes[j]) {
					j++
					continue
				}
				// i grows (never leftwards, the boxes being sorted): the
				// boxes after it are looked at again; those before it, by
				// the next sweep.
				boxes[i] = boxes[i].Union(boxes[j])
				boxes = slices.Delete(boxes, j, j+1)
				joined = true
				j = i + 1
			}
		}
		if !joined {
			return boxes
		}
	}
}

// worthJoining reports whether the union of two overlapping boxes is no
// larger than the two: two boxes are two redraws, their overlap drawn
// twice. Boxes that overlap without it stay apart: the pieces of a
// slanting line would otherwise join into the line's whole box.
func worthJoining(a, b image.Rectangle) bool {
	area := func(r image.Rectangle) int { return r.Dx() * r.Dy() }
	return area(a.Union(b)) <= area(a)+area(b)
}

// always joins any two overlapping boxes.
func always(a, b image.Rectangle) bool { return true }

// tileGrid is the number of tiles across and down that tiles gathers
// boxes into.
const tileGrid = 16

// tiles returns rectangles covering boxes, each a run of tiles of a
// 16x16 grid over their bounds, runs of equal columns in successive rows
// joined.
func tiles(boxes []image.Rectangle) []image.Rectangle {
	var all image.Rectangle
	for _, b := range boxes {
		all = all.Union(b)
	}
	tw, th := (all.Dx()+tileGrid-1)/tileGrid, (all.Dy()+tileGrid-1)/tileGrid
	var on [tileGrid][tileGrid]bool
	for _, b := range boxes {
		for y := (b.Min.Y - all.Min.Y) / th; y <= (b.Max.Y-1-all.Min.Y)/th; y++ {
			for x := (b.Min.X - all.Min.X) / tw; x <= (b.Max.X-1-all.Min.X)/tw; x++ {
				on[y][x] = true
			}
		}
	}
	tile := func(x0, y0, x1, y1 int) image.Rectangle {
		return image.Rect(all.Min.X+x0*tw, all.Min.Y+y0*th, all.Min.X+x1*tw, all.Min.Y+y1*th).Intersect(all)
	}
	var out []image.Rectangle
	open := map[[2]int]int{} // a run's columns: its rectangle in out, if it reached the last row
	for y := range tileGrid {
		next := map[[2]int]int{}
		for x := 0; x < tileGrid; {
			if !on[y][x] {
				x++
				continue
			}
			x0 := x
			for x < tileGrid && on[y][x] {
				x++
			}
			run := [2]int{x0, x}
			if i, ok := open[run]; ok {
				out[i].Max.Y = tile(x0, y, x, y+1).Max.Y
				next[run] = i
			} else {
				next[run] = len(out)
				out = append(out, tile(x0, y, x, y+1))
			}
		}
		open = next
	}
	return out
}
