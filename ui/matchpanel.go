package ui

import (
	"fmt"
	"image/color"
	"math"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/render"
)

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
		report                    reportKey
		variation                 string
		drill                     drillKey
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
	key.analysis = v.analysis.key(v.app.opts.Analyse)
	key.report = v.report.key()
	key.drill = v.drill.key()
	if vr := v.variation; vr != nil {
		key.variation = fmt.Sprint(vr.from, vr.first)
	}
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
	if !(st.compact && (v.app.opts.Analyse || v.app.opts.Thinking)) {
		v.drawer.Panel(c, rect{X: r.X, Y: y, W: r.W, H: gameH}, pb.rec, float64(shown), th)
		y += gameH + st.gap
	}
	if v.app.opts.Analyse {
		if v.variation != nil {
			y = v.drawVariation(c, st, r, y)
		} else {
			y = v.drawReportPanel(c, st, r, y, k)
		}
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
		note := t.Notes[side].Get().String()
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
		if t.Notes[side].Get() != nil {
			y = drawSaid(c, st, r, y, side, t.Notes[side].Get().Said)
		}
	}
	if v.app.opts.Thinking && (t.Notes[0].Get().Thought() || t.Notes[1].Get().Thought()) && y+c.LineHeight(st.small)+st.gap <= r.Y+r.H {
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
