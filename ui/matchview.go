package ui

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/arena-playground/arena/engine/play"
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
	report                               gameReport
	evals                                evalGraph
	// variation is the line tried on the analysis board, nil when the
	// game is shown; backRow is where its "back to the game" is.
	variation *variation
	backRow   rect
	drill     drillRun
}

func newMatchView(app *App, setup play.Setup, moves [][2]json.RawMessage) (*matchView, error) {
	return newMatchViewOn(app, setup, moves, app.host)
}

// newMatchViewOn shows the match host computes (a replay's host feeds a
// finished match).
func newMatchViewOn(app *App, setup play.Setup, moves [][2]json.RawMessage, host Host) (*matchView, error) {
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
	v.analysis = analysisBoard{state: -1}
	return v, nil
}

// close stops the match.
func (v *matchView) close() {
	v.pb.stop()
	v.analysis.stop()
	v.report.stop()
	if v.drill.feed != nil {
		v.drill.feed.Stop()
	}
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
	case v.variation != nil && in.clicked && v.backRow.Contains(in.x, in.y):
		in.clicked = false
		v.leaveVariation()
	case v.canDrill() && in.clicked && v.drill.row.Contains(in.x, in.y):
		in.clicked = false
		k, _ := render.Moment(v.pb.rec, v.pb.t)
		if d, ok := v.decisionAt(k); ok {
			v.startDrill(d)
		}
	case v.app.opts.Analyse && in.clicked && v.panel.Contains(in.x, in.y) && v.clickReport(in.x, in.y):
		in.clicked = false
	case in.clicked && v.graph.Contains(in.x, in.y) && v.evals.report != nil:
		in.clicked = false
		if d, ok := v.evals.judgedNear(v.graph, v.pb.length(), in.x, 10*v.app.scale); ok {
			v.openDecision(d)
			break
		}
		v.pb.playing = false
		v.pb.seek(float64(int((in.x - v.graph.X) / v.graph.W * v.pb.length())))
	case in.clicked && v.graph.Contains(in.x, in.y):
		in.clicked = false
		turn := v.evals.dropNear(v.graph, v.pb.length(), in.x, 10*v.app.scale)
		if turn < 0 {
			turn = int((in.x - v.graph.X) / v.graph.W * v.pb.length())
		}
		v.pb.playing = false
		v.pb.seek(float64(turn))
	case v.app.opts.Analyse && in.clicked && v.boardR.Contains(in.x, in.y):
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
	case ebiten.KeyV:
		if err := v.tryPicked(); err != nil {
			v.app.toastf("%v", err)
		}
	case ebiten.KeyEscape:
		if v.variation != nil {
			v.leaveVariation()
			return
		}
		v.app.ask("Leave this match for the start view?", "Leave", v.app.showStart)
	}
}

// toggleThinking shows or hides what the bots thought, on the board and
// in the panel; the link and the GIF follow.
func (v *matchView) toggleThinking() {
	v.app.setLink(func(l *Link) { l.Thinking = !l.Thinking })
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
// once it is complete. It returns the time it took to follow the
// match's new turns.
func (v *matchView) update(in *input, dt float64) time.Duration {
	pb := v.pb
	start := time.Now()
	if err := pb.receiveFor(receiveBudget); err != nil {
		v.app.toastf("%v", err)
	}
	followed := time.Since(start)
	if !v.dragging { // the playhead stays where the pointer holds it
		pb.tick(dt)
	}
	v.evals.scan(pb.rec)
	v.updateAnalysis()
	v.updateReport()
	v.updateDrill()
	v.updateHuman()
	if v.human != nil && pb.atEnd() && v.human.Done() {
		v.send()
	}
	v.sped = false
	return followed
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
	if v.variation != nil { // rest on the position it leaves, analysed
		v.pb.hold = float64(v.asked.state.Turn() + 1)
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
	render.Layer(c, "top", barKey{title, v.hovered(in, actions...), st.u, v.top, v.buttons["link"].enabled, v.app.opts.Thinking, v.app.opts.Analyse}, v.top, func() {
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
		evals  [5]int
	}
	render.Layer(c, "graph", graphKey{graphR, st.u, pb.length(), v.evals.key(v.graph.W, pb.length())}, graphR, func() {
		c.Fill(graphR, th.Panel)
		v.evals.draw(c, st, v.graph, pb.length())
	})
	c.Fill(turnR, th.Panel)
	// What moves, over what stands still.
	v.drawer.Board(c, v.boardR, pb.rec, pb.t, th)
	switch a := &v.analysis; {
	case v.app.opts.Analyse && a.an != nil:
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
