package render

import (
	"fmt"
	"image/color"
	"math"

	"github.com/arena-playground/arena/engine/colosseum"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

func init() { register("colosseum", colosseumDrawer{}) }

// colosseumDrawer draws Colosseum Survival. A move animates in two
// phases: the mover slides along its path square by square, then its new
// wall grows from its middle. The last wall stays highlighted until the
// next; at the end both regions are shaded in their player's colour.
type colosseumDrawer struct{}

// colosseumSlide is the part of a move spent walking.
const colosseumSlide = 0.6

// colosseumMoment is what is drawn at one moment of playback.
type colosseumMoment struct {
	from, to  colosseum.State
	mover     match.Side
	path      []colosseum.Cell // the mover's way, from its cell to its new one
	walk      float64          // progress of the walk, 0..1
	grow      float64          // progress of the wall, 0..1
	animating bool
}

func colosseumAt(rec *play.Record, t float64) colosseumMoment {
	k, f := Moment(rec, t)
	m := colosseumMoment{from: rec.State(k).(colosseum.State), to: rec.State(k).(colosseum.State)}
	if f == 0 || k+1 >= rec.Len() {
		return m
	}
	m.to, m.animating = rec.State(k+1).(colosseum.State), true
	m.mover = m.from.Mover()
	b := m.from.Board()
	m.path = b.Path(m.from.Pos(m.mover), m.to.Pos(m.mover), m.from.Pos(m.mover.Other()))
	m.walk = ease(f / colosseumSlide)
	m.grow = ease((f - colosseumSlide) / (1 - colosseumSlide))
	return m
}

// moveOf returns the move played in turn k, and who played it.
func moveOf(rec *play.Record, k int) (colosseum.Move, match.Side, bool) {
	if k < 0 || k >= len(rec.Turns) {
		return colosseum.Move{}, 0, false
	}
	side := rec.State(k).(colosseum.State).Mover()
	m, ok := rec.Turns[k].Actions[side].(colosseum.Move)
	return m, side, ok
}

// Board draws the board at time t.
func (colosseumDrawer) Board(c Canvas, r Rect, rec *play.Record, t float64, th *Theme) {
	m := colosseumAt(rec, t)
	shown := m.from
	if m.animating && m.grow > 0 {
		shown = m.to
	}
	b := shown.Board()
	g := ColosseumGrid(r, b.N)
	full := g.Bounds()
	lw := max(1, math.Round(g.Size()/40))
	type gridKey struct {
		full Rect
		n    int
	}
	Layer(c, "colosseum-grid", gridKey{full, b.N}, full, func() {
		c.Fill(full, th.Board)
		for i := 1; i < b.N; i++ {
			c.Fill(Rect{full.X, full.Y + float64(i)*g.Size(), full.W, lw}, th.Grid)
			c.Fill(Rect{full.X + float64(i)*g.Size(), full.Y, lw, full.H}, th.Grid)
		}
	})
	drawGridCoordinates(c, g, th)
	if s := m.to; !m.animating && s.ToMove() == match.Nobody {
		colosseumRegions(c, g, s, th)
	}
	wall := max(2, math.Round(g.Size()/9))
	// Every wall but the newest, which is drawn on its own.
	k, _ := Moment(rec, t)
	if !m.animating {
		k-- // the settled board highlights the move that made it
	}
	last, _, fresh := moveOf(rec, k)
	nc, nd := last.To, last.Dir
	for row := range b.N {
		for col := range b.N {
			cell := colosseum.Cell{Row: row, Col: col}
			for _, d := range []colosseum.Dir{colosseum.Right, colosseum.Down} {
				if !b.Wall(cell, d) || (fresh && sameWall(cell, d, nc, nd)) {
					continue
				}
				if (d == colosseum.Right && col == b.N-1) || (d == colosseum.Down && row == b.N-1) {
					continue // the border, drawn below
				}
				c.Fill(wallRect(g, cell, d, wall, 1), th.Text)
			}
		}
	}
	if fresh {
		grow, col := 1.0, Mix(th.Accent, th.Text, 0.35)
		if m.animating {
			grow, col = m.grow, Mix(th.Mark, th.Accent, m.grow)
		}
		if grow > 0 {
			c.Fill(wallRect(g, nc, nd, wall, grow), col)
		}
	}
	c.Stroke(Rect{full.X - wall/2, full.Y - wall/2, full.W + wall, full.H + wall}, wall, th.Text)
	for _, side := range match.Sides {
		drawPlayer(c, g, m, side, th)
	}
}

func sameWall(c colosseum.Cell, d colosseum.Dir, c2 colosseum.Cell, d2 colosseum.Dir) bool {
	return (c == c2 && d == d2) || (c.Step(d) == c2 && d.Opposite() == d2)
}

// wallRect is the bar of a wall on side d of cell, of thickness w, grown
// to a fraction of its length from its middle.
func wallRect(g Grid, cell colosseum.Cell, d colosseum.Dir, w, grown float64) Rect {
	s := g.Size()
	x0, y0 := g.Bounds().X+float64(cell.Col)*s, g.Bounds().Y+float64(cell.Row)*s
	l := (s + w) * grown
	switch d {
	case colosseum.Up:
		return Rect{x0 + s/2 - l/2, y0 - w/2, l, w}
	case colosseum.Down:
		return Rect{x0 + s/2 - l/2, y0 + s - w/2, l, w}
	case colosseum.Left:
		return Rect{x0 - w/2, y0 + s/2 - l/2, w, l}
	}
	return Rect{x0 + s - w/2, y0 + s/2 - l/2, w, l}
}

// drawPlayer draws a player's token, sliding along its path while it moves.
func drawPlayer(c Canvas, g Grid, m colosseumMoment, side match.Side, th *Theme) {
	pos := m.from.Pos(side)
	x, y := cellCentre(g, pos)
	if m.animating && side == m.mover && len(m.path) > 1 {
		along := m.walk * float64(len(m.path)-1)
		i := min(int(along), len(m.path)-2)
		f := along - float64(i)
		x0, y0 := cellCentre(g, m.path[i])
		x1, y1 := cellCentre(g, m.path[i+1])
		x, y = x0+(x1-x0)*f, y0+(y1-y0)*f
	} else if m.animating && side == m.mover {
		x, y = cellCentre(g, m.to.Pos(side))
	}
	rad := g.Size() * 0.34
	c.Circle(Point{x, y}, rad, th.Player[side])
	f := Face{Size: math.Round(rad * 1.1), Style: Bold}
	c.Text("AB"[side:side+1], x, y-c.LineHeight(f)/2, f, Center, th.Background)
}

func cellCentre(g Grid, cell colosseum.Cell) (float64, float64) {
	b := g.Bounds()
	return b.X + (float64(cell.Col)+0.5)*g.Size(), b.Y + (float64(cell.Row)+0.5)*g.Size()
}

// colosseumRegions shades each player's region at the end.
func colosseumRegions(c Canvas, g Grid, s colosseum.State, th *Theme) {
	b := s.Board()
	for _, side := range match.Sides {
		reg := b.Region(s.Pos(side))
		for i, in := range reg {
			if in {
				c.Fill(g.Box(i/b.N, i%b.N), Alpha(th.Player[side], 0.3))
			}
		}
	}
}

// Panel writes the board's rule, the last move and the regions.
func (colosseumDrawer) Panel(c Canvas, r Rect, rec *play.Record, t float64, th *Theme) {
	s := shownState(rec, t).(colosseum.State)
	face := Face{Size: math.Round(textSize(c, min(r.H/6.5, r.W/22))), Style: Regular}
	y := r.Y
	line := func(text string, col color.RGBA) {
		if y < r.Y+r.H {
			y = Wrap(c, text, r.X, y, r.W, face, col)
		}
	}
	n := s.Board().N
	line(fmt.Sprintf("%dx%d board; a move walks up to %d steps, then walls a side", n, n, s.MaxStep()), th.TextDim)
	if k := s.Turn(); k > 0 {
		if mv, side, ok := moveOf(rec, k-1); ok {
			prev := rec.State(k - 1).(colosseum.State)
			line(fmt.Sprintf("move %d: %s %v → %v, wall %s", k, "AB"[side:side+1], prev.Pos(side), mv.To, mv.Dir), th.Player[side])
			if why := rec.Turns[k-1].Replaced[side]; why != "" {
				line("random walk: "+why, th.Collision)
			}
		}
	}
	if s.ToMove() == match.Nobody {
		sc := s.Scores()
		line(fmt.Sprintf("over: A's region %d cells, B's %d", sc[0], sc[1]), th.Text)
	} else {
		side := s.Mover()
		line(fmt.Sprintf("%s to move · shared region %d cells", "AB"[side:side+1], s.Scores()[0]), th.Player[side])
	}
}

// Caption names the move.
func (colosseumDrawer) Caption(rec *play.Record, t float64) string {
	s := shownState(rec, t).(colosseum.State)
	if s.ToMove() == match.Nobody {
		return fmt.Sprintf("over after %d moves", s.Turn())
	}
	return fmt.Sprintf("move %d · %s to move", s.Turn(), "AB"[s.Mover():s.Mover()+1])
}

// Spot places a mark on a cell, or on a move's cell with its wall's side
// ticked.
func (colosseumDrawer) Spot(rec *play.Record, k int, _ match.Side, r Rect, p match.Place) (Spot, bool) {
	n := rec.State(k).(colosseum.State).Board().N
	if (p.Kind != match.OnCell && p.Kind != match.OnMove) || p.A >= n || p.B >= n || p.Side > 3 {
		return Spot{}, false
	}
	g := ColosseumGrid(r, n)
	box := g.Box(p.A, p.B)
	s := Spot{At: Point{box.X + box.W/2, box.Y + box.H/2}, R: box.W / 2}
	if p.Kind == match.OnMove {
		in := box.Inset(math.Max(2, box.W*0.12))
		corners := [4]Point{{in.X, in.Y}, {in.X + in.W, in.Y}, {in.X + in.W, in.Y + in.H}, {in.X, in.Y + in.H}}
		// Up is the top side, then clockwise: corners d and d+1.
		s.Tick, s.Ticked = [2]Point{corners[p.Side], corners[(p.Side+1)%4]}, true
	}
	return s, true
}

// PlaceName names a cell as the original's input does, row first, and a
// move with its wall's side.
func (colosseumDrawer) PlaceName(_ *play.Record, _ int, _ match.Side, p match.Place) string {
	if p.Kind == match.OnMove {
		return fmt.Sprintf("%d,%d %s", p.A, p.B, colosseum.Dir(p.Side))
	}
	return fmt.Sprintf("%d,%d", p.A, p.B)
}

// ColosseumGrid fits an NxN Colosseum board in r with room at its left
// and top for the coordinates the panel and the analysis name cells by
// ("3,2 right": row 3, column 2).
func ColosseumGrid(r Rect, n int) Grid { return CoordinateGrid(r, n, n) }
