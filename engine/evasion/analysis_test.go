package evasion

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// An analysis's values are what the game's own rules give when the
// option is played against the opponent's strong reply and strong (made
// from the game's bot list) plays both sides to the horizon: the prey's
// region then, negated for the hunter, 0 when caught. The best come
// first, each other option is worth no more than the K-th, and the side
// analysed is the hunter when it may build, the prey otherwise.
func TestAnalysisValuesAreTheRules(t *testing.T) {
	const k, horizon = 3, 12
	setup := play.Setup{Game: Game{}, Config: Preset(3, 10), Seed: 3,
		Players: [2]play.Spec{{Name: "strong"}, {Name: "greedy"}}}
	rec, err := play.Play(context.Background(), setup)
	if err != nil {
		t.Fatal(err)
	}
	sides := map[bool]int{}
	for i := 0; i < rec.Len() && (sides[true] < 3 || sides[false] < 3); i += 23 {
		s := rec.State(i).(State)
		if s.ToMove() == match.Nobody {
			continue
		}
		side := match.AnalysisSide(Game{}, s)
		f := s.Field()
		hunting := side == s.Hunter()
		if hunting != (f.Timer == 0) {
			t.Fatalf("tick %d: the analysis weighs %v (hunter %v) with cooldown %d and %d of %d walls", f.Tick, side, s.Hunter(), f.Timer, len(f.Walls()), f.MaxWalls)
		}
		an, err := match.Analyse(Game{}, match.NewTurn(s, side, nil, match.Budget{}), match.Query{K: k, Depth: horizon})
		if err != nil {
			t.Fatal(err)
		}
		if an.Depth != horizon || an.DepthUnit != "ticks" {
			t.Fatalf("tick %d: depth %d %s", f.Tick, an.Depth, an.DepthUnit)
		}
		for _, b := range an.Best {
			if want := playedOut(t, s, side, b.Action, horizon); b.Value != want {
				t.Errorf("tick %d: %s is worth %v, the rules say %v", f.Tick, b.Move, b.Value, want)
			}
		}
		kth := an.Best[len(an.Best)-1].Value
		for _, o := range an.Others {
			if want := playedOut(t, s, side, o.Action, horizon); o.Bound != want || want > kth || !o.Exact {
				t.Errorf("tick %d: %s is worth %v by the rules, %v by the analysis, the K-th best %v", f.Tick, o.Move, want, o.Bound, kth)
			}
		}
		want := 9
		if hunting {
			want = 1 // no wall
			var del []int
			if len(f.Walls()) == f.MaxWalls {
				del = []int{0}
			}
			for kind := Horizontal; kind <= Counterdiagonal; kind++ {
				g := f.Fork()
				g.Step(HunterMove{Build: kind, Delete: del}, PreyMove{})
				if len(g.Walls()) > len(f.Walls())-len(del) {
					want++
				}
			}
		}
		if n := len(an.Best) + len(an.Others); n != want {
			t.Errorf("tick %d: %d options analysed, want %d", f.Tick, n, want)
		}
		sides[hunting]++
	}
	t.Logf("positions analysed (hunter: true): %v", sides)
	if sides[true] < 3 || sides[false] < 3 {
		t.Fatalf("the match ended with %v positions analysed (hunter: true)", sides)
	}
}

// playedOut plays a for side in s against the opponent's strong reply,
// then strong for both to the horizon, and returns side's value.
func playedOut(t *testing.T, s State, side match.Side, a match.Action, horizon int) float64 {
	t.Helper()
	var bots [2]match.Bot
	for i := range bots {
		var err error
		if bots[i], _, _, err = play.NewBot(Game{}, play.Spec{Name: "strong"}, play.Hosting{}); err != nil {
			t.Fatal(err)
		}
	}
	act := func(s State, sd match.Side, b match.Bot) match.Action {
		x, err := b.Act(match.NewTurn(s, sd, rand.New(rand.NewPCG(1, uint64(sd))), match.Budget{}))
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	var acts [2]match.Action
	acts[side] = a
	acts[side.Other()] = act(s, side.Other(), bots[side.Other()])
	hunter := s.Hunter()
	for tick := 0; tick < horizon; tick++ {
		next := s.Apply(acts).(State)
		if next.GameNum() != s.GameNum() {
			if e := next.End(s.GameNum()); e.Captured {
				return 0
			}
			return area(next.End(s.GameNum()).Final, side == hunter)
		}
		s = next
		for sd := range acts {
			acts[sd] = act(s, match.Side(sd), bots[sd])
		}
	}
	return area(s.Field(), side == hunter)
}

// area is the prey's region in f, negated for the hunter.
func area(f Field, hunting bool) float64 {
	var r Region
	r.Fill(&f, f.Prey)
	if hunting {
		return -float64(r.Area)
	}
	return float64(r.Area)
}
