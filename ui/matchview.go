package ui

import (
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/render"
)

// matchView shows a match: the board, a side panel with the players, the
// game's figures and what the bots thought, and the playback controls
// with the timeline. A person plays through the game's Human controls.
type matchView struct {
	app *App
	pb  *playback
	// faults says, once the match is over, why each side lost games or
	// had moves replaced: a program's crash, with its last line.
	faults []string
	drawer render.Drawer
	human  Human    // the controls of the turn a person is playing
	asked  *request // the turn human was started for
	// replay: the match is a replay file's, played by whoever played it
	// (a ladder's two programs): its toolbar has no New seed, Restart or
	// link, which would start a match the page may not be able to play.
	replay bool
	// actionsX is where the top bar's buttons start: its title ends
	// before.
	actionsX float64

	// Layout, in device pixels.
	top, boardR, panel, bottom, timeline rect
	graph                                rect // the evaluation graph, under the timeline
	buttons                              map[string]*button
	order                                []string // buttons in drawing order
	speedX                               float64  // where the speed is written
	dragging                             bool
	dragLength                           float64 // the timeline's length when the drag began
	sped                                 bool    // a speed key acted this frame
	analysis                             analysisBoard
	evals                                evalGraph
}

func newMatchView(app *App, setup match.Setup, moves [][2]json.RawMessage) (*matchView, error) {
	return newMatchViewOn(app, setup, moves, app.host)
}

// newMatchViewOn shows the match host computes (a replay's host feeds a
// finished match).
func newMatchViewOn(app *App, setup match.Setup, moves [][2]json.RawMessage, host Host) (*matchView, error) {
	d, err := render.DrawerFor(setup.Game.Info().Name)
	if err != nil {
		return nil, err
	}
	pb, err := newPlayback(setup, moves, host)
	if err != nil {
		return nil, err
	}
	v := &matchView{app: app, pb: pb, drawer: d, buttons: map[string]*button{}}
	for _, b := range [][2]string{
		{"new", "New seed"}, {"restart", "Restart"}, {"think", "Thinking"}, {"analyse", "Analyse"}, {"gif", "GIF"}, {"link", "Copy link"}, {"help", "?"}, {"back", "Back"},
		{"first", ""}, {"prev", ""}, {"play", ""}, {"next", ""}, {"last", ""},
		{"slower", "−"}, {"faster", "+"}, {"send", "Send"},
	} {
		v.buttons[b[0]] = newButton(b[0], b[1])
		v.order = append(v.order, b[0])
	}
	for _, id := range []string{"first", "prev", "play", "next", "last"} {
		v.buttons[id].icon = id
	}
	v.buttons["send"].accent = true
	v.analysis = analysisBoard{on: app.opts.Analyse, state: -1}
	v.buttons["analyse"].active = v.analysis.on
	return v, nil
}

// close stops the match.
func (v *matchView) close() {
	v.pb.stop()
	v.analysis.stop()
}

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
	v.buttons["analyse"].active = v.analysis.on
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

// click handles the frame's click: the buttons, the timeline, the board
// of a person's turn.
func (v *matchView) click(in *input) {
	pb, b := v.pb, v.buttons
	v.updateHuman()
	switch {
	case b["play"].hit(in):
		pb.toggle()
	case b["prev"].hit(in):
		pb.step(-1)
	case b["next"].hit(in):
		pb.step(+1)
	case b["first"].hit(in):
		pb.playing = false
		pb.seek(0)
	case b["last"].hit(in):
		pb.end()
	case b["slower"].hit(in):
		pb.faster(-1)
	case b["faster"].hit(in):
		pb.faster(+1)
	case b["restart"].hit(in):
		pb.seek(0)
		pb.playing = true
	case b["new"].hit(in):
		v.app.newSeed()
	case b["think"].hit(in):
		v.toggleThinking()
	case b["analyse"].hit(in):
		v.toggleAnalysis()
	case b["gif"].hit(in):
		v.app.exportGIF(pb.rec)
	case b["link"].hit(in):
		v.app.copyLink()
	case b["back"].hit(in):
		v.app.showStart()
	case b["help"].hit(in):
		v.app.help = true
	case b["send"].hit(in):
		v.send()
	case v.human != nil && pb.atEnd() && in.clicked && v.boardR.Contains(in.x, in.y):
		in.clicked = false
		v.human.Click(in.x, in.y, v.boardR)
	case in.clicked && v.graph.Contains(in.x, in.y):
		in.clicked = false
		turn := v.evals.dropNear(v.graph, v.pb.length(), in.x, 10*v.app.scale)
		if turn < 0 {
			turn = int((in.x - v.graph.X) / v.graph.W * v.pb.length())
		}
		v.pb.playing = false
		v.pb.seek(float64(turn))
	case v.analysis.on && in.clicked && v.boardR.Contains(in.x, in.y):
		in.clicked = false
		v.clickAnalysis(in.x, in.y)
	}
	v.updateTimeline(in)
}

// humanKey offers a key to the controls of a person's turn and reports
// whether they used it (a colour's number, an arrow for a wall's side).
func (v *matchView) humanKey(k ebiten.Key) bool {
	v.updateHuman()
	return v.human != nil && v.pb.atEnd() && v.human.Key(k)
}

// key handles one key. Keys that leave the match ask first: a person's
// moves or a long computation would be lost to a slip of the finger.
func (v *matchView) key(k ebiten.Key) {
	pb := v.pb
	switch k {
	case ebiten.KeySpace:
		pb.toggle()
	case ebiten.KeyArrowLeft:
		pb.step(-1)
	case ebiten.KeyArrowRight:
		pb.step(+1)
	case ebiten.KeyComma:
		pb.stepLine(-1)
	case ebiten.KeyPeriod:
		pb.stepLine(+1)
	case ebiten.KeyHome:
		pb.playing = false
		pb.seek(0)
	case ebiten.KeyEnd:
		pb.end()
	case ebiten.KeyMinus, ebiten.KeyNumpadSubtract:
		pb.faster(-1)
		v.sped = true
	case ebiten.KeyEqual, ebiten.KeyNumpadAdd:
		pb.faster(+1)
		v.sped = true
	case ebiten.KeyR:
		pb.seek(0)
		pb.playing = true
	case ebiten.KeyT:
		v.toggleThinking()
	case ebiten.KeyA:
		v.toggleAnalysis()
	case ebiten.KeyG:
		v.app.exportGIF(pb.rec)
	case ebiten.KeyL:
		if !v.replay {
			v.app.copyLink()
		}
	case ebiten.KeyEnter, ebiten.KeyNumpadEnter:
		v.send()
	case ebiten.KeyN:
		if v.replay {
			return
		}
		v.app.ask("Leave this match for a new one with a new seed?", "New seed", v.app.newSeed)
	case ebiten.KeyEscape:
		v.app.ask("Leave this match for the start view?", "Leave", v.app.showStart)
	}
}

// toggleThinking shows or hides what the bots thought, on the board and
// in the panel; the link and the GIF follow.
func (v *matchView) toggleThinking() {
	o := &v.app.opts
	o.Thinking = !o.Thinking
	v.buttons["think"].active = o.Thinking
	v.shareSettings()
}

// shareSettings puts the view's settings (thinking, analysis) in the
// address bar, so that a copied link keeps them.
func (v *matchView) shareSettings() {
	if o := v.app.opts; o.Platform != nil {
		o.Platform.Share(o.Query(), false)
	}
}

// char handles the characters of keys that move between layouts, unless
// their key (Shift and = for +) already acted this frame.
func (v *matchView) char(r rune) {
	if v.sped {
		return
	}
	switch r {
	case '+':
		v.pb.faster(+1)
	case '-':
		v.pb.faster(-1)
	}
}

// receiveBudget is the time a frame gives to following the match's new
// turns; the rest wait for the next frames.
const receiveBudget = 8 * time.Millisecond

// update moves playback along by dt seconds and sends a person's move
// once it is complete.
func (v *matchView) update(in *input, dt float64) {
	pb := v.pb
	if err := pb.receiveFor(receiveBudget); err != nil {
		v.app.toastf("%v", err)
	}
	if !v.dragging { // the playhead stays where the pointer holds it
		pb.tick(dt)
	}
	v.evals.scan(pb.rec)
	v.updateAnalysis()
	v.updateHuman()
	if v.human != nil && pb.atEnd() && v.human.Done() {
		v.send()
	}
	v.sped = false
}

// updateTimeline seeks where the timeline is clicked or dragged.
// The timeline's scale is held while a drag lasts: a match whose length
// grows as it streams in would otherwise move the turn under a still
// pointer.
func (v *matchView) updateTimeline(in *input) {
	if in.clicked && v.timeline.Contains(in.x, in.y) {
		in.clicked, v.dragging, v.dragLength = false, true, v.pb.length()
	}
	if !in.down {
		v.dragging = false
	}
	if v.dragging {
		f := (in.x - v.timeline.X) / v.timeline.W
		v.pb.seek(math.Round(f * v.dragLength))
	}
}

// updateHuman keeps the controls of a person's turn: there while the
// match waits for the person, for the state it waits on.
func (v *matchView) updateHuman() {
	req, ok := v.pb.pending()
	if !ok {
		v.human, v.asked = nil, nil
		return
	}
	if v.asked == nil || v.asked.state.Turn() != req.state.Turn() || v.asked.side != req.side {
		v.human = humans[v.pb.setup.Game.Info().Name]()
		if pa, ok := v.human.(interface{ setPlayers([2]string) }); ok {
			pa.setPlayers(v.pb.rec.Players) // its board's layout depends on them
		}
		v.human.Start(req.state, req.side)
		v.asked = &req
	}
	v.buttons["send"].enabled = v.pb.atEnd()
}

// send sends the person's move, once the playhead is on the live turn and
// the move is legal.
func (v *matchView) send() {
	if v.human == nil || !v.pb.atEnd() {
		return
	}
	a, err := v.human.Action()
	if err == nil {
		err = v.pb.play(*v.asked, a)
	}
	if err != nil {
		v.app.toastf("%v", err)
		return
	}
	v.human, v.asked = nil, nil
	v.pb.playing = true
}

// draw draws the view. What stands still between frames is kept in
// layers (see render.Layer), each with the key of what it shows: a frame
// of a playing match reuses the bars, the panel and the timeline's marks,
// then draws the board's moving parts and the playhead; the screen
// redraws only where the result differs from the last frame.
func (v *matchView) draw(c render.Canvas, st style, in *input) {
	th := st.th
	pb := v.pb
	info := pb.setup.Game.Info()
	title := fmt.Sprintf("%s  ·  %s vs %s  ·  seed %d", info.Title, pb.rec.Players[0], pb.rec.Players[1], pb.setup.Seed)
	type barKey struct {
		title, hover   string
		u              float64
		r              rect
		link, thinking bool
		analysing      bool
	}
	actions := []string{"new", "restart", "think", "analyse", "gif", "link", "help", "back"}
	render.Layer(c, "top", barKey{title, v.hovered(in, actions...), st.u, v.top, v.buttons["link"].enabled, v.app.opts.Thinking, v.analysis.on}, v.top, func() {
		c.Fill(v.top, th.Panel)
		if st.compact {
			c.Text(fit(c, title, st.bold, v.top.W-2*st.pad), st.pad, v.top.Y+st.gap, st.bold, render.Left, th.Text)
		} else {
			c.Text(fit(c, title, st.bold, v.actionsX-2*st.pad), st.pad, v.top.Y+(v.top.H-c.LineHeight(st.bold))/2, st.bold, render.Left, th.Text)
		}
		for _, id := range actions {
			if v.buttons[id].r != (rect{}) {
				v.buttons[id].draw(c, st, in)
			}
		}
	})

	v.drawPanel(c, st, in)

	v.buttons["play"].icon = "play"
	if pb.playing {
		v.buttons["play"].icon = "pause"
	}
	transport := []string{"first", "prev", "play", "next", "last", "slower", "faster"}
	// The controls and the timeline's marks are layers of their own: the
	// marks change with every turn computed, the controls with a click.
	controls, marks, graphR, turnR := v.bottomRegions(st)
	type controlsKey struct {
		hover   string
		u       float64
		r       rect
		playing bool
		speed   int
	}
	render.Layer(c, "controls", controlsKey{v.hovered(in, transport...), st.u, controls, pb.playing, pb.speed}, controls, func() {
		c.Fill(controls, th.Panel)
		for _, id := range transport {
			v.buttons[id].draw(c, st, in)
		}
		speed := v.buttons["slower"].r
		c.Text(fmt.Sprintf("%gx", speeds[pb.speed]), v.speedX, speed.Y+(speed.H-c.LineHeight(st.bold))/2, st.bold, render.Center, th.Text)
	})
	type marksKey struct {
		r         rect
		u, length float64
		events    int
	}
	render.Layer(c, "marks", marksKey{marks, st.u, pb.length(), len(pb.events)}, marks, func() {
		c.Fill(marks, th.Panel)
		v.drawTimelineMarks(c, st)
	})
	type graphKey struct {
		r      rect
		u      float64
		length float64
		evals  [4]int
	}
	render.Layer(c, "graph", graphKey{graphR, st.u, pb.length(), v.evals.key(v.graph.W, pb.length())}, graphR, func() {
		c.Fill(graphR, th.Panel)
		v.evals.draw(c, st, v.graph, pb.length())
	})
	c.Fill(turnR, th.Panel)
	// What moves, over what stands still.
	v.drawer.Board(c, v.boardR, pb.rec, pb.t, th)
	switch a := &v.analysis; {
	case a.on && a.an != nil:
		render.DrawAnalysis(c, v.boardR, pb.rec, a.state, a.an, a.pick(), th)
	case v.app.opts.Thinking:
		render.DrawThinking(c, v.boardR, pb.rec, pb.t, th)
	}
	if v.human != nil && pb.atEnd() {
		v.human.Draw(c, v.boardR, th)
	}
	left := turnR.X + st.gap // the strip beside the timeline, or after the speed's buttons on one row
	if turnR.W == 0 {
		f := v.buttons["faster"].r
		left = f.X + f.W + st.gap
	}
	turn := turnLabel(c, st.text, int(math.Floor(pb.t)), int(pb.length()), pb.live, v.timeline.X-st.gap-left)
	c.Text(turn, v.timeline.X-st.gap, v.timeline.Y+(v.timeline.H-c.LineHeight(st.text))/2, st.text, render.Right, th.TextDim)
	v.drawPlayhead(c, st)
}

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

// drawPanel draws the players, the game's figures, the bots' notes and
// the person's prompt.
func (v *matchView) drawPanel(c render.Canvas, st style, in *input) {
	pb := v.pb
	// The panel shows whole turns: the state the board settles on, the
	// notes of the turn played from it.
	k, _ := render.Moment(pb.rec, pb.t)
	shownK := render.Shown(pb.rec, pb.t)
	type panelKey struct {
		r                         rect
		u                         float64
		k, shown                  int
		played, ended, asked, hot bool
		thinking                  bool
		prompt, failed            string
		analysis                  analysisKey
	}
	key := panelKey{r: v.panel, u: st.u, k: k, shown: shownK, played: k < len(pb.rec.Turns),
		ended: pb.rec.Result != nil && pb.atEnd(), asked: v.human != nil, thinking: v.app.opts.Thinking}
	if v.human != nil {
		key.prompt = v.human.Prompt()
		if !pb.atEnd() {
			key.prompt = ""
		}
		b := v.buttons["send"]
		key.hot = b.enabled && b.r.Contains(in.x, in.y)
	}
	if pb.failed != nil {
		key.failed = pb.failed.Error()
	}
	key.analysis = v.analysis.key()
	render.Layer(c, "panel", key, v.panel, func() { v.drawPanelNow(c, st, k, shownK) })
}

// drawPanelNow draws the panel for the turn played from state k, the
// board showing state shown.
func (v *matchView) drawPanelNow(c render.Canvas, st style, k, shown int) {
	th, pb, r := st.th, v.pb, v.panel
	roundRect(c, r, st.radius, th.Panel)
	r = r.Inset(st.pad)
	scores := pb.rec.Standing(min(k, pb.rec.Len()-1)).Scores
	y := r.Y
	for _, side := range match.Sides {
		c.Fill(rect{X: r.X, Y: y + 3*st.u, W: 6 * st.u, H: c.LineHeight(st.bold) - 6*st.u}, th.Player[side])
		c.Text(fit(c, fmt.Sprintf("%s  %s", side, pb.rec.Players[side]), st.bold, r.W*0.7), r.X+14*st.u, y, st.bold, render.Left, th.Player[side])
		c.Text(scores[side].String(), r.X+r.W, y, st.bold, render.Right, th.Text)
		y += c.LineHeight(st.bold) + st.gap/2
	}
	y += st.gap
	// The drawer sizes its text from the band it gets: a wide band (banks
	// beside the chart) is kept low so that its text matches the panel's.
	gameH := 150 * st.u
	if r.W > 450*st.u {
		gameH = 90 * st.u
	}
	gameH = math.Round(math.Min(gameH, r.H*0.45))
	// A phone's panel is short: the analysis and the thinking layer take
	// the game's band, so that their lines and their legends show.
	if !(st.compact && (v.analysis.on || v.app.opts.Thinking)) {
		v.drawer.Panel(c, rect{X: r.X, Y: y, W: r.W, H: gameH}, pb.rec, float64(shown), th)
		y += gameH + st.gap
	}
	if v.analysis.on {
		y = v.drawAnalysisPanel(c, st, r, y)
	} else {
		y = v.drawNotes(c, st, r, y, k)
	}
	if res := pb.rec.Result; res != nil && pb.atEnd() {
		col := th.Text
		if res.Winner != match.NoSide {
			col = th.Player[res.Winner]
		}
		y = wrapText(c, res.String(), r.X, y+st.gap, r.W, st.bold, col)
		for _, f := range v.endFaults() {
			y = wrapText(c, f, r.X, y+st.gap/2, r.W, st.small, th.Collision)
		}
	}
	if v.human != nil {
		v.drawPrompt(c, st, r, y)
	}
}

// endFaults are the reasons of the match's forfeits and of the first
// move replaced for each side, once it is over: worked out once.
func (v *matchView) endFaults() []string {
	rec := v.pb.rec
	if rec.Result == nil || v.faults != nil {
		return v.faults
	}
	v.faults = []string{}
	for _, f := range rec.Result.Forfeits {
		v.faults = append(v.faults, fmt.Sprintf("%s forfeited at turn %d: %s", f.Side, f.Turn, f.Reason))
	}
	rp := rec.Replacements()
	for _, side := range match.Sides {
		switch n := rp.Replaced[side]; {
		case n == 1:
			v.faults = append(v.faults, fmt.Sprintf("%s's move at turn %d was replaced: %s", side, rp.ReplacedAt[side], rp.ReplacedWhy[side]))
		case n > 1:
			v.faults = append(v.faults, fmt.Sprintf("%s: %d moves replaced, the first at turn %d: %s", side, n, rp.ReplacedAt[side], rp.ReplacedWhy[side]))
		}
	}
	return v.faults
}

// drawNotes writes what each bot reported for the turn played from state
// k, and returns the y below them.
func (v *matchView) drawNotes(c render.Canvas, st style, r rect, y float64, k int) float64 {
	th, pb := st.th, v.pb
	if k >= len(pb.rec.Turns) {
		switch {
		case pb.failed != nil:
			y = wrapText(c, pb.failed.Error(), r.X, y, r.W, st.small, th.Collision)
		case pb.rec.Result == nil && v.human == nil:
			c.Text("thinking…", r.X, y, st.small, render.Left, th.TextDim)
			y += c.LineHeight(st.small)
		}
		return y
	}
	c.Text(fmt.Sprintf("what the bots thought at turn %d", k), r.X, y, st.small, render.Left, th.TextDim)
	y += c.LineHeight(st.small) + st.gap/2
	t := pb.rec.Turns[k]
	for _, side := range match.Sides {
		note := t.Notes[side].String()
		if note == "" {
			note = "—"
		}
		if t.Replaced[side] != "" {
			note = "replaced: " + t.Replaced[side]
		}
		line := fmt.Sprintf("%s (%.1f ms): %s", side, float64(t.Think[side].Microseconds())/1000, note)
		if st.compact && v.app.opts.Thinking {
			// A phone's panel is short: one line of the note leaves
			// room for the candidates and the legend.
			c.Text(fit(c, line, st.mono, r.W), r.X, y, st.mono, render.Left, th.Text)
			y += c.LineHeight(st.mono) + st.gap/2
		} else {
			y = wrapText(c, line, r.X, y, r.W, st.mono, th.Text) + st.gap/2
		}
		if v.app.opts.Thinking {
			top := shownCandidates
			if st.compact {
				top = 3 // a phone's panel is short
			}
			for _, l := range render.ThinkingLines(pb.rec, k, side, top) {
				if y+2*c.LineHeight(st.small) > r.Y+r.H {
					break // the rest would spill out of the panel
				}
				y = wrapText(c, l, r.X+st.pad, y, r.W-st.pad, st.small, th.Player[side])
			}
		}
		if t.Notes[side] != nil {
			y = drawSaid(c, st, r, y, side, t.Notes[side].Said)
		}
	}
	if v.app.opts.Thinking && (t.Notes[0].Thought() || t.Notes[1].Thought()) && y+c.LineHeight(st.small)+st.gap <= r.Y+r.H {
		y = v.drawMarkLegend(c, st, r, y, k)
	}
	return y
}

// drawMarkLegend writes the thinking layer's legend: the value scale,
// then for each bot whose marks show, what they stand for and their
// unit, in its colour.
func (v *matchView) drawMarkLegend(c render.Canvas, st style, r rect, y float64, k int) float64 {
	th := st.th
	h := c.LineHeight(st.small)
	x := render.DrawScaleLegend(c, r.X, y+st.gap/2, h, st.small, th)
	c.Text("  each bot's options, worst to best", x, y+st.gap/2, st.small, render.Left, th.TextDim)
	y += h + st.gap
	if !st.compact {
		y = wrapText(c, "white ring: the move it chose; numbers: the line it expects, each move in its player's colour", r.X, y, r.W, st.small, th.TextDim)
	}
	for _, side := range match.Sides {
		legend := render.MarkLegend(v.pb.rec, k, side)
		if legend == "" || y+h > r.Y+r.H {
			continue
		}
		y = wrapText(c, legend, r.X, y, r.W, st.small, th.Player[side])
	}
	return y + st.gap/2
}

// shownCandidates is how many of a bot's candidates the panel lists.
const shownCandidates = 5

// shownSaid is how many of the lines a program wrote in a move the panel
// shows; the replay keeps the rest.
const shownSaid = 8

// drawSaid writes the lines side's program wrote while it chose the move
// (a student's prints), one screen line each, and returns the y below.
func drawSaid(c render.Canvas, st style, r rect, y float64, side match.Side, said []string) float64 {
	if len(said) == 0 {
		return y
	}
	c.Text(fmt.Sprintf("%s wrote:", side), r.X, y, st.small, render.Left, st.th.TextDim)
	y += c.LineHeight(st.small)
	for i, s := range said {
		if i == shownSaid {
			s = fmt.Sprintf("(%d lines more: in the replay)", len(said)-shownSaid)
		}
		c.Text(fit(c, s, st.mono, r.W-st.pad), r.X+st.pad, y, st.mono, render.Left, st.th.Player[side])
		y += c.LineHeight(st.mono)
		if i == shownSaid {
			break
		}
	}
	return y + st.gap/2
}

// drawPrompt shows a person's turn: what to do, and the Send button.
func (v *matchView) drawPrompt(c render.Canvas, st style, r rect, y float64) {
	th := st.th
	y += st.gap
	msg := v.human.Prompt()
	if !v.pb.atEnd() {
		msg = "Your move: press End to go to the current turn"
	}
	y = wrapText(c, msg, r.X, y, r.W, st.text, th.Accent) + st.gap
	b := v.buttons["send"]
	b.r = rect{X: r.X, Y: y, W: c.TextWidth("Send", st.bold) + 4*st.pad, H: st.rowH}
	b.draw(c, st, &v.app.in)
}

// wrapText writes s in lines no wider than w and returns the y below.
func wrapText(c render.Canvas, s string, x, y, w float64, f render.Face, col color.RGBA) float64 {
	return render.Wrap(c, s, x, y, w, f, col)
}
