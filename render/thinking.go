package render

import (
	"cmp"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// Spot is where a mark is drawn on a board: around a point (a cell's
// centre, a node, a state) with the size of what is there, or along a
// segment (an edge, a wall) when Seg is set.
type Spot struct {
	At       Point   // the centre: where the value is written
	R        float64 // half the size of what is marked, in pixels
	Seg      bool
	From, To Point // the segment, when Seg
	// Tick is a side of the place drawn with it (a Colosseum move's
	// wall), when Ticked.
	Tick   [2]Point
	Ticked bool
	// Square draws a mark as a square, not a ring: P2's where both sides
	// mark the same places (see [PlaceSharer]).
	Square bool
}

// Placer is implemented by drawers whose boards can show what a bot
// thought: the places its marks name (see [match.Mark]).
type Placer interface {
	// Spot returns where p is on the board drawn in r for state k of
	// rec, as side's bot meant it; false for a place not on the board.
	Spot(rec *play.Record, k int, side match.Side, r Rect, p match.Place) (Spot, bool)
	// PlaceName names p for people, as the panel lists it: "3,4 up",
	// "Utah", "12-40".
	PlaceName(rec *play.Record, k int, side match.Side, p match.Place) string
}

// Thinking returns the turn whose thinking is shown at time t: the turn
// played from the state at t, as the panel's notes are, so that a
// position shows what its mover weighed there and the move that follows
// shows which it chose; false at the last state, which no turn has left
// yet.
func Thinking(rec *play.Record, t float64) (int, bool) {
	k, _ := Moment(rec, t)
	return k, k < len(rec.Turns)
}

// DrawThinking draws over the board drawn in r what the bots noted for
// the move shown at time t: each mark in the colour of its value's rank
// among its note's (the theme's Scale, lowest to highest), its value
// written where it fits, the highest ringed twice; and the line each bot
// expected, numbered. Places off the board are left out.
func DrawThinking(c Canvas, r Rect, rec *play.Record, t float64, th *Theme) {
	k, ok := Thinking(rec, t)
	pl, isPlacer := drawers[rec.Game.Info().Name].(Placer)
	if !ok || !isPlacer {
		return
	}
	unit := max(min(r.W, r.H)/480, 0.6)
	face := Face{textSize(c, math.Round(11*unit)), Bold}
	for _, side := range match.Sides {
		n, at := heldThought(rec, k, side)
		if n == nil {
			continue
		}
		drawMarks(c, pl, rec, at, side, r, n, face, unit, th)
		drawExpected(c, pl, rec, at, side, r, n, face, unit, th)
	}
}

// Holder is implemented by drawers of games whose bots decide now and
// then, not every turn (Evasion's hunter and prey, between their
// decision ticks): the layer holds a side's last decision until its
// next, instead of flickering off between them.
type Holder interface{ HoldsThinking() bool }

// holdBack is how far back the layer looks for a held decision.
const holdBack = 4000

// heldThought is side's note that turn k shows and the turn it was made
// at: turn k's own, or in a game whose drawer holds its thinking, the
// last one made before it; nil when there is none.
func heldThought(rec *play.Record, k int, side match.Side) (*match.Note, int) {
	if n := rec.Turns[k].Notes[side].Get(); n.Thought() {
		return n, k
	}
	if h, ok := drawers[rec.Game.Info().Name].(Holder); !ok || !h.HoldsThinking() {
		return nil, k
	}
	for j := k - 1; j >= max(0, k-holdBack); j-- {
		if n := rec.Turns[j].Notes[side].Get(); n.Thought() {
			return n, j
		}
	}
	return nil, k
}

// Placed counts the marks and expected places of turn k's notes that
// are on the board drawn in r: what DrawThinking draws of them.
func Placed(rec *play.Record, k int, r Rect) int {
	pl, ok := drawers[rec.Game.Info().Name].(Placer)
	if !ok || k < 0 || k >= len(rec.Turns) {
		return 0
	}
	n := 0
	for _, side := range match.Sides {
		note, at := heldThought(rec, k, side)
		if note == nil {
			continue
		}
		for _, m := range note.Marks {
			if _, ok := pl.Spot(rec, at, side, r, m.At); ok {
				n++
			}
		}
		for _, p := range note.Expects {
			if _, ok := pl.Spot(rec, at, side, r, p); ok {
				n++
			}
		}
	}
	return n
}

// drawMarks draws one note's marks, the lowest first so that the best
// stay on top where they overlap.
func drawMarks(c Canvas, pl Placer, rec *play.Record, k int, side match.Side, r Rect, n *match.Note, face Face, unit float64, th *Theme) {
	ranks := markSteps(n.Marks)
	order := make([]int, len(n.Marks))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(n.Marks[a].Value, n.Marks[b].Value) })
	best := topMark(n)
	square := side == match.P2 && sharesPlaces(rec)
	for _, i := range order {
		m := n.Marks[i]
		s, ok := pl.Spot(rec, k, side, r, m.At)
		if !ok {
			continue
		}
		s.Square = square
		drawMark(c, s, m, th.ScaleColour(ranks[i]), i == best, face, unit, th)
		writeName(c, pl, rec, k, side, m.At, s, unit, th)
	}
}

// Unnamed is implemented by drawers whose boards do not name their
// places (the shortest path's nodes): the layer writes the name of each
// place a mark or a line names beside it, so that the panel's "65 −13"
// can be found on the board.
type Unnamed interface{ Unnamed() bool }

// writeName writes place p's name beside its spot s, on a board that
// does not show it; an edge's, its two ends' ids beside them.
func writeName(c Canvas, pl Placer, rec *play.Record, k int, side match.Side, p match.Place, s Spot, unit float64, th *Theme) {
	if u, ok := pl.(Unnamed); !ok || !u.Unnamed() {
		return
	}
	if s.Seg { // an edge: the ids of its two ends, where they stand
		for _, end := range []struct {
			n  int
			at Point
		}{{p.A, s.From}, {p.B, s.To}} {
			writeName(c, pl, rec, k, side, match.AtNode(end.n), Spot{At: end.at, R: s.R}, unit, th)
		}
		return
	}
	face := Face{textSize(c, math.Round(9*unit)), Regular}
	name := pl.PlaceName(rec, k, side, p)
	tw, lh := c.TextWidth(name, face), c.LineHeight(face)
	box := Rect{math.Round(s.At.X + s.R + unit), math.Round(s.At.Y - s.R - lh*0.8), math.Round(tw + 2*unit), math.Round(lh)}
	c.Fill(box, Alpha(th.Panel, 0.8))
	c.Text(name, box.X+unit, box.Y, face, Left, th.Text)
}

// PlaceSharer is implemented by drawers of games whose two sides weigh
// the same kind of place at once (Life's cells): the layer draws P1's
// marks as rings and P2's as squares, so that each bot's are told apart
// where their colours say only the value.
type PlaceSharer interface{ SharesPlaces() bool }

// sharesPlaces reports whether rec's game draws each side's marks in
// its own shape.
func sharesPlaces(rec *play.Record) bool {
	ps, ok := drawers[rec.Game.Info().Name].(PlaceSharer)
	return ok && ps.SharesPlaces()
}

// MarkLegend is the legend of the marks side's bot made that turn k
// shows: who made them, in what shape where that tells the sides apart,
// what they stand for and their unit ("P1 strong: moves, by …"); ""
// when it shows none of side's.
func MarkLegend(rec *play.Record, k int, side match.Side) string {
	if k < 0 || k >= len(rec.Turns) {
		return ""
	}
	n, _ := heldThought(rec, k, side)
	if n == nil || len(n.Marks) == 0 {
		return ""
	}
	what := play.MarksOf(rec.Game, rec.Players[side])
	if what == "" {
		what = play.ProgramMarks
	}
	shape := ""
	if sharesPlaces(rec) {
		shape = [2]string{" (rings)", " (squares)"}[side]
	}
	if lo, hi, ok := MarkRange(n.Marks); ok {
		what += fmt.Sprintf(" · here %s to %s", ValueText(lo), ValueText(hi))
	}
	return fmt.Sprintf("%s %s%s: %s", side, rec.Players[side], shape, what)
}

// MarkShapes says how the layer tells the sides' marks apart in rec's
// game, for a legend: "" when only one side marks a place at a time.
func MarkShapes(rec *play.Record) string {
	if sharesPlaces(rec) {
		return "P1's marks are rings, P2's squares"
	}
	return ""
}

// topMark is the mark ringed in white: the one at the bot's chosen move
// (the first place of its expected line) when it marked it, else the
// first of its highest values (bots mark their best first).
func topMark(n *match.Note) int {
	if len(n.Expects) > 0 {
		for i, m := range n.Marks {
			if m.At == n.Expects[0] {
				return i
			}
		}
	}
	best := 0
	for i, m := range n.Marks {
		if m.Value > n.Marks[best].Value {
			best = i
		}
	}
	return best
}

// drawMark draws one mark at its spot.
func drawMark(c Canvas, s Spot, m match.Mark, col color.RGBA, top bool, face Face, unit float64, th *Theme) {
	w := math.Max(1.5*unit, s.R*0.12)
	if s.Seg {
		c.Line(s.From, s.To, math.Max(3*unit, s.R*0.5), col)
		if top {
			c.Line(s.From, s.To, math.Max(1, unit), th.Mark)
		}
	} else {
		rad := math.Max(s.R*0.8, 4*unit)
		switch {
		case s.Square && s.R < 5*unit:
			c.Fill(Rect{s.At.X - rad*0.85, s.At.Y - rad*0.85, rad * 1.7, rad * 1.7}, col)
		case s.Square:
			squareOutline(c, s.At, rad*0.9, w, col)
		case s.R < 5*unit:
			c.Circle(s.At, rad, col)
		default:
			c.Ring(s.At, rad, w, col)
		}
		if top && s.Square {
			squareOutline(c, s.At, rad*0.9+w*1.6, math.Max(1, w*0.6), th.Mark)
		} else if top {
			c.Ring(s.At, rad+w*1.6, math.Max(1, w*0.6), th.Mark)
		}
		if s.Ticked {
			c.Line(s.Tick[0], s.Tick[1], w*1.5, col)
		}
	}
	// The value, where a cell has room for it (an edge always has), in
	// a size that fits the cell.
	if !s.Seg {
		face.Size = textSize(c, math.Round(min(max(s.R*0.62, 8), face.Size*1.2)))
		if s.R*2 < c.TextWidth("+00", face)*0.9 {
			return
		}
	}
	text := MarkText(m)
	tw, lh := c.TextWidth(text, face), c.LineHeight(face)
	pad := math.Round(2 * unit)
	box := Rect{math.Round(s.At.X - tw/2 - pad), math.Round(s.At.Y - lh/2), math.Round(tw + 2*pad), math.Round(lh)}
	if !s.Seg && s.R >= 1.8*lh {
		// Room below the centre: the value goes to the ring's foot, so
		// that what the place shows (a state's name, a player's letter)
		// stays readable.
		box.Y = math.Round(s.At.Y + math.Max(s.R*0.8, 4*unit) - lh*0.9)
	}
	c.Fill(box, Alpha(th.Panel, 0.85))
	c.Text(text, s.At.X, box.Y, face, Center, col)
}

// squareOutline draws a square's outline of half-side h around at.
func squareOutline(c Canvas, at Point, h, w float64, col color.RGBA) {
	a, b := Point{at.X - h, at.Y - h}, Point{at.X + h, at.Y - h}
	d, e := Point{at.X + h, at.Y + h}, Point{at.X - h, at.Y + h}
	c.Polyline([]Point{a, b, d, e, a}, w, col)
}

// drawExpected draws the line a bot expected: its places joined in order
// in the side's colour, each numbered (1: its move, 2: the reply, …).
func drawExpected(c Canvas, pl Placer, rec *play.Record, k int, side match.Side, r Rect, n *match.Note, face Face, unit float64, th *Theme) {
	var pts []Point
	var spots []Spot
	for _, p := range n.Expects {
		if s, ok := pl.Spot(rec, k, side, r, p); ok {
			pts, spots = append(pts, s.At), append(spots, s)
			writeName(c, pl, rec, k, side, p, s, unit, th)
		}
	}
	if len(pts) == 0 {
		return
	}
	c.Polyline(pts, math.Max(1.5*unit, 1), Alpha(th.Player[side], 0.8))
	small := Face{textSize(c, math.Round(9*unit)), Bold}
	rad := math.Round(6.5 * unit)
	for i, s := range spots {
		// Alternate plies are the other side's moves, in its colour.
		ply := side
		if i%2 == 1 && !sameMover(rec) {
			ply = side.Other()
		}
		at := Point{s.At.X + s.R*0.55, s.At.Y - s.R*0.55}
		if s.Seg {
			at = s.At
		}
		c.Circle(at, rad, th.Player[ply])
		c.Text(strconv.Itoa(i+1), at.X, at.Y-c.LineHeight(small)/2, small, Center, th.Background)
	}
}

// sameMover reports whether a game's expected lines name one side's
// moves only: its drawer says so (a Router).
func sameMover(rec *play.Record) bool {
	_, ok := drawers[rec.Game.Info().Name].(Router)
	return ok
}

// ScaleSteps is the number of colours of a theme's scale.
const ScaleSteps = 5

// markSteps is the step of the scale of each mark of a note: one scale
// of values spanning the note's range (MarkRange), so that a colour says
// how good an option is against the others of that note, in proportion,
// not its rank; a decided game (labelled win or loss, or a greedy
// score of ±1e9) takes the top or the bottom, so that one won game
// among territory counts does not paint every other option alike. A
// note whose values are all equal is drawn in the middle step.
func markSteps(marks []match.Mark) []int {
	lo, hi, _ := MarkRange(marks)
	steps := make([]int, len(marks))
	for i, m := range marks {
		steps[i] = scaleStep(m.Value, lo, hi, markOutcome(m))
	}
	return steps
}

// MarkRange is the range of a note's values, decided games left out:
// what its colours span; ok is false when no mark has a value in it.
func MarkRange(marks []match.Mark) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, m := range marks {
		if markOutcome(m) == "" {
			lo, hi = min(lo, m.Value), max(hi, m.Value)
		}
	}
	if lo > hi {
		return 0, 0, false
	}
	return lo, hi, true
}

// decidedValue is where a greedy score stands for a decided game.
const decidedValue = 1e8

// markOutcome is "win" or "loss" for a mark of a decided game.
func markOutcome(m match.Mark) string {
	switch {
	case m.Label == "win" || m.Value >= decidedValue:
		return "win"
	case m.Label == "loss" || m.Value <= -decidedValue:
		return "loss"
	}
	return ""
}

// ScaleColour is step i of the theme's scale.
func (t *Theme) ScaleColour(i int) color.RGBA { return t.Scale[min(max(i, 0), ScaleSteps-1)] }

// MarkText writes a mark's value as the board shows it: a few
// characters, its label after it ("+5", "-12≤", "+3 red"); a won or lost
// game by its label alone.
func MarkText(m match.Mark) string {
	switch m.Label {
	case "win", "loss":
		return m.Label
	case "":
		return ValueText(m.Value)
	}
	if len([]rune(m.Label)) <= 2 {
		return ValueText(m.Value) + m.Label
	}
	return ValueText(m.Value) + " " + m.Label
}

// ValueText writes a value in at most five characters or so, signed:
// "+5", "-0.5", "+1.2k", "-3.4M".
func ValueText(v float64) string {
	a := math.Abs(v)
	var s string
	switch {
	case a >= 1e6:
		s = strconv.FormatFloat(v/1e6, 'f', 1, 64) + "M"
	case a >= 1e4:
		s = strconv.FormatFloat(v/1e3, 'f', 0, 64) + "k"
	case a >= 1e3:
		s = strconv.FormatFloat(v/1e3, 'f', 1, 64) + "k"
	case a == math.Trunc(a):
		s = strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		s = strconv.FormatFloat(v, 'f', 0, 64)
	default:
		s = strconv.FormatFloat(v, 'g', 2, 64)
	}
	s = strings.Replace(s, ".0k", "k", 1)
	s = strings.Replace(s, ".0M", "M", 1)
	if v > 0 {
		s = "+" + s
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// Candidates returns the n marks of a note with the highest values, the
// highest first (the first of equals first).
func Candidates(note *match.Note, n int) []match.Mark {
	if note == nil {
		return nil
	}
	ms := slices.Clone(note.Marks)
	slices.SortStableFunc(ms, func(a, b match.Mark) int { return cmp.Compare(b.Value, a.Value) })
	return ms[:min(n, len(ms))]
}

// ThinkingLines writes what side's bot thought for turn k, for the
// panel: its best candidates with their values and the line it expected,
// in the game's names; nil when it marked nothing.
func ThinkingLines(rec *play.Record, k int, side match.Side, top int) []string {
	if k < 0 || k >= len(rec.Turns) {
		return nil
	}
	n, at := heldThought(rec, k, side)
	pl, ok := drawers[rec.Game.Info().Name].(Placer)
	if !ok || n == nil {
		return nil
	}
	k = at
	var out []string
	if len(n.Marks) > 0 {
		var parts []string
		for _, m := range Candidates(n, top) {
			parts = append(parts, pl.PlaceName(rec, k, side, m.At)+" "+MarkText(m))
		}
		more := len(n.Marks) + n.MarksLeft - len(parts)
		line := fmt.Sprintf("%s weighed %d: %s", side, len(n.Marks)+n.MarksLeft, strings.Join(parts, ", "))
		if more > 0 {
			line += ", …"
		}
		out = append(out, line)
	}
	if len(n.Expects) > 0 {
		var parts []string
		for _, p := range n.Expects {
			parts = append(parts, pl.PlaceName(rec, k, side, p))
		}
		out = append(out, fmt.Sprintf("%s expects: %s", side, strings.Join(parts, " → ")))
	}
	return out
}

// DrawScaleLegend draws the scale in a row from x, y: "low", its
// colours, "high", and returns the x after it.
func DrawScaleLegend(c Canvas, x, y, h float64, face Face, th *Theme) float64 {
	x += drawTextAt(c, "low", x, y, h, face, th.TextDim) + h*0.3
	for i := range ScaleSteps {
		c.Fill(Rect{math.Round(x), math.Round(y + h*0.2), math.Round(h * 0.8), math.Round(h * 0.6)}, th.ScaleColour(i))
		x += h * 0.8
	}
	x += h * 0.3
	return x + drawTextAt(c, "high", x, y, h, face, th.TextDim)
}

// drawTextAt writes s centred on a row of height h and returns its width.
func drawTextAt(c Canvas, s string, x, y, h float64, face Face, col color.RGBA) float64 {
	c.Text(s, x, y+(h-c.LineHeight(face))/2, face, Left, col)
	return c.TextWidth(s, face)
}

// ScaleShare is the share of an image's pixels within near (the sum of
// the channels' differences) of one of the theme's scale colours: how
// much of a frame, a GIF's or a screenshot's, the thinking layer paints.
// Tests read it to see that the layer is drawn, or is not.
func (th *Theme) ScaleShare(img image.Image, near int) float64 {
	b := img.Bounds()
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			for _, c := range th.Scale {
				if absDiff(r>>8, c.R)+absDiff(g>>8, c.G)+absDiff(bl>>8, c.B) <= near {
					n++
					break
				}
			}
		}
	}
	return float64(n) / float64(max(1, b.Dx()*b.Dy()))
}

func absDiff(a uint32, b uint8) int {
	return max(int(a)-int(b), int(b)-int(a))
}
