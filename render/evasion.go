package render

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/arena-playground/arena/engine/evasion"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

func init() { register("evasion", evasionDrawer{}) }

// evasionDrawer draws Evasion on its 300x300 field with y growing upward
// (playground decision 5: a "diagonal" wall looks like "/"). The hunter is
// a dot with its velocity arrow and a fading trail; the prey's reachable
// region is tinted; a new wall grows from the hunter's cell and a deleted
// one fades; the capture circle of radius 4 surrounds the hunter, and when
// the prey is inside it the Bresenham line shows which cells block it.
type evasionDrawer struct{}

// HoldsThinking: Evasion's bots decide at their decision ticks only, and
// the layer holds each side's last decision until its next.
func (evasionDrawer) HoldsThinking() bool { return true }

// Evasion's pace: 1x is 60 ticks a second; the tick that ends a game
// holds for a second and a half so that the capture can be seen.
const (
	evasionRate    = 60
	evasionEndPace = 90
	evasionTrail   = 40 // ticks of the hunter's trail
	evasionFade    = 12 // ticks a new wall grows and a deleted one fades
)

func (evasionDrawer) Rate() float64 { return evasionRate }

// RecordRate fits a whole session in about 20 seconds of GIF, and never
// goes slower than 1x.
func (evasionDrawer) RecordRate(rec *play.Record) float64 {
	return max(evasionRate, float64(len(rec.Turns))/20)
}

// Pace makes the tick that ends a game last longer.
func (evasionDrawer) Pace(rec *play.Record, k int) float64 {
	if k+1 < rec.Len() && rec.State(k+1).(evasion.State).GameNum() != rec.State(k).(evasion.State).GameNum() {
		return evasionEndPace
	}
	return 1
}

// evasionField returns the field shown at state k: the game's last state
// once it ended (the state after its last tick is the next game's start).
func evasionField(rec *play.Record, k int, ending bool) (evasion.Field, int) {
	s := rec.State(k).(evasion.State)
	if ending && k+1 < rec.Len() {
		next := rec.State(k + 1).(evasion.State)
		if g := s.GameNum(); next.GameNum() != g {
			return next.End(g).Final, g
		}
	}
	return s.Field(), min(s.GameNum(), 1)
}

// Board draws the field at time t.
func (evasionDrawer) Board(c Canvas, r Rect, rec *play.Record, t float64, th *Theme) {
	k, f := Moment(rec, t)
	field, game := evasionField(rec, k, f > 0)
	hunterSide := evasion.HunterSide(game)
	fl := EvasionLayout(r)
	box, cs, at, cell := fl.Box, fl.Cell, fl.At, fl.CellRect
	type fieldKey struct {
		box Rect
	}
	fl.drawCoordinates(c, th)
	Layer(c, "evasion-field", fieldKey{box}, box, func() {
		c.Fill(box, th.Board)
		for i := 50; i < evasion.Size; i += 50 {
			p := math.Round(float64(i) * cs)
			c.Fill(Rect{box.X + p, box.Y, 1, box.H}, th.Grid)
			c.Fill(Rect{box.X, box.Y + box.H - p, box.W, 1}, th.Grid)
		}
	})
	preyRegion(c, &field, cell, box, Alpha(th.Player[hunterSide.Other()], 0.11))

	// Walls: the standing ones, the newest growing, the deleted fading.
	fresh, gone := wallChanges(rec, k)
	for i, w := range field.Walls() {
		col := th.Text
		grow := 1.0
		if age, ok := fresh[w]; ok {
			grow = min(1, (float64(age)+f+1)/4)
			col = Mix(th.Mark, th.Text, float64(age)/evasionFade)
		}
		drawWall(c, &field.Walls()[i], cell, grow, col)
	}
	for w, age := range gone {
		a := 1 - (float64(age)+f)/evasionFade
		if a > 0 {
			drawWall(c, &w, cell, 1, Alpha(th.Collision, a*0.8))
		}
	}

	// The hunter's trail, fading with age.
	trail := hunterTrail(rec, k, game)
	for i := 1; i < len(trail); i++ {
		a := float64(i) / float64(len(trail))
		c.Line(at(trail[i-1]), at(trail[i]), max(1, cs*0.6), Alpha(th.Player[hunterSide], a*0.5))
	}
	h, p := field.Hunter, field.Prey
	hp, pp := at(h), at(p)
	if f > 0 && k+1 < rec.Len() {
		if next := rec.State(k + 1).(evasion.State); next.GameNum() == game {
			nf := next.Field()
			hp, pp = lerp(hp, at(nf.Hunter), f), lerp(pp, at(nf.Prey), f)
		}
	}
	// The capture circle, and the line of sight when the prey is inside.
	c.Ring(hp, 4*cs+cs/2, max(1, cs/3), Alpha(th.Player[hunterSide], 0.55))
	if d := field.Distance2(); d <= evasion.CaptureRadius2 {
		for _, o := range evasion.CaptureLine(p.X-h.X, p.Y-h.Y) {
			col := Alpha(th.Mark, 0.7)
			if field.Blocked(h.X+o.X, h.Y+o.Y) {
				col = th.Collision
			}
			c.Fill(cell(h.X+o.X, h.Y+o.Y), col)
		}
	}
	dot := max(4, cs*2.6)
	if field.Captured() {
		c.Ring(pp, dot*2.5, max(2, dot/2), th.Collision)
	}
	c.Circle(pp, dot, th.Player[hunterSide.Other()])
	c.Circle(hp, dot, th.Player[hunterSide])
	v := field.HunterVel
	tip := Point{hp.X + float64(v.X)*dot*3, hp.Y - float64(v.Y)*dot*3}
	c.Line(hp, tip, max(1.5, dot/2.5), th.Player[hunterSide])
	c.Stroke(box, 1, th.Grid)
}

// EvasionField is where the 300x300 field is drawn in a board rectangle:
// a square, centred, y growing upward. The playground's controls use it
// to find what a click points at.
type EvasionField struct {
	Box  Rect
	Cell float64 // a cell's side, in pixels
}

// EvasionLayout fits the field in r.
func EvasionLayout(r Rect) EvasionField {
	m := coordinateMargin(r) // x below the field, y at its left
	r = Rect{r.X + m, r.Y, r.W - m, r.H - m}
	side := math.Floor(min(r.W, r.H))
	return EvasionField{Rect{r.X + math.Floor((r.W-side)/2), r.Y + math.Floor((r.H-side)/2), side, side}, side / evasion.Size}
}

// drawCoordinates writes x below the field and y at its left (y up, as
// the course counts) at its grid lines, every 50 cells (more where they
// would run into each other): where the panel and the analysis name a
// cell ("prey at 178,148").
func (l EvasionField) drawCoordinates(c Canvas, th *Theme) {
	face := Face{textSize(c, math.Round(min(max(l.Box.W/45, 9), 13))), Regular}
	lh := c.LineHeight(face)
	if !labelsFit(l.Box, lh) {
		return
	}
	gap := math.Round(lh * 0.3)
	// Every 50 cells where the labels keep apart; on a small field every
	// 100, 150 or 300.
	step := 50
	for _, s := range []int{100, 150, 300} {
		if w := float64(step) * l.Cell; w >= 1.3*c.TextWidth(strconv.Itoa(evasion.Size), face) && w >= 1.2*lh {
			break
		}
		step = s
	}
	for i := 0; i <= evasion.Size; i += step {
		p := math.Round(float64(i) * l.Cell)
		c.Text(strconv.Itoa(i), l.Box.X+p, l.Box.Y+l.Box.H+gap, face, Center, th.TextDim)
		c.Text(strconv.Itoa(i), l.Box.X-gap, l.Box.Y+l.Box.H-p-lh/2, face, Right, th.TextDim)
	}
}

// At is a cell's centre.
func (l EvasionField) At(p evasion.Point) Point {
	return Point{l.Box.X + (float64(p.X)+0.5)*l.Cell, l.Box.Y + (float64(evasion.Size-1-p.Y)+0.5)*l.Cell}
}

// CellRect is a cell's square, on whole pixels, at least one wide.
func (l EvasionField) CellRect(x, y int) Rect {
	x0, x1 := math.Round(l.Box.X+float64(x)*l.Cell), math.Round(l.Box.X+float64(x+1)*l.Cell)
	y0, y1 := math.Round(l.Box.Y+float64(evasion.Size-1-y)*l.Cell), math.Round(l.Box.Y+float64(evasion.Size-y)*l.Cell)
	return Rect{x0, y0, max(1, x1-x0), max(1, y1-y0)}
}

// CellAt is the cell under a point, and whether it is on the field.
func (l EvasionField) CellAt(x, y float64) (evasion.Point, bool) {
	cx := int(math.Floor((x - l.Box.X) / l.Cell))
	cy := evasion.Size - 1 - int(math.Floor((y-l.Box.Y)/l.Cell))
	return evasion.Point{X: cx, Y: cy}, cx >= 0 && cx < evasion.Size && cy >= 0 && cy < evasion.Size
}

// DrawWall draws a wall's cells on the field.
func (l EvasionField) DrawWall(c Canvas, w *evasion.Wall, col color.RGBA) {
	drawWall(c, w, l.CellRect, 1, col)
}

func lerp(a, b Point, f float64) Point { return Point{a.X + (b.X-a.X)*f, a.Y + (b.Y-a.Y)*f} }

// drawWall draws a wall's cells, grown to a fraction of its length from
// its middle.
func drawWall(c Canvas, w *evasion.Wall, cell func(x, y int) Rect, grow float64, col color.RGBA) {
	switch w.Kind {
	case evasion.Horizontal, evasion.Vertical:
		a, b := cell(w.X1, w.Y1), cell(w.X2, w.Y2)
		full := Rect{min(a.X, b.X), min(a.Y, b.Y), 0, 0}
		full.W, full.H = max(a.X+a.W, b.X+b.W)-full.X, max(a.Y+a.H, b.Y+b.H)-full.Y
		if grow < 1 {
			if w.Kind == evasion.Horizontal {
				d := full.W * (1 - grow) / 2
				full.X, full.W = full.X+d, full.W-2*d
			} else {
				d := full.H * (1 - grow) / 2
				full.Y, full.H = full.Y+d, full.H-2*d
			}
		}
		c.Fill(full, col)
		return
	}
	n := w.Len()
	lo, hi := float64(n)*(1-grow)/2, float64(n)*(1+grow)/2
	i := 0
	w.Cells(func(x, y int) {
		if fi := float64(i); fi >= lo && fi < hi {
			c.Fill(cell(x, y), col)
		}
		i++
	})
}

// wallChanges finds the walls built within the last evasionFade ticks
// before state k (with their age) and those deleted (with the ticks since).
func wallChanges(rec *play.Record, k int) (fresh, gone map[evasion.Wall]int) {
	fresh, gone = map[evasion.Wall]int{}, map[evasion.Wall]int{}
	cur := rec.State(k).(evasion.State)
	now := map[evasion.Wall]bool{}
	cf := cur.Field()
	for _, w := range cf.Walls() {
		now[w] = true
	}
	seen := now
	for age := 0; age < evasionFade && k-age-1 >= 0; age++ {
		before := rec.State(k - age - 1).(evasion.State)
		if before.GameNum() != cur.GameNum() {
			break
		}
		was := map[evasion.Wall]bool{}
		bf := before.Field()
		for _, w := range bf.Walls() {
			was[w] = true
			if !seen[w] {
				if _, ok := gone[w]; !ok {
					gone[w] = age
				}
			}
		}
		for w := range seen {
			if !was[w] {
				if _, ok := fresh[w]; !ok && now[w] {
					fresh[w] = age
				}
			}
		}
		seen = was
	}
	return fresh, gone
}

// hunterTrail returns the hunter's cells over the last ticks of the game,
// oldest first.
func hunterTrail(rec *play.Record, k, game int) []evasion.Point {
	var out []evasion.Point
	for i := max(0, k-evasionTrail); i <= k; i++ {
		s := rec.State(i).(evasion.State)
		if s.GameNum() != game {
			continue
		}
		f := s.Field()
		out = append(out, f.Hunter)
	}
	return out
}

// regionCache keeps the prey's region of the last walls drawn: filling it
// costs a pass over the field, and walls change every few ticks at most.
var regionCache struct {
	sync.Mutex
	filled bool
	walls  []evasion.Wall
	prey   evasion.Point
	reg    evasion.Region
}

// preyRegion tints the cells the prey can reach: one rectangle when the
// region is one (every wall horizontal or vertical), else row runs.
func preyRegion(c Canvas, f *evasion.Field, cell func(x, y int) Rect, box Rect, col color.RGBA) {
	rc := &regionCache
	rc.Lock()
	defer rc.Unlock()
	if !rc.filled || !slices.Equal(rc.walls, f.Walls()) || !rc.reg.Has(f.Prey.X, f.Prey.Y) {
		g := f.Fork()
		g.Index()
		rc.reg.Fill(&g, f.Prey)
		rc.walls, rc.filled = slices.Clone(f.Walls()), true
	}
	reg := &rc.reg
	if reg.Area == 0 {
		return
	}
	if reg.Area == (reg.Max.X-reg.Min.X+1)*(reg.Max.Y-reg.Min.Y+1) {
		a, b := cell(reg.Min.X, reg.Max.Y), cell(reg.Max.X, reg.Min.Y)
		c.Fill(Rect{a.X, a.Y, b.X + b.W - a.X, b.Y + b.H - a.Y}, col)
		return
	}
	for y := reg.Min.Y; y <= reg.Max.Y; y++ {
		for x := reg.Min.X; x <= reg.Max.X; x++ {
			if !reg.Has(x, y) {
				continue
			}
			x0 := x
			for x <= reg.Max.X && reg.Has(x, y) {
				x++
			}
			a, b := cell(x0, y), cell(x-1, y)
			c.Fill(Rect{a.X, a.Y, b.X + b.W - a.X, a.H}, col)
		}
	}
}

// Panel writes the roles, the tick, the walls and the cooldown, and the
// games played.
func (evasionDrawer) Panel(c Canvas, r Rect, rec *play.Record, t float64, th *Theme) {
	k, f := Moment(rec, t)
	field, game := evasionField(rec, k, f > 0)
	s := rec.State(k).(evasion.State)
	face := Face{Size: math.Round(textSize(c, min(r.H/6.5, r.W/22))), Style: Regular}
	y := r.Y
	line := func(text string, col color.RGBA) {
		if y < r.Y+r.H {
			y = Wrap(c, text, r.X, y, r.W, face, col)
		}
	}
	hs := evasion.HunterSide(game)
	cd := "a wall may be built now"
	if field.Timer > 0 {
		cd = fmt.Sprintf("next wall in %d ticks", field.Timer)
	}
	line(fmt.Sprintf("game %d of 2 · %s hunts, %s flees · tick %d", game+1, hs, hs.Other(), field.Tick), th.Player[hs])
	line(fmt.Sprintf("walls %d of %d · %s · delay %d", len(field.Walls()), field.MaxWalls, cd, field.Delay), th.TextDim)
	for g := range 2 {
		if e := s.End(g); e != nil {
			line(fmt.Sprintf("game %d: %s", g+1, endText(e, g)), th.Text)
		}
	}
	if k < len(rec.Turns) && s.GameNum() < 2 {
		for side, why := range rec.Turns[k].Replaced {
			if why != "" {
				line(fmt.Sprintf("%s forfeits the game: %s", match.Side(side), why), th.Collision)
			}
		}
	}
}

// endText says how a game ended.
func endText(e *evasion.GameEnd, g int) string {
	hs := evasion.HunterSide(g)
	switch {
	case e.Captured:
		return fmt.Sprintf("%s caught %s in %d ticks", hs, hs.Other(), e.Score)
	case e.Capped:
		return fmt.Sprintf("no capture by the cap: %d ticks", e.Score)
	case e.Score == evasion.Infinity:
		return fmt.Sprintf("%s (hunter) timed out: infinity", hs)
	}
	return fmt.Sprintf("%s (prey) timed out at tick %d", hs.Other(), e.Score)
}

// Caption names the game and the tick.
func (evasionDrawer) Caption(rec *play.Record, t float64) string {
	k, f := Moment(rec, t)
	field, game := evasionField(rec, k, f > 0)
	if rec.State(k).(evasion.State).GameNum() == 2 {
		return "session over"
	}
	return fmt.Sprintf("game %d · tick %d · %s hunts", game+1, field.Tick, evasion.HunterSide(game))
}

// turnEvents marks builds, deletions, captures and each game's end.
func (evasionDrawer) turnEvents(rec *play.Record, k int) []Event {
	before, after := rec.State(k-1).(evasion.State), rec.State(k).(evasion.State)
	if g := before.GameNum(); after.GameNum() != g {
		e := after.End(g)
		kind := EventLead
		if !e.Captured {
			kind = EventForfeit
		}
		return []Event{{Turn: k, Kind: kind, Side: evasion.HunterSide(g), Label: fmt.Sprintf("game %d: %s", g+1, endText(e, g))}}
	}
	fb, fa := before.Field(), after.Field()
	if sameWalls(fb.Walls(), fa.Walls()) {
		return nil
	}
	var out []Event
	for _, w := range fb.Walls() {
		if !slices.Contains(fa.Walls(), w) {
			out = append(out, Event{Turn: k, Kind: EventReplaced, Side: after.Hunter(), Label: "walls deleted"})
			break
		}
	}
	if n := len(fa.Walls()); n > 0 && !slices.Contains(fb.Walls(), fa.Walls()[n-1]) {
		w := fa.Walls()[n-1]
		out = append(out, Event{Turn: k, Kind: EventCollision, Side: after.Hunter(), Label: w.Kind.String() + " wall built"})
	}
	return out
}

// sameWalls reports whether two states' walls are one list: a state
// shares its walls with the state before it until they change, so most
// ticks need no comparison of walls at all.
func sameWalls(a, b []evasion.Wall) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// evasionWalls are the directions of the four walls, x and y (y up).
var evasionWalls = [4]Point{{1, 0}, {0, 1}, {1, 1}, {1, -1}}

// Spot places a mark on a cell (row y, column x); a hunter's move is a
// wall through its cell in the wall's direction, its value at the end;
// a prey's move is a step, drawn around the prey at a readable spacing
// whatever the size of a cell.
func (evasionDrawer) Spot(rec *play.Record, k int, side match.Side, r Rect, p match.Place) (Spot, bool) {
	if (p.Kind != match.OnCell && p.Kind != match.OnMove) || p.A >= evasion.Size || p.B >= evasion.Size {
		return Spot{}, false
	}
	l := EvasionLayout(r)
	at := l.At(evasion.Point{X: p.B, Y: p.A})
	unit := max(min(r.W, r.H)/480, 0.6)
	if p.Kind == match.OnCell {
		return Spot{At: at, R: max(l.Cell/2, 3*unit)}, true
	}
	if rec.State(k).(evasion.State).Hunter() == side {
		if p.Side > 3 {
			return Spot{}, false
		}
		d := evasionWalls[p.Side]
		reach := 22 * unit / math.Hypot(d.X, d.Y)
		from := Point{at.X - d.X*reach*0.4, at.Y + d.Y*reach*0.4}
		to := Point{at.X + d.X*reach, at.Y - d.Y*reach}
		return Spot{At: to, R: 8 * unit, Seg: true, From: from, To: to}, true
	}
	dx, dy := float64(p.Side%3-1), float64(p.Side/3-1)
	gap := max(l.Cell, 13*unit)
	return Spot{At: Point{at.X + dx*gap, at.Y - dy*gap}, R: gap * 0.42}, true
}

// PlaceName names a cell by x and y, as the course does, a wall by its
// kind and a step by its compass direction.
func (evasionDrawer) PlaceName(rec *play.Record, k int, side match.Side, p match.Place) string {
	if p.Kind != match.OnMove {
		return fmt.Sprintf("%d,%d", p.B, p.A)
	}
	if rec.State(k).(evasion.State).Hunter() == side {
		return evasion.Kind(p.Side).String()
	}
	return [9]string{"SW", "S", "SE", "W", "stay", "E", "NW", "N", "NE"}[min(p.Side, 8)]
}
