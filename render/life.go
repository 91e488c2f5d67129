package render

import (
	"fmt"
	"image/color"
	"math"

	"github.com/arena-playground/arena/engine/life"
	"github.com/arena-playground/arena/engine/match"
)

func init() { register("life", lifeDrawer{}) }

// lifeDrawer draws the Life battleground. A turn animates in two phases:
// first the colonised cells appear, ringed, and cells both players asked
// for flash; then the generation steps, deaths fading out and births
// fading in. The rings stay faintly on the settled board until the next
// turn's cells replace them.
type lifeDrawer struct{}

// The two phases of a turn's animation, as fractions of the turn.
const (
	lifePlace = 0.4 // colonisation: [0, lifePlace)
)

// lifeMoment is what is drawn at one moment of playback.
type lifeMoment struct {
	from, to  life.State // the states before and after the turn
	mid       life.Board // from's board with the turn's colonisations
	place     float64    // progress of the colonisation phase, 0..1
	step      float64    // progress of the generation step, 0..1
	animating bool
}

func lifeAt(rec *match.Record, t float64) lifeMoment {
	k, f := Moment(rec, t)
	m := lifeMoment{from: rec.States[k].(life.State)}
	if f == 0 {
		m.to = m.from
		return m
	}
	m.to = rec.States[k+1].(life.State)
	m.animating = true
	m.place = ease(f / lifePlace)
	m.step = ease((f - lifePlace) / (1 - lifePlace))
	m.mid = m.from.Board().Clone()
	for _, side := range match.Sides {
		for _, c := range m.to.Applied(side) {
			m.mid.Set(c.Row, c.Col, life.OwnerOf(side))
		}
	}
	return m
}

// ease maps progress to a smooth start and stop, clamped to [0, 1].
func ease(x float64) float64 {
	x = min(max(x, 0), 1)
	return x * x * (3 - 2*x)
}

// cellLayout places a rows x cols grid of whole-pixel squares in r.
type cellLayout struct {
	x0, y0, size float64
	grid         bool // gaps between cells, when they are big enough
}

func layoutCells(r Rect, rows, cols int) cellLayout {
	size := math.Floor(min(r.W/float64(cols), r.H/float64(rows)))
	size = max(size, 1)
	return cellLayout{
		x0:   math.Round(r.X + (r.W-size*float64(cols))/2),
		y0:   math.Round(r.Y + (r.H-size*float64(rows))/2),
		size: size, grid: size >= 6,
	}
}

func (l cellLayout) cell(c life.Cell) Rect {
	r := Rect{l.x0 + float64(c.Col)*l.size, l.y0 + float64(c.Row)*l.size, l.size, l.size}
	if l.grid {
		r = Rect{r.X + 1, r.Y + 1, r.W - 1, r.H - 1}
	}
	return r
}

// square is the part of a cell's box that a live cell fills: inset from
// the grid, which reads well and, since only it changes from turn to
// turn, keeps GIF frames small.
func (l cellLayout) square(c life.Cell) Rect {
	r := l.cell(c)
	if !l.grid {
		return r
	}
	in := math.Round(l.size * 0.15)
	return Rect{r.X + in, r.Y + in, r.W - 2*in, r.H - 2*in}
}

// Board draws the board at time t.
func (lifeDrawer) Board(c Canvas, r Rect, rec *match.Record, t float64, th *Theme) {
	m := lifeAt(rec, t)
	b := m.from.Board()
	rows, cols := b.Rows(), b.Cols()
	l := layoutCells(r, rows, cols)
	full := Rect{l.x0, l.y0, l.size * float64(cols), l.size * float64(rows)}
	c.Fill(full, th.Board)
	if l.grid {
		for i := range rows + 1 {
			c.Fill(Rect{full.X, full.Y + float64(i)*l.size, full.W + 1, 1}, th.Grid)
		}
		for j := range cols + 1 {
			c.Fill(Rect{full.X + float64(j)*l.size, full.Y, 1, full.H + 1}, th.Grid)
		}
	}
	colour := func(o life.Owner) color.RGBA {
		if o == life.Dead {
			return th.Board
		}
		return th.Player[o-1]
	}
	for row := range rows {
		for col := range cols {
			var cl color.RGBA
			switch a := b.At(row, col); {
			case !m.animating:
				cl = colour(a)
			case m.step == 0:
				cl = Mix(colour(a), colour(m.mid.At(row, col)), m.place)
			default:
				cl = Mix(colour(m.mid.At(row, col)), colour(m.to.Board().At(row, col)), m.step)
			}
			if cl != th.Board {
				c.Fill(l.square(life.Cell{Row: row, Col: col}), cl)
			}
		}
	}
	lifeMarks(c, l, m, th)
}

// lifeMarks rings the colonised cells and crosses the contested ones: at
// full strength when they happen, then fading to a trace that stays on the
// settled board.
func lifeMarks(c Canvas, l cellLayout, m lifeMoment, th *Theme) {
	const trace = 0.35
	w := max(1, math.Round(l.size/8))
	draw := func(s life.State, strength float64) {
		if strength <= 0.02 {
			return
		}
		for _, side := range match.Sides {
			for _, cl := range s.Applied(side) {
				c.Stroke(l.cell(cl), w, Alpha(th.Mark, strength))
			}
		}
		for _, cl := range s.Collided() {
			r := l.cell(cl).Inset(w)
			col := Alpha(th.Collision, strength)
			c.Stroke(l.cell(cl), w, col)
			c.Line(Point{r.X, r.Y}, Point{r.X + r.W, r.Y + r.H}, w, col)
			c.Line(Point{r.X + r.W, r.Y}, Point{r.X, r.Y + r.H}, w, col)
		}
	}
	if !m.animating {
		draw(m.from, trace)
		return
	}
	draw(m.from, trace*(1-m.place))
	draw(m.to, m.place-(1-trace)*m.step)
}

// Panel draws both banks as pips and the population chart.
func (lifeDrawer) Panel(c Canvas, r Rect, rec *match.Record, t float64, th *Theme) {
	s := shownState(rec, t).(life.State)
	cfg := s.Config()
	unit := r.H / 88
	label := Face{math.Round(11 * unit), Regular}
	banks, chart := r.CutLeft(math.Round(r.W * 0.42))
	lh := c.LineHeight(label)
	for _, side := range match.Sides {
		y := banks.Y + float64(side)*banks.H/2
		c.Text(fmt.Sprintf("%s bank %d/%d  +%d/turn", side, s.Bank(side), cfg.Capacity, cfg.Gain), banks.X, y, label, Left, th.TextDim)
		pips := Rect{banks.X, y + lh + 2*unit, banks.W - 8*unit, banks.H/2 - lh - 6*unit}
		drawPips(c, pips, s.Bank(side), cfg.Capacity, th.Player[side], th)
	}
	drawPopulation(c, chart, rec, t, cfg.Iterations, th, label)
}

// drawPips draws n of capacity slots filled, as squares or, when they do
// not fit, as a bar.
func drawPips(c Canvas, r Rect, n, capacity int, col color.RGBA, th *Theme) {
	if capacity <= 0 || r.H <= 0 {
		return
	}
	gap := max(1, math.Round(r.H/6))
	size := min(r.H, math.Floor((r.W+gap)/float64(capacity))-gap)
	if size < 3 {
		c.Fill(r, th.Board)
		c.Fill(Rect{r.X, r.Y, math.Round(r.W * float64(n) / float64(capacity)), r.H}, col)
		return
	}
	for i := range capacity {
		p := Rect{r.X + float64(i)*(size+gap), r.Y, size, size}
		if i < n {
			c.Fill(p, col)
		} else {
			c.Fill(p, th.Board)
		}
	}
}

// drawPopulation plots both players' live cells over the iterations, up
// to time t, with the axis spanning the whole game.
func drawPopulation(c Canvas, r Rect, rec *match.Record, t float64, iterations int, th *Theme, label Face) {
	c.Fill(r, th.Board)
	count := func(i int, side match.Side) float64 { return float64(rec.States[i].(life.State).Count(side)) }
	peak := 1.0
	for i := range rec.States {
		peak = max(peak, count(i, match.P1), count(i, match.P2))
	}
	lh := c.LineHeight(label)
	plot := Rect{r.X + 4, r.Y + lh + 2, r.W - 8, r.H - lh - 6}
	c.Text(fmt.Sprintf("live cells (max %g)", peak), r.X+4, r.Y+1, label, Left, th.TextDim)
	span := float64(max(iterations, 1))
	k, f := Moment(rec, t)
	for _, side := range match.Sides {
		pts := make([]Point, 0, k+2)
		// One point per pixel column at most: long games stay cheap to draw.
		step := max(1, int(float64(k)/plot.W))
		for i := 0; i <= k; i += step {
			pts = append(pts, Point{plot.X + plot.W*float64(i)/span, plot.Y + plot.H*(1-count(i, side)/peak)})
		}
		if f > 0 {
			v := count(k, side) + (count(k+1, side)-count(k, side))*f
			pts = append(pts, Point{plot.X + plot.W*(float64(k)+f)/span, plot.Y + plot.H*(1-v/peak)})
		}
		if len(pts) == 1 {
			pts = append(pts, pts[0])
		}
		c.Polyline(pts, max(1.5, r.H/50), th.Player[side])
	}
}

// Caption names the iteration.
func (lifeDrawer) Caption(rec *match.Record, t float64) string {
	s := shownState(rec, t).(life.State)
	return fmt.Sprintf("iteration %d of %d", s.Turn(), s.Config().Iterations)
}
