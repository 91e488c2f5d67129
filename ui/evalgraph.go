package ui

import (
	"cmp"

	"math"
	"slices"

	"github.com/arena-playground/arena/analysis"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/render"
)

// evalGraph is the game's evaluation over its turns, drawn under the
// timeline: each side's own evaluation where its bot gave one, turned to
// P1's side (P2's negated) so that both read on one axis, up for P1; and
// the analysis board's value where it was run. The moves after which a
// side's own value fell most are marked; a click near one goes there.
type evalGraph struct {
	evals    [2][]evalPoint  // per side, in turn order
	analysed map[int]float64 // turn: the analysis's best value, P1's side
	scanned  int             // turns scanned
	scale    float64         // the squash's: values beyond a few of it flatten
	drops    []drop          // the biggest falls, at most maxDrops, by turn
	// rescaled is the number of evaluations the scale and the falls were
	// found from: they are found again as the evaluations grow by a
	// quarter, and at the match's end, not at every turn of a long
	// stream (each finding sorts them all).
	rescaled int
	ended    bool // the scan saw the match's end
	// report, once the game's report is in, is drawn in place of the
	// bots' own values: P1's expected points, its judgements marked.
	report *analysis.Report
}

// evalPoint is an evaluation at a turn, from P1's side.
type evalPoint struct {
	turn int
	v    float64
}

// drop is a move after which its side's own evaluation fell: by how
// much, in the graph's squashed units.
type drop struct {
	turn int
	side match.Side
	by   float64
}

// maxDrops is how many falls the graph marks.
const maxDrops = 3

// minDrop is the smallest fall marked, in squashed units (of 2, the
// graph's height): a swing a person would notice.
const minDrop = 0.25

// scan takes the turns not yet scanned: each is read once.
func (g *evalGraph) scan(rec *play.Record) {
	if g.scanned >= len(rec.Turns) && g.ended == (rec.Result != nil) {
		return
	}
	for k := g.scanned; k < len(rec.Turns); k++ {
		for _, side := range match.Sides {
			if v, ok := rec.Turns[k].Notes[side].Eval(); ok && !math.IsNaN(v) {
				if side == match.P2 {
					v = -v
				}
				g.evals[side] = append(g.evals[side], evalPoint{k, v})
			}
		}
	}
	g.scanned = len(rec.Turns)
	n := len(g.evals[0]) + len(g.evals[1])
	g.ended = rec.Result != nil
	if g.ended || n < 64 || n >= g.rescaled+g.rescaled/4 {
		g.rescale()
		g.rescaled = n
	}
}

// rescale sets the squash's scale from the values seen (the median of
// their sizes: a won game's huge value does not flatten the rest) and
// finds the biggest falls.
func (g *evalGraph) rescale() {
	var sizes []float64
	for _, side := range match.Sides {
		for _, p := range g.evals[side] {
			if p.v != 0 {
				sizes = append(sizes, math.Abs(p.v))
			}
		}
	}
	g.scale = 1
	if len(sizes) > 0 {
		slices.Sort(sizes)
		g.scale = max(sizes[len(sizes)/2], 1e-9)
	}
	g.drops = g.drops[:0]
	for _, side := range match.Sides {
		sign := 1.0
		if side == match.P2 {
			sign = -1
		}
		ev := g.evals[side]
		for i := 1; i < len(ev); i++ {
			by := sign * (g.y(ev[i-1].v) - g.y(ev[i].v)) // its own value's fall
			if by >= minDrop {
				g.drops = append(g.drops, drop{ev[i-1].turn, side, by})
			}
		}
	}
	slices.SortStableFunc(g.drops, func(a, b drop) int { return cmp.Compare(b.by, a.by) })
	g.drops = g.drops[:min(len(g.drops), maxDrops)]
	slices.SortFunc(g.drops, func(a, b drop) int { return cmp.Compare(a.turn, b.turn) })
}

// y squashes a value into -1..1.
func (g *evalGraph) y(v float64) float64 { return math.Tanh(v / (2 * g.scale)) }

// note records the analysis board's value of the state after turn turns,
// from the mover's side.
func (g *evalGraph) note(an *match.Analysis) {
	if an == nil || len(an.Best) == 0 {
		return
	}
	if g.analysed == nil {
		g.analysed = map[int]float64{}
	}
	v := an.Best[0].Value
	switch an.Best[0].Outcome {
	case "win":
		v = math.Max(v, 1) * 1e6
	case "loss":
		v = math.Min(v, -1) * 1e6
	}
	if an.Side == match.P2 {
		v = -v
	}
	g.analysed[an.Turn] = v
}

// key is what the graph's layer shows, drawn w pixels wide for length
// turns: it is drawn again when it changes. The turns are counted in
// the pixel columns they reach, so that a long match streaming in
// redraws the graph once a column, not once a turn.
func (g *evalGraph) key(w, length float64) [5]int {
	reported := 0
	if g.report != nil {
		reported = len(g.report.Decisions) + 1
	}
	return [5]int{int(w * float64(g.scanned) / max(length, 1)), len(g.analysed), g.rescaled, len(g.drops), reported}
}

// draw draws the graph in r, turns 0 to length across it.
func (g *evalGraph) draw(c render.Canvas, st style, r rect, length float64) {
	th := st.th
	roundRect(c, r, st.radius/2, th.Board)
	mid := r.Y + r.H/2
	c.Fill(rect{X: r.X, Y: math.Round(mid), W: r.W, H: math.Max(1, st.lw/2)}, render.Alpha(th.TextDim, 0.5))
	x := func(turn int) float64 { return r.X + r.W*(float64(turn)+0.5)/length }
	y := func(v float64) float64 { return mid - g.y(v)*(r.H/2-2*st.lw) }
	if g.report != nil {
		g.drawReport(c, st, r, x)
		return
	}
	if len(g.evals[0])+len(g.evals[1]) == 0 && len(g.analysed) == 0 {
		c.Text("no evaluations: these bots give none", r.X+st.pad, r.Y+(r.H-c.LineHeight(st.small))/2, st.small, render.Left, th.TextDim)
		return
	}
	for _, side := range match.Sides {
		pts := columns(g.evals[side], x, y)
		if len(pts) == 1 {
			c.Circle(pts[0], 2*st.lw, th.Player[side])
		}
		c.Polyline(pts, math.Max(1, st.lw), th.Player[side])
	}
	for turn, v := range g.analysed {
		c.Circle(render.Point{X: x(turn), Y: y(v)}, 2.5*st.lw, th.Accent)
	}
	for _, d := range g.drops {
		px := x(d.turn)
		c.Fill(rect{X: math.Round(px - st.lw/2), Y: r.Y, W: math.Max(1, st.lw), H: r.H}, render.Alpha(th.Collision, 0.5))
		c.Polygon([]render.Point{{X: px - 4*st.lw, Y: r.Y}, {X: px + 4*st.lw, Y: r.Y}, {X: px, Y: r.Y + 6*st.lw}}, th.Collision)
	}
}

// columns are the points of a side's evaluations as drawn: where
// several fall in one pixel column (thousands of turns on a few hundred
// pixels), the first, the lowest and the highest of them and the last,
// in turn order, so that the line keeps its swings at any length.
func columns(evals []evalPoint, x func(int) float64, y func(float64) float64) []render.Point {
	out := make([]render.Point, 0, min(len(evals), 4096))
	for i := 0; i < len(evals); {
		col := math.Floor(x(evals[i].turn))
		j, lo, hi := i, i, i
		for j < len(evals) && math.Floor(x(evals[j].turn)) == col {
			if evals[j].v < evals[lo].v {
				lo = j
			}
			if evals[j].v > evals[hi].v {
				hi = j
			}
			j++
		}
		for _, k := range orderedUnique(i, min(lo, hi), max(lo, hi), j-1) {
			out = append(out, render.Point{X: x(evals[k].turn), Y: y(evals[k].v)})
		}
		i = j
	}
	return out
}

// orderedUnique is a, b, c, d (ascending) without repeats.
func orderedUnique(a, b, c, d int) []int {
	out := []int{a}
	for _, v := range []int{b, c, d} {
		if v != out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

// dropNear is the turn of the marked fall within reach of x on the
// graph drawn in r, or -1.
func (g *evalGraph) dropNear(r rect, length, x, reach float64) int {
	best, bestD := -1, reach
	for _, d := range g.drops {
		px := r.X + r.W*(float64(d.turn)+0.5)/length
		if dd := math.Abs(px - x); dd <= bestD {
			best, bestD = d.turn, dd
		}
	}
	return best
}
