package evasion

import (
	"context"
	"slices"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// An analysis's values are what the game's own rules give: a wall is
// worth the prey's region after the tick (negated for the hunter), found
// here by the original's way of scanning walls; a prey's step its region
// after the tick, or 0 when a forward simulation of every path the prey
// could take finds the hunter (building nothing) catching it on each
// within the horizon. The best come first, each other option is worth
// no more than the K-th, the side analysed is the hunter when it may
// build and the prey otherwise, and a mutant that drops the foresight is
// caught (some step foreseen caught is seen).
func TestAnalysisValuesAreTheRules(t *testing.T) {
	const k, horizon = 3, 24
	sides, foreseen, waits := map[bool]int{}, 0, 0
	for seed := uint64(1); seed <= 3; seed++ {
		setup := play.Setup{Game: Game{}, Config: Preset(3, 10), Seed: seed,
			Players: [2]play.Spec{{Name: "strong"}, {Name: "greedy"}}}
		rec, err := play.Play(context.Background(), setup)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < min(rec.Len(), 1400); i++ {
			s := rec.State(i).(State)
			// Every 23rd tick, and every tick the prey may step within
			// the hunter's reach, where foresight decides.
			if f := s.Field(); s.ToMove() == match.Nobody || (i%23 != 0 && (f.Tick%2 == 0 || !near(f.Hunter, f.Prey, 8))) {
				continue
			}
			side := match.AnalysisSide(Game{}, s)
			f := s.Field()
			hunting := side == s.Hunter()
			if hunting != (f.Timer == 0) {
				t.Fatalf("tick %d: the analysis weighs %v (hunter %v) with cooldown %d", f.Tick, side, s.Hunter(), f.Timer)
			}
			an, err := match.Analyse(Game{}, match.NewTurn(s, side, nil, match.Budget{}), match.Query{K: k, Depth: horizon})
			if err != nil {
				t.Fatal(err)
			}
			if an.Depth != horizon || an.DepthUnit != "ticks" {
				t.Fatalf("tick %d: depth %d %s", f.Tick, an.Depth, an.DepthUnit)
			}
			check := func(what string, a match.Action, v float64, line []match.LineMove) {
				var reply match.Action
				if len(line) > 1 {
					reply = line[1].Action
				}
				want, caught := ruled(t, s, side, a.(Action), reply.(Action), horizon)
				switch {
				case hunting && a.(Action).build(s) == NoWall:
					// Waiting is worth the region, or a cut foreseen in
					// the next ticks that leaves less.
					if v < want || (v > want && len(line) < 4) {
						t.Errorf("tick %d: %s is worth %v, the region after the tick %v (line %v)", f.Tick, what, v, want, line)
					}
					if v > want {
						waits++
					}
				case v != want:
					t.Errorf("tick %d: %s is worth %v, the rules say %v", f.Tick, what, v, want)
				}
				if caught {
					foreseen++
				}
			}
			for _, b := range an.Best {
				check(b.Move, b.Action, b.Value, b.Line)
			}
			kth := an.Best[len(an.Best)-1].Value
			for _, o := range an.Others {
				if o.Bound > kth || !o.Exact {
					t.Errorf("tick %d: %s is worth %v, above the K-th best %v", f.Tick, o.Move, o.Bound, kth)
				}
				check(o.Move, o.Action, o.Bound, []match.LineMove{{}, *o.Reply, {}, {}})
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
	}
	t.Logf("positions analysed (hunter: true): %v; steps foreseen caught %d; waits valued by a later cut %d; walls shutting the hunter out %d", sides, foreseen, waits, shutOut)
	if sides[true] < 3 || sides[false] < 3 || foreseen == 0 || waits == 0 || shutOut == 0 {
		t.Fatalf("the matches gave %v positions analysed (hunter: true), %d steps foreseen caught, %d waits valued by a later cut, %d walls shutting the hunter out: too few to test", sides, foreseen, waits, shutOut)
	}
}

// build is the wall a hunter's action asks for in s.
func (a Action) build(s State) Kind {
	h, _, _ := s.Orders(a, PreyAction(s, 0, 0))
	return h.Build
}

// ruled is side's value of a against reply by the rules, the walls
// scanned as the original does: the region after the tick (negated for
// the hunter), 0 when caught; for a prey's step, 0 also when every path
// the prey could take from there is caught within the horizon by a
// hunter that builds nothing (caught is then true); a wall that shuts
// the hunter out of the prey's region, which no wall leaves it in, is
// worth no more than no wall.
func ruled(t *testing.T, s State, side match.Side, a, reply Action, horizon int) (v float64, caught bool) {
	t.Helper()
	hunting := side == s.Hunter()
	f := s.Field()
	f.Scan()
	var acts [2]Action
	acts[side], acts[side.Other()] = a, reply
	h, p, _ := s.Orders(acts[s.Hunter()], acts[s.Hunter().Other()])
	g := f.Fork()
	if g.Step(h, p) {
		return 0, false
	}
	r := scanned.of(&g)
	if hunting {
		area := r.Area
		if h.Build != NoWall && !r.Has(g.Hunter.X, g.Hunter.Y) {
			// Shut out of the prey's region: worth no more than no wall,
			// when no wall leaves the hunter in it.
			g0 := f.Fork()
			h0, p0, _ := s.Orders(HunterAction(s, NoWall), acts[s.Hunter().Other()])
			g0.Step(h0, p0)
			if r0 := scanned.of(&g0); r0.Has(g0.Hunter.X, g0.Hunter.Y) {
				area = max(area, r0.Area)
				shutOut++
			}
		}
		return -float64(area), false
	}
	if f.Tick%2 == 1 && !escapes(f, p, horizon) {
		return 0, true
	}
	return float64(r.Area), false
}

// shutOut counts the walls ruled valued as shutting the hunter out.
var shutOut int

// scanned keeps the regions ruled filled by scanning the walls (slow,
// as the original is): the options of a tick mostly share one.
var scanned scannedRegions

type scannedRegions []struct {
	walls []Wall
	r     *Region
}

func (rs *scannedRegions) of(g *Field) *Region {
	for _, x := range *rs {
		if slices.Equal(x.walls, g.Walls()) && x.r.Has(g.Prey.X, g.Prey.Y) {
			return x.r
		}
	}
	r := new(Region)
	r.Fill(g, g.Prey)
	if len(*rs) == 8 {
		*rs = (*rs)[1:]
	}
	*rs = append(*rs, struct {
		walls []Wall
		r     *Region
	}{slices.Clone(g.Walls()), r})
	return r
}

// escapes reports whether a prey taking step first can stay out of the
// hunter's reach for horizon ticks, the hunter building nothing: every
// cell the prey could be in is followed forward, tick by tick.
func escapes(f Field, first PreyMove, horizon int) bool {
	g := f.Fork()
	if g.Step(HunterMove{Build: NoWall}, first) {
		return false
	}
	cells := map[Point]bool{g.Prey: true}
	for tick := 2; tick <= horizon; tick++ {
		moves := g.Tick%2 == 1
		g.Step(HunterMove{Build: NoWall}, PreyMove{}) // the hunter's path: the prey's own step here is a placeholder
		next := map[Point]bool{}
		for c := range cells {
			steps := []Point{{}}
			if moves {
				steps = steps[:0]
				for dy := -1; dy <= 1; dy++ {
					for dx := -1; dx <= 1; dx++ {
						steps = append(steps, Point{dx, dy})
					}
				}
			}
			for _, d := range steps {
				to, _ := g.Move(c, d)
				if !g.Captures(g.Hunter, to) {
					next[to] = true
				}
			}
		}
		if len(next) == 0 {
			return false
		}
		cells = next
	}
	return true
}
