package page

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/arena-playground/arena/analysis"
)

// TestPageReport opens a finished Colosseum match on the analysis board:
// the page's worker reports on the game, each decision as arena report
// judges it (read through the test hook); a click on a judgement in the
// panel puts the board on that decision; on a phone the panel fits.
func TestPageReport(t *testing.T) {
	b := newBrowser(t)
	const q = "?game=colosseum&p1=strong:nodes=20000&p2=greedy&seed=3&preset=6&turn=1000&analyse=1"
	b.open(q)
	b.waitJS(`(s => s.report || s.report_error)(JSON.parse(window.arenaTest.status()))`, 5*time.Minute)
	var s struct {
		Report  *analysis.Report      `json:"report"`
		Error   string                `json:"report_error"`
		Targets map[string][4]float64 `json:"targets"`
	}
	if err := json.Unmarshal([]byte(eval[string](b, `window.arenaTest.status()`)), &s); err != nil {
		b.fatalf("status: %v", err)
	}
	if s.Error != "" {
		b.fatalf("the page's report: %s", s.Error)
	}
	rec := cliPresetRecord(t, "colosseum", "6", "strong:nodes=20000", "greedy", 3)
	want, err := analysis.Make(context.Background(), rec, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Report.Decisions) != len(want.Decisions) || s.Report.Sides != want.Sides {
		b.fatalf("the page's report %+v; arena report's %+v", s.Report.Sides, want.Sides)
	}
	var judged *analysis.Decision
	for i, d := range want.Decisions {
		got := s.Report.Decisions[i]
		if got.Move != d.Move || got.Best != d.Best || got.Lost != d.Lost || got.Label != d.Label {
			b.fatalf("decision %d: the page says %s (best %s) lost %v %s; arena report %s (best %s) lost %v %s", i, got.Move, got.Best, got.Lost, got.Label, d.Move, d.Best, d.Lost, d.Label)
		}
		if d.Label != "" {
			judged = &want.Decisions[i]
		}
	}
	if judged == nil {
		b.fatalf("the game has no judgement to click")
	}
	b.awaitFrames(3)
	b.screenshot("playground-report")
	key := fmt.Sprintf("mark:%d:%s", judged.Turn, judged.Side)
	b.waitJS(fmt.Sprintf(`!!JSON.parse(window.arenaTest.status()).targets[%q]`, key), time.Minute)
	b.click(key)
	b.waitJS(fmt.Sprintf(`(s => s.analysis && s.analysis.turn == %d && !s.playing)(JSON.parse(window.arenaTest.status()))`, judged.Turn), 3*time.Minute)
	b.awaitFrames(3)
	b.screenshot("playground-report-decision")

	// Try your bot here: the editor's bot (the game's template, until it
	// is edited) plays that decision again in the match worker, judged.
	b.waitJS(`!!JSON.parse(window.arenaTest.status()).targets.drill`, time.Minute)
	b.click("drill")
	b.waitJS(`(s => s.drill || s.drill_error)(JSON.parse(window.arenaTest.status()))`, 5*time.Minute)
	var ds struct {
		Drill *analysis.Answer `json:"drill"`
		Error string           `json:"drill_error"`
	}
	if err := json.Unmarshal([]byte(eval[string](b, `window.arenaTest.status()`)), &ds); err != nil || ds.Error != "" {
		b.fatalf("the drill: %v %s", err, ds.Error)
	}
	if a := ds.Drill; a.Failed != "" || a.Move == "" || a.Lost < 0 || a.Passed != (a.Lost <= analysis.Tolerance) {
		b.fatalf("the editor's bot at turn %d: %+v", judged.Turn, a)
	}
	b.awaitFrames(3)
	b.screenshot("playground-report-drill")
	t.Logf("the editor's bot at turn %d, %s: %+v", judged.Turn, judged.Side, ds.Drill)
	b.phone()
	b.open(q)
	b.waitJS(`(s => s.report)(JSON.parse(window.arenaTest.status()))`, 5*time.Minute)
	b.awaitFrames(3)
	b.phoneCheck("report")
	b.screenshot("phone-report")
	t.Logf("the page's report: %d decisions, P1 %.0f%% P2 %.0f%%", len(want.Decisions), want.Sides[0].Accuracy, want.Sides[1].Accuracy)
}
