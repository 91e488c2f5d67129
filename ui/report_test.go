package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	_ "github.com/arena-playground/arena/analysis/reports" // this process makes the reports
	"github.com/arena-playground/arena/engine/match"

	"github.com/arena-playground/arena/analysis"
	"github.com/arena-playground/arena/render"
	"github.com/hajimehoshi/ebiten/v2"
)

// TestReportBesideTheBoard: with the board open on a finished match,
// the game's report arrives from the host, decision by decision the one
// arena report makes; the panel lists its judgements and the graph marks
// them, and a click on one (in the list, then on the graph) puts the
// playhead on that position, the board analysing it with the move
// played picked, so that it shows what refutes it.
func TestReportBesideTheBoard(t *testing.T) {
	var in presses
	a := computedMatch(t, Options{Link: Link{Game: "colosseum", P1: "strong:nodes=5000", P2: "greedy", Seed: 3, Preset: "6", Start: true}, Presses: in.take, Reports: true})
	screen := ebiten.NewImage(1280, 800)
	in.keys = []ebiten.Key{ebiten.KeyA}
	a.Update()
	await := func(what string, ok func(Status) bool) Status {
		t.Helper()
		return awaitStatus(t, a, screen, what, ok, func() string {
			st := a.Status()
			return fmt.Sprintf("reporting %v, turn %v, picked %q", st.Reporting, st.Turn, a.match.analysis.picked)
		})
	}
	s := await("the report", func(s Status) bool { return s.Report != nil || s.ReportError != "" })
	if s.ReportError != "" {
		t.Fatal(s.ReportError)
	}
	s = await("the report's moves listed", func(s Status) bool {
		for k := range s.Targets {
			if strings.HasPrefix(k, "move:") {
				return true
			}
		}
		return false
	})
	want, err := analysis.Make(context.Background(), a.match.pb.rec, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var back analysis.Report // as the host sends it: actions as JSON reads them
	b, _ := json.Marshal(want)
	json.Unmarshal(b, &back)
	got, _ := json.Marshal(s.Report.Decisions)
	wantJSON, _ := json.Marshal(back.Decisions)
	if string(got) != string(wantJSON) || s.Report.Sides != want.Sides {
		t.Fatalf("the window's report is not arena report's:\n%s\n%s", got, wantJSON)
	}
	var judged []analysis.Decision
	for _, d := range want.Decisions {
		if d.Label != "" {
			judged = append(judged, d)
		}
	}
	if len(judged) < 2 {
		t.Fatalf("%d judged decisions: the test needs a game with more", len(judged))
	}
	// The last judgement marked on the graph, then the move listed just
	// before it in the panel (the list follows the playhead).
	last := judged[len(judged)-1]
	var before analysis.Decision
	for _, d := range want.Decisions {
		if d.Turn < last.Turn {
			before = d
		}
	}
	for _, c := range []struct {
		how string
		d   analysis.Decision
	}{{"mark", last}, {"move", before}} {
		key := fmt.Sprintf("%s:%d:%s", c.how, c.d.Turn, c.d.Side)
		at, ok := s.Targets[key]
		if !ok {
			t.Fatalf("no %s to click for turn %d: %d lines, %+v", key, c.d.Turn, len(a.match.report.lines), a.match.report.lines)
		}
		in.clicks = [][2]float64{{at[0] + at[2]/2, at[1] + at[3]/2}}
		s = await("the decision clicked on the board", func(s Status) bool {
			return s.Analysis != nil && s.Analysis.Turn == c.d.Turn && a.match.analysis.pick() != render.NoPick
		})
		if s.Playing || int(s.Turn) != c.d.Turn {
			t.Errorf("after clicking %s the playhead is at %v, playing %v", key, s.Turn, s.Playing)
		}
		if a.match.analysis.picked != c.d.Move {
			t.Errorf("after clicking %s the board picked %q, not the move played %q", key, a.match.analysis.picked, c.d.Move)
		}
		if c.how == "mark" {
			if line := fmt.Sprintf("move:%d:%s", c.d.Turn, c.d.Side); s.Targets[line] == [4]float64{} {
				t.Errorf("the panel does not list the move the playhead is on (%s)", line)
			}
		}
	}
}

// TestReportOpensEitherSidesDecision: where both sides move at once and
// the report judges each (Life), a decision of P2 opens the board on P2's
// analysis of that turn, with P2's move picked, and P1's decision of the
// same turn then opens P1's: neither is shown on the other's analysis.
func TestReportOpensEitherSidesDecision(t *testing.T) {
	var in presses
	// A Life match of 40 generations: its report judges 80 decisions.
	short := []byte(`{"players": [{"name": "P1", "startingCells": [], "timer": {"maxLength": 300}}, {"name": "P2", "startingCells": [], "timer": {"maxLength": 300}}],
"game": {"rows": 24, "cols": 24, "cellGainPerTurn": 3, "maxCellCapacity": 15, "startingCells": 3, "maxColonisationDistance": 2, "maxGameIterations": 40, "ruleset": "diff", "variant": "arena", "randomStart": 24}}`)
	a := computedMatch(t, Options{Link: Link{Game: "life", P1: "greedy", P2: "random", Seed: 4, Start: true}, File: "short.json", FileData: short, Presses: in.take, Reports: true})
	screen := ebiten.NewImage(1280, 800)
	in.keys = []ebiten.Key{ebiten.KeyA}
	a.Update()
	await := func(what string, ok func(Status) bool) Status {
		t.Helper()
		return awaitStatus(t, a, screen, what, ok, func() string {
			st := a.Status()
			var of string
			if an := st.Analysis; an != nil {
				of = fmt.Sprintf("turn %d for %s", an.Turn, an.Side)
			}
			return fmt.Sprintf("turn %v, report error %q, the board's analysis of %s, picked %q", st.Turn, st.ReportError, of, a.match.analysis.picked)
		})
	}
	s := await("the report", func(s Status) bool { return s.Report != nil || s.ReportError != "" })
	if s.ReportError != "" {
		t.Fatal(s.ReportError)
	}
	// P2's costliest judged decision, and P1's of the same turn.
	var p2, p1 *analysis.Decision
	for i, d := range s.Report.Decisions {
		if d.Side == match.P2 && d.Label != "" && (p2 == nil || d.Lost > p2.Lost) {
			p2 = &s.Report.Decisions[i]
		}
	}
	if p2 == nil {
		t.Fatal("no judged decision of P2: the test needs a game with one")
	}
	for i, d := range s.Report.Decisions {
		if d.Turn == p2.Turn && d.Side == match.P1 {
			p1 = &s.Report.Decisions[i]
		}
	}
	if p1 == nil {
		t.Fatalf("the report judged P2 at turn %d but not P1", p2.Turn)
	}
	// The graph's mark of that turn (it may stand for either side's
	// decision there) brings the playhead and the panel's list there; the
	// list's lines name one side's move each.
	mark := fmt.Sprintf("mark:%d:P2", p2.Turn)
	at, ok := s.Targets[mark]
	if !ok {
		t.Fatalf("no %s to click", mark)
	}
	in.clicks = [][2]float64{{at[0] + at[2]/2, at[1] + at[3]/2}}
	s = await("turn "+fmt.Sprint(p2.Turn)+"'s moves listed", func(s Status) bool {
		_, ok := s.Targets[fmt.Sprintf("move:%d:P2", p2.Turn)]
		return ok && s.Analysis != nil && s.Analysis.Turn == p2.Turn
	})
	for _, c := range []struct {
		target string
		d      *analysis.Decision
	}{{fmt.Sprintf("move:%d:P2", p2.Turn), p2}, {fmt.Sprintf("move:%d:P1", p1.Turn), p1}, {fmt.Sprintf("move:%d:P2", p2.Turn), p2}} {
		at, ok := s.Targets[c.target]
		if !ok {
			t.Fatalf("no %s to click", c.target)
		}
		in.clicks = [][2]float64{{at[0] + at[2]/2, at[1] + at[3]/2}}
		s = await(c.target+" analysed", func(s Status) bool {
			return s.Analysed && s.Analysis != nil && s.Analysis.Turn == c.d.Turn && s.Analysis.Side == c.d.Side
		})
		if a.match.analysis.picked != c.d.Move {
			t.Errorf("after clicking %s the board picked %q, not %s's move %q", c.target, a.match.analysis.picked, c.d.Side, c.d.Move)
		}
		if a.match.analysis.pick() == render.NoPick {
			t.Errorf("after clicking %s the board has %s's move %q picked but finds no option of it in %s's analysis", c.target, c.d.Side, c.d.Move, s.Analysis.Side)
		}
	}
}
