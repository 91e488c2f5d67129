package ui

import (
	"encoding/json"
	"fmt"
	"image/color"
	"math"

	"github.com/arena-playground/arena/analysis"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/internal/plural"
	"github.com/arena-playground/arena/render"
)

// gameReport is the report of a finished match beside the analysis
// board: asked of the host (the page's worker, the window's goroutine)
// once the match is over and the board is open, every decision judged
// in expected points. The evaluation graph draws it and marks its
// inaccuracies, mistakes and blunders; the panel lists them, and a
// click on one opens the board there, on the move played and what
// refutes it.
type gameReport struct {
	feed     Feed
	r        *analysis.Report
	done, of int
	err      string
	asked    bool
	// lines are where the panel wrote each listed decision last frame,
	// for clicks.
	lines []reportLine
}

type reportLine struct {
	r rect
	d analysis.Decision
}

// stop ends the report's computation and forgets it.
func (g *gameReport) stop() {
	if g.feed != nil {
		g.feed.Stop()
	}
	*g = gameReport{}
}

// updateReport asks for the report once the board is open on a finished
// match, and takes its messages as they come.
func (v *matchView) updateReport() {
	g, rec := &v.report, v.pb.rec
	if !v.app.opts.Analyse || !v.app.opts.Reports || v.variation != nil {
		return // a variation is not the game the report judges
	}
	if !g.asked && rec.Result != nil {
		g.asked = true
		v.startReport()
	}
	if g.feed == nil {
		return
	}
	for _, m := range messages(g.feed, func(err error) { g.err = err.Error() }) {
		switch m.Kind {
		case play.MsgReporting:
			g.done, g.of = m.Turn, m.Of
		case play.MsgReport:
			var r analysis.Report
			if err := json.Unmarshal(m.Report, &r); err != nil {
				g.err = err.Error()
				continue
			}
			g.r = &r
			v.evals.report = &r
			if a := &v.analysis; a.picked == "" {
				v.pickHere(g.judgedAt(a.state))
			}
			g.feed.Stop()
			g.feed = nil
			return
		case play.MsgError:
			g.err = m.Error
		}
	}
}

// startReport asks the host for the report of the match's moves.
func (v *matchView) startReport() {
	rec := v.pb.rec
	moves, err := movesTo(rec, len(rec.Turns))
	if err == nil {
		v.report.feed, err = v.ask(v.pb.setup, moves, func(st *play.Start) { st.Report = &play.ReportRequest{} })
	}
	if err != nil {
		v.report.err = err.Error()
	}
}

// reportKey is what the panel shows of the report: drawn again when it
// changes.
type reportKey struct {
	done, of int
	ready    bool
	err      string
}

func (g *gameReport) key() reportKey {
	return reportKey{g.done, g.of, g.r != nil, g.err}
}

// drawReportPanel writes the report in the panel from y: each side's
// accuracy and count of judgements, then the moves about the playhead's
// turn k, each with its judgement, that turn's highlighted; it returns
// the y below.
func (v *matchView) drawReportPanel(c render.Canvas, st style, r rect, y float64, k int) float64 {
	th, g := st.th, &v.report
	g.lines = g.lines[:0]
	h := c.LineHeight(st.small)
	switch {
	case g.err != "":
		return wrapText(c, "report: "+g.err, r.X, y, r.W, st.small, th.Collision)
	case g.r == nil && v.pb.rec.Result == nil:
		return y
	case g.r == nil:
		c.Text(fmt.Sprintf("report: judging decision %d of %d…", g.done, g.of), r.X, y, st.small, render.Left, th.TextDim)
		return y + h + st.gap
	}
	rep := g.r
	for side, s := range rep.Sides {
		line := fmt.Sprintf("%s accuracy %.0f%%", match.Side(side), s.Accuracy)
		for _, c := range []struct {
			n         int
			one, many string
		}{{s.Blunders, "blunder", "blunders"}, {s.Mistakes, "mistake", "mistakes"}, {s.Inaccuracies, "inaccuracy", "inaccuracies"}} {
			if c.n > 0 {
				line += " · " + plural.Of(c.n, c.one, c.many)
			}
		}
		c.Text(fit(c, line, st.small, r.W), r.X, y, st.small, render.Left, th.Player[side])
		y += h
	}
	// The moves about the playhead, each with its judgement: a few before
	// it, the rest after.
	shown := reportLines
	if st.compact {
		shown = reportLinesCompact
	}
	moves := rep.Decisions
	at := 0
	for at < len(moves) && moves[at].Turn < k {
		at++
	}
	from := max(0, min(at-shown/3, len(moves)-shown))
	rowH := h // a line a row; on a phone a row a finger can tap
	if st.compact {
		rowH = math.Max(h, st.rowH)
	}
	for _, d := range moves[from:min(len(moves), from+shown)] {
		row := rect{X: r.X, Y: y, W: r.W, H: rowH}
		if d.Turn == k {
			c.Fill(rect{X: r.X - st.gap/4, Y: y, W: r.W + st.gap/2, H: rowH}, render.Alpha(th.Accent, 0.18))
		}
		c.Text(fit(c, moveLine(d), st.small, r.W), r.X, y+(rowH-h)/2, st.small, render.Left, labelColour(th, d.Label))
		g.lines = append(g.lines, reportLine{row, d})
		y += rowH
	}
	return v.drawDrill(c, st, r, y+st.gap/2, k) + st.gap/2
}

// moveLine is a move as the panel's list gives it: its turn, side and
// name, and its judgement: "best", "good" (less than an inaccuracy
// lost), or the label, what it lost and the best option.
func moveLine(d analysis.Decision) string {
	exact := ""
	if d.Exact {
		exact = ", exact"
	}
	switch {
	case d.Label != "":
		return fmt.Sprintf("%d %s %s: %s −%.2f%s (best %s)", d.Turn, d.Side, d.Move, d.Label, d.Lost, exact, d.Best)
	case d.Lost < 0.005:
		return fmt.Sprintf("%d %s %s: best%s", d.Turn, d.Side, d.Move, exact)
	}
	return fmt.Sprintf("%d %s %s: good −%.2f%s (best %s)", d.Turn, d.Side, d.Move, d.Lost, exact, d.Best)
}

// reportLines is how many moves the panel lists at once (a phone's
// panel, reportLinesCompact): those about the playhead.
const (
	reportLines        = 6
	reportLinesCompact = 3
)

// labelColour is a judgement's colour: a blunder the warning's, a
// mistake fainter, an inaccuracy and a good move the panel's dim text.
func labelColour(th *render.Theme, label string) color.RGBA {
	switch label {
	case "blunder":
		return th.Collision
	case "mistake":
		return render.Alpha(th.Collision, 0.75)
	}
	return th.TextDim
}

// clickReport opens the board on the decision clicked in the panel's
// list, if one was: the playhead there, the move played picked, so that
// the board shows what refutes it. It says whether a line was hit.
func (v *matchView) clickReport(x, y float64) bool {
	for _, l := range v.report.lines {
		if l.r.Contains(x, y) {
			v.openDecision(l.d)
			return true
		}
	}
	return false
}

// openDecision puts the playhead on d's position, paused, with its
// move picked on the board.
func (v *matchView) openDecision(d analysis.Decision) {
	v.pb.playing = false
	v.pb.seek(float64(d.Turn))
	a, side := &v.analysis, v.report.sideAsked(d)
	if a.state == d.Turn {
		v.pickHere(d.Move, side)
		return
	}
	a.want, a.wantSide = d.Move, side
}

// judgedAt is the move played at turn k where the report judged it (the
// worse one where both sides were), "" where it judged none: the board
// resting there picks it, so that it shows what refutes it.
func (g *gameReport) judgedAt(k int) (move string, side *match.Side) {
	if g.r == nil {
		return "", nil
	}
	worst := 0.0
	for _, d := range g.r.Decisions {
		if d.Turn == k && d.Label != "" && d.Lost > worst {
			move, side, worst = d.Move, g.sideAsked(d), d.Lost
		}
	}
	return move, side
}

// pickHere picks move on the board's position, analysed again for side
// (see sideAsked) where it weighed the other side's decision.
func (v *matchView) pickHere(move string, side *match.Side) {
	a := &v.analysis
	if v.weighs(a.state, side) != v.weighs(a.state, a.side) {
		a.stop()
		a.side = side
	}
	a.picked = move
}

// weighs is the side whose decision the board weighs at turn k when
// asked for side (nil: the game's choice).
func (v *matchView) weighs(k int, side *match.Side) match.Side {
	if side != nil {
		return *side
	}
	if k < 0 || k >= v.pb.rec.Len() {
		return match.NoSide
	}
	return match.AnalysisSide(v.pb.rec.Game, v.pb.rec.State(k))
}

// sideAsked is the side the board must be asked to weigh to show d: nil
// where it weighs d's side anyway, d's side where both move at once and
// the report judged each (Life), so that a decision of P2 is not shown
// on the board's analysis of P1.
func (g *gameReport) sideAsked(d analysis.Decision) *match.Side {
	for _, o := range g.r.Decisions {
		if o.Turn == d.Turn && o.Side != d.Side {
			side := d.Side
			return &side
		}
	}
	return nil
}

// drawReport draws the report: P1's expected points at each decision
// (the best option's, for the side deciding), ½ on the middle line, a
// win at the top; each judged decision marked in its label's colour.
func (g *evalGraph) drawReport(c render.Canvas, st style, r rect, x func(int) float64) {
	th := st.th
	y := func(e float64) float64 { return r.Y + 2*st.lw + (1-e)*(r.H-4*st.lw) }
	var pts []render.Point
	for _, d := range g.report.Decisions {
		e := d.BestExpected
		if d.Side == match.P2 {
			e = 1 - e
		}
		pts = append(pts, render.Point{X: x(d.Turn), Y: y(e)})
	}
	c.Polyline(pts, math.Max(1, st.lw), th.Player[match.P1])
	for _, d := range g.report.Decisions {
		if d.Label == "" {
			continue
		}
		e := d.BestExpected - d.Lost
		if d.Side == match.P2 {
			e = 1 - e
		}
		rad := 2.5 * st.lw
		if d.Label == "blunder" {
			rad = 3.5 * st.lw
		}
		c.Circle(render.Point{X: x(d.Turn), Y: y(e)}, rad, labelColour(th, d.Label))
	}
}

// judgedNear is the judged decision of the report within reach of x on
// the graph drawn in r, the worst where several are.
func (g *evalGraph) judgedNear(r rect, length, x, reach float64) (analysis.Decision, bool) {
	var best analysis.Decision
	found := false
	for _, d := range g.report.Decisions {
		px := r.X + r.W*(float64(d.Turn)+0.5)/length
		if d.Label == "" || math.Abs(px-x) > reach {
			continue
		}
		if !found || d.Lost > best.Lost {
			best, found = d, true
		}
	}
	return best, found
}
