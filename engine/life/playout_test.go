package life

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

func mustSpec(t testing.TB, s string) play.Spec {
	sp, err := play.ParseSpec(s)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// TestRandomPlayouts plays random games on several configs and checks, in
// the manner of OpenSpiel's random simulation tests: no bot action is
// refused; every state follows from the one before under the reference
// step; banks follow the bank rule; and the replay rebuilds every state
// and writes the same bytes again.
func TestRandomPlayouts(t *testing.T) {
	configs := map[string]*Config{"competition": Competition()}
	small := Competition()
	small.Rows, small.Cols, small.Iterations, small.Distance = 9, 70, 60, 3
	small.Start = [2][]Cell{{{2, 2}, {2, 3}, {3, 2}, {3, 3}}, {{6, 60}, {6, 61}, {7, 60}, {7, 61}}}
	configs["9x70"] = small
	orig := Competition()
	orig.Rules, orig.Iterations = VariantOriginal, 120
	configs["original"] = orig
	classic := Competition()
	classic.Ruleset, classic.Iterations = Classic, 120
	configs["classic"] = classic
	random := Competition()
	random.Rows, random.Cols, random.RandomStart, random.Start, random.Iterations = 40, 40, 5, [2][]Cell{}, 80
	configs["random start"] = random

	for name, cfg := range configs {
		for seed := range uint64(3) {
			t.Run(fmt.Sprintf("%s/%d", name, seed), func(t *testing.T) {
				setup := play.Setup{Game: Game{}, Config: cfg, Seed: seed,
					Players: [2]play.Spec{mustSpec(t, "random"), mustSpec(t, "greedy")}}
				rec, err := play.Play(context.Background(), setup)
				if err != nil {
					t.Fatal(err)
				}
				if len(rec.Result.Forfeits) > 0 {
					t.Fatalf("a bot's action was refused: %v", rec.Result)
				}
				checkAgainstReference(t, rec)
				var buf bytes.Buffer
				if err := play.SaveReplay(&buf, rec); err != nil {
					t.Fatal(err)
				}
				back, err := play.LoadReplay("replay.json", buf.Bytes())
				if err != nil {
					t.Fatal(err)
				}
				for k := range rec.Len() {
					if a, b := rec.State(k).(State), back.State(k).(State); a.board.String() != b.board.String() || a.bank != b.bank {
						t.Fatalf("state %d differs after the replay round trip", k)
					}
				}
				var again bytes.Buffer
				play.SaveReplay(&again, back)
				if !bytes.Equal(buf.Bytes(), again.Bytes()) {
					t.Error("the rebuilt match writes a different replay")
				}
			})
		}
	}
}

// checkAgainstReference recomputes each state from the one before with
// the plain grid step and the rules written out by hand.
func checkAgainstReference(t *testing.T, rec *play.Record) {
	t.Helper()
	for k, tl := range rec.Turns {
		prev, next := rec.State(k).(State), rec.State(k+1).(State)
		cfg := prev.cfg
		a1, a2 := tl.Actions[0].(Action), tl.Actions[1].(Action)
		grid := prev.board.Grid()
		both := map[Cell]bool{}
		for _, c := range a1 {
			for _, d := range a2 {
				if c == d {
					both[c] = true
				}
			}
		}
		for _, c := range a1 {
			if !both[c] {
				grid.Cells[c.Row*cfg.Cols+c.Col] = P1
			}
		}
		for _, c := range a2 {
			if !both[c] || cfg.Rules == VariantOriginal {
				grid.Cells[c.Row*cfg.Cols+c.Col] = P2
			}
		}
		out := Grid{cfg.Rows, cfg.Cols, make([]Owner, cfg.Rows*cfg.Cols)}
		grid.StepReference(out, cfg.Ruleset)
		if b := out.Board(); b.String() != next.board.String() {
			t.Fatalf("turn %d: the board does not follow from the one before", k)
		}
		for side, a := range [2]Action{a1, a2} {
			if want := min(cfg.Capacity, prev.bank[side]-len(a)+cfg.Gain); next.bank[side] != want {
				t.Fatalf("turn %d: %s bank %d, want %d", k, match.Side(side), next.bank[side], want)
			}
		}
	}
}

func TestRandomStartIsMirrored(t *testing.T) {
	cfg := Competition()
	cfg.Rows, cfg.Cols, cfg.RandomStart = 64, 64, 8
	s1, s2 := NewState(cfg, 11), NewState(cfg, 11)
	if s1.board.String() != s2.board.String() {
		t.Fatal("same seed, different random start")
	}
	if NewState(cfg, 12).Board().String() == s1.board.String() {
		t.Error("different seeds, same random start")
	}
	if s1.Count(match.P1) < 8*4 || s1.Count(match.P1) != s1.Count(match.P2) {
		t.Errorf("start counts %d and %d", s1.Count(match.P1), s1.Count(match.P2))
	}
	for r := range 64 {
		for c := range 64 {
			if a, b := s1.board.At(r, c), s1.board.At(r, 63-c); a != Dead && b != 3-a {
				t.Fatalf("cell (%d,%d) is %d but its mirror is %d", r, c, a, b)
			}
		}
	}
	// Still lifes stay as they are when nobody plays.
	if n := s1.Next(Action{}, Action{}); n.Board().String() != s1.board.String() {
		t.Error("the random start is not still")
	}
}

// The match keeps every action; a bot's action must not hold on to more
// than itself (the random bot's was a slice of every legal cell: on a
// 4096x4096 board, megabytes kept a turn, gigabytes a match).
func TestActionsHoldOnlyThemselves(t *testing.T) {
	cfg := Competition()
	cfg.Rows, cfg.Cols, cfg.RandomStart, cfg.Start = 256, 256, 16, [2][]Cell{}
	s := NewState(cfg, 3)
	for _, name := range []string{"random", "greedy", "strong"} {
		info, _ := match.LookupBot(Game{}, name)
		bot, err := info.New(match.Options{Budget: match.Budget{Nodes: 2000}})
		if err != nil {
			t.Fatal(err)
		}
		a, err := bot.Act(match.NewTurn(s, match.P1, rand.New(rand.NewPCG(1, 2)), match.Budget{Nodes: 2000}))
		if err != nil {
			t.Fatal(err)
		}
		if cells := a.(Action); cap(cells) > 2*len(cells)+8 {
			t.Errorf("%s: an action of %d cells holds an array of %d", name, len(cells), cap(cells))
		}
	}
}
