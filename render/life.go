package render

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"sync"

	"github.com/arena-playground/arena/engine/life"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
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
	from, to life.State // the states before and after the turn
	mid      life.Board // from's board with the turn's colonisations
	// The boards of from and to, taken once: State.Board copies the
	// state to the heap, and colour runs for every cell or pixel.
	fromB, toB *life.Board
	th         *Theme           // the theme blend is for
	blend      [3][3]color.RGBA // see palette
	place      float64          // progress of the colonisation phase, 0..1
	step       float64          // progress of the generation step, 0..1
	animating  bool
}

func lifeAt(rec *play.Record, t float64) lifeMoment {
	k, f := Moment(rec, t)
	m := lifeMoment{from: rec.State(k).(life.State)}
	m.fromB = m.from.Board()
	if f == 0 {
		m.to, m.toB = m.from, m.fromB
		return m
	}
	m.to = rec.State(k + 1).(life.State)
	m.toB = m.to.Board()
	m.animating = true
	m.place = ease(f / lifePlace)
	m.step = ease((f - lifePlace) / (1 - lifePlace))
	m.mid = colonised(m.fromB, m.to)
	return m
}

// lifeMids keeps the last turn's colonised board: every frame of a turn's
// animation needs the same one, and on a 4096x4096 board it is 4 MB to
// copy. A turn is known by its two boards (a record's copies, one a frame
// while a match streams in, share them).
var lifeMids struct {
	sync.Mutex
	from, to *uint64
	mid      life.Board
}

// boardID is a board's identity: the first word of its P1 plane. A
// state's board never changes.
func boardID(b *life.Board) *uint64 { return &b.Plane(match.P1)[0] }

// colonised is turn k's board from with the cells the turn colonised (to's
// applied cells), before the generation steps.
func colonised(from *life.Board, to life.State) life.Board {
	c := &lifeMids
	c.Lock()
	defer c.Unlock()
	if c.from == boardID(from) && c.to == boardID(to.Board()) {
		return c.mid
	}
	mid := from.Clone()
	for _, side := range match.Sides {
		for _, cell := range to.Applied(side) {
			mid.Set(cell.Row, cell.Col, life.OwnerOf(side))
		}
	}
	c.from, c.to, c.mid = boardID(from), boardID(to.Board()), mid
	return mid
}

// ease maps progress to a smooth start and stop, clamped to [0, 1].
func ease(x float64) float64 {
	x = min(max(x, 0), 1)
	return x * x * (3 - 2*x)
}

// square is the part of a cell's box that a live cell fills: inset from
// the grid, which reads well and, since only it changes from turn to
// turn, keeps GIF frames small.
func (l Grid) square(c life.Cell) Rect {
	r := l.Box(c.Row, c.Col)
	if !l.grid {
		return r
	}
	in := math.Round(l.size * 0.15)
	return Rect{r.X + in, r.Y + in, r.W - 2*in, r.H - 2*in}
}

// Board draws the board at time t.
func (lifeDrawer) Board(c Canvas, r Rect, rec *play.Record, t float64, th *Theme) {
	m := lifeAt(rec, t)
	rows, cols := m.fromB.Rows(), m.fromB.Cols()
	l := CoordinateGrid(r, rows, cols)
	drawGridCoordinates(c, l, th)
	full := Rect{l.x0, l.y0, l.size * float64(cols), l.size * float64(rows)}
	type gridKey struct {
		full       Rect
		rows, cols int
		grid       bool
	}
	Layer(c, "life-grid", gridKey{full, rows, cols, l.grid}, Rect{full.X, full.Y, full.W + 1, full.H + 1}, func() {
		c.Fill(full, th.Board)
		if l.grid {
			for i := range rows + 1 {
				c.Fill(Rect{full.X, full.Y + float64(i)*l.size, full.W + 1, 1}, th.Grid)
			}
			for j := range cols + 1 {
				c.Fill(Rect{full.X + float64(j)*l.size, full.Y, 1, full.H + 1}, th.Grid)
			}
		}
	})
	if !l.grid {
		// The board at rest, or a turn's two boards, the second faded in
		// over the first: each cell's colour is then the blend colour
		// gives it, and a frame of the animation draws two images kept
		// for the turn, not a new one.
		under, over, alpha := m.layers()
		w, h := int(full.W), int(full.H)
		c.Pixels(full, lifePixels(under, w, h, th), 1)
		if alpha > 0 {
			c.Pixels(full, lifePixels(over, w, h, th), alpha)
		}
		return
	}
	for row := range rows {
		for col := range cols {
			if cl := m.colour(row, col, th); cl != th.Board {
				c.Fill(l.square(life.Cell{Row: row, Col: col}), cl)
			}
		}
	}
	lifeMarks(c, l, m, th)
}

// layers are the boards the moment shows and how much of the second:
// at rest the board alone; while the turn's cells are colonised, the
// colonised board over the last one; while the generation steps, the next
// board over the colonised one.
func (m *lifeMoment) layers() (under, over *life.Board, alpha float64) {
	switch {
	case !m.animating:
		return m.fromB, nil, 0
	case m.step == 0:
		return m.fromB, &m.mid, m.place
	}
	return &m.mid, m.toB, m.step
}

// lifeImages keeps the images lifePixels made last, by board, size and
// colours: a turn's animation draws the same two for all its frames.
var lifeImages struct {
	sync.Mutex
	kept [4]lifeImage
	next int
}

// lifeKey is what a board's image depends on.
type lifeKey struct {
	board   *uint64 // boardID
	w, h    int
	colours [3]color.RGBA // by owner: Dead, P1, P2
}

type lifeImage struct {
	key lifeKey
	img *image.RGBA
}

// lifePixels is board b as an image, each cell its owner's colour, for a
// view of w by h pixels. When cells are too small for a grid: one pixel
// per cell, scaled up, while a cell is a pixel or more on screen; one
// pixel per pixel on screen when cells are smaller, each the colour of
// the cell at its centre, so that a 4096x4096 board drawn on 700 pixels
// costs 490,000 cells, not 16.8 million. The image is kept (lifeImages)
// and must not be changed.
func lifePixels(b *life.Board, w, h int, th *Theme) *image.RGBA {
	w, h = min(b.Cols(), max(w, 1)), min(b.Rows(), max(h, 1))
	key := lifeKey{board: boardID(b), w: w, h: h, colours: [3]color.RGBA{th.Board, th.Player[0], th.Player[1]}}
	c := &lifeImages
	c.Lock()
	defer c.Unlock()
	for _, k := range c.kept {
		if k.img != nil && k.key == key {
			return k.img
		}
	}
	img := ownerPixels(b, w, h, key.colours)
	c.kept[c.next], c.next = lifeImage{key, img}, (c.next+1)%len(c.kept)
	return img
}

// ownerPixels samples b on w by h pixels, each the colour of its cell's
// owner (colours[Dead], [P1], [P2]), reading the rows word by word.
func ownerPixels(b *life.Board, w, h int, colours [3]color.RGBA) *image.RGBA {
	rows, cols := b.Rows(), b.Cols()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	// Each pixel column's cell column, as its word and bit in a row.
	type bit struct {
		word int
		mask uint64
	}
	at := make([]bit, w)
	for x := range at {
		c := (2*x + 1) * cols / (2 * w)
		at[x] = bit{c >> 6, 1 << (c & 63)}
	}
	words := b.Words()
	p1, p2 := b.Plane(match.P1), b.Plane(match.P2)
	for y := range h {
		r := (2*y + 1) * rows / (2 * h)
		lo, hi := r*words, (r+1)*words
		a1, a2 := p1[lo:hi:hi], p2[lo:hi:hi]
		pix := img.Pix[y*img.Stride : y*img.Stride+4*w]
		for x, bt := range at {
			o := life.Dead
			switch {
			case a1[bt.word]&bt.mask != 0:
				o = life.P1
			case a2[bt.word]&bt.mask != 0:
				o = life.P2
			}
			c := colours[o]
			pix[4*x], pix[4*x+1], pix[4*x+2], pix[4*x+3] = c.R, c.G, c.B, c.A
		}
	}
	return img
}

// colour is the colour of cell (row, col) at the moment: its owner's, or
// a blend while it is being colonised, born or dying. The blends of the
// moment are worked out once (three owners, nine pairs), not per cell.
func (m *lifeMoment) colour(row, col int, th *Theme) color.RGBA {
	if m.th != th {
		m.palette(th)
	}
	a := m.fromB.At(row, col)
	switch {
	case !m.animating:
		return m.blend[a][a]
	case m.step == 0:
		return m.blend[a][m.mid.At(row, col)]
	}
	return m.blend[m.mid.At(row, col)][m.toB.At(row, col)]
}

// palette works out the moment's colours for th: blend[a][b] is owner a's
// colour turning into owner b's at this moment's progress.
func (m *lifeMoment) palette(th *Theme) {
	of := func(o life.Owner) color.RGBA {
		if o == life.Dead {
			return th.Board
		}
		return th.Player[o-1]
	}
	t := m.step
	if m.step == 0 {
		t = m.place
	}
	for a := range m.blend {
		for b := range m.blend[a] {
			m.blend[a][b] = of(life.Owner(a))
			if a != b && m.animating {
				m.blend[a][b] = Mix(of(life.Owner(a)), of(life.Owner(b)), t)
			}
		}
	}
	m.th = th
}

// lifeMarks rings the colonised cells and crosses the contested ones: at
// full strength when they happen, then fading to a trace that stays on the
// settled board.
func lifeMarks(c Canvas, l Grid, m lifeMoment, th *Theme) {
	const trace = 0.35
	w := max(1, math.Round(l.size/8))
	draw := func(s life.State, strength float64) {
		if strength <= 0.02 {
			return
		}
		for _, side := range match.Sides {
			for _, cl := range s.Applied(side) {
				c.Stroke(l.Box(cl.Row, cl.Col), w, Alpha(th.Mark, strength))
			}
		}
		for _, cl := range s.Collided() {
			r := l.Box(cl.Row, cl.Col).Inset(w)
			col := Alpha(th.Collision, strength)
			c.Stroke(l.Box(cl.Row, cl.Col), w, col)
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

// Panel draws both banks as pips and the population chart: side by side
// in a wide rectangle (GIF frames), stacked in a narrow one (the window's
// side panel). Text is sized from the rectangle.
func (lifeDrawer) Panel(c Canvas, r Rect, rec *play.Record, t float64, th *Theme) {
	s := shownState(rec, t).(life.State)
	cfg := s.Config()
	label := Face{Size: math.Round(textSize(c, min(r.H/7.5, r.W/24))), Style: Regular}
	lh := c.LineHeight(label)
	pipH := math.Round(lh * 0.8)
	bankH := lh + pipH + math.Round(lh*0.5)
	var banks, chart Rect
	if r.W > 3*r.H {
		banks, chart = r.CutLeft(math.Round(r.W * 0.42))
	} else {
		banks, chart = r.CutTop(2 * bankH)
		chart = Rect{chart.X, chart.Y + math.Round(lh*0.3), chart.W, chart.H - math.Round(lh*0.3)}
	}
	for _, side := range match.Sides {
		y := banks.Y + float64(side)*max(bankH, banks.H/2)
		c.Text(fmt.Sprintf("%s bank %d/%d  +%d/turn", side, s.Bank(side), cfg.Capacity, cfg.Gain), banks.X, y, label, Left, th.TextDim)
		drawPips(c, Rect{banks.X, y + lh + 2, min(banks.W-lh, lh*22), pipH}, s.Bank(side), cfg.Capacity, th.Player[side], th)
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
func drawPopulation(c Canvas, r Rect, rec *play.Record, t float64, iterations int, th *Theme, label Face) {
	c.Fill(r, th.Board)
	// Life scores are live cells: the record keeps them for every turn,
	// so the chart needs no state (a thinned record would rebuild them).
	count := func(i int, side match.Side) float64 { return rec.Standing(i).Scores[side].Float() }
	peak := 1.0
	for i := range rec.Len() {
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
func (lifeDrawer) Caption(rec *play.Record, t float64) string {
	s := shownState(rec, t).(life.State)
	return fmt.Sprintf("iteration %d of %d", s.Turn(), s.Config().Iterations)
}

// turnEvents marks the turns in which both players asked for a cell.
func (lifeDrawer) turnEvents(rec *play.Record, k int) []Event {
	s := rec.State(k).(life.State)
	if n := len(s.Collided()); n > 0 {
		return []Event{{Turn: k, Kind: EventCollision, Side: match.NoSide, Label: fmt.Sprintf("%d contested cells", n)}}
	}
	return nil
}

// Spot places a mark on a cell.
func (lifeDrawer) Spot(rec *play.Record, k int, _ match.Side, r Rect, p match.Place) (Spot, bool) {
	b := rec.State(k).(life.State).Board()
	if p.Kind != match.OnCell || p.A >= b.Rows() || p.B >= b.Cols() {
		return Spot{}, false
	}
	box := CoordinateGrid(r, b.Rows(), b.Cols()).Box(p.A, p.B)
	return Spot{At: Point{box.X + box.W/2, box.Y + box.H/2}, R: box.W / 2}, true
}

// SharesPlaces says both Life bots mark cells at once: P2's are drawn
// square.
func (lifeDrawer) SharesPlaces() bool { return true }

// PlaceName names a cell row first.
func (lifeDrawer) PlaceName(_ *play.Record, _ int, _ match.Side, p match.Place) string {
	return fmt.Sprintf("%d,%d", p.A, p.B)
}
