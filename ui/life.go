package ui

import (
	"fmt"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/life"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/render"
)

func init() { humans["life"] = func() Human { return &lifeHuman{} } }

// lifeHuman plays the Life battleground as the original's TestGrid did:
// click dead cells within reach of your own to choose this turn's
// colonisations, up to your bank; click again to drop one; Enter sends.
type lifeHuman struct {
	s      life.State
	side   match.Side
	legal  map[life.Cell]bool
	chosen []life.Cell
	note   string // why the last click did nothing
}

func (h *lifeHuman) Start(s match.State, side match.Side) {
	h.s, h.side, h.chosen, h.note = s.(life.State), side, nil, ""
	h.legal = map[life.Cell]bool{}
	for _, c := range life.Legal(h.s, side) {
		h.legal[c] = true
	}
}

func (h *lifeHuman) grid(r rect) render.Grid {
	b := h.s.Board()
	return render.CoordinateGrid(r, b.Rows(), b.Cols())
}

func (h *lifeHuman) Click(x, y float64, r rect) {
	row, col, ok := h.grid(r).CellAt(x, y)
	if !ok {
		return
	}
	c := life.Cell{Row: row, Col: col}
	h.note = ""
	if i := slices.Index(h.chosen, c); i >= 0 {
		h.chosen = slices.Delete(h.chosen, i, i+1)
		return
	}
	switch {
	case h.s.Board().At(c.Row, c.Col) != life.Dead:
		h.note = fmt.Sprintf("cell %v is alive", c)
	case !h.legal[c]:
		h.note = fmt.Sprintf("cell %v is farther than %d from your cells", c, h.s.Config().Distance)
	case len(h.chosen) >= h.s.Bank(h.side):
		h.note = fmt.Sprintf("your bank holds %d cells", h.s.Bank(h.side))
	default:
		h.chosen = append(h.chosen, c)
	}
}

func (h *lifeHuman) Key(k ebiten.Key) bool {
	if k == ebiten.KeyBackspace && len(h.chosen) > 0 {
		h.chosen = h.chosen[:len(h.chosen)-1]
		return true
	}
	return false
}

func (h *lifeHuman) Draw(c render.Canvas, r rect, th *render.Theme) {
	g := h.grid(r)
	col := th.Player[h.side]
	for cell := range h.legal {
		c.Fill(g.Box(cell.Row, cell.Col), render.Alpha(col, 0.18))
	}
	for _, cell := range h.chosen {
		box := g.Box(cell.Row, cell.Col)
		c.Fill(box.Inset(box.W*0.2), col)
		c.Stroke(box, max(1, box.W/8), th.Mark)
	}
}

func (h *lifeHuman) Prompt() string {
	p := fmt.Sprintf("%s: click up to %d cells next to yours (%d chosen), Enter sends", h.side, h.s.Bank(h.side), len(h.chosen))
	if h.note != "" {
		p += " · " + h.note
	}
	return p
}

func (h *lifeHuman) Action() (match.Action, error) {
	a := life.Action(slices.Clone(h.chosen))
	if a == nil {
		a = life.Action{}
	}
	return a, h.s.Check(h.side, a)
}

// Suggest returns the first legal cell, in scan order, not chosen yet.
func (h *lifeHuman) Suggest(r rect) (rect, bool) {
	for _, c := range life.Legal(h.s, h.side) {
		if !slices.Contains(h.chosen, c) && len(h.chosen) < h.s.Bank(h.side) {
			return h.grid(r).Box(c.Row, c.Col), true
		}
	}
	return rect{}, false
}

// Done is false: a Life turn goes when the person presses Enter.
func (h *lifeHuman) Done() bool { return false }
