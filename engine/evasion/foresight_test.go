package evasion

import (
	"context"
	"testing"

	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// The profile counts what a cut leaves the prey exactly while the region
// is convex: checked against the cut played on a copy of the field, for
// every wall type at every tick of a hunter's run, as the walls it builds
// (one in each direction) close the board in.
func TestProfileCountsWhatACutLeaves(t *testing.T) {
	f := NewField(10, 0)
	f.Prey = Point{150, 140}
	turn := match.NewTurn(nil, match.P1, nil, match.Budget{})
	var reg Region
	var pr profile
	compared, built := 0, 0
	for tick := 0; tick < 3000 && built < 6; tick++ {
		if tick%5 != 0 {
			f.Step(HunterMove{Build: NoWall}, PreyMove{})
			continue
		}
		reg.Fill(&f, f.Prey)
		pr.fill(&reg)
		next, _ := f.Move(f.Hunter, f.HunterVel)
		best, bestArea := NoWall, reg.Area
		for kind := Horizontal; kind <= Counterdiagonal; kind++ {
			g, area, ok := cutPlay(turn, &f, kind, nil)
			est, estOK := pr.leave(kind, f.Hunter, next, f.Prey)
			if !ok || !estOK || g.Captured() {
				continue
			}
			compared++
			if est != area {
				t.Fatalf("tick %d: a %s cut at %v leaves %d cells, the profile counts %d (region %d, walls %v)",
					tick, kind, f.Hunter, area, est, reg.Area, f.Walls())
			}
			if area < bestArea && 3*area > reg.Area {
				best, bestArea = kind, area
			}
		}
		if tick%40 == 35 && best != NoWall {
			f.Step(HunterMove{Build: best}, PreyMove{})
			built++
			continue
		}
		f.Step(HunterMove{Build: NoWall}, PreyMove{})
	}
	if built < 4 || compared < 100 {
		t.Fatalf("built %d walls and compared %d cuts: the run did not close in", built, compared)
	}
}

// A cut that leaves the hunter in a pocket where it bounces in place is
// not free: a hunter that stays put half its ticks catches nothing.
func TestFreeFindsAStuckHunter(t *testing.T) {
	f := NewField(10, 0)
	if !free(&f) {
		t.Fatal("a hunter on the empty board is not free")
	}
	// A 2x2 pocket in the corner: the hunter runs from (0,0) to (1,1)
	// and back, bouncing in place at each end.
	f.walls = []Wall{{Kind: Horizontal, Y1: 2, Y2: 2, X1: 0, X2: 2}, {Kind: Vertical, X1: 2, X2: 2, Y1: 0, Y2: 1}}
	f.Scan()
	f.Index()
	if free(&f) {
		t.Fatal("a hunter bouncing in a 2x2 pocket is free")
	}
}

// The strong hunter does not run to the tick cap in a region it cannot
// catch the prey in: when the region stays the same too long, it takes
// down its newest wall and cuts again.
func TestStrongHunterBreaksAStall(t *testing.T) {
	var fs foresight
	f := NewField(10, 10)
	var reg Region
	reg.Fill(&f, f.Prey)
	stalls := 0
	for f.Tick = 0; f.Tick < 2000; f.Tick++ {
		if fs.stalled(&f, &reg, 1) {
			stalls++
		}
	}
	if stalls == 0 || stalls > 3 {
		t.Fatalf("2,000 ticks in an unchanged 300x300 region: %d stalls, want 1 to 3", stalls)
	}
	shadow, err := play.ParseSpec("mix:prey=shadow")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Preset(10, 10)
	cfg.TickCap = 3000
	rec, err := play.Play(context.Background(), play.Setup{Game: Game{}, Config: cfg, Seed: 1,
		Players: [2]play.Spec{{Name: "strong"}, shadow}})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.Result.Scores[1].Int(); got >= 3000 {
		t.Fatalf("strong's hunter needed %d ticks for shadow's prey", got)
	}
}
