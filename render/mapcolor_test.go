package render

import (
	"context"
	"math"
	"testing"

	"github.com/arena-playground/arena/engine/mapcolor"
	"github.com/arena-playground/arena/engine/match"
	"github.com/arena-playground/arena/engine/play"
)

// mapcolorMatch plays a map-colouring match between two bots.
func mapcolorMatch(t testing.TB, preset, p1, p2 string) *play.Record {
	t.Helper()
	pre, err := match.LookupPreset(mapcolor.Game{}, preset)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := play.Play(context.Background(), play.Setup{Game: mapcolor.Game{}, Config: pre.Config, Seed: 3,
		Players: [2]play.Spec{{Name: p1}, {Name: p2}}})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// BenchmarkMapcolorGIF records a whole game on a 24-region Voronoi map,
// both sides searching, at the game's default speed.
func BenchmarkMapcolorGIF(b *testing.B) {
	benchmarkGIF(b, mapcolorMatch(b, "voronoi", "course", "greedy"))
}

// TestMapcolorStepsRevealLines: step i of a decision shows exactly i
// lines of its trace, so the step keys and the drawing agree.
func TestMapcolorStepsRevealLines(t *testing.T) {
	rec := mapcolorMatch(t, "australia", "course", "course")
	for k := range rec.Turns {
		n, part := Steps(rec, k)
		tree := decisionTree(rec, k)
		if tree == nil || n != len(tree.Lines) {
			t.Fatalf("turn %d: %d steps for a tree %v", k, n, tree)
		}
		for i := 1; i <= n; i++ {
			if m := mapcolorAt(rec, float64(k)+float64(i)/float64(n)*part); m.lines != i || m.tree != tree {
				t.Fatalf("turn %d step %d: %d lines shown", k, i, m.lines)
			}
		}
		// Settled on the next turn, the decision's whole tree stays.
		if m := mapcolorAt(rec, float64(k+1)); m.tree != tree || m.lines != n {
			t.Fatalf("after turn %d: tree %p with %d lines, want %p with %d", k, m.tree, m.lines, tree, n)
		}
	}
}

// TestMapcolorRegionsInTheirColours draws the end of a game on a Voronoi
// map and reads each coloured region's colour inside it, between its site
// and its top corner, clear of the label and the owner's dot (the last
// region coloured, ringed by its pulse, is left out).
func TestMapcolorRegionsInTheirColours(t *testing.T) {
	rec := mapcolorMatch(t, "voronoi", "greedy", "random")
	img := NewImage(960, 540)
	r := Rect{0, 0, 960, 540}
	mapcolorDrawer{}.Board(img, r, rec, Span(rec), Dark)
	s := rec.Last().(mapcolor.State)
	mapR, _ := splitMapcolor(r, s.Geometry(), MapcolorPane(rec.Players))
	l := layoutMap(s.Geometry(), mapR.Inset(math.Round(mapR.W*0.02)))
	coloured := 0
	last, _ := s.Last()
	for i, cell := range s.Geometry().Cells {
		site, top := s.Geometry().Pos[i], cell[0]
		for _, v := range cell {
			if v.Y < top.Y {
				top = v
			}
		}
		q := mapcolor.Point{X: site.X + (top.X-site.X)*0.6, Y: site.Y + (top.Y-site.Y)*0.6}
		x, y := l.x0+q.X*l.side, l.y0+q.Y*l.side
		got := img.RGBAAt(int(x), int(y))
		col, _ := s.Colour(i)
		if col < 0 || i == last {
			continue
		}
		coloured++
		if want := ColourOf(s.Problem().Colours[col], col); got != want {
			t.Errorf("region %s at (%.0f, %.0f) is %v, want %v", s.Problem().States[i], x, y, got, want)
		}
	}
	if coloured < 12 {
		t.Errorf("only %d regions coloured at the end", coloured)
	}
}

// TestRowBoxes: a row shows every move when they fit, else a window
// holding the focus between the counts of the moves left out.
func TestRowBoxes(t *testing.T) {
	kids := make([]int, 30)
	for i := range kids {
		kids[i] = 100 + i
	}
	row := Rect{10, 0, 400, 30}
	if bs := rowBoxes(kids[:4], -1, row, 80, 20, 4); len(bs) != 4 || bs[3].r.X+bs[3].r.W > row.X+row.W {
		t.Errorf("four moves in 400 pixels: %v", bs)
	}
	for _, focus := range []int{100, 113, 129, -1} {
		bs := rowBoxes(kids, focus, row, 80, 20, 4)
		shown, found := 0, focus < 0
		for _, b := range bs {
			if b.r.X < row.X || b.r.X+b.r.W > row.X+row.W+1e-9 {
				t.Errorf("focus %d: box %v outside the row", focus, b.r)
			}
			if b.id >= 0 {
				shown++
				found = found || b.id == focus
			}
		}
		if first, last := bs[0], bs[len(bs)-1]; first.id >= 0 || last.id >= 0 || first.more+last.more+shown != len(kids) {
			t.Errorf("focus %d: counts %d and %d around %d moves", focus, first.more, last.more, shown)
		}
		if !found {
			t.Errorf("focus %d is not shown", focus)
		}
	}
}

// TestMapcolorRecordRate: the default recording of a whole game lasts at
// most 30 seconds and gives a short game a turn a second.
func TestMapcolorRecordRate(t *testing.T) {
	for _, preset := range []string{"australia", "usa"} {
		rec := mapcolorMatch(t, preset, "course", "course")
		total := 0.0
		for k := range rec.Turns {
			total += Pace(rec, k)
		}
		rate := RecordRate(rec)
		if secs := total / rate; secs > 30+1e-9 || rate < 1 {
			t.Errorf("%s: %.1f turns of pace at %.2f turns a second: %.1f s", preset, total, rate, secs)
		}
		if preset == "australia" && rate != 1 {
			t.Errorf("australia: %v turns a second, want 1", rate)
		}
	}
}

// TestDecisionTreesOfTwoMaps: two inputs with the same states, colours
// and start but different borders are different decisions, though both
// maps are called "input" and start with the same colouring.
func TestDecisionTreesOfTwoMaps(t *testing.T) {
	head := "R, G, B\nA: R-1\n2\nR: 3, G: 2, B: 1\nR: 1, G: 2, B: 3\n"
	var trees []*mapcolor.Tree
	for _, borders := range []string{"A: B, C\nB: C\n", "A: B\nB: C\n"} {
		cfg, err := mapcolor.ParseConfig("input", []byte(head+borders))
		if err != nil {
			t.Fatal(err)
		}
		rec, err := play.Play(context.Background(), play.Setup{Game: mapcolor.Game{}, Config: cfg, Seed: 1,
			Players: [2]play.Spec{{Name: "course"}, {Name: "course"}}})
		if err != nil {
			t.Fatal(err)
		}
		trees = append(trees, decisionTree(rec, 0))
	}
	if trees[0] == nil || trees[1] == nil || len(trees[0].Lines) == len(trees[1].Lines) {
		t.Errorf("the two maps' first decisions have %d and %d trace lines", len(trees[0].Lines), len(trees[1].Lines))
	}
}

// The search tree's pane is drawn beside the map only when a player is
// the course's search or a program (the course's own, whose trace arena
// reads); between arena's other bots and people the map takes the board.
func TestMapcolorPane(t *testing.T) {
	for _, c := range []struct {
		p1, p2 string
		pane   bool
	}{
		{"strong", "greedy", false},
		{"strong:nodes=5000", "you", false},
		{"random", "course", true},
		{"course:depth=3", "greedy", true},
		{"strong", "cmd:python3 hw2.py", true},
	} {
		if got := MapcolorPane([2]string{c.p1, c.p2}); got != c.pane {
			t.Errorf("%s vs %s: pane %v, want %v", c.p1, c.p2, got, c.pane)
		}
	}
	r := Rect{0, 0, 960, 540}
	geo := mapcolorMatch(t, "usa", "greedy", "random").Last().(mapcolor.State).Geometry()
	if whole, _ := splitMapcolor(r, geo, false); whole != r {
		t.Errorf("without the pane the map gets %v of %v", whole, r)
	}
	if part, tree := splitMapcolor(r, geo, true); part.W*part.H >= r.W*r.H || tree.W == 0 {
		t.Errorf("with the pane: map %v, tree %v", part, tree)
	}
}
