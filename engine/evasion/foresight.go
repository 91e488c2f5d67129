package evasion

import (
	"math"
	"slices"
)

// The strong hunter's foresight: where will the prey be when a cut comes,
// and how much would that cut leave it? A prey's next steps are foretold
// by the model of the course's preys that foretold its last steps best,
// and the room a straight cut leaves is counted from the region's profile
// in constant time, so the hunter can weigh a cut now against every cut
// its path brings over the next ticks.

// profile counts a region's cells along the four directions a wall runs,
// as prefix sums: the room a straight cut leaves the prey is then counted
// at once for any anchor. It is exact while the region is convex (cut
// from the board by straight walls) and an estimate otherwise; a cut is
// built only after a play on a copy of the field.
type profile struct {
	row, col   [Size + 1]int32   // row[i]: the cells with y < i
	diag, anti [2*Size + 1]int32 // diag[i]: the cells with x-y+Size-1 < i; anti: x+y < i
	area       int32
}

func (pr *profile) fill(r *Region) {
	*pr = profile{area: int32(r.Area)}
	for y := r.Min.Y; y <= r.Max.Y; y++ {
		for x := r.Min.X; x <= r.Max.X; x++ {
			if r.Has(x, y) {
				pr.row[y+1]++
				pr.col[x+1]++
				pr.diag[x-y+Size]++
				pr.anti[x+y+1]++
			}
		}
	}
	prefix := func(a []int32) {
		for i := 1; i < len(a); i++ {
			a[i] += a[i-1]
		}
	}
	prefix(pr.row[:])
	prefix(pr.col[:])
	prefix(pr.diag[:])
	prefix(pr.anti[:])
}

// side counts the cells of a line family on the prey's side of a wall
// that takes lines lo to hi (coordinates c of the family), with the
// prey's line at prey and the hunter's, after its move, at next; ok is
// false when either is not strictly on one side or they are on two.
func side(sums []int32, lo, hi, prey, next int) (int, bool) {
	switch {
	case prey > hi && next > hi:
		return int(sums[len(sums)-1] - sums[hi+1]), true
	case prey < lo && next < lo:
		return int(sums[lo]), true
	}
	return 0, false
}

// leave estimates the room a wall of kind built at anchor a leaves a
// prey at q, the hunter moving on to next; ok is false when the wall
// cannot be built (the hunter did not move) or would leave the hunter
// on the other side.
func (pr *profile) leave(kind Kind, a, next, q Point) (int, bool) {
	if next == a {
		return 0, false
	}
	switch kind {
	case Horizontal:
		return side(pr.row[:], a.Y, a.Y, q.Y, next.Y)
	case Vertical:
		return side(pr.col[:], a.X, a.X, q.X, next.X)
	case Diagonal: // the staircase takes x-y = d and d-1
		d := a.X - a.Y + Size - 1
		return side(pr.diag[:], d-1, d, q.X-q.Y+Size-1, next.X-next.Y+Size-1)
	case Counterdiagonal: // x+y = s and s-1
		s := a.X + a.Y
		return side(pr.anti[:], s-1, s, q.X+q.Y, next.X+next.Y)
	}
	return 0, false
}

// least is the least room any wall at anchor a leaves.
func (pr *profile) least(a, next, q Point) int {
	best := int(pr.area)
	for kind := Horizontal; kind <= Counterdiagonal; kind++ {
		if n, ok := pr.leave(kind, a, next, q); ok && n < best {
			best = n
		}
	}
	return best
}

// A preyModel foretells a prey's step from a state: the hunter at h going
// by v, the prey at q, in region reg.
type preyModel func(f *Field, reg *Region, h, v, q Point) Point

// preyModels are the course's preys as the hunter models them: one that
// stays (the model of a prey none of the others foretells), one that
// walks to its region's centroid (herbertli's, greedy's), one that keeps
// about seven cells from the hunter, beside it and off its line (the
// shadowing students' prey).
var preyModels = [...]preyModel{
	func(f *Field, reg *Region, h, v, q Point) Point { return q },
	func(f *Field, reg *Region, h, v, q Point) Point {
		c := reg.Centroid()
		return bestMove(f, q, func(to Point) int { return -dist2(to, c) })
	},
	func(f *Field, reg *Region, h, v, q Point) Point {
		far := !near(h, q, 12)
		next, _ := f.Move(h, v)
		return bestMove(f, q, func(to Point) int {
			if f.Captures(next, to) {
				return -1 << 40
			}
			return shadowScoreAt(h, v, to, far)
		})
	},
}

// staying is the index of the model that foretells nothing, shadowing
// the one of the prey that keeps alongside the hunter.
const (
	staying   = 0
	shadowing = 2
)

// bestMove returns the cell a prey at q reaches by its best-scoring step.
func bestMove(f *Field, q Point, score func(to Point) int) Point {
	best, bestScore := q, math.MinInt
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			to, _ := f.Move(q, Point{dx, dy})
			if s := score(to); s > bestScore {
				best, bestScore = to, s
			}
		}
	}
	return best
}

// foresight keeps score of the prey models: at each tick the hunter sees
// where the prey went and credits the models that foretold it.
type foresight struct {
	hits              [len(preyModels)]int
	tick              int
	hunter, vel, prey Point
	seen              bool
	prof              profile
	profOf            int // the region generation the profile counts
	stallGen          int // the region generation since stallTick
	stallTick         int
}

// watch credits the models that foretold the prey's last step, from the
// state the prey saw (the prey steps on odd ticks).
func (fs *foresight) watch(f *Field, reg *Region) {
	if fs.seen && f.Tick < fs.tick {
		fs.hits = [len(preyModels)]int{} // a new game
	}
	if fs.seen && f.Tick == fs.tick+1 && fs.tick%2 == 1 && f.Prey != fs.prey {
		for i, m := range preyModels {
			if m(f, reg, fs.hunter, fs.vel, fs.prey) == f.Prey {
				fs.hits[i]++
			}
		}
	}
	fs.tick, fs.hunter, fs.vel, fs.prey, fs.seen = f.Tick, f.Hunter, f.HunterVel, f.Prey, true
}

// model returns the model that foretold most of the prey's steps, the
// staying one until another has foretold 8 (a step is credited only when
// the prey moved, so the staying model is the fallback, never a winner).
func (fs *foresight) model() int {
	best := staying
	for i, h := range fs.hits {
		if h > fs.hits[best] {
			best = i
		}
	}
	if best != staying && fs.hits[best] < 8 {
		return staying
	}
	return best
}

// later follows the hunter's path (no walls built) and the prey's path
// as model m foretells it for up to look ticks, and returns the cut that
// takes the prey's room down fastest, counted per tick from now to the
// next cut after it (rest ticks later at least), against building now to
// leave now; k is 0 when building now is best.
func (fs *foresight) later(f *Field, reg *Region, gen, m, look, rest, now int) (k, leaves int) {
	if fs.profOf != gen {
		fs.prof.fill(reg)
		fs.profOf = gen
	}
	area := float64(reg.Area)
	best := math.Log(area/float64(max(now, 1))) / float64(rest)
	h, v, q := f.Hunter, f.HunterVel, f.Prey
	for i := 1; i <= look; i++ {
		if (f.Tick+i-1)%2 == 1 {
			q = preyModels[m](f, reg, h, v, q)
		}
		h, v = f.Move(h, v)
		next, _ := f.Move(h, v)
		n := fs.prof.least(h, next, q)
		if n >= reg.Area {
			continue
		}
		if r := math.Log(area/float64(max(n, 1))) / float64(i+rest); r > best {
			best, k, leaves = r, i, n
		}
	}
	return k, leaves
}

// free reports whether the hunter in g can still run: a cut can leave it
// in a staircase of diagonal walls where every diagonal step is blocked,
// and a hunter that stays put catches nothing. It follows the hunter 64
// ticks and wants it moving in most of them, over more than a few cells.
func free(g *Field) bool {
	h, v := g.Hunter, g.HunterVel
	stuck := 0
	var seen [64]Point
	cells := 0
	for range len(seen) {
		n, nv := g.Move(h, v)
		if n == h {
			stuck++
		}
		if !slices.Contains(seen[:cells], n) {
			seen[cells] = n
			cells++
		}
		h, v = n, nv
	}
	return stuck < 16 && cells >= 8
}

// stalled reports whether the prey's region has not changed for so long
// that the hunter will not catch it there: with no cut left that takes a
// tenth, a hunter whose path misses the prey's corner would run to the
// tick cap. The strong hunter then takes down its newest wall and cuts
// again from the wider region.
func (fs *foresight) stalled(f *Field, reg *Region, gen int) bool {
	if fs.stallGen != gen || f.Tick < fs.stallTick {
		fs.stallGen, fs.stallTick = gen, f.Tick
		return false
	}
	span := max(reg.Max.X-reg.Min.X, reg.Max.Y-reg.Min.Y) + 1
	if f.Tick-fs.stallTick < 3*span+2*f.Delay+50 {
		return false
	}
	fs.stallTick = f.Tick
	return true
}

// newestFence returns the index of the newest wall that borders the
// prey's region and is not in del, or -1.
func newestFence(f *Field, reg *Region, del []int) int {
	for i := len(f.Walls()) - 1; i >= 0; i-- {
		if !slices.Contains(del, i) && reg.Borders(&f.Walls()[i]) {
			return i
		}
	}
	return -1
}
