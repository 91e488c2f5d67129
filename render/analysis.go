package render

import (
	"image/color"
	"math"
	"slices"
	"strconv"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// Pick is an option of an analysis a person picked on the board: one of
// its best (Best >= 0) or one it refuted (Other >= 0); -1 for neither.
type Pick struct{ Best, Other int }

// NoPick picks nothing.
var NoPick = Pick{-1, -1}

// AnalysisRange is the range of an analysis's values, the best options'
// and the others' bounds, decided games left out (a won game is beyond
// any count, and takes the scale's top; a lost one its bottom): what its
// colour scale spans, the same scale for every option whatever its rank.
func AnalysisRange(an *match.Analysis) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, b := range an.Best {
		if b.Outcome == "" {
			lo, hi = min(lo, b.Value), max(hi, b.Value)
		}
	}
	for _, o := range an.Others {
		if o.Outcome == "" {
			lo, hi = min(lo, o.Bound), max(hi, o.Bound)
		}
	}
	if lo > hi {
		return 0, 0
	}
	return lo, hi
}

// scaleStep is v's step of the scale spanning lo..hi; a decided game's
// the top or the bottom.
func scaleStep(v, lo, hi float64, outcome string) int {
	switch {
	case outcome == "win":
		return ScaleSteps - 1
	case outcome == "loss":
		return 0
	case hi <= lo:
		return ScaleSteps / 2
	}
	return min(max(int(math.Round((v-lo)/(hi-lo)*(ScaleSteps-1))), 0), ScaleSteps-1)
}

// DrawAnalysis draws an analysis of state k over the board drawn in r.
// Options are grouped by where they stand (Colosseum's four walls of a
// cell are one place with four sides): a place with one of the K best
// is ringed in the value scale (one scale over the analysis's range, not
// ranks), the best at a place numbered by one badge listing their ranks;
// a place with refuted options only is ringed thin and dim, with the best
// bound among them (≤), or where the options stand on more than
// crowdedPlaces places, dotted (its value on a click). The
// values are written at the foot of the ring, so that what stands on the
// place (a player's letter) stays readable. The line of the picked best
// option (the first when none is picked) follows, each move numbered in
// its player's colour; a picked refuted option is joined instead to the
// reply that refutes it.
func DrawAnalysis(c Canvas, r Rect, rec *play.Record, k int, an *match.Analysis, pick Pick, th *Theme) {
	pl, ok := drawers[rec.Game.Info().Name].(Placer)
	if !ok || an == nil {
		return
	}
	unit := max(min(r.W, r.H)/480, 0.6)
	face := Face{textSize(c, math.Round(10*unit)), Bold}
	lo, hi := AnalysisRange(an)
	dim := Alpha(th.TextDim, 0.6)
	type place struct {
		s     Spot
		bound float64
		best  int // the first of the K best here, -1: none
		any   bool
		exact bool // every option here has its value, not a bound
	}
	places := map[[3]int]*place{}
	var order [][3]int
	at := func(p match.Place) *place {
		key := [3]int{int(p.Kind), p.A, p.B}
		if pp := places[key]; pp != nil {
			return pp
		}
		s, ok := pl.Spot(rec, k, an.Side, r, p)
		if !ok {
			return nil
		}
		pp := &place{s: s, bound: math.Inf(-1), best: -1, exact: true}
		places[key], order = pp, append(order, key)
		return pp
	}
	for i, b := range an.Best {
		if pp := at(b.Place); pp != nil && pp.best < 0 {
			pp.best = i
		}
	}
	for _, o := range an.Others {
		if pp := at(o.Place); pp != nil {
			pp.bound, pp.any, pp.exact = max(pp.bound, o.Bound), true, pp.exact && o.Exact
			if s, _ := pl.Spot(rec, k, an.Side, r, o.Place); s.Ticked {
				c.Line(s.Tick[0], s.Tick[1], math.Max(1.5*unit, 1), dim)
			}
		}
	}
	w := math.Max(1.5*unit, 1)
	crowded := len(order) > crowdedPlaces
	for _, key := range order {
		pp := places[key]
		if pp.best >= 0 || !pp.any {
			continue
		}
		if crowded { // a dot where an option is; its value on a click
			c.Circle(pp.s.At, math.Max(2*unit, 1.5), dim)
			continue
		}
		c.Ring(pp.s.At, ringRadius(pp.s, unit), w, dim)
		if text := boundText(pp.bound, pp.exact); footFits(c, pp.s, text, face) {
			footLabel(c, pp.s, text, face, unit, th.TextDim, th)
		}
		writeName(c, pl, rec, k, an.Side, match.Place{Kind: match.PlaceKind(key[0]), A: key[1], B: key[2]}, pp.s, unit, th)
	}
	// The ranks of the best at each place, for one badge each.
	ranks := map[[3]int][]int{}
	for i := len(an.Best) - 1; i >= 0; i-- { // the best last, on top
		b := an.Best[i]
		s, ok := pl.Spot(rec, k, an.Side, r, b.Place)
		if !ok {
			continue
		}
		col := th.ScaleColour(scaleStep(b.Value, lo, hi, b.Outcome))
		key := [3]int{int(b.Place.Kind), b.Place.A, b.Place.B}
		ranks[key] = append([]int{i + 1}, ranks[key]...)
		if pp := at(b.Place); pp != nil && pp.best == i {
			c.Ring(s.At, ringRadius(s, unit), 2.5*w, col)
			text := ValueText(b.Value)
			if b.Outcome != "" {
				text = b.Outcome + " " + text
			}
			footLabel(c, s, text, face, unit, col, th)
			writeName(c, pl, rec, k, an.Side, b.Place, s, unit, th)
		}
		if s.Ticked {
			c.Line(s.Tick[0], s.Tick[1], 3*w, col)
		}
	}
	picked := -1
	if pick.Other < 0 {
		picked = max(pick.Best, 0) + 1
	}
	for _, key := range order {
		if rs := ranks[key]; len(rs) > 0 {
			drawRanks(c, places[key].s, rs, picked, unit, th)
		}
	}
	switch {
	case pick.Other >= 0 && pick.Other < len(an.Others):
		drawRefutation(c, pl, rec, k, r, an, an.Others[pick.Other], face, unit, th)
	case len(an.Best) > 0:
		drawLine(c, pl, rec, k, r, an.Best[max(pick.Best, 0)].Line, face, unit, th)
	}
}

// crowdedPlaces is how many places an analysis's options may stand on
// before the board writes only the best's values and the picked one's:
// Life weighs some 300 cells, and 300 numbers hide the board and say
// nothing a person can take in; a click on a dot says its value.
const crowdedPlaces = 40

// boundText writes an option's value outside the best: ≤ before a
// bound, nothing before a value.
func boundText(v float64, exact bool) string {
	if exact {
		return ValueText(v)
	}
	return "≤" + ValueText(v)
}

// ringRadius is the radius of an analysis's ring at a spot.
func ringRadius(s Spot, unit float64) float64 { return math.Max(s.R*0.85, 5*unit) }

// footFits reports whether a foot label keeps within its place and a
// little beyond: the others' values are left off boards whose cells are
// too small for them (a phone's Life board), where a click shows one.
func footFits(c Canvas, s Spot, text string, face Face) bool {
	if s.Seg {
		return true
	}
	face.Size = textSize(c, math.Round(min(max(s.R*0.42, 7), face.Size)))
	return c.TextWidth(text, face) <= 3*s.R
}

// footLabel writes a value at the foot of a spot's ring, on a box of the
// panel's colour: below what stands at the spot's centre.
func footLabel(c Canvas, s Spot, text string, face Face, unit float64, col color.RGBA, th *Theme) {
	face.Size = textSize(c, math.Round(min(max(s.R*0.42, 7), face.Size)))
	tw, lh := c.TextWidth(text, face), c.LineHeight(face)
	pad := math.Round(2 * unit)
	y := s.At.Y + ringRadius(s, unit) - lh*0.9
	box := Rect{math.Round(s.At.X - tw/2 - pad), math.Round(y), math.Round(tw + 2*pad), math.Round(lh)}
	c.Fill(box, Alpha(th.Panel, 0.9))
	c.Text(text, s.At.X, box.Y, face, Center, col)
}

// drawRanks numbers the best options at a place with one badge at its
// corner listing their ranks ("1·3": two of the best are moves to this
// Colosseum cell, or colours of this state), so that badges never pile
// up; the badge holding the picked rank is ringed.
func drawRanks(c Canvas, s Spot, ranks []int, picked int, unit float64, th *Theme) {
	small := Face{textSize(c, math.Round(9*unit)), Bold}
	text := ""
	for i, n := range ranks {
		if i > 0 {
			text += "·"
		}
		text += strconv.Itoa(n)
	}
	rad := math.Round(7 * unit)
	at := Point{s.At.X - s.R*0.6, s.At.Y - s.R*0.6}
	col := th.Mark
	if slices.Contains(ranks, picked) {
		col = th.Accent
	}
	// A pill: as wide as the ranks, a circle where there is one.
	half := math.Max(0, c.TextWidth(text, small)+rad-2*rad) / 2
	c.Circle(Point{at.X - half, at.Y}, rad, col)
	c.Circle(Point{at.X + half, at.Y}, rad, col)
	if half > 0 {
		c.Fill(Rect{at.X - half, at.Y - rad, 2 * half, 2 * rad}, col)
	}
	c.Text(text, at.X, at.Y-c.LineHeight(small)/2, small, Center, th.Background)
}

// drawLine draws a line of moves, each segment and number in the colour
// of the player who makes that move: a line through both players' moves
// reads as their exchange, not as one piece's path.
func drawLine(c Canvas, pl Placer, rec *play.Record, k int, r Rect, line []match.LineMove, face Face, unit float64, th *Theme) {
	var prev *Point
	small := Face{textSize(c, math.Round(9*unit)), Bold}
	rad := math.Round(7 * unit)
	for i, m := range line {
		s, ok := pl.Spot(rec, k, m.Side, r, m.Place)
		if !ok {
			continue
		}
		col := th.Player[m.Side]
		writeName(c, pl, rec, k, m.Side, m.Place, s, unit, th)
		if prev != nil {
			c.Line(*prev, s.At, math.Max(2*unit, 1.5), Alpha(col, 0.85))
		}
		centre := s.At
		prev = &centre
		// The number beside the centre, not on what stands there.
		at := Point{s.At.X - s.R*0.5, s.At.Y + s.R*0.3}
		if s.Seg {
			at = s.At
		}
		c.Circle(at, rad, col)
		c.Text(strconv.Itoa(i+1), at.X, at.Y-c.LineHeight(small)/2, small, Center, th.Background)
	}
}

// drawRefutation draws a refuted option and the reply that refutes it.
func drawRefutation(c Canvas, pl Placer, rec *play.Record, k int, r Rect, an *match.Analysis, o match.Refutation, face Face, unit float64, th *Theme) {
	s, ok := pl.Spot(rec, k, an.Side, r, o.Place)
	if !ok {
		return
	}
	label := "≤"
	if o.Exact {
		label = ""
	}
	drawMark(c, s, match.Mark{At: o.Place, Value: o.Bound, Label: label}, th.Collision, true, face, unit, th)
	if o.Reply == nil {
		return
	}
	line := []match.LineMove{{Side: an.Side, Move: o.Move, Place: o.Place}, *o.Reply}
	drawLine(c, pl, rec, k, r, line, face, unit, th)
	if rs, ok := pl.Spot(rec, k, o.Reply.Side, r, o.Reply.Place); ok {
		c.Ring(rs.At, math.Max(rs.R*0.9, 6*unit), math.Max(2*unit, 1.5), th.Player[o.Reply.Side])
	}
}

// PickAt is the option of an analysis whose spot on the board drawn in r
// is under the point (x, y): the nearest within its spot, a move's wall
// side counted where it is drawn (Colosseum's four walls of a cell).
func PickAt(rec *play.Record, k int, r Rect, an *match.Analysis, x, y float64) (Pick, bool) {
	pl, ok := drawers[rec.Game.Info().Name].(Placer)
	if !ok || an == nil {
		return NoPick, false
	}
	best, bestD := NoPick, math.Inf(1)
	try := func(p match.Place, pick Pick) {
		s, ok := pl.Spot(rec, k, an.Side, r, p)
		if !ok {
			return
		}
		at := s.At
		if s.Ticked {
			at = tickMid(s)
		}
		d := math.Hypot(x-at.X, y-at.Y)
		if math.Hypot(x-s.At.X, y-s.At.Y) <= math.Max(s.R, 8) && d < bestD {
			best, bestD = pick, d
		}
	}
	for i, b := range an.Best {
		try(b.Place, Pick{i, -1})
	}
	for i, o := range an.Others {
		try(o.Place, Pick{-1, i})
	}
	return best, best != NoPick
}

// PickPoint is where to click to pick an option: its wall's side for a
// move that has one, its spot's centre otherwise; false when it is not on
// the board. Tests click there.
func PickPoint(rec *play.Record, k int, r Rect, side match.Side, p match.Place) (Point, bool) {
	pl, ok := drawers[rec.Game.Info().Name].(Placer)
	if !ok {
		return Point{}, false
	}
	s, ok := pl.Spot(rec, k, side, r, p)
	if !ok {
		return Point{}, false
	}
	if s.Ticked {
		// Between the centre and the wall: inside the spot, nearest this side.
		return towardTick(s, 2.0/3), true
	}
	return s.At, true
}

// tickMid is the middle of a spot's tick: the side of a move's wall.
func tickMid(s Spot) Point {
	return Point{(s.Tick[0].X + s.Tick[1].X) / 2, (s.Tick[0].Y + s.Tick[1].Y) / 2}
}

// towardTick is the point a share f of the way from a spot's centre to
// its tick's middle.
func towardTick(s Spot, f float64) Point {
	m := tickMid(s)
	return Point{s.At.X + f*(m.X-s.At.X), s.At.Y + f*(m.Y-s.At.Y)}
}
