package ui

import (
	"math"

	"github.com/arena-playground/arena/render"
)

// layout places everything for a screen of w x h device pixels. Wide
// screens get the panel beside the board, narrow ones below it.
func (v *matchView) layout(c render.Canvas, st style, w, h float64) {
	if st.compact {
		v.layoutCompact(c, st, w, h)
		return
	}
	screen := rect{W: w, H: h}
	v.top, screen = screen.CutTop(math.Round(48 * st.u))
	// The controls take one row; on a narrow screen the timeline gets a
	// row of its own above them.
	controlsW := 8*(st.rowH*1.25+st.gap) + c.TextWidth("0.25x", st.bold) + 4*st.pad + c.TextWidth("turn 0000 / 0000", st.text)
	narrow := w-controlsW < 220*st.u
	graphH := v.graphHeight(st)
	row := math.Round(60 * st.u)
	barH := row + graphH
	if narrow {
		barH = math.Round(100*st.u) + graphH
	}
	screen, v.bottom = screen.CutBottom(barH)
	v.layoutMiddle(st, screen, w, h)
	v.layoutActions(c, st, w, v.top.Y+(v.top.H-st.rowH)/2, false)
	// Bottom bar: transport, speed, then the timeline with the
	// evaluation graph under it.
	x := st.pad
	y := v.bottom.Y + (row-st.rowH)/2
	if narrow {
		y = v.bottom.Y + v.bottom.H - st.rowH - st.gap
	}
	x = v.placeRow(st, x, y, st.rowH*1.25, "first", "prev", "play", "next", "last")
	x = v.placeSpeed(c, st, x+st.pad, y, st.rowH*1.25)
	x += st.pad
	turnW := c.TextWidth("turn 0000 / 0000", st.text)
	if narrow {
		x, y = st.pad, v.bottom.Y+st.gap
	}
	v.timeline = rect{X: x + turnW + st.gap, Y: y, W: w - st.pad - (x + turnW + st.gap), H: st.rowH}
	v.graph = rect{X: v.timeline.X, Y: v.timeline.Y + v.timeline.H + st.gap/2, W: v.timeline.W, H: graphH - st.gap}
}

// graphHeight is the evaluation graph's band, a gap under it included:
// on a phone as tall as a finger, which taps a mark on it.
func (v *matchView) graphHeight(st style) float64 {
	if st.compact {
		return math.Round(44*st.u) + st.gap
	}
	return math.Round(30*st.u) + st.gap
}

// layoutCompact lays the view out for a phone held upright: the title
// above the actions, the board, the panel below it, then the timeline,
// the transport and the speed on rows of their own, every control a
// finger's size.
func (v *matchView) layoutCompact(c render.Canvas, st style, w, h float64) {
	screen := rect{W: w, H: h}
	v.top, screen = screen.CutTop(math.Round(c.LineHeight(st.bold) + st.rowH + 3*st.gap))
	graphH := v.graphHeight(st)
	screen, v.bottom = screen.CutBottom(3*st.rowH + 4*st.gap + graphH)
	v.layoutMiddle(st, screen, w, h)
	v.layoutActions(c, st, w, v.top.Y+v.top.H-st.rowH-st.gap, true)
	turnW := c.TextWidth("turn 0000 / 0000", st.text)
	y := v.bottom.Y + st.gap
	v.timeline = rect{X: st.pad + turnW + st.gap, Y: y, W: w - 2*st.pad - turnW - st.gap, H: st.rowH}
	v.graph = rect{X: v.timeline.X, Y: y + st.rowH + st.gap/2, W: v.timeline.W, H: graphH - st.gap}
	y += st.rowH + st.gap + graphH
	v.placeRow(st, st.pad, y, st.rowH, "first", "prev", "play", "next", "last")
	y += st.rowH + st.gap
	v.placeSpeed(c, st, st.pad, y, st.rowH)
}

// layoutMiddle splits what the bars leave between the board and the
// panel: side by side on a wide screen, the panel below on a tall one.
func (v *matchView) layoutMiddle(st style, screen rect, w, h float64) {
	panelW := math.Round(320 * st.u)
	if w >= h*1.15 && w-panelW > 300*st.u {
		v.boardR, v.panel = screen.CutRight(panelW)
	} else {
		v.boardR, v.panel = screen.CutBottom(math.Max(screen.H*0.42, 200*st.u))
	}
	v.boardR = v.boardR.Inset(st.pad)
	v.panel = v.panel.Inset(st.pad)
}

// layoutActions places the top bar's buttons at the right, at y; short
// labels them as they fit a phone.
func (v *matchView) layoutActions(c render.Canvas, st style, w, y float64, short bool) {
	labels := map[string]string{"new": "New seed", "restart": "Restart", "think": "Thinking", "analyse": "Analyse", "gif": "GIF", "link": "Copy link", "help": "?", "back": "Back"}
	ids := []string{"back", "help", "link", "gif", "analyse", "think", "restart", "new"}
	if short {
		// A phone's row holds seven: Restart is R's, and the timeline's.
		labels["new"], labels["link"], labels["think"], labels["analyse"] = "New", "Link", "Why", "Eval"
		ids = []string{"back", "help", "link", "gif", "analyse", "think", "new"}
		v.buttons["restart"].r = rect{}
	}
	if v.replay {
		ids = []string{"back", "help", "gif", "analyse", "think"}
		for _, id := range []string{"new", "restart", "link"} {
			v.buttons[id].r = rect{}
		}
	}
	x := w - st.pad
	for _, id := range ids {
		b := v.buttons[id]
		b.label = labels[id]
		bw := math.Max(st.rowH, c.TextWidth(b.label, st.bold)+2*st.pad)
		x -= bw
		b.r = rect{X: x, Y: y, W: bw, H: st.rowH}
		v.actionsX = x
		x -= st.gap
	}
	v.buttons["link"].enabled = v.app.opts.Platform != nil
	v.buttons["think"].active = v.app.opts.Thinking
	v.buttons["analyse"].active = v.app.opts.Analyse
}

// placeRow places buttons of width bw from x on the row at y and returns
// the x after them.
func (v *matchView) placeRow(st style, x, y, bw float64, ids ...string) float64 {
	for _, id := range ids {
		v.buttons[id].r = rect{X: x, Y: y, W: bw, H: st.rowH}
		x += bw + st.gap
	}
	return x
}

// placeSpeed places slower, the speed and faster from x and returns the x
// after them.
func (v *matchView) placeSpeed(c render.Canvas, st style, x, y, bw float64) float64 {
	x = v.placeRow(st, x, y, bw, "slower")
	label := c.TextWidth("0.25x", st.bold)
	v.speedX = x + label/2
	return v.placeRow(st, x+label+st.gap, y, bw, "faster")
}
