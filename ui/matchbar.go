package ui

import (
	"fmt"
	"math"
	"slices"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/render"
)

// turnLabel says where the playhead is, in the room left of the
// timeline: the longest form that fits, so that a long match's numbers
// (and "live", while the playhead follows the newest turn) never run
// into the speed's buttons.
func turnLabel(c render.Canvas, f render.Face, turn, length int, live bool, room float64) string {
	forms := []string{fmt.Sprintf("turn %d / %d", turn, length), fmt.Sprintf("%d / %d", turn, length)}
	if live {
		forms = []string{"live · " + forms[0], "live · " + forms[1], forms[1]}
	}
	for _, s := range forms {
		if c.TextWidth(s, f) <= room {
			return s
		}
	}
	return forms[len(forms)-1]
}

// bottomRegions splits the bottom bar into the controls' region, the
// timeline's, and the strip beside the timeline that neither covers (on
// a narrow screen, where the timeline has a row of its own above the
// controls).
func (v *matchView) bottomRegions(st style) (controls, marks, graph, strip rect) {
	b, t, g := v.bottom, v.timeline, v.graph
	right := b.X + b.W
	gy := math.Round(g.Y - st.gap/4)
	if t.Y+t.H > v.buttons["play"].r.Y { // one row: the timeline, the graph under it, at the right
		return rect{X: b.X, Y: b.Y, W: t.X - b.X, H: b.H}, rect{X: t.X, Y: b.Y, W: right - t.X, H: gy - b.Y},
			rect{X: t.X, Y: gy, W: right - t.X, H: b.Y + b.H - gy}, rect{}
	}
	band := math.Round(g.Y + g.H + st.gap/2)
	return rect{X: b.X, Y: band, W: b.W, H: b.Y + b.H - band},
		rect{X: t.X, Y: b.Y, W: right - t.X, H: gy - b.Y},
		rect{X: t.X, Y: gy, W: right - t.X, H: band - gy},
		rect{X: b.X, Y: b.Y, W: t.X - b.X, H: band - b.Y}
}

// hovered returns the id of the button among ids under the pointer, for
// the keys of the layers that draw them.
func (v *matchView) hovered(in *input, ids ...string) string {
	for _, id := range ids {
		if b := v.buttons[id]; b.enabled && b.r.Contains(in.x, in.y) {
			return id
		}
	}
	return ""
}

// drawTimelineMarks draws the timeline's bar and the events on it, one
// mark a pixel column (the computed part is drawPlayhead's).
func (v *matchView) drawTimelineMarks(c render.Canvas, st style) {
	th, pb, r := st.th, v.pb, v.timeline
	track := v.track(st)
	at := func(t float64) float64 { return r.X + r.W*t/pb.length() }
	roundRect(c, track, track.H/2, th.Board)
	// One mark a pixel column, the weightiest event there: a session of
	// 30,000 ticks has thousands of events, and the timeline a few
	// hundred pixels.
	cols := map[int]render.Event{}
	var xs []int // the columns, left to right: the same frame whatever the map's order
	for _, e := range pb.events {
		x := int(math.Round(at(float64(e.Turn))))
		old, ok := cols[x]
		if !ok {
			xs = append(xs, x)
		}
		if !ok || eventWeight(e.Kind) > eventWeight(old.Kind) {
			cols[x] = e
		}
	}
	slices.Sort(xs)
	for _, x := range xs {
		e := cols[x]
		col, h := th.TextDim, r.H*0.25
		switch e.Kind {
		case render.EventCollision:
			col, h = th.Collision, r.H*0.2
		case render.EventLead:
			col, h = th.Text, r.H*0.35
			if e.Side != match.NoSide {
				col = th.Player[e.Side]
			}
		case render.EventForfeit:
			col, h = th.Collision, r.H*0.5
		case render.EventReplaced:
			col, h = th.Accent, r.H*0.3
		}
		c.Fill(rect{X: float64(x), Y: track.Y - h - st.lw, W: math.Max(1, st.lw*1.5), H: h}, col)
	}
}

// eventWeight orders the kinds of events for a timeline column that has
// several: a forfeit over a change of lead over the rest.
func eventWeight(k render.EventKind) int {
	switch k {
	case render.EventForfeit:
		return 4
	case render.EventLead:
		return 3
	case render.EventReplaced:
		return 2
	case render.EventCollision:
		return 1
	}
	return 0
}

// drawPlayhead draws the played part of the timeline and the playhead.
func (v *matchView) drawPlayhead(c render.Canvas, st style) {
	r := v.timeline
	track := v.track(st)
	x := r.X + r.W*v.pb.t/v.pb.length()
	// The computed part, drawn each frame: it grows while the match
	// streams in, and the marks' layer need not be drawn again for it.
	computed := r.W * v.pb.span() / v.pb.length()
	roundRect(c, rect{X: track.X, Y: track.Y, W: computed, H: track.H}, track.H/2, render.Mix(st.th.Board, st.th.TextDim, 0.5))
	c.Fill(rect{X: track.X, Y: track.Y, W: x - track.X, H: track.H}, st.th.Accent)
	if v.pb.rec.Result == nil && v.pb.failed == nil {
		// The live end: where the match's computing has got to; ⏭ goes
		// there and follows it.
		live := render.Point{X: r.X + r.W*v.pb.span()/v.pb.length(), Y: track.Y + track.H/2}
		col := st.th.TextDim
		if v.pb.live {
			col = st.th.Accent
		}
		c.Ring(live, math.Round(5*st.u), math.Max(1, 1.5*st.u), col)
	}
	c.Circle(render.Point{X: x, Y: track.Y + track.H/2}, math.Round(7*st.u), st.th.Text)
}

// track is the timeline's bar.
func (v *matchView) track(st style) rect {
	r := v.timeline
	return rect{X: r.X, Y: r.Y + r.H*0.55, W: r.W, H: math.Max(2, math.Round(6*st.u))}
}
