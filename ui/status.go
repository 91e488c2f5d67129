package ui

import (
	"encoding/json"

	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/arena-playground/arena/analysis"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
	"github.com/arena-playground/arena/render"
	"github.com/arena-playground/arena/tournament/progress"
)

// Status is a snapshot of what the window shows, for tests and for the
// browser's test hook: the view, the match, the playhead and the places of
// the controls (in CSS pixels, where a test clicks).
type Status struct {
	View     string         `json:"view"` // "start" or "match"
	Game     string         `json:"game"` // on the start view, the game chosen there (and so the players, preset and seed)
	Players  [2]string      `json:"players"`
	Seed     uint64         `json:"seed"`
	Preset   string         `json:"preset"`
	Turn     float64        `json:"turn"`     // the playhead
	Computed int            `json:"computed"` // turns computed so far
	Playing  bool           `json:"playing"`
	Live     bool           `json:"live"` // the playhead follows each turn as it arrives (the ⏭ button)
	Speed    float64        `json:"speed"`
	Done     bool           `json:"done"`
	Scores   [2]match.Score `json:"scores"` // at the end of what is computed
	Result   string         `json:"result"`
	Winner   string         `json:"winner"` // once it is over: "P1", "P2" or "draw"
	Reason   string         `json:"reason"` // once it is over, why, as the result says it
	Help     bool           `json:"help"`
	Asking   string         `json:"asking"` // the side a person must play now, if any
	Prompt   string         `json:"prompt"` // what the person is told to do next
	Failed   string         `json:"failed"` // why the match stopped before its end, if it did
	Faults   []string       `json:"faults"` // once it is over, why sides forfeited or had moves replaced
	Frames   int            `json:"frames"` // Update calls so far
	Draws    int            `json:"draws"`  // frames drawn so far
	// DrawMs and DrawMaxMs are the mean and the longest Go-side time of
	// the last 120 frames drawn.
	DrawMs    float64 `json:"draw_ms"`
	DrawMaxMs float64 `json:"draw_max_ms"`
	// UpdateMaxMs is the longest Go-side Update of the last 120: taking
	// the match's news and following its turns. Its layout of the view
	// and its following of the turns are the parts of it that say which
	// a slow one was.
	UpdateMaxMs       float64 `json:"update_max_ms"`
	UpdateMaxLayoutMs float64 `json:"update_max_layout_ms"`
	UpdateMaxFollowMs float64 `json:"update_max_follow_ms"`
	// Drawn is the mean share of the screen those frames drew: the rest
	// the screen kept from the frame before.
	Drawn   float64               `json:"drawn"`
	GIF     bool                  `json:"gif"`   // a GIF is being recorded
	Toast   string                `json:"toast"` // the message shown, if any
	Targets map[string][4]float64 `json:"targets"`
	// Gauntlet is the gauntlet view's latest status, once it has one.
	Gauntlet *progress.Status `json:"gauntlet,omitempty"`
	// Runs are the kept runs the gauntlet view lists, and Notes the lines
	// it says under them (an edit mid-run, the change between versions).
	Runs  []progress.Run `json:"runs,omitempty"`
	Notes []string       `json:"notes,omitempty"`
	// Thinking says whether what the bots thought is drawn. In a match,
	// ThoughtTurn is the turn whose thinking is shown (-1: none yet),
	// Thought what the panel lists of it, and Placed how many of its
	// marks and expected places are on the board.
	Thinking    bool     `json:"thinking"`
	ThoughtTurn int      `json:"thought_turn"`
	Thought     []string `json:"thought,omitempty"`
	Placed      int      `json:"placed"`
	// Analysing says the analysis board is on; Analysis is its deepest
	// analysis yet (of the state after Analysis.Turn turns), Analysed
	// says it is done, and Picked what the panel says of the option
	// picked on the board (its refutation). Targets holds each option's
	// point to click, as "option:MOVE".
	Analysing     bool            `json:"analysing"`
	Analysis      *match.Analysis `json:"analysis,omitempty"`
	Analysed      bool            `json:"analysed"`
	Picked        string          `json:"picked,omitempty"`
	AnalysisError string          `json:"analysis_error,omitempty"`
	// Report is the game's report beside the board, once it is in;
	// Reporting how many decisions it has judged of how many before.
	// Targets holds each move the panel lists as "move:TURN:SIDE", and
	// each judgement the graph marks as "mark:TURN:SIDE".
	Report      *analysis.Report `json:"report,omitempty"`
	Reporting   [2]int           `json:"reporting,omitzero"`
	ReportError string           `json:"report_error,omitempty"`
	// Drops are the turns the evaluation graph marks, where a side's
	// own value fell most; Targets holds each as "drop:TURN".
	Drops []int `json:"drops,omitempty"`
	// Variation is the line tried on the analysis board ("" when the game
	// is shown): the turn it branches at and the option tried there;
	// Targets holds its way back to the game as "back".
	Variation string `json:"variation,omitempty"`
	// Card and Stills are the start view's card and each game's still on
	// it, where the page's HTML painted them before the program started.
	Card   [4]float64            `json:"card,omitzero"`
	Stills map[string][4]float64 `json:"stills,omitempty"`
	// Drill is the answer of the bot tried at a decision of the report
	// ("try your bot here"), judged; DrillError why there is none.
	// Targets holds its line as "drill".
	Drill      *analysis.Answer `json:"drill,omitempty"`
	DrillError string           `json:"drill_error,omitempty"`
}

// updateStatus records the status at the end of an Update.
func (a *App) updateStatus() {
	s := Status{View: "start", Help: a.help, Frames: a.frames, GIF: a.gifBusy.Load(), Toast: a.currentToast(),
		Game: a.opts.Game, Players: [2]string{a.opts.P1, a.opts.P2}, Seed: a.opts.Seed, Preset: a.opts.Preset,
		Targets: map[string][4]float64{}, Thinking: a.opts.Thinking, ThoughtTurn: -1}
	s.Draws, s.DrawMs, s.DrawMaxMs = a.times.stats()
	s.UpdateMaxMs, s.UpdateMaxLayoutMs, s.UpdateMaxFollowMs = a.times.updateMax()
	s.Drawn = a.times.meanDrawn()
	css := func(r rect) [4]float64 {
		k := a.scale / a.zoom()
		return [4]float64{r.X / k, r.Y / k, r.W / k, r.H / k}
	}
	if g := a.gauntlet; g != nil {
		s.Gauntlet, s.Runs, s.Notes = g.status, g.runs, g.notes()
	}
	if v := a.match; v != nil {
		pb := v.pb
		s.View, s.Turn, s.Computed, s.Playing, s.Live = "match", round3(pb.t), int(pb.span()), pb.playing, pb.live
		s.Speed, s.Done = speeds[pb.speed], pb.rec.Result != nil
		// The record's standing, not the state's Outcome: Life's counts
		// the cells of a 4096x4096 board, and this runs every frame.
		s.Scores = pb.rec.Standing(pb.rec.Len() - 1).Scores
		if r := pb.rec.Result; r != nil {
			s.Result, s.Winner, s.Reason = r.String(), "draw", r.Reason
			if r.Winner != match.NoSide {
				s.Winner = r.Winner.String()
			}
			s.Faults = v.endFaults()
		}
		if req, ok := pb.pending(); ok {
			s.Asking = req.side.String()
		}
		if v.human != nil {
			s.Prompt = v.human.Prompt()
		}
		if pb.failed != nil {
			s.Failed = pb.failed.Error()
		}
		for id, b := range v.buttons {
			if b.r.W > 0 { // a button the layout left out (a phone's Restart)
				s.Targets[id] = css(b.r)
			}
		}
		s.Targets["board"] = css(v.boardR)
		if v.human != nil && pb.atEnd() { // clicks count only on the live turn
			if r, ok := v.human.Suggest(v.boardR); ok {
				s.Targets["move"] = css(r)
			}
		}
		s.Targets["timeline"] = css(v.timeline)
		for _, d := range v.evals.drops {
			s.Drops = append(s.Drops, d.turn)
			x := v.graph.X + v.graph.W*(float64(d.turn)+0.5)/pb.length()
			s.Targets[fmt.Sprintf("drop:%d", d.turn)] = css(rect{X: x - 1, Y: v.graph.Y, W: 2, H: v.graph.H})
		}
		if an := &v.analysis; a.opts.Analyse {
			s.Analysing, s.Analysis, s.Analysed, s.AnalysisError = true, an.an, an.done, an.err
			s.Report, s.Reporting, s.ReportError = v.report.r, [2]int{v.report.done, v.report.of}, v.report.err
			s.Drill, s.DrillError = v.drill.answer, v.drill.err
			if v.drill.row != (rect{}) {
				s.Targets["drill"] = css(v.drill.row)
			}
			if vr := v.variation; vr != nil {
				s.Variation = fmt.Sprintf("%d: %s", vr.from, vr.first)
				s.Targets["back"] = css(v.backRow)
			}
			for _, l := range v.report.lines {
				s.Targets[fmt.Sprintf("move:%d:%s", l.d.Turn, l.d.Side)] = css(l.r)
			}
			if v.evals.report != nil {
				for _, d := range v.evals.report.Decisions {
					if d.Label != "" {
						x := v.graph.X + v.graph.W*(float64(d.Turn)+0.5)/pb.length()
						s.Targets[fmt.Sprintf("mark:%d:%s", d.Turn, d.Side)] = css(rect{X: x - 1, Y: v.graph.Y, W: 2, H: v.graph.H})
					}
				}
			}
			_, _, s.Picked = v.analysisLines()
			if an.an != nil {
				for _, p := range an.options() {
					if pt, ok := render.PickPoint(pb.rec, an.state, v.boardR, an.an.Side, p.place); ok {
						s.Targets["option:"+p.move] = css(rect{X: pt.X - 1, Y: pt.Y - 1, W: 2, H: 2})
					}
				}
			}
		}
		if k, ok := render.Thinking(pb.rec, pb.t); ok && a.opts.Thinking {
			s.ThoughtTurn, s.Placed = k, render.Placed(pb.rec, k, v.boardR)
			for _, side := range match.Sides {
				s.Thought = append(s.Thought, render.ThinkingLines(pb.rec, k, side, shownCandidates)...)
			}
		}
	} else if g := a.gauntlet; a.gauntletShown {
		s.View = "gauntlet"
		for _, b := range append([]*button{g.run, g.report, g.back}, g.games...) {
			s.Targets[b.id] = css(b.r)
		}
		for name, ch := range map[string]*chips{"program": g.programs, "board": g.boards, "pairs": g.pairs} {
			for _, b := range ch.items {
				s.Targets[name+":"+b.id] = css(b.r)
			}
		}
	} else {
		v := a.start
		// What the start view shows chosen, not the last match's.
		l := v.settings()
		s.Game, s.Players[0], s.Players[1], s.Preset = l.Game, l.P1, l.P2, l.Preset
		if seed, err := strconv.ParseUint(v.seed.value, 10, 64); err == nil {
			s.Seed = seed
		}
		s.Targets["start"], s.Targets["seed"], s.Targets["dice"] = css(v.start.r), css(v.seed.r), css(v.dice.r)
		s.Card, s.Stills = css(v.card), map[string][4]float64{}
		for _, st := range v.stills {
			s.Stills[st.game] = css(st.r)
			if !a.compact { // a control where it is large enough to press
				s.Targets["still:"+st.game] = css(st.r)
			}
		}
		if v.write.enabled {
			s.Targets["write"] = css(v.write.r)
		}
		if v.gauntlet.enabled {
			s.Targets["gauntlet"] = css(v.gauntlet.r)
		}
		for name, ch := range map[string]*chips{"game": v.games, "p1": v.players[0], "p2": v.players[1], "board": v.presets} {
			for _, b := range ch.items {
				s.Targets[name+":"+b.id] = css(b.r)
			}
		}
	}
	if q := a.confirm; q != nil {
		s.Targets["yes"], s.Targets["no"] = css(q.yes.r), css(q.no.r)
	}
	var rec *play.Record
	if a.match != nil {
		r := *a.match.pb.rec // shares the slices, which only grow
		rec = &r
	}
	a.statusMu.Lock()
	a.status, a.statusRec = s, rec
	a.statusMu.Unlock()
}

// shownRecord is the record of the match shown (nil: none), as the last
// Update left it: the test hooks and the editor read it from any
// goroutine.
func (a *App) shownRecord() *play.Record {
	a.statusMu.Lock()
	defer a.statusMu.Unlock()
	return a.statusRec
}

// NotesJSON returns what the bots of the match shown noted, turn by turn
// (null for a side that noted nothing), as a replay writes it: tests read
// what a bot printed from it.
func (a *App) NotesJSON() string {
	rec := a.shownRecord()
	if rec == nil {
		return "[]"
	}
	notes := make([][2]*play.KeptNote, len(rec.Turns))
	for i, t := range rec.Turns {
		notes[i] = t.Notes
	}
	b, _ := json.Marshal(notes)
	return string(b)
}

// ThinkJSON returns each turn's thinking time of each side of the match
// shown, in milliseconds ([] when no match is shown): with NotesJSON's
// nodes, a bot's nodes a second. Safe to call from any goroutine.
func (a *App) ThinkJSON() string {
	rec := a.shownRecord()
	if rec == nil {
		return "[]"
	}
	think := make([][2]float64, len(rec.Turns))
	for i, t := range rec.Turns {
		for side := range 2 {
			think[i][side] = ms(t.Think[side])
		}
	}
	b, _ := json.Marshal(think)
	return string(b)
}

// MeanThink is the mean time a move of the side that player (a spec, as
// ui.PageBot) plays in the match shown, in milliseconds; 0 when it plays
// none or thought no move (a link's match replays its moves). The editor
// says it of the page's bot: how fast it ran, built or interpreted. Safe
// to call from any goroutine.
func (a *App) MeanThink(player string) float64 {
	rec := a.shownRecord()
	if rec == nil {
		return 0
	}
	var total time.Duration
	n := 0
	for side, p := range rec.Players {
		if p != player {
			continue
		}
		for _, t := range rec.Turns {
			if t.Actions[side] != nil && t.Think[side] > 0 { // a link's moves were not thought
				total += t.Think[side]
				n++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return ms(total) / float64(n)
}

// MovesJSON returns the actions of the match shown, turn by turn, as a
// replay writes them, with each replaced action's reason (Replay.Moves;
// [] when no match is shown). Like Status, it is safe
// to call from any goroutine: tests compare the moves with arena play's.
func (a *App) MovesJSON() string {
	rec := a.shownRecord()
	if rec == nil {
		return "[]"
	}
	rp, err := rec.Replay()
	if err != nil {
		b, _ := json.Marshal(map[string]string{"error": err.Error()})
		return string(b)
	}
	b, _ := json.Marshal(rp.Moves())
	return string(b)
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// Status returns the latest snapshot. It is safe to call from any
// goroutine (the browser's test hook calls it from JavaScript).
func (a *App) Status() Status {
	a.statusMu.Lock()
	defer a.statusMu.Unlock()
	return a.status
}

// StatusJSON returns Status as JSON.
func (a *App) StatusJSON() string {
	b, _ := json.Marshal(a.Status())
	return string(b)
}
