package page

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arena-playground/arena/engine/colosseum"
	"github.com/arena-playground/arena/engine/evasion"
	"github.com/arena-playground/arena/engine/match"
)

// analysisStatus is what the test hook says of the analysis board.
type analysisStatus struct {
	Analysing bool                  `json:"analysing"`
	Analysis  *match.Analysis       `json:"analysis"`
	Analysed  bool                  `json:"analysed"`
	Picked    string                `json:"picked"`
	Error     string                `json:"analysis_error"`
	Targets   map[string][4]float64 `json:"targets"`
}

func (b *browser) analysis() analysisStatus {
	b.t.Helper()
	var s analysisStatus
	if err := json.Unmarshal([]byte(eval[string](b, `window.arenaTest.status()`)), &s); err != nil {
		b.fatalf("status: %v", err)
	}
	return s
}

// TestPageAnalysis opens a Colosseum match at turn 4 on the analysis
// board (the link's analyse=1), as the page's worker analyses it a
// depth at a time. Its best values are arena analyse's at the same
// depth; a click on a refuted option shows the reply that refutes it,
// read through the test hook; on a phone the board and its panel fit.
func TestPageAnalysis(t *testing.T) {
	b := newBrowser(t)
	const turn = 4
	q := fmt.Sprintf("?game=colosseum&p1=strong:nodes=20000&p2=greedy&seed=3&preset=6&turn=%d&analyse=1", turn)
	b.open(q)
	b.waitJS(`(s => s.analysis && s.analysis.depth >= 3)(JSON.parse(window.arenaTest.status()))`, 3*time.Minute)
	s := b.analysis()
	an := s.Analysis
	if !s.Analysing || an.Turn != turn || len(an.Best) != 3 || len(an.Others) == 0 {
		b.fatalf("the analysis board: %+v", an)
	}
	rec := cliPresetRecord(t, "colosseum", "6", "strong:nodes=20000", "greedy", 3)
	state := rec.State(turn)
	want, err := match.Analyse(colosseum.Game{}, match.NewTurn(state, state.ToMove().Side(), nil, match.Budget{}), match.Query{K: 3, Depth: an.Depth})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range an.Best {
		if v.Move != want.Best[i].Move || v.Value != want.Best[i].Value {
			b.fatalf("best %d at depth %d: the page says %s %v, arena analyse %s %v", i, an.Depth, v.Move, v.Value, want.Best[i].Move, want.Best[i].Value)
		}
	}
	b.screenshot("playground-analysis")
	var other match.Refutation
	for _, o := range an.Others {
		if o.Reply != nil {
			other = o
		}
	}
	if other.Reply == nil {
		b.fatalf("no refuted option with a reply: %+v", an.Others)
	}
	b.click("option:" + other.Move)
	b.waitJS(`JSON.parse(window.arenaTest.status()).picked.includes("answers")`, time.Minute)
	if p := b.analysis().Picked; !strings.Contains(p, "worth at most") || !strings.Contains(p, other.Reply.Side.String()+" answers") {
		b.fatalf("after a click on %s the panel says %q; want its refutation by %s %s", other.Move, p, other.Reply.Side, other.Reply.Move)
	}
	b.awaitFrames(3)
	b.screenshot("playground-analysis-refutation")

	// A second click plays the option in a variation: the worker analyses
	// the position it leaves; back to the game, the game's turn again.
	b.click("option:" + other.Move)
	b.waitJS(fmt.Sprintf(`(s => s.variation && s.analysis && s.analysis.turn == %d && s.targets.back)(JSON.parse(window.arenaTest.status()))`, turn+1), 3*time.Minute)
	b.awaitFrames(3)
	b.screenshot("playground-variation")
	b.click("back")
	b.waitJS(fmt.Sprintf(`(s => !s.variation && s.analysis && s.analysis.turn == %d)(JSON.parse(window.arenaTest.status()))`, turn), 3*time.Minute)

	// Evasion's sides move at once: the worker weighs the side its
	// analyser chooses (the hunter, at a tick it may build), and its
	// values are arena analyse's.
	b.open("?game=evasion&p1=strong&p2=greedy&seed=3&turn=49&analyse=1")
	b.waitJS(`(s => s.analysis && s.analysis.depth >= 2)(JSON.parse(window.arenaTest.status()))`, 3*time.Minute)
	ev := b.analysis().Analysis
	erec := cliPresetRecord(t, "evasion", "", "strong", "greedy", 3)
	es := erec.State(49)
	side := match.AnalysisSide(evasion.Game{}, es)
	want, err = match.Analyse(evasion.Game{}, match.NewTurn(es, side, nil, match.Budget{}), match.Query{K: 3, Depth: ev.Depth})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Turn != 49 || ev.Side != side || len(ev.Best) != len(want.Best) {
		b.fatalf("Evasion's analysis at tick 49: %+v; arena analyse weighs %v, %d best", ev, side, len(want.Best))
	}
	for i, v := range ev.Best {
		if v.Move != want.Best[i].Move || v.Value != want.Best[i].Value {
			b.fatalf("Evasion's best %d at %d ticks: the page says %s %v, arena analyse %s %v", i, ev.Depth, v.Move, v.Value, want.Best[i].Move, want.Best[i].Value)
		}
	}
	b.phone()
	b.open(q)
	b.waitJS(`(s => s.analysis && s.analysis.depth >= 3)(JSON.parse(window.arenaTest.status()))`, 3*time.Minute)
	b.awaitFrames(3)
	b.phoneCheck("analysis")
	b.screenshot("phone-analysis")
	t.Logf("the page's analysis of turn %d: depth %d, %d nodes; %s refuted by %s %s", turn, an.Depth, an.Nodes, other.Move, other.Reply.Side, other.Reply.Move)
}
