package ui

import (
	"context"
	"fmt"
	"testing"

	"github.com/arena-playground/arena/analysis"
	"github.com/hajimehoshi/ebiten/v2"
)

// TestTryYourBotHere: at a decision of the report, the panel offers to
// play the editor's bot there; the host plays it from that position on
// the game's seed and judges its move, the answer arena drill gives.
// (The test's bot is strong, where the page's is the editor's.)
func TestTryYourBotHere(t *testing.T) {
	drillBot = "strong"
	t.Cleanup(func() { drillBot = PageBot })
	var in presses
	a := computedMatch(t, Options{Link: Link{Game: "colosseum", P1: "strong:nodes=5000", P2: "greedy", Seed: 3, Preset: "6", Start: true}, Presses: in.take, Reports: true})
	screen := ebiten.NewImage(1280, 800)
	in.keys = []ebiten.Key{ebiten.KeyA}
	a.Update()
	await := func(what string, ok func(Status) bool) Status {
		t.Helper()
		return awaitStatus(t, a, screen, what, ok, func() string { return fmt.Sprintf("drill error %q", a.Status().DrillError) })
	}
	s := await("the report", func(s Status) bool { return s.Report != nil })
	var blunder *analysis.Decision
	for i, d := range s.Report.Decisions {
		if d.Side == 1 && (blunder == nil || d.Lost > blunder.Lost) {
			blunder = &s.Report.Decisions[i]
		}
	}
	a.match.openDecision(*blunder)
	s = await("the offer to try a bot", func(s Status) bool { _, ok := s.Targets["drill"]; return ok && int(s.Turn) == blunder.Turn })
	at := s.Targets["drill"]
	in.clicks = [][2]float64{{at[0] + at[2]/2, at[1] + at[3]/2}}
	s = await("the bot's answer judged", func(s Status) bool { return s.Drill != nil || s.DrillError != "" })
	if s.DrillError != "" {
		t.Fatal(s.DrillError)
	}
	rec := a.match.pb.rec
	d, err := analysis.NewDrill(rec, blunder.Turn, blunder.Side, "")
	if err != nil {
		t.Fatal(err)
	}
	want, err := d.Run(context.Background(), rec, "strong", analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Drill; got.Move != want.Move || got.Lost != want.Lost || got.Passed != want.Passed {
		t.Errorf("the window's drill %+v; arena drill's %+v", got, want)
	}
	if blunder.Lost > analysis.Tolerance && want.Move == blunder.Move {
		t.Errorf("strong played greedy's %s at turn %d, which lost %.2f", want.Move, blunder.Turn, blunder.Lost)
	}
	t.Logf("turn %d: greedy played %s (lost %.2f); strong plays %s, lost %.3f, passed %v", blunder.Turn, blunder.Move, blunder.Lost, want.Move, want.Lost, want.Passed)
}
