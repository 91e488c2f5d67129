package analysis

import (
	"context"
	"math"
	"testing"

	"github.com/arena-playground/arena/engine/play"
)

// A drill plays the position again on the game's seed: the bot that made
// a mistake there makes it again, judged as the report judged it, and a
// better bot passes a drill the first one fails. The drill's file form
// reads back to the same drill.
func TestDrillReplaysTheMistakeAndPassesABetterBot(t *testing.T) {
	setup, err := play.NewSetup("colosseum", "6", 3, "strong:nodes=5000", "greedy")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := play.Play(context.Background(), setup)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Make(context.Background(), rec, Options{})
	if err != nil {
		t.Fatal(err)
	}
	drills, betterPassed := 0, 0
	for _, d := range r.Decisions {
		if d.Side != 1 || (d.Label != "mistake" && d.Label != "blunder") {
			continue
		}
		dr, err := NewDrill(rec, d.Turn, d.Side, "test")
		if err != nil {
			t.Fatal(err)
		}
		back, err := dr.Record("drill.json")
		if err != nil {
			t.Fatal(err)
		}
		again, err := dr.Run(context.Background(), back, "greedy", Options{})
		if err != nil {
			t.Fatal(err)
		}
		if again.Move != d.Move || math.Abs(again.Lost-d.Lost) > 1e-12 || again.Passed {
			t.Errorf("turn %d: greedy played %s and lost %v in the game; the drill has it play %s, losing %v (passed %v)", d.Turn, d.Move, d.Lost, again.Move, again.Lost, again.Passed)
		}
		better, err := dr.Run(context.Background(), back, "strong", Options{})
		if err != nil {
			t.Fatal(err)
		}
		if better.Passed != (better.Lost <= Tolerance) {
			t.Errorf("turn %d: strong's answer %s lost %v and passed %v", d.Turn, better.Move, better.Lost, better.Passed)
		}
		if better.Passed {
			betterPassed++
		}
		drills++
	}
	if drills == 0 || betterPassed == 0 {
		t.Fatalf("%d drills of greedy's mistakes, %d passed by strong: the test needs another game", drills, betterPassed)
	}
}
