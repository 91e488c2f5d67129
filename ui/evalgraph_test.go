package ui

import (
	"math"
	"testing"

	"github.com/arena-playground/arena/engine/match"
)

// The graph marks the moves after which a side's own value fell most,
// P2's read from its side (the graph holds P1's), the biggest first kept,
// small swings and rises left out; a point near a mark finds it.
func TestEvalGraphDrops(t *testing.T) {
	var g evalGraph
	g.evals[match.P1] = []evalPoint{{0, 2}, {2, 3}, {4, -10}, {6, -9}, {8, -30}}
	g.evals[match.P2] = []evalPoint{{1, -2}, {3, -2.5}, {5, 12}, {7, 11}} // on P1's side: P2 thinks itself 2.5 up at turn 3, 12 down at 5
	g.rescale()
	var turns []int
	for _, d := range g.drops {
		turns = append(turns, d.turn)
	}
	// P1 fell 3 → −10 after its move at turn 2 and −9 → −30 after turn
	// 6; P2 fell +2.5 → −12 (its own side) after turn 3; P2's 12 → 11
	// on P1's side is P2 rising, and P1's −10 → −9 a rise.
	want := []struct {
		turn int
		side match.Side
	}{{2, match.P1}, {3, match.P2}, {6, match.P1}}
	if len(turns) != len(want) {
		t.Fatalf("the graph marks %v, want turns 2, 3 and 6", turns)
	}
	for i, d := range g.drops {
		if d.turn != want[i].turn || d.side != want[i].side {
			t.Errorf("mark %d: %v's fall after turn %d, want %v's after %d", i, d.side, d.turn, want[i].side, want[i].turn)
		}
	}
	g.evals[match.P1] = append(g.evals[match.P1], evalPoint{10, -31}, evalPoint{12, -90})
	g.rescale()
	if len(g.drops) != maxDrops {
		t.Errorf("%d falls marked, want the %d biggest", len(g.drops), maxDrops)
	}
	r := rect{X: 100, Y: 0, W: 900, H: 30}
	x := r.X + r.W*(6+0.5)/9
	if got := g.dropNear(r, 9, x+4, 10); got != 6 {
		t.Errorf("a point 4 pixels from turn 6's mark finds %d", got)
	}
	if got := g.dropNear(r, 9, x+60, 10); got != -1 {
		t.Errorf("a point 60 pixels away finds %d", got)
	}
}

// A click on a marked fall on the graph takes the playhead there.
func TestEvalGraphClickGoesThere(t *testing.T) {
	var in presses
	a := computedMatch(t, Options{Link: Link{Game: "colosseum", P1: "strong:nodes=3000", P2: "greedy", Seed: 3, Preset: "6", Start: true}, Presses: in.take})
	pb := a.match.pb
	pb.tick(600)
	a.Update()
	if len(a.match.evals.evals[match.P1]) == 0 {
		t.Fatal("strong's evaluations are not on the graph")
	}
	a.match.evals.drops = []drop{{turn: 3, side: match.P1, by: 1}}
	a.Update()
	r, ok := a.Status().Targets["drop:3"]
	if !ok {
		t.Fatal("no target for the fall at turn 3")
	}
	in.clicks = [][2]float64{{r[0] + r[2]/2, r[1] + r[3]/2}}
	a.Update()
	if pb.t != 3 || pb.playing {
		t.Errorf("after a click on the fall at turn 3 the playhead is at %v (playing %v)", pb.t, pb.playing)
	}
}

// A long match's evaluations are drawn a few points a pixel column, the
// column's lowest and highest kept: 30,000 turns on 700 pixels draw at
// most 2,800 points, and the swings stay.
func TestEvalGraphColumns(t *testing.T) {
	var evals []evalPoint
	for k := range 30000 {
		evals = append(evals, evalPoint{k, math.Sin(float64(k) / 37)})
	}
	evals[12345].v = 9 // a spike, within a column
	x := func(turn int) float64 { return 700 * (float64(turn) + 0.5) / 30000 }
	y := func(v float64) float64 { return -v }
	pts := columns(evals, x, y)
	if len(pts) > 4*700 || len(pts) < 700 {
		t.Fatalf("%d points for 700 columns", len(pts))
	}
	spike := false
	for i, p := range pts {
		spike = spike || p.Y == -9
		if i > 0 && p.X < pts[i-1].X {
			t.Fatalf("point %d goes back, from %v to %v", i, pts[i-1].X, p.X)
		}
	}
	if !spike {
		t.Fatal("the spike at turn 12345 is not drawn")
	}
}
