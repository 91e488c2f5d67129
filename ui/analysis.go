package ui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/arena-playground/arena/analysis"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/render"
)

// analysisBoard is the analysis board of a match view: the position at
// the playhead analysed by the game's search, in the host that computes
// matches (the page's worker, the window's goroutine), a ply deeper at a
// time, shown on the board and in the panel as it deepens. A person
// picks an option on the board: a best one shows its line, a refuted one
// the reply that refutes it.
// It is open while the link says so (Link.Analyse).
type analysisBoard struct {
	state int // the state analysed, -1: none yet
	calm  int // frames the playhead has rested on state (see settle)
	feed  Feed
	an    *match.Analysis // the deepest analysis yet
	done  bool
	err   string
	// picked is the move of the option a person clicked, "" for none. It
	// is kept by move, not by rank: a deeper analysis reorders the
	// options, and the panel must go on speaking of the one clicked.
	picked string
	// want is the option to pick once the next position is analysed (a
	// report's decision, opened on the move played).
	want string
	// side is the side whose decision the position's analysis weighs
	// where both move at once, nil for the game's choice; wantSide is
	// the next position's (a report's decision of either side).
	side, wantSide *match.Side
}

// settleFrames is how long the playhead rests on a position before it
// is analysed: stepping or dragging through a game starts no search for
// each position it passes.
const settleFrames = 6

// toggleAnalysis starts or ends the analysis board; playback pauses, as
// a person who asks why a move was played looks at one position.
func (v *matchView) toggleAnalysis() {
	a := &v.analysis
	v.app.setLink(func(l *Link) { l.Analyse = !l.Analyse })
	if v.app.opts.Analyse {
		v.pb.playing = false
		a.state, a.calm = -1, 0
		return
	}
	a.stop()
}

// stop ends the analysis's computation and forgets it.
func (a *analysisBoard) stop() {
	if a.feed != nil {
		a.feed.Stop()
	}
	a.feed, a.an, a.done, a.err, a.picked = nil, nil, false, "", ""
}

// updateAnalysis follows the playhead: once it rests on a position with
// a move to make, that position is analysed; the analysis's messages are
// taken as they come.
func (v *matchView) updateAnalysis() {
	a := &v.analysis
	if !v.app.opts.Analyse {
		return
	}
	k, _ := render.Thinking(v.pb.rec, v.pb.t)
	if k != a.state {
		a.stop()
		a.state, a.calm = k, 0
		a.picked, a.want, a.side, a.wantSide = a.want, "", a.wantSide, nil
		if a.picked == "" {
			a.picked, a.side = v.report.judgedAt(k)
		}
	}
	if a.feed == nil && !a.done && a.err == "" {
		if a.calm++; a.calm >= settleFrames && !v.pb.playing {
			v.startAnalysis(k)
		}
	}
	if a.feed == nil {
		return
	}
	for _, m := range messages(a.feed, func(err error) { a.err = err.Error() }) {
		switch m.Kind {
		case play.MsgAnalysis:
			a.an = m.Analysis
			v.evals.note(m.Analysis)
		case play.MsgAnalysed:
			a.done = true
		case play.MsgError:
			a.err = m.Error
		}
	}
}

// startAnalysis asks the host for an analysis of state k: the match's
// setup with the moves that lead there.
func (v *matchView) startAnalysis(k int) {
	a, rec := &v.analysis, v.pb.rec
	if k >= rec.Len() || rec.State(k).ToMove() == match.Nobody {
		a.err = "the game is over here: there is no move to analyse"
		return
	}
	moves, err := movesTo(rec, k)
	var played json.RawMessage // the move played there, valued even where no option is it
	if err == nil && k < len(rec.Turns) {
		played, err = json.Marshal(rec.Turns[k].Actions[v.weighs(k, a.side)])
	}
	if err == nil {
		a.feed, err = v.ask(v.pb.setup, moves, func(st *play.Start) {
			st.Analyse = &play.AnalyseRequest{K: analysis.BoardK, Side: a.side, Played: played}
		})
	}
	if err != nil {
		a.err = err.Error()
	}
}

// analysisKey is what the panel's layer shows of the analysis: it is
// drawn again when this changes.
type analysisKey struct {
	on, done bool
	state    int
	depth    int
	nodes    int64
	pick     render.Pick
	err      string
}

func (a *analysisBoard) key(on bool) analysisKey {
	k := analysisKey{on: on, done: a.done, state: a.state, pick: a.pick(), err: a.err}
	if a.an != nil {
		k.depth, k.nodes = a.an.Depth, a.an.Nodes
	}
	return k
}

// clickAnalysis picks the option under a click on the board, or none; a
// click on the option picked tries it in a variation.
func (v *matchView) clickAnalysis(x, y float64) {
	a := &v.analysis
	if a.an == nil {
		return
	}
	before := a.picked
	a.picked = ""
	switch p, _ := render.PickAt(v.pb.rec, a.state, v.boardR, a.an, x, y); {
	case p.Best >= 0:
		a.picked = a.an.Best[p.Best].Move
	case p.Other >= 0:
		a.picked = a.an.Others[p.Other].Move
	}
	if a.picked != "" && a.picked == before { // a second click tries it
		if err := v.tryPicked(); err != nil {
			v.app.toastf("%v", err)
		}
	}
}

// pick is the clicked option's rank in the analysis shown, NoPick for
// none (or for an option the deeper analysis no longer lists).
func (a *analysisBoard) pick() render.Pick {
	if a.an == nil || a.picked == "" {
		return render.NoPick
	}
	for i, b := range a.an.Best {
		if b.Move == a.picked {
			return render.Pick{Best: i, Other: -1}
		}
	}
	for i, o := range a.an.Others {
		if o.Move == a.picked {
			return render.Pick{Best: -1, Other: i}
		}
	}
	return render.NoPick
}

// analysisLines are what the panel says of the analysis, for people.
// Moves are named as the analysis names them (map colouring's state and
// colour, Life's cells, the shortest path's node), as arena analyse and
// the report do: one name for a move everywhere.
func (v *matchView) analysisLines() (head string, best []string, picked string) {
	a := &v.analysis
	switch {
	case a.err != "":
		return "analysis: " + a.err, nil, ""
	case a.an == nil:
		return "analysing…", nil, ""
	}
	an := a.an
	state := "deepening…"
	if a.done {
		state = "done"
	}
	reach := "values at this depth"
	if proved(an) {
		reach = "the best's result proved to the game's end"
	}
	head = fmt.Sprintf("analysis of turn %d, %s to move: %d %s, %s nodes, %s; %s", an.Turn, an.Side, an.Depth, an.DepthUnit, strings.TrimPrefix(render.ValueText(float64(an.Nodes)), "+"), state, reach)
	for i, b := range an.Best {
		var line []string
		for _, m := range b.Line {
			line = append(line, fmt.Sprintf("%s %s", m.Side, m.Move))
		}
		value := render.ValueText(b.Value)
		if b.Outcome != "" {
			value = b.Outcome + " " + value
		}
		best = append(best, fmt.Sprintf("%d. %s %s: %s", i+1, b.Move, value, strings.Join(line, " → ")))
	}
	if tie := equalBest(an); tie > 1 {
		what := fmt.Sprintf("only a deeper analysis (more than %d %s) can tell them apart", an.Depth, an.DepthUnit)
		if proved(an) {
			what = "each keeps the same result with best play: any of them is right"
		}
		best = append(best, fmt.Sprintf("1–%d are worth the same (%s): %s", tie, render.ValueText(an.Best[0].Value), what))
	}
	switch p := a.pick(); {
	case p.Other >= 0 && p.Other < len(an.Others):
		o := an.Others[p.Other]
		switch {
		case o.Exact:
			picked = fmt.Sprintf("%s is worth %s", o.Move, render.ValueText(o.Bound))
			if o.Reply != nil {
				picked += fmt.Sprintf(", against %s %s", o.Reply.Side, o.Reply.Move)
			}
		default:
			picked = fmt.Sprintf("%s is worth at most %s", o.Move, render.ValueText(o.Bound))
			if o.Reply != nil {
				picked += fmt.Sprintf(": %s answers %s", o.Reply.Side, o.Reply.Move)
			}
		}
	case len(an.Others) > 0:
		picked = "click an option on the board: what refutes it"
	}
	if a.pick() != render.NoPick && v.human == nil {
		picked += "; click it again (or V) to play it in a variation"
	}
	return head, best, picked
}

// proved says the analysis proves its best option's result: a search
// that saw every end of its lines found one (a win, a draw, a loss).
func proved(an *match.Analysis) bool {
	return an.Proven && len(an.Best) > 0 && an.Best[0].Outcome != ""
}

// equalBest is how many of the analysis's best options, from the first,
// share its value and outcome (1 when the first stands alone).
func equalBest(an *match.Analysis) int {
	n := min(len(an.Best), 1)
	for n < len(an.Best) && an.Best[n].Value == an.Best[0].Value && an.Best[n].Outcome == an.Best[0].Outcome {
		n++
	}
	return n
}

// drawAnalysisPanel writes the analysis in the panel from y, with its
// scale's legend (the range of its values, in the game's unit), and
// returns the y below.
func (v *matchView) drawAnalysisPanel(c render.Canvas, st style, r rect, y float64) float64 {
	th := st.th
	head, best, picked := v.analysisLines()
	y = wrapText(c, head, r.X, y, r.W, st.small, th.TextDim) + st.gap/2
	for i, l := range best {
		col := th.Text
		if p := v.analysis.pick(); i == max(p.Best, 0) && p.Other < 0 {
			col = th.Accent
		}
		if st.compact { // one line each on a phone: the board shows the lines
			c.Text(fit(c, l, st.small, r.W), r.X, y, st.small, render.Left, col)
			y += c.LineHeight(st.small) + st.gap/4
			continue
		}
		y = wrapText(c, l, r.X, y, r.W, st.small, col) + st.gap/4
	}
	if picked != "" {
		col := th.TextDim // the hint
		if v.analysis.pick().Other >= 0 {
			col = th.Collision
		}
		y = wrapText(c, picked, r.X, y+st.gap/2, r.W, st.small, col) + st.gap/2
	}
	if an := v.analysis.an; an != nil && y+2*c.LineHeight(st.small) <= r.Y+r.H {
		lo, hi := render.AnalysisRange(an)
		h := c.LineHeight(st.small)
		x := render.DrawScaleLegend(c, r.X, y+st.gap/2, h, st.small, th)
		c.Text(fmt.Sprintf("  %s to %s", render.ValueText(lo), render.ValueText(hi)), x, y+st.gap/2, st.small, render.Left, th.TextDim)
		y += h + st.gap
		note := "; ≤ is the value an option is refuted at"
		if an.ValuedInFull() {
			note = "; every option is valued in full: each has its value"
		}
		y = wrapText(c, "values: "+an.Unit+"; a won game tops the scale"+note, r.X, y, r.W, st.small, th.TextDim)
	}
	return y
}

// option is an option of the analysis, where it is and what it is.
type option struct {
	place match.Place
	move  string
}

// options are the analysis's options, the best and the others.
func (a *analysisBoard) options() []option {
	var out []option
	for _, b := range a.an.Best {
		out = append(out, option{b.Place, b.Move})
	}
	for _, o := range a.an.Others {
		out = append(out, option{o.Place, o.Move})
	}
	return out
}
