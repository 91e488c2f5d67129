package ui

import (
	"image/color"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/render"
)

// rect is the UI's rectangle, in device pixels.
type rect = render.Rect

// style holds the theme and the sizes at the current zoom: u is one unit
// (a CSS pixel at zoom 1) in device pixels, so that text stays sharp on
// high-DPI screens and everything scales with the window.
type style struct {
	u                          float64
	th                         *render.Theme
	text, small, bold, title   render.Face
	mono, big                  render.Face
	pad, gap, rowH, radius, lw float64
	// compact is a phone's layout: controls a finger's size (44 CSS
	// pixels), views stacked.
	compact bool
}

// minText is the smallest text, in CSS pixels.
const minText = 11

// newStyle makes the style at u device pixels a unit, on a screen of dpr
// device pixels a CSS pixel.
func newStyle(u, dpr float64, compact bool, th *render.Theme) style {
	f := func(size float64, s render.Style) render.Face {
		return render.Face{Size: math.Round(math.Max(size*u, minText*dpr)), Style: s}
	}
	st := style{u: u, th: th, compact: compact,
		text: f(14, render.Regular), small: f(12, render.Regular), bold: f(14, render.Bold),
		title: f(22, render.Bold), mono: f(12, render.Mono), big: f(30, render.Bold),
		pad: math.Round(12 * u), gap: math.Round(8 * u), rowH: math.Round(32 * u),
		radius: math.Round(6 * u), lw: math.Max(1, math.Round(u)),
	}
	if compact {
		st.rowH, st.pad, st.gap = math.Round(44*u), math.Round(8*u), math.Round(6*u)
	}
	return st
}

// roundRect fills a rectangle with rounded corners, snapped to whole
// pixels: three rectangles and four quarter discs that do not overlap, so
// that a translucent colour is laid once everywhere. The corners are small
// shapes the canvas caches by size, the same for a bar of any length: one
// polygon of the whole rectangle was a new mask, up to a panel's size, to
// rasterise and upload for each length (a match's computed bar grows every
// frame) and filled the screen canvas's atlases on a page's first frame.
func roundRect(c render.Canvas, r rect, radius float64, col color.RGBA) {
	x0, y0, x1, y1 := math.Round(r.X), math.Round(r.Y), math.Round(r.X+r.W), math.Round(r.Y+r.H)
	rad := math.Min(math.Round(radius), math.Min(math.Floor((x1-x0)/2), math.Floor((y1-y0)/2)))
	if rad < 1 {
		c.Fill(r, col)
		return
	}
	c.Fill(rect{X: x0 + rad, Y: y0, W: x1 - x0 - 2*rad, H: y1 - y0}, col)
	c.Fill(rect{X: x0, Y: y0 + rad, W: rad, H: y1 - y0 - 2*rad}, col)
	c.Fill(rect{X: x1 - rad, Y: y0 + rad, W: rad, H: y1 - y0 - 2*rad}, col)
	quarterDisc(c, render.Point{X: x1 - rad, Y: y0 + rad}, rad, -math.Pi/2, col)
	quarterDisc(c, render.Point{X: x1 - rad, Y: y1 - rad}, rad, 0, col)
	quarterDisc(c, render.Point{X: x0 + rad, Y: y1 - rad}, rad, math.Pi/2, col)
	quarterDisc(c, render.Point{X: x0 + rad, Y: y0 + rad}, rad, math.Pi, col)
}

// quarterDisc fills the quarter of the disc about o, radius rad, from the
// angle a0 clockwise on screen: a polygon of its centre and an arc.
func quarterDisc(c render.Canvas, o render.Point, rad, a0 float64, col color.RGBA) {
	const seg = 8
	var pts [seg + 2]render.Point
	pts[0] = o
	for i := 0; i <= seg; i++ {
		a := a0 + math.Pi/2*float64(i)/seg
		pts[i+1] = render.Point{X: o.X + rad*math.Cos(a), Y: o.Y + rad*math.Sin(a)}
	}
	c.Polygon(pts[:], col)
}

// button is a clickable label. Its rect is set by the view's layout.
type button struct {
	id      string
	label   string
	r       rect
	enabled bool
	active  bool        // shown pressed: a selected choice, a running toggle
	accent  bool        // the main action of its view
	colour  *color.RGBA // an accent of its own (a player's colour)
	icon    string      // drawn instead of the label: first, prev, play, pause, next, last
}

func newButton(id, label string) *button { return &button{id: id, label: label, enabled: true} }

// hit reports whether the button was clicked this frame.
func (b *button) hit(in *input) bool { return b.enabled && in.click(b.r) }

func (b *button) draw(c render.Canvas, st style, in *input) {
	th := st.th
	bg, fg := th.Panel, th.Text
	hover := b.enabled && b.r.Contains(in.x, in.y)
	switch {
	case !b.enabled:
		fg = th.TextDim
	case b.active && b.colour != nil:
		bg, fg = *b.colour, th.Background
	case b.active || b.accent:
		bg, fg = th.Accent, th.Background
	case hover:
		bg = render.Mix(th.Panel, th.TextDim, 0.25)
	}
	if hover && (b.active || b.accent) {
		bg = render.Mix(bg, th.Mark, 0.2)
	}
	roundRect(c, b.r, st.radius, bg)
	if b.icon != "" {
		drawIcon(c, b.icon, b.r, st, fg)
		return
	}
	face := st.text
	if b.active || b.accent {
		face = st.bold
	}
	label := fit(c, b.label, face, b.r.W-st.gap)
	c.Text(label, b.r.X+b.r.W/2, b.r.Y+(b.r.H-c.LineHeight(face))/2, face, render.Center, fg)
}

// fit shortens s with an ellipsis until it fits in width w.
func fit(c render.Canvas, s string, f render.Face, w float64) string { return render.Fit(c, s, f, w) }

// chips is a row of buttons of which one is chosen.
type chips struct {
	items  []*button
	chosen int
}

func newChips(ids, labels []string) *chips {
	ch := &chips{}
	for i, id := range ids {
		ch.items = append(ch.items, newButton(id, labels[i]))
	}
	return ch
}

// layout places the chips in a row starting at (x, y), wrapping at maxX,
// and returns the bottom of the last row.
func (ch *chips) layout(c render.Canvas, st style, x, y, maxX float64) float64 {
	cx := x
	for _, b := range ch.items {
		w := c.TextWidth(b.label, st.bold) + 2*st.pad
		if cx+w > maxX && cx > x {
			cx, y = x, y+st.rowH+st.gap
		}
		b.r = rect{X: cx, Y: y, W: w, H: st.rowH}
		cx += w + st.gap
	}
	return y + st.rowH
}

// update chooses a clicked chip and reports whether the choice changed.
func (ch *chips) update(in *input) bool {
	for i, b := range ch.items {
		if b.hit(in) && i != ch.chosen {
			ch.chosen = i
			return true
		}
	}
	return false
}

func (ch *chips) draw(c render.Canvas, st style, in *input) {
	for i, b := range ch.items {
		b.active = i == ch.chosen
		b.draw(c, st, in)
	}
}

// choose selects the chip with the given id, if there is one.
func (ch *chips) choose(id string) bool {
	for i, b := range ch.items {
		if b.id == id {
			ch.chosen = i
			return true
		}
	}
	return false
}

func (ch *chips) id() string { return ch.items[ch.chosen].id }

// field is a one-line text entry for digits (the seed).
type field struct {
	r       rect
	value   string
	focused bool
	max     int
}

// click focuses the field when the click lands on it, and leaves it when
// the click lands elsewhere.
func (f *field) click(in *input) {
	if in.clicked {
		f.focused = f.r.Contains(in.x, in.y)
		if f.focused {
			in.clicked = false
		}
	}
}

// typed takes a typed character: digits only.
func (f *field) typed(r rune) {
	if r >= '0' && r <= '9' && len(f.value) < f.max {
		f.value += string(r)
	}
}

// key takes an editing key and reports whether it used it: Backspace
// erases, Esc leaves the field, and the digits' own keys are the typed
// characters'.
func (f *field) key(k ebiten.Key) bool {
	switch {
	case k == ebiten.KeyBackspace:
		if f.value != "" {
			f.value = f.value[:len(f.value)-1]
		}
	case k == ebiten.KeyEscape:
		f.focused = false
	case k >= ebiten.KeyDigit0 && k <= ebiten.KeyDigit9, k >= ebiten.KeyNumpad0 && k <= ebiten.KeyNumpad9:
	default:
		return false
	}
	return true
}

func (f *field) draw(c render.Canvas, st style) {
	th := st.th
	roundRect(c, f.r, st.radius, th.Board)
	if f.focused {
		c.Stroke(f.r, st.lw, th.Accent)
	}
	ty := f.r.Y + (f.r.H-c.LineHeight(st.text))/2
	c.Text(strings.TrimSpace(f.value), f.r.X+st.gap, ty, st.text, render.Left, th.Text)
	if f.focused {
		x := f.r.X + st.gap + c.TextWidth(f.value, st.text) + st.lw
		c.Fill(rect{X: x, Y: ty, W: st.lw, H: c.LineHeight(st.text)}, th.Accent)
	}
}

// drawIcon draws a transport icon centred in r: the fonts have no arrows.
func drawIcon(c render.Canvas, name string, r rect, st style, col color.RGBA) {
	s := math.Round(r.H * 0.34) // half the icon's height
	cx, cy := r.X+r.W/2, r.Y+r.H/2
	tri := func(x0, dir float64) { // a triangle pointing right (dir 1) or left (-1) from x0
		c.Polygon([]render.Point{{X: x0, Y: cy - s}, {X: x0 + dir*s*1.5, Y: cy}, {X: x0, Y: cy + s}}, col)
	}
	bar := func(x float64) { c.Fill(rect{X: x, Y: cy - s, W: math.Max(2, math.Round(s*0.45)), H: 2 * s}, col) }
	switch name {
	case "play":
		tri(cx-s*0.6, 1)
	case "pause":
		bar(cx - s*0.7)
		bar(cx + s*0.25)
	case "next":
		tri(cx-s*0.75, 1)
	case "prev":
		tri(cx+s*0.75, -1)
	case "last":
		tri(cx-s*1.0, 1)
		bar(cx + s*0.55)
	case "first":
		tri(cx+s*1.0, -1)
		bar(cx - s*0.55 - math.Max(2, math.Round(s*0.45)))
	}
}

// confirm is a question over the window that must be answered before
// anything else: leaving a match by a key asks it first.
type confirm struct {
	question string
	yes, no  *button
	card     rect
	do       func()
}

func (q *confirm) layout(c render.Canvas, st style, w, h float64) {
	bw := math.Max(c.TextWidth(q.yes.label, st.bold), c.TextWidth(q.no.label, st.bold)) + 4*st.pad
	cw := math.Min(w-2*st.pad, math.Max(c.TextWidth(q.question, st.text)+4*st.pad, 2*bw+3*st.pad))
	ch := c.LineHeight(st.text) + st.rowH + 3*st.pad
	q.card = rect{X: (w - cw) / 2, Y: (h - ch) / 2, W: cw, H: ch}
	y := q.card.Y + q.card.H - st.pad - st.rowH
	q.no.r = rect{X: q.card.X + q.card.W - st.pad - bw, Y: y, W: bw, H: st.rowH}
	q.yes.r = rect{X: q.no.r.X - st.gap - bw, Y: y, W: bw, H: st.rowH}
}

// click answers the question by its buttons; a click elsewhere does
// nothing.
func (q *confirm) click(a *App, in *input) {
	switch {
	case q.yes.hit(in):
		q.answer(a, true)
	case q.no.hit(in):
		q.answer(a, false)
	}
	in.clicked = false
}

// key answers by key: Enter or Y for yes, Esc or N for no; other keys
// wait for the answer.
func (q *confirm) key(a *App, k ebiten.Key) {
	switch k {
	case ebiten.KeyEnter, ebiten.KeyNumpadEnter, ebiten.KeyY:
		q.answer(a, true)
	case ebiten.KeyEscape, ebiten.KeyN:
		q.answer(a, false)
	}
}

func (q *confirm) answer(a *App, yes bool) {
	a.confirm = nil
	if yes {
		q.do()
	}
}

func (q *confirm) draw(c render.Canvas, st style, in *input) {
	th := st.th
	roundRect(c, q.card, st.radius*2, render.Mix(th.Panel, th.Accent, 0.15))
	c.Stroke(q.card, st.lw, th.Accent)
	c.Text(fit(c, q.question, st.text, q.card.W-2*st.pad), q.card.X+st.pad, q.card.Y+st.pad, st.text, render.Left, th.Text)
	q.yes.draw(c, st, in)
	q.no.draw(c, st, in)
}
