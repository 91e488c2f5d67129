package analysis

import (
	"context"
	"fmt"
	"testing"

	"github.com/arena-playground/arena/engine/mapcolor"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// solve is the game's result for me from s under best play, by a full
// minimax to the end with no pruning and no table: 1 a win, ½ a draw,
// 0 a loss.
func solve(s mapcolor.State, me match.Side) float64 {
	if s.ToMove() == match.Nobody {
		switch s.Outcome().Winner {
		case me:
			return 1
		case match.NoSide:
			return 0.5
		}
		return 0
	}
	best := -1.0
	if s.Mover() != me {
		best = 2
	}
	for _, m := range s.Moves() {
		v := solve(s.Play(m), me)
		if s.Mover() == me {
			best = max(best, v)
		} else {
			best = min(best, v)
		}
	}
	return best
}

// small says a position has at most left states to colour.
func small(s mapcolor.State, left int) bool {
	n := 0
	for i := range s.Problem().States {
		if c, _ := s.Colour(i); c < 0 {
			n++
		}
	}
	return n <= left
}

// checkExact holds each decision the report calls exact, on positions
// with at most left states to colour, to the full search: the best
// option's expected points are the position's result, the played
// move's the result after it. It returns the disagreements, and how
// many decisions it checked.
func checkExact(rec *play.Record, r *Report, left int) (errs []string, checked int) {
	for _, d := range r.Decisions {
		s := rec.State(d.Turn).(mapcolor.State)
		if !d.Exact || !small(s, left) {
			continue
		}
		checked++
		if want := solve(s, d.Side); d.BestExpected != want {
			errs = append(errs, fmt.Sprintf("turn %d: the best option %s is called worth %v; the full search says %v", d.Turn, d.Best, d.BestExpected, want))
		}
		after := s.Play(rec.Turns[d.Turn].Actions[d.Side].(mapcolor.Move))
		if want := solve(after, d.Side); d.Expected != want {
			errs = append(errs, fmt.Sprintf("turn %d: the move played %s is called worth %v; the full search says %v", d.Turn, d.Move, d.Expected, want))
		}
		if want := Label(d.BestExpected - d.Expected); d.Label != want {
			errs = append(errs, fmt.Sprintf("turn %d: %s is labelled %q; its loss says %q", d.Turn, d.Move, d.Label, want))
		}
	}
	return errs, checked
}

const mapcolorPreset = "usa"

// A report's exact labels are facts: on Australia's seven states, every
// decision the report calls exact has the values a full minimax to the
// end gives, whatever bots played; and the check is one that catches a
// report whose exact value is changed.
func TestExactLabelsAreTheGamesResults(t *testing.T) {
	checked, labelled := 0, 0
	for seed := uint64(1); seed <= 6; seed++ {
		for _, pair := range [][2]string{{"random", "greedy"}, {"greedy", "random"}, {"random", "random"}} {
			setup, err := play.NewSetup("mapcolor", mapcolorPreset, seed, pair[0], pair[1])
			if err != nil {
				t.Fatal(err)
			}
			rec, err := play.Play(context.Background(), setup)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Make(context.Background(), rec, Options{Nodes: 50_000}) // enough to see the end from the last five states
			if err != nil {
				t.Fatal(err)
			}
			errs, n := checkExact(rec, r, 5)
			for _, e := range errs {
				t.Errorf("seed %d, %s vs %s: %s", seed, pair[0], pair[1], e)
			}
			checked += n
			for _, d := range r.Decisions {
				if d.Exact && d.Label != "" {
					labelled++
				}
			}
			// A mutant: the first exact decision's value moved by a
			// half-point of result.
			for i, d := range r.Decisions {
				if !d.Exact || !small(rec.State(d.Turn).(mapcolor.State), 5) {
					continue
				}
				mutant := *r
				mutant.Decisions = append([]Decision(nil), r.Decisions...)
				mutant.Decisions[i].Expected = 1 - d.Expected/2
				if errs, _ := checkExact(rec, &mutant, 5); len(errs) == 0 {
					t.Errorf("seed %d: a report whose turn %d value was changed from %v to %v passed the check", seed, d.Turn, d.Expected, mutant.Decisions[i].Expected)
				}
				break
			}
		}
	}
	if checked < 20 || labelled == 0 {
		t.Fatalf("%d exact decisions checked, %d of them labelled: the games need more small positions", checked, labelled)
	}
	t.Logf("%d exact decisions checked against the full search, %d labelled mistakes", checked, labelled)
}
