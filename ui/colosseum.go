package ui

import (
	"fmt"
	"math"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/colosseum"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/render"
)

func init() { humans["colosseum"] = func() Human { return &colosseumHuman{} } }

// colosseumHuman plays Colosseum Survival: the squares the person can
// reach are highlighted; a click picks one (your own square to stay), and
// then a click on one of its sides, or an arrow key, places the wall and
// sends the move.
type colosseumHuman struct {
	s      colosseum.State
	side   match.Side
	reach  []colosseum.Cell
	picked *colosseum.Cell
	move   *colosseum.Move
	note   string
}

func (h *colosseumHuman) Start(s match.State, side match.Side) {
	h.s, h.side, h.picked, h.move, h.note = s.(colosseum.State), side, nil, nil, ""
	b := h.s.Board()
	h.reach = b.Reach(h.s.Pos(side), h.s.Pos(side.Other()), h.s.MaxStep())
}

func (h *colosseumHuman) grid(r rect) render.Grid {
	return render.ColosseumGrid(r, h.s.Board().N)
}

// freeSides lists the sides of c that can take a wall.
func (h *colosseumHuman) freeSides(c colosseum.Cell) []colosseum.Dir {
	var ds []colosseum.Dir
	for d := colosseum.Up; d <= colosseum.Left; d++ {
		if !h.s.Board().Wall(c, d) {
			ds = append(ds, d)
		}
	}
	return ds
}

func (h *colosseumHuman) Click(x, y float64, r rect) {
	g := h.grid(r)
	row, col, ok := g.CellAt(x, y)
	if !ok {
		return
	}
	c := colosseum.Cell{Row: row, Col: col}
	h.note = ""
	if h.picked != nil && *h.picked == c {
		// A second click on the picked square: the side nearest the click.
		box := g.Box(row, col)
		dx, dy := (x-box.X)/box.W-0.5, (y-box.Y)/box.H-0.5
		d := colosseum.Right
		switch {
		case math.Abs(dy) > math.Abs(dx) && dy < 0:
			d = colosseum.Up
		case math.Abs(dy) > math.Abs(dx):
			d = colosseum.Down
		case dx < 0:
			d = colosseum.Left
		}
		h.wall(d)
		return
	}
	if !slices.Contains(h.reach, c) {
		h.note = fmt.Sprintf("%v is not within %d steps of your square without crossing a wall or the opponent", c, h.s.MaxStep())
		return
	}
	h.picked = &c
}

// wall places the wall on side d of the picked square, if it is free.
func (h *colosseumHuman) wall(d colosseum.Dir) {
	if h.picked == nil {
		h.note = "pick a square first"
		return
	}
	if !slices.Contains(h.freeSides(*h.picked), d) {
		h.note = fmt.Sprintf("the %s side of %v already has a wall", d, *h.picked)
		return
	}
	h.move = &colosseum.Move{To: *h.picked, Dir: d}
}

func (h *colosseumHuman) Key(k ebiten.Key) bool {
	d, ok := map[ebiten.Key]colosseum.Dir{ebiten.KeyArrowUp: colosseum.Up, ebiten.KeyArrowRight: colosseum.Right,
		ebiten.KeyArrowDown: colosseum.Down, ebiten.KeyArrowLeft: colosseum.Left}[k]
	if !ok || h.picked == nil {
		return false
	}
	h.wall(d)
	return true
}

func (h *colosseumHuman) Draw(c render.Canvas, r rect, th *render.Theme) {
	g := h.grid(r)
	col := th.Player[h.side]
	for _, cell := range h.reach {
		c.Fill(g.Box(cell.Row, cell.Col), render.Alpha(col, 0.2))
	}
	if h.picked == nil {
		return
	}
	box := g.Box(h.picked.Row, h.picked.Col)
	c.Stroke(box, math.Max(2, box.W/14), th.Mark)
	w := math.Max(3, box.W/8)
	for _, d := range h.freeSides(*h.picked) {
		var bar rect
		switch d {
		case colosseum.Up:
			bar = rect{X: box.X + box.W*0.2, Y: box.Y + w, W: box.W * 0.6, H: w}
		case colosseum.Down:
			bar = rect{X: box.X + box.W*0.2, Y: box.Y + box.H - 2*w, W: box.W * 0.6, H: w}
		case colosseum.Left:
			bar = rect{X: box.X + w, Y: box.Y + box.H*0.2, W: w, H: box.H * 0.6}
		default:
			bar = rect{X: box.X + box.W - 2*w, Y: box.Y + box.H*0.2, W: w, H: box.H * 0.6}
		}
		c.Fill(bar, render.Alpha(th.Accent, 0.85))
	}
}

func (h *colosseumHuman) Prompt() string {
	who := "AB"[h.side : h.side+1]
	p := fmt.Sprintf("%s: click a highlighted square (yours to stay), then a side of it or an arrow key for the wall", who)
	if h.picked != nil {
		p = fmt.Sprintf("%s: %v picked: click one of its sides or press an arrow key to wall it (click another square to change)", who, *h.picked)
	}
	if h.note != "" {
		p += " · " + h.note
	}
	return p
}

func (h *colosseumHuman) Action() (match.Action, error) {
	if h.move == nil {
		return nil, fmt.Errorf("pick a square, then a side for the wall")
	}
	return *h.move, h.s.Check(h.side, *h.move)
}

// Done is true once the wall's side is picked: the move goes at once.
func (h *colosseumHuman) Done() bool { return h.move != nil }

// Suggest returns the first reachable square, then, once it is picked,
// the middle of its first free side.
func (h *colosseumHuman) Suggest(r rect) (rect, bool) {
	g := h.grid(r)
	if h.picked == nil {
		if len(h.reach) == 0 {
			return rect{}, false
		}
		c := h.reach[0]
		return g.Box(c.Row, c.Col), true
	}
	sides := h.freeSides(*h.picked)
	if len(sides) == 0 {
		return rect{}, false
	}
	box := g.Box(h.picked.Row, h.picked.Col)
	q := box.W / 4
	switch sides[0] {
	case colosseum.Up:
		return rect{X: box.X + q, Y: box.Y, W: 2 * q, H: q}, true
	case colosseum.Down:
		return rect{X: box.X + q, Y: box.Y + 3*q, W: 2 * q, H: q}, true
	case colosseum.Left:
		return rect{X: box.X, Y: box.Y + q, W: q, H: 2 * q}, true
	}
	return rect{X: box.X + 3*q, Y: box.Y + q, W: q, H: 2 * q}, true
}
