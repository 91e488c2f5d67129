package ui

import (
	"encoding/json"
	"fmt"

	"github.com/arena-playground/arena/analysis"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/render"
)

// drillRun is "try your bot here": a decision of the reported game played
// again by the bot in the editor, from the same position on the same
// seed, and judged as the report judged the game's move (within
// analysis.Tolerance of the best, or the best result where both are
// proved). It is computed by the host, as the report is.
type drillRun struct {
	turn   int
	side   match.Side
	feed   Feed
	answer *analysis.Answer
	err    string
	// row is where the panel wrote its line last frame, for clicks.
	row rect
}

// drillBot is the player a drill asks for: the page's editor's bot.
// Tests ask another.
var drillBot = PageBot

// canDrill says whether the panel offers to try a bot at decision d: a
// page with an editor (or a test's bot), a report in, no variation.
func (v *matchView) canDrill() bool {
	return (v.app.opts.Editor != nil || drillBot != PageBot) && v.report.r != nil && v.variation == nil
}

// startDrill asks the host to play d again with the editor's bot.
func (v *matchView) startDrill(d analysis.Decision) {
	g := &v.drill
	if g.feed != nil {
		g.feed.Stop()
	}
	*g = drillRun{turn: d.Turn, side: d.Side}
	moves, err := movesTo(v.pb.rec, len(v.pb.rec.Turns))
	if err != nil {
		g.err = err.Error()
		return
	}
	setup := v.pb.setup
	for side := range setup.Players {
		name := "greedy"
		if match.Side(side) == d.Side {
			name = drillBot
		}
		if setup.Players[side], err = play.ParseSpec(name); err != nil {
			g.err = err.Error()
			return
		}
	}
	setup.Bots = [2]match.Bot{}
	g.feed, err = v.ask(setup, moves, func(st *play.Start) {
		st.Drill = &play.DrillRequest{Turn: d.Turn, Side: d.Side, Player: drillBot}
	})
	if err != nil {
		g.err = err.Error()
	}
}

// updateDrill takes the drill's answer when it comes.
func (v *matchView) updateDrill() {
	g := &v.drill
	if g.feed == nil {
		return
	}
	for _, m := range messages(g.feed, func(err error) { g.err = err.Error() }) {
		switch m.Kind {
		case play.MsgDrill:
			var a analysis.Answer
			if err := json.Unmarshal(m.Drill, &a); err != nil {
				g.err = err.Error()
				continue
			}
			g.answer = &a
		case play.MsgError:
			g.err = m.Error
		default:
			continue
		}
		g.feed.Stop()
		g.feed = nil
		return
	}
}

// drillLine is what the panel says of the drill at decision d.
func (g *drillRun) line(d analysis.Decision) (string, bool) {
	if g.turn != d.Turn || g.side != d.Side || (g.feed == nil && g.answer == nil && g.err == "") {
		return fmt.Sprintf("try your bot here: it plays %s at turn %d on this seed (click)", d.Side, d.Turn), false
	}
	a := g.answer
	switch {
	case g.err != "":
		return "your bot here: " + g.err, true
	case a == nil:
		return "your bot is thinking here…", false
	case a.Failed != "":
		return "your bot here: failed, " + a.Failed, true
	case a.Passed:
		return fmt.Sprintf("your bot played %s here: passed, %.3f lost (within %.4f of the best, %s)", a.Move, a.Lost, analysis.Tolerance, a.Best), false
	}
	return fmt.Sprintf("your bot played %s here: failed, %.3f lost (more than %.4f; best %s)", a.Move, a.Lost, analysis.Tolerance, a.Best), true
}

// drawDrill writes the drill's line for the decision at the playhead's
// turn k, if the report has one, and returns the y below.
func (v *matchView) drawDrill(c render.Canvas, st style, r rect, y float64, k int) float64 {
	d, ok := v.decisionAt(k)
	if !ok || !v.canDrill() {
		v.drill.row = rect{}
		return y
	}
	text, bad := v.drill.line(d)
	col := st.th.Accent
	if bad {
		col = st.th.Collision
	}
	end := wrapText(c, text, r.X, y, r.W, st.small, col)
	if st.compact { // a row a finger can tap
		end = max(end, y+st.rowH)
	}
	v.drill.row = rect{X: r.X, Y: y, W: r.W, H: end - y}
	return end + st.gap/2
}

// decisionAt is the report's decision at turn k: the worst judged one
// where both sides decided.
func (v *matchView) decisionAt(k int) (analysis.Decision, bool) {
	var best analysis.Decision
	found := false
	if v.report.r == nil {
		return best, false
	}
	for _, d := range v.report.r.Decisions {
		if d.Turn == k && (!found || d.Lost > best.Lost) {
			best, found = d, true
		}
	}
	return best, found
}

// drillKey is what the panel shows of the drill.
type drillKey struct {
	turn     int
	side     match.Side
	running  bool
	answered bool
	err      string
}

func (g *drillRun) key() drillKey {
	return drillKey{g.turn, g.side, g.feed != nil, g.answer != nil, g.err}
}
