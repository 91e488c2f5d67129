package ui

import (
	"fmt"
	"math"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/mapcolor"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/render"
)

func init() { humans["mapcolor"] = func() Human { return &mapcolorHuman{} } }

// mapcolorHuman plays map colouring: the states you may colour are
// ringed; click one, and its legal colours appear beside it as swatches:
// click one (or press its number) and the move goes.
type mapcolorHuman struct {
	pane   bool // the search tree's pane beside the map (render.MapcolorPane)
	s      mapcolor.State
	side   match.Side
	legal  map[int][]int // state -> legal colours, in the course's order
	picked int
	move   *mapcolor.Move
	note   string
}

// setPlayers says who plays: the map's layout depends on it.
func (h *mapcolorHuman) setPlayers(p [2]string) { h.pane = render.MapcolorPane(p) }

func (h *mapcolorHuman) Start(s match.State, side match.Side) {
	h.s, h.side, h.picked, h.move, h.note = s.(mapcolor.State), side, -1, nil, ""
	h.legal = map[int][]int{}
	p := h.s.Problem()
	for _, m := range h.s.Moves() {
		st, c := slices.Index(p.States, m.State), slices.Index(p.Colours, m.Colour)
		h.legal[st] = append(h.legal[st], c)
	}
}

// swatches are the colour buttons of the picked state.
func (h *mapcolorHuman) swatches(r rect) []rect {
	if h.picked < 0 {
		return nil
	}
	l := render.LayoutMap(h.s, r, h.pane)
	c := l.Centre(h.picked)
	size := math.Max(18, l.Radius()*1.3)
	n := len(h.legal[h.picked])
	x := c.X - (float64(n)*size+float64(n-1)*size*0.2)/2
	y := c.Y - l.Radius()*1.5 - size
	if y < r.Y {
		y = c.Y + l.Radius()*1.5
	}
	out := make([]rect, n)
	for i := range out {
		out[i] = rect{X: x + float64(i)*size*1.2, Y: y, W: size, H: size}
	}
	return out
}

func (h *mapcolorHuman) Click(x, y float64, r rect) {
	for i, sw := range h.swatches(r) {
		if sw.Contains(x, y) {
			h.choose(i)
			return
		}
	}
	st, ok := render.LayoutMap(h.s, r, h.pane).StateAt(x, y)
	if !ok {
		return
	}
	p := h.s.Problem()
	h.note = ""
	switch c, _ := h.s.Colour(st); {
	case c >= 0:
		h.note = fmt.Sprintf("%s is coloured already", p.States[st])
	case len(h.legal[st]) == 0:
		h.note = fmt.Sprintf("%s cannot be coloured now: it needs a coloured neighbour and a colour none of them has", p.States[st])
	default:
		h.picked = st
	}
}

// choose plays the i-th legal colour of the picked state.
func (h *mapcolorHuman) choose(i int) {
	cs := h.legal[h.picked]
	if h.picked < 0 || i < 0 || i >= len(cs) {
		return
	}
	p := h.s.Problem()
	h.move = &mapcolor.Move{State: p.States[h.picked], Colour: p.Colours[cs[i]]}
}

func (h *mapcolorHuman) Key(k ebiten.Key) bool {
	if h.picked >= 0 && k >= ebiten.Key1 && k <= ebiten.Key9 {
		h.choose(int(k - ebiten.Key1))
		return true
	}
	return false
}

func (h *mapcolorHuman) Draw(c render.Canvas, r rect, th *render.Theme) {
	l := render.LayoutMap(h.s, r, h.pane)
	col := th.Player[h.side]
	for st := range h.legal {
		c.Ring(l.Centre(st), l.Radius()*1.25, math.Max(1.5, l.Radius()*0.14), render.Alpha(col, 0.8))
	}
	if h.picked < 0 {
		return
	}
	c.Ring(l.Centre(h.picked), l.Radius()*1.4, math.Max(2, l.Radius()*0.2), th.Mark)
	p := h.s.Problem()
	f := render.Face{Size: math.Round(math.Max(10, l.Radius()*0.6)), Style: render.Bold}
	for i, sw := range h.swatches(r) {
		ci := h.legal[h.picked][i]
		c.Fill(sw.Inset(-2), th.Mark)
		c.Fill(sw, render.ColourOf(p.Colours[ci], ci))
		c.Text(fmt.Sprint(i+1), sw.X+sw.W/2, sw.Y+(sw.H-c.LineHeight(f))/2, f, render.Center, th.Background)
	}
}

func (h *mapcolorHuman) Prompt() string {
	p := fmt.Sprintf("%s: click a ringed state, then one of its colours (or its number)", h.side)
	if h.picked >= 0 {
		p = fmt.Sprintf("%s: %s picked: click a colour or press its number (click another state to change)", h.side, h.s.Problem().States[h.picked])
	}
	if h.note != "" {
		p += " · " + h.note
	}
	return p
}

func (h *mapcolorHuman) Action() (match.Action, error) {
	if h.move == nil {
		return nil, fmt.Errorf("pick a state, then a colour")
	}
	return *h.move, h.s.Check(h.side, *h.move)
}

func (h *mapcolorHuman) Done() bool { return h.move != nil }

// Suggest returns the first playable state, then its first colour.
func (h *mapcolorHuman) Suggest(r rect) (rect, bool) {
	if h.picked >= 0 {
		sw := h.swatches(r)
		if len(sw) == 0 {
			return rect{}, false
		}
		return sw[0], true
	}
	for st := range h.s.Problem().States { // the first in the course's order
		if len(h.legal[st]) > 0 {
			l := render.LayoutMap(h.s, r, h.pane)
			c, d := l.Centre(st), l.Radius()*0.6
			return rect{X: c.X - d, Y: c.Y - d, W: 2 * d, H: 2 * d}, true
		}
	}
	return rect{}, false
}
